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
	ref := cpi.ChannelRef{IFlowID: "Orders", Version: "1.0.0", Kind: "AMQP", Channel: "MessageFlow_1"}

	first := cpi.NextRevision("", ref, a)
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{8}$`).MatchString(first) {
		t.Fatalf("revision %q is not of the form SETTINGS-CHAIN", first)
	}
	if again := cpi.NextRevision("", ref, a); again != first {
		t.Errorf("the same settings from the same start give %q and %q", first, again)
	}
	// Reading the same settings again keeps the revision, whatever pointer holds the value.
	oneAgain := int64(1)
	if got := cpi.NextRevision(first, ref, cpi.SenderSettings{MaxRetries: &oneAgain}); got != first {
		t.Errorf("unchanged settings moved the revision from %q to %q", first, got)
	}
	second := cpi.NextRevision(first, ref, b)
	if second == first {
		t.Fatalf("changed settings kept revision %q", first)
	}
	// Back to the first settings: a revision never seen before, so a deployment triggered by it deploys again.
	third := cpi.NextRevision(second, ref, a)
	if third == first || third == second {
		t.Errorf("settings written back got an earlier revision: %q (earlier %q, %q)", third, first, second)
	}
	if third[:8] != first[:8] {
		t.Errorf("the settings part of %q differs from %q for the same settings", third, first)
	}
	// Other kinds of settings work too; a prior value that is not a revision is replaced.
	yes := true
	if got := cpi.NextRevision("garbage", ref, cpi.JMSSenderSettings{DeadLetterQueue: &yes}); got == "garbage" || len(got) != 17 {
		t.Errorf("JMS settings revision = %q", got)
	}
}

// Equal settings on another channel, flow, version or kind of channel never share a revision, so
// that a deployment whose triggers hold the revision deploys when a resource moves to another
// channel with the same settings; the same channel read again keeps its revision.
func TestNextRevisionIdentifiesTheChannel(t *testing.T) {
	t.Parallel()
	one := int64(1)
	s := cpi.SenderSettings{MaxRetries: &one}
	base := cpi.ChannelRef{IFlowID: "Orders", Version: "1.0.0", Kind: "AMQP", Channel: "MessageFlow_1"}
	first := cpi.NextRevision("", base, s)
	for name, ref := range map[string]cpi.ChannelRef{
		"another channel": {IFlowID: "Orders", Version: "1.0.0", Kind: "AMQP", Channel: "MessageFlow_2"},
		"another flow":    {IFlowID: "Returns", Version: "1.0.0", Kind: "AMQP", Channel: "MessageFlow_1"},
		"another version": {IFlowID: "Orders", Version: "1.0.1", Kind: "AMQP", Channel: "MessageFlow_1"},
		"another kind":    {IFlowID: "Orders", Version: "1.0.0", Kind: "JMS", Channel: "MessageFlow_1"},
	} {
		if got := cpi.NextRevision("", ref, s); got == first {
			t.Errorf("%s with equal settings has the same revision %q", name, got)
		}
		// Moving a resource's channel keeps its chain but changes the revision.
		if got := cpi.NextRevision(first, ref, s); got == first {
			t.Errorf("moving to %s kept revision %q", name, got)
		}
	}
	if got := cpi.NextRevision(first, base, s); got != first {
		t.Errorf("the same channel read again moved its revision from %q to %q", first, got)
	}
}
