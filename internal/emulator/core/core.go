package core

import (
	"net/http"
	"time"
)

// Core is what every room of the emulator shares: the options, the clock,
// the log, the request statistics, the statistics labels of the routes and
// the state file. Server creates one and hands it to each room.
type Core struct {
	Opts     Options
	Counters StatsState
	Labels   map[string]string // mux pattern -> route label
	// Save rewrites the state file; Server sets it.
	Save func()
}

func NewCore(opts Options) *Core {
	c := &Core{Opts: opts, Labels: map[string]string{}}
	c.Counters.Reset()
	return c
}

func (c *Core) Logf(format string, args ...any) {
	if c.Opts.Logf != nil {
		c.Opts.Logf(format, args...)
	}
}

func (c *Core) Now() time.Time { return c.Opts.Now() }

// SaveState rewrites the state file when Options.StateFile is set. Call it
// after every mutation, without holding a room's lock.
func (c *Core) SaveState() {
	if c.Save != nil {
		c.Save()
	}
}

// Route registers a handler for method and path on mux and remembers its statistics label.
func (c *Core) Route(mux *http.ServeMux, method, path, label string, h http.HandlerFunc) {
	pattern := method + " " + path
	mux.HandleFunc(pattern, h)
	c.Labels[pattern] = label
}
