package rules

import (
	"strings"
	"testing"
)

func TestValidTopicPattern(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		wantErr string // substring; "" = valid
	}{
		{"acme/crm/prod/ce/sap/s4/BusinessPartner/*", ""},
		{"acme/+/prod/orders", ""},
		{"acme/crm/prod/orders.v1", ""},
		{"", "empty"},
		{"acme/crm prod", "contains the character ' '"},
		{"acme/#", "contains the character '#'"},
		{"acme//orders", "empty segment 2"},
		{strings.Repeat("a/", 20) + "a", "has 21 segments"},
	}
	for _, tt := range tests {
		err := ValidTopicPattern(tt.in)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("ValidTopicPattern(%q) = %v, want nil", tt.in, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("ValidTopicPattern(%q) = %v, want error containing %q", tt.in, err, tt.wantErr)
		case err != nil && !strings.Contains(err.Error(), "wildcards"):
			t.Errorf("ValidTopicPattern(%q) error %q does not explain the pattern", tt.in, err)
		}
	}
}
