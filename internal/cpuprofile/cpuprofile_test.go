package cpuprofile

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestStartWritesBothProfilesNamedByPID(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "provider")
	t.Setenv(Env, prefix)
	stop := Start()
	sink := 0
	for i := range 1_000_000 {
		sink += i % 7
	}
	_ = sink
	stop()
	for _, name := range []string{fmt.Sprintf("%s.%d.pprof", prefix, os.Getpid()), fmt.Sprintf("%s.%d.allocs.pprof", prefix, os.Getpid())} {
		st, err := os.Stat(name)
		if err != nil || st.Size() == 0 {
			t.Errorf("%s: %v, want a profile", name, err)
		}
	}
}

func TestStartWithoutEnvWritesNothing(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv(Env, "")
	Start()()
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Fatalf("wrote %v (%v), want nothing", entries, err)
	}
}
