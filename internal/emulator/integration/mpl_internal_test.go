package integration

import (
	"net/http"
	"net/url"
	"testing"
	"time"
)

func TestMatchCPIMessageProcessingLogs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		method, path string
		op           cpiOp
		status       int
		id           string
	}{
		{"GET", "MessageProcessingLogs", cpiOpListMPL, 0, ""},
		{"GET", "MessageProcessingLogs('AGx''y')", cpiOpGetMPL, 0, "AGx'y"},
		{"GET", "MessageProcessingLogs(MessageGuid='AGz')", cpiOpGetMPL, 0, "AGz"},
		{"POST", "MessageProcessingLogs", 0, http.StatusMethodNotAllowed, ""},
		{"GET", "MessageProcessingLogs('a')/Attachments", 0, http.StatusNotFound, ""},
	}
	for _, tc := range cases {
		req, status, msg := matchCPI(tc.method, tc.path, url.Values{})
		if req.op != tc.op || status != tc.status || req.id != tc.id {
			t.Errorf("%s %s: op %d status %d id %q (%s), want op %d status %d id %q", tc.method, tc.path, req.op, status, req.id, msg, tc.op, tc.status, tc.id)
		}
	}
}

func TestParseMPLFilter(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	l := &MessageProcessingLog{IntegrationFlowName: "It's", Status: "FAILED", CorrelationID: "AGc", LogStart: at, LogEnd: at.Add(time.Second)}
	cases := map[string]bool{
		"IntegrationFlowName eq 'It''s'":                                                        true,
		"IntegrationFlowName eq 'Its'":                                                          false,
		"Status eq 'FAILED' and CorrelationId eq 'AGc'":                                         true,
		"Status eq 'RETRY' or (Status ne 'COMPLETED' and CorrelationId eq 'AGc')":               true,
		"Status eq 'RETRY' or Status eq 'COMPLETED'":                                            false,
		"LogStart ge datetime'2025-03-04T05:06:07' and LogEnd lt datetime'2025-03-04T05:06:09'": true,
		"LogStart gt datetime'2025-03-04T05:06:07'":                                             false,
		"LogEnd le datetimeoffset'2025-03-04T05:06:08Z'":                                        true,
	}
	for src, want := range cases {
		pred, err := parseMPLFilter(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if got := pred(l); got != want {
			t.Errorf("%s: %v, want %v", src, got, want)
		}
	}
	for _, bad := range []string{"", "Status", "Status eq 'x' and", "(Status eq 'x'", "Status eq 'x')", "Status eq 1", "LogStart eq datetime'yesterday'", "Status ~ 'x'"} {
		if _, err := parseMPLFilter(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
