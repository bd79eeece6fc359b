package rules

import (
	"strings"
	"testing"
)

func TestValidAEMTopicSubscription(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		topic, wantErr string
	}{
		{"acme/orders/created", ""},
		{"acme/orders/*", ""},
		{"acme/*/created", ""},
		{"acme/ord*/created", ""},
		{"acme/orders/>", ""},
		{">", ""},
		{"!acme/orders/test/>", ""},
		{"#share/group/acme/>", ""},
		{"acme/ördérs", ""},
		{strings.Repeat("a", 250), ""},
		{"", "empty"},
		{strings.Repeat("a", 251), "at most 250 bytes"},
		{strings.Repeat("ä", 126), "at most 250 bytes"},
		{"acme//orders", "level 2 of the topic subscription is empty"},
		{"/acme", "level 1 of the topic subscription is empty"},
		{"acme/", "level 2 of the topic subscription is empty"},
		{"acme/>/x", `level 2 (">") holds ">"`},
		{"acme/a>", `level 2 ("a>") holds ">"`},
		{"acme/*x", `holds "*" before its end`},
		{"acme/**", `holds "*" before its end`},
		{"acme\x00", "NUL"},
		{"acme\xff", "UTF-8"},
	} {
		err := ValidAEMTopicSubscription(tc.topic)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%q: %v", tc.topic, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%q: got %v, want an error with %q", tc.topic, err, tc.wantErr)
		}
	}
}

// The queue names a subscription may name and the prefixes its list resource may filter by.
func TestAEMSubscriptionQueueNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		nameOK     bool
		asPrefixOK bool
	}{
		{"acme/orders", true, true},
		{"#DEAD_MSG_QUEUE", true, true},
		{"acme/orders,eu", true, true},
		{"", false, true},
		{"acme;orders", false, false},
		{"acme/*", false, false},
		{strings.Repeat("a", 201), false, false},
	} {
		if err := ValidAEMQueueName(tc.name); (err == nil) != tc.nameOK {
			t.Errorf("ValidAEMQueueName(%q) = %v, want ok %v", tc.name, err, tc.nameOK)
		}
		if err := ValidAEMQueueNamePrefix(tc.name); (err == nil) != tc.asPrefixOK {
			t.Errorf("ValidAEMQueueNamePrefix(%q) = %v, want ok %v", tc.name, err, tc.asPrefixOK)
		}
	}
}
