package rules

import (
	"regexp"
	"strings"
	"testing"
)

// queueNameRE is the specified queue name pattern without its segment limit {0,19},
// which Go's regexp refuses as a nested repeat; matchesQueueNamePattern adds it.
var queueNameRE = regexp.MustCompile(`^[a-zA-Z0-9-_.]{1,111}(?:/[a-zA-Z0-9-_.]{1,109})*$`)

// matchesQueueNamePattern reports whether name matches
// ^[a-zA-Z0-9-_.]{1,111}(?:/[a-zA-Z0-9-_.]{1,109}){0,19}$ and is at most 164
// characters long, SAP's documented limit.
// Segments "." and ".." match the pattern but are refused, so they count as not matching here.
func matchesQueueNamePattern(name string) bool {
	for _, s := range strings.Split(name, "/") {
		if s == "." || s == ".." {
			return false
		}
	}
	return queueNameRE.MatchString(name) && strings.Count(name, "/") < maxNameSegments && len(name) <= 164
}

func TestValidQueueName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		wantErr string // substring; "" = valid
	}{
		{"namespaced", "acme/crm/prod/customer/created", ""},
		{"all allowed characters", "a-Z_0.9/x", ""},
		{"single segment", "orders", ""},
		{"first segment 111", strings.Repeat("a", 111), ""},
		{"other segment 109", "a/" + strings.Repeat("b", 109), ""},
		{"164 characters", "acme/crm/prod/" + strings.Repeat("q", 100) + "/" + strings.Repeat("r", 49), ""},
		{"165 characters", "acme/crm/prod/" + strings.Repeat("q", 100) + "/" + strings.Repeat("r", 50), "over the documented limit of 164"},
		{"two long segments", strings.Repeat("a", 100) + "/" + strings.Repeat("b", 100), "is 201 characters long"},
		{"20 segments", strings.Repeat("a/", 19) + "a", ""},
		{"empty", "", "empty"},
		{"space", "acme/crm prod", `contains the character ' '`},
		{"umlaut", "acme/crm/prüfung", `contains the character 'ü' (U+00FC) at byte 11`},
		{"umlaut first", "ö", `contains the character 'ö'`},
		{"emoji", "acme/😀", `contains the character '😀'`},
		{"invalid UTF-8", "acme/\xff", "contains the byte 0xff at byte 5, which is not UTF-8"},
		{"dot segment", "acme/crm/prod/./orders", `segment 4 of queue name "acme/crm/prod/./orders" is "."`},
		{"dot dot segment", "acme/crm/prod/..", `segment 4 of queue name "acme/crm/prod/.." is ".."`},
		{"only dots", "..", `segment 1 of queue name ".." is ".."`},
		{"dots inside a segment", "acme/crm/prod/v1.2/...x", ""},
		{"three dots", "acme/crm/prod/...", ""},
		{"leading slash", "/acme", "empty segment 1"},
		{"trailing slash", "acme/", "empty segment 2"},
		{"double slash", "acme//crm", "empty segment 2"},
		{"first segment 112", strings.Repeat("a", 112), "segment 1 of queue name"},
		{"other segment 110", "a/" + strings.Repeat("b", 110), "segment 2 of queue name"},
		{"21 segments", strings.Repeat("a/", 20) + "a", "has 21 segments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := ValidQueueName(tt.in)
			if want := matchesQueueNamePattern(tt.in); want != (err == nil) {
				t.Fatalf("ValidQueueName(%q) = %v, but the pattern says valid = %v", tt.in, err, want)
			}
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("ValidQueueName(%q) = %v, want nil", tt.in, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("ValidQueueName(%q) = %v, want error containing %q", tt.in, err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), "1 to 20 segments") {
				t.Errorf("error %q does not explain the pattern", err)
			}
		})
	}
}

func TestNamespace(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"acme/crm/prod/customer/created": "acme/crm/prod",
		"acme/crm/prod":                  "acme/crm/prod",
		"acme/crm":                       "",
		"orders":                         "",
		"":                               "",
		"a//c/d":                         "a//c",
	}
	for in, want := range tests {
		if got := Namespace(in); got != want {
			t.Errorf("Namespace(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzValidQueueName(f *testing.F) {
	for _, s := range []string{"acme/crm/prod/orders", "", "/", "a//b", "a b", strings.Repeat("x", 112), strings.Repeat("a/", 20) + "a", "ä/b", "a\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := ValidQueueName(name)
		if want := matchesQueueNamePattern(name); want != (err == nil) {
			t.Fatalf("ValidQueueName(%q) = %v, but the pattern says valid = %v", name, err, want)
		}
		ns := Namespace(name)
		if ns != "" && (!strings.HasPrefix(name, ns) || strings.Count(ns, "/") != 2) {
			t.Fatalf("Namespace(%q) = %q", name, ns)
		}
		if ns == "" && strings.Count(name, "/") >= 2 {
			t.Fatalf("Namespace(%q) = \"\" for a name with three segments", name)
		}
	})
}

func TestValidQueueNamePrefix(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 111) + "/" + strings.Repeat("b", 52) // 164 characters: a whole name
	for _, ok := range []string{"", "acme", "acme/crm/prod/", "acme/crm/prod/ord", "acme/crm/prod/orders", "acme/.", long} {
		if err := ValidQueueNamePrefix(ok); err != nil {
			t.Errorf("ValidQueueNamePrefix(%q) = %v, want nil", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"acme//prod":       `no queue name starts with "acme//prod"`,
		"/acme":            `no queue name starts with "/acme"`,
		"acme/crm prod":    `contains the character ' '`,
		"acme/../":         `no queue name starts with "acme/../": completed to a name`,
		long + "c":         `165 characters long`,
		"acme/crm/pröd/":   `U+00F6`,
		"acme/./orders/x/": `completed to a name`,
	} {
		err := ValidQueueNamePrefix(bad)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ValidQueueNamePrefix(%q) = %v, want an error with %q", bad, err, want)
		}
	}
}
