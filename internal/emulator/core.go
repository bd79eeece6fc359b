package emulator

import (
	"net/http"
	"time"
)

// core is what every room of the emulator shares: the options, the clock,
// the log, the request statistics, the statistics labels of the routes and
// the state file. Server creates one and hands it to each room.
type core struct {
	opts   Options
	stats  statsState
	labels map[string]string // mux pattern -> route label
	// save rewrites the state file; Server sets it.
	save func()
}

func newCore(opts Options) *core {
	c := &core{opts: opts, labels: map[string]string{}}
	c.stats.reset()
	return c
}

func (c *core) logf(format string, args ...any) {
	if c.opts.Logf != nil {
		c.opts.Logf(format, args...)
	}
}

func (c *core) now() time.Time { return c.opts.Now() }

// saveState rewrites the state file when Options.StateFile is set. Call it
// after every mutation, without holding a room's lock.
func (c *core) saveState() {
	if c.save != nil {
		c.save()
	}
}

// route registers a handler for method and path on mux and remembers its statistics label.
func (c *core) route(mux *http.ServeMux, method, path, label string, h http.HandlerFunc) {
	pattern := method + " " + path
	mux.HandleFunc(pattern, h)
	c.labels[pattern] = label
}
