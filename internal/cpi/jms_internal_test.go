package cpi

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Tenants write Edm.Int64 as strings (OData v2 JSON) and some write other
// numbers as strings too; the flags come as 0/1 or booleans.
func TestDecodeJMSBrokerToleratesNumberShapes(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`{"d":{"Key":"Broker1","Capacity":"2048","MaxCapacity":"9300000000","QueueNumber":"3","MaxQueueNumber":30,
		  "CapacityOk":1,"IsQueuesHigh":"1","IsConsumersHigh":true,"IsProducersHigh":0,
		  "QueueStates":{"results":[{"Name":"A","State":"2"},{"Name":"B","State":0}]},
		  "InactiveQueues":{"results":[{"Name":"B"}]}}}`,
		`{"Key":"Broker1","Capacity":2048,"MaxCapacity":9300000000,"QueueNumber":3,"MaxQueueNumber":"30",
		  "CapacityOk":"1","IsQueuesHigh":true,"IsConsumersHigh":"true","IsProducersHigh":false,
		  "QueueStates":[{"Name":"A","State":2},{"Name":"B","State":null}],"InactiveQueues":[{"Name":"B"}]}`,
	} {
		b, err := decodeJMSBroker([]byte(body), "/api/v1/JmsBrokers('Broker1')")
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("%s %d/%d %d/%d ok=%d q=%t c=%t p=%t %v %v", b.Key, b.Capacity, b.MaxCapacity, b.QueueNumber,
			b.MaxQueueNumber, b.CapacityOk, b.IsQueuesHigh, b.IsConsumersHigh, b.IsProducersHigh, b.QueueStates, b.InactiveQueues)
		if want := "Broker1 2048/9300000000 3/30 ok=1 q=true c=true p=false [{A 2} {B 0}] [B]"; got != want {
			t.Errorf("decoded %s\n want %s", got, want)
		}
	}
}

func TestDecodeJMSBrokerDeferredAndErrors(t *testing.T) {
	t.Parallel()
	b, err := decodeJMSBroker([]byte(`{"d":{"Key":"Broker1","QueueStates":{"__deferred":{"uri":"x"}}}}`), "p")
	if err != nil || len(b.QueueStates) != 0 || len(b.InactiveQueues) != 0 {
		t.Fatalf("deferred lists: %+v, %v", b, err)
	}
	for _, body := range []string{
		`{"d":{"Capacity":"lots"}}`,
		`{"d":{"IsQueuesHigh":"maybe"}}`,
		`{"d":{"QueueStates":{"results":[{"State":"high"}]}}}`,
		`<html/>`,
	} {
		if _, err := decodeJMSBroker([]byte(body), "/api/v1/JmsBrokers('Broker1')"); err == nil || !strings.Contains(err.Error(), "JmsBrokers") {
			t.Errorf("decodeJMSBroker(%s) = %v, want an error naming the request", body, err)
		}
	}
}

func TestFlexInt(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{`"9300000000"`: 9300000000, `12`: 12, `""`: 0, `null`: 0, `" 7 "`: 7, `1.0`: 1, `true`: 1} {
		var n flexInt
		if err := json.Unmarshal([]byte(in), &n); err != nil || int64(n) != want {
			t.Errorf("flexInt(%s) = %d, %v; want %d", in, n, err, want)
		}
	}
	for _, in := range []string{`"x"`, `{}`, `[1]`, `1e400`} {
		var n flexInt
		if err := json.Unmarshal([]byte(in), &n); err == nil {
			t.Errorf("flexInt(%s) = %d, want an error", in, n)
		}
	}
}
