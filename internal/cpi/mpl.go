package cpi

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// MessageProcessingLog is one entry of the message processing log of a
// tenant (OData entity set MessageProcessingLogs, reference note sap-apis.md).
type MessageProcessingLog struct {
	// Status is the run's status, e.g. COMPLETED, FAILED, RETRY, ESCALATED.
	Status string
	// LogStart is when the run began.
	LogStart time.Time
}

type mplWire struct {
	Status   text `json:"Status"`
	LogStart text `json:"LogStart"`
}

var odataDateRE = regexp.MustCompile(`^/Date\((-?\d+)(?:[+-]\d+)?\)/$`)

// MessageProcessingLogs returns the processing logs of the message with the
// given correlation id in integration flow flow, oldest first.
func (c *Client) MessageProcessingLogs(ctx context.Context, flow, correlation string) ([]MessageProcessingLog, error) {
	lit := func(v string) string { return "'" + strings.ReplaceAll(v, "'", "''") + "'" }
	filter := "IntegrationFlowName eq " + lit(flow) + " and CorrelationId eq " + lit(correlation)
	p := BasePath + "/MessageProcessingLogs"
	resp, err := c.call(ctx, http.MethodGet, p+"?$filter="+escape(filter)+"&$orderby="+escape("LogStart asc"),
		nil, http.Header{"Accept": {"application/json"}}, http.StatusOK)
	if err != nil {
		return nil, err
	}
	wire, err := decodeList[mplWire](resp.Body)
	if err != nil {
		return nil, decodeError(p, err)
	}
	out := make([]MessageProcessingLog, 0, len(wire))
	for _, w := range wire {
		m := odataDateRE.FindStringSubmatch(string(w.LogStart))
		if m == nil {
			return nil, fmt.Errorf("GET %s: LogStart %q is not an OData date", p, string(w.LogStart))
		}
		ms, _ := strconv.ParseInt(m[1], 10, 64)
		out = append(out, MessageProcessingLog{Status: string(w.Status), LogStart: time.UnixMilli(ms)})
	}
	return out, nil
}
