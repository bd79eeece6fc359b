package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/eventmesh"
)

const stateVersion = 1

// stateFile is the JSON document kept in Options.StateFile.
type stateFile struct {
	Version          int                          `json:"version"`
	Instance         core.InstanceInfo            `json:"instance"`
	Clients          map[string]*core.OAuthClient `json:"clients"`
	Queues           []eventmesh.QueueState       `json:"queues"`
	CloudIntegration json.RawMessage              `json:"cloudIntegration,omitempty"`
}

// loadState reads Options.StateFile when it exists.
func (s *Server) loadState() error {
	if s.Opts.StateFile == "" {
		return nil
	}
	data, err := os.ReadFile(s.Opts.StateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var st stateFile
	if err := json.Unmarshal(data, &st); err != nil {
		return fmt.Errorf("the state file is not valid JSON: %w", err)
	}
	if st.Version != stateVersion {
		return fmt.Errorf("the state file has version %d, this emulator reads version %d", st.Version, stateVersion)
	}
	s.Instance = st.Instance
	for aud, c := range st.Clients {
		if c != nil {
			c.Audience = aud
			s.Clients[aud] = c
		}
	}
	s.Load(st.Queues)
	if len(st.CloudIntegration) > 0 {
		if err := s.UnmarshalState(st.CloudIntegration); err != nil {
			return fmt.Errorf("the Cloud Integration part of the state file is not valid: %w", err)
		}
	}
	return nil
}

// snapshot copies the state of every room.
func (s *Server) snapshot() stateFile {
	st := stateFile{Version: stateVersion, Instance: s.Instance, Clients: map[string]*core.OAuthClient{}}
	for aud, c := range s.Clients {
		cc := *c
		st.Clients[aud] = &cc
	}
	st.Queues = s.Snapshot()
	return st
}

// writeState writes the state file atomically when Options.StateFile is set;
// the rooms call it through core.saveState after every mutation, without
// holding their locks.
func (s *Server) writeState() {
	if s.Opts.StateFile == "" {
		return
	}
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	st := s.snapshot()
	raw, err := s.MarshalState()
	if err != nil {
		s.Logf("emulator: saving the Cloud Integration state: %v", err)
	} else {
		st.CloudIntegration = raw
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err == nil {
		err = core.WriteFileAtomic(s.Opts.StateFile, data, 0o600)
	}
	if err != nil {
		s.Logf("emulator: saving the state file %s: %v", s.Opts.StateFile, err)
	}
}
