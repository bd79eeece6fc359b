package cpi_test

import (
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
)

func TestNextRevision(t *testing.T) {
	t.Parallel()
	one, two := int64(1), int64(2)
	a := cpi.SenderSettings{MaxRetries: &one}
	b := cpi.SenderSettings{MaxRetries: &two}

	first := cpi.NextRevision("", a)
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{8}$`).MatchString(first) {
		t.Fatalf("revision %q is not of the form SETTINGS-CHAIN", first)
	}
	if again := cpi.NextRevision("", a); again != first {
		t.Errorf("the same settings from the same start give %q and %q", first, again)
	}
	// Reading the same settings again keeps the revision, whatever pointer holds the value.
	oneAgain := int64(1)
	if got := cpi.NextRevision(first, cpi.SenderSettings{MaxRetries: &oneAgain}); got != first {
		t.Errorf("unchanged settings moved the revision from %q to %q", first, got)
	}
	second := cpi.NextRevision(first, b)
	if second == first {
		t.Fatalf("changed settings kept revision %q", first)
	}
	// Back to the first settings: a revision never seen before, so a deployment triggered by it deploys again.
	third := cpi.NextRevision(second, a)
	if third == first || third == second {
		t.Errorf("settings written back got an earlier revision: %q (earlier %q, %q)", third, first, second)
	}
	if third[:8] != first[:8] {
		t.Errorf("the settings part of %q differs from %q for the same settings", third, first)
	}
	// Other kinds of settings work too; a prior value that is not a revision is replaced.
	yes := true
	if got := cpi.NextRevision("garbage", cpi.JMSSenderSettings{DeadLetterQueue: &yes}); got == "garbage" || len(got) != 17 {
		t.Errorf("JMS settings revision = %q", got)
	}
}
