package aem

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// The summary and the diagnostics count in words that agree with the number ("1 message left", not
// "1 messages left"), and say where each message the redrive stopped at is.
func TestAEMRedriveWords(t *testing.T) {
	t.Parallel()
	summary := func(res aem.RedriveResult) string { return aemRedriveSummary("dmq", "q", res, time.Second) }
	for _, tc := range []struct {
		got, want string
	}{
		{summary(aem.RedriveResult{Left: 1}), "; 1 message left in dmq"},
		{summary(aem.RedriveResult{Left: 2}), "; 2 messages left in dmq"},
		{summary(aem.RedriveResult{Left: 80, MoreLeft: true}), "; at least 80 messages left in dmq"},
		{summary(aem.RedriveResult{}), "; dmq has no more messages"},
		{aemRedriveStoppedDetail(&aem.RedriveError{MsgID: 7, From: "dmq", To: "q", Err: errors.New("refused")}, 1),
			`The redrive stopped after 1 moved message. "q" did not take message 7 (refused), which stays in "dmq".`},
		{aemRedriveStoppedDetail(&aem.RedriveError{MsgID: 7, ReplicationGroupMsgID: "rmid1:x", MaybeCopied: true, From: "dmq", To: "q", Err: errors.New("EOF")}, 2),
			`Message 7 (replication group message ID rmid1:x) is still in "dmq" and may also be in "q"`},
		{aemRedriveStoppedDetail(&aem.RedriveError{MsgID: 7, OnBoth: true, From: "dmq", To: "q", Err: errors.New("500"),
			Others: []*aem.RedriveError{{MsgID: 8, MaybeCopied: true, From: "dmq", To: "q", Err: errors.New("EOF")}}}, 0),
			`so it is in both queues: delete message 7 from "dmq"`},
	} {
		if !strings.Contains(tc.got, tc.want) {
			t.Errorf("%q lacks %q", tc.got, tc.want)
		}
	}
	if got := aemRedriveStoppedDetail(&aem.RedriveError{MsgID: 7, OnBoth: true, From: "dmq", To: "q", Err: errors.New("500"),
		Others: []*aem.RedriveError{{MsgID: 8, MaybeCopied: true, From: "dmq", To: "q", Err: errors.New("EOF")}}}, 0); !strings.Contains(got, `Message 8 (replication group message ID ) is still in "dmq" and may also be in "q"`) {
		t.Errorf("the other message under way is not named: %s", got)
	}
}
