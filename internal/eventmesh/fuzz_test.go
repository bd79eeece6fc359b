package eventmesh

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// FuzzDecodeSubscriptions feeds arbitrary subscription list answers to the decoder: no
// panic, invalid JSON is an error, and every decoded subscription has a topic and a queue.
func FuzzDecodeSubscriptions(f *testing.F) {
	for _, seed := range []string{
		`[{"queueName":"acme/crm/prod/orders","topicPattern":"acme/crm/prod/ce/orders/*"}]`,
		`[{"topicPattern":"t"},{"queueName":"q","topicPattern":""},null]`,
		`null`,
		`[]`,
		`{"queueName":"q"}`,
		`[{"queueName":1}]`,
		`[{"topicPattern":"t"`,
	} {
		f.Add([]byte(seed), "acme/crm/prod/orders")
	}
	f.Fuzz(func(t *testing.T, data []byte, queue string) {
		subs, err := DecodeSubscriptions(data, queue)
		if err != nil {
			if err.Error() == "" || !strings.HasPrefix(err.Error(), "decoding the subscription list") {
				t.Fatalf("unclear error %q", err)
			}
			return
		}
		if !isNull(data) && !json.Valid(data) {
			t.Fatalf("invalid JSON %q decoded without error", data)
		}
		for _, s := range subs {
			if s.TopicPattern == "" {
				t.Fatalf("decoded a subscription without a topic from %q", data)
			}
			if s.QueueName == "" && queue != "" {
				t.Fatalf("decoded a subscription without a queue from %q", data)
			}
		}
	})
}

// The field decoders as they were before their fast paths: each field through json.Unmarshal.
// FuzzQueueFieldDecoders checks that the fast paths decode every field exactly as these do.
func referenceString(key string, raw json.RawMessage) (*string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("queue field %q must be a string", key)
	}
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	return &s, nil
}

func referenceInt(key string, raw json.RawMessage) (*int64, error) {
	if isNull(raw) {
		return nil, nil
	}
	var s string
	text := string(bytes.TrimSpace(raw))
	if json.Unmarshal(raw, &s) == nil {
		text = strings.TrimSpace(s)
		if text == "" {
			return nil, nil
		}
	}
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return &n, nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return nil, fmt.Errorf("queue field %q must be an integer", key)
	}
	n := int64(f)
	return &n, nil
}

func referenceBool(key string, raw json.RawMessage) (*bool, error) {
	if isNull(raw) {
		return nil, nil
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return &b, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "":
			return nil, nil
		case "true":
			b = true
			return &b, nil
		case "false":
			return &b, nil
		}
	}
	return nil, fmt.Errorf("queue field %q must be a boolean", key)
}

// FuzzQueueFieldDecoders feeds arbitrary field values, as the queue's field map holds them (valid
// JSON values), to the string, integer and boolean decoders and compares them with the reference.
func FuzzQueueFieldDecoders(f *testing.F) {
	for _, seed := range []string{
		`"acme/crm/prod/q"`, `"a\"b"`, `"\u00e9t\u00e9"`, `"été"`, `"  "`, `""`, `"\n"`, `"a\\b"`, `"tab	in"`,
		`5`, `-3`, `"6"`, `" 7 "`, `1e3`, `1.5`, `"1.0"`, `9223372036854775807`, `9223372036854775808`, `"x"`,
		`true`, `false`, `"TRUE"`, `" false "`, `"yes"`, `null`, `{}`, `[]`, `"\ud800"`, "\"\xff\"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		// The map the decoders read holds each value as encoding/json found it.
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(`{"v":`+string(raw)+`}`), &m); err != nil {
			return
		}
		v := m["v"]
		same := func(what string, got, want any, gotErr, wantErr error) {
			t.Helper()
			if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
				t.Fatalf("%s of %q: error %v, want %v", what, v, gotErr, wantErr)
			}
			if fmt.Sprint(deref(got)) != fmt.Sprint(deref(want)) {
				t.Fatalf("%s of %q: %v, want %v", what, v, deref(got), deref(want))
			}
		}
		s, err := decodeString("k", v)
		rs, rerr := referenceString("k", v)
		same("string", s, rs, err, rerr)
		n, err := decodeInt("k", v)
		rn, rerr := referenceInt("k", v)
		same("integer", n, rn, err, rerr)
		b, err := decodeBool("k", v)
		rb, rerr := referenceBool("k", v)
		same("boolean", b, rb, err, rerr)
	})
}

// deref shows a decoded pointer as its value, or <nil>.
func deref(p any) any {
	switch v := p.(type) {
	case *string:
		if v != nil {
			return *v
		}
	case *int64:
		if v != nil {
			return *v
		}
	case *bool:
		if v != nil {
			return *v
		}
	}
	return nil
}
