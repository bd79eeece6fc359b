package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestRuntimeFlagsRejected(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-retry-interval", "0s"},
		{"-lock-duration", "-1s"},
		{"-redelivery-cap", "0"},
		{"-retry-cap", "0"},
	} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "-retry-cap at least 1") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and an explanation", args, code, errOut.String())
		}
	}
}
