package mermaid

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, src string
		wantErr   string // a part of the error; empty: valid
	}{
		{"every shape and link", `flowchart LR
  n1[("acme/crm/prod/orders<br/>R = 5")]
  n2["Orders<br/>EventMesh (AMQP, n = 1)"]
  n1 -->|"N_max = 7"| n2
  n3{{"webhook idle-push<br/>QoS 0, hooks.example.com"}}
  n1 ==>|"lost after one try"| n3
  n2 -.->|"dead letters"| n4[("dmq")]
  a[plain text] --- b(round) -.- c{decision} === d((circle))
  e([stadium]) --> f[[subroutine]] --> g[/slanted/] --> h[\back\] --> i>flag]
  j-->k;
  %% a comment
  classDef error fill:#ffd6d6,stroke:#c92a2a,color:#000
  classDef missing stroke-dasharray:5 5
  class n2,n3 error
  class n4 missing
`, ""},
		{"escaped quote", "flowchart TD\n  q[\"say #quot;hi#quot;\"]\n", ""},
		{"graph header", "graph LR\n  a --> b\n", ""},
		{"shape without its brackets, as tfplugindocs left it", `flowchart LR
  n1[("acme/crm/prod/idle<br/>R = 3")]
  n2webhook idle-push<br/>QoS 0, hooks.example.com
  n1 ==>|"lost after one try"| n2
`, `line 3: "n2webhook idle-push<br/>QoS 0, hooks.example.com": unexpected "idle-push`},
		{"no header", "a --> b\n", "a flowchart starts with"},
		{"bad direction", "flowchart XY\n", "a flowchart starts with"},
		{"empty", "\n\n", "empty diagram"},
		{"quote inside quoted text", "flowchart LR\n  a[\"say \"hi\"\"]\n", "does not close"},
		{"unclosed shape", "flowchart LR\n  a[\"text\"\n", "does not close with ]"},
		{"unquoted special character", "flowchart LR\n  a[text (with) parens]\n", "unquoted text cannot hold"},
		{"unclosed label", "flowchart LR\n  a -->|\"label\" b\n", "no closing |"},
		{"link without target", "flowchart LR\n  a -->\n", "ends without a node"},
		{"unknown link", "flowchart LR\n  a -> b\n", `unexpected "-> b"`},
		{"reserved id", "flowchart LR\n  end --> b\n", `"end" cannot be a node id`},
		{"undefined class", "flowchart LR\n  a --> b\n  class a error\n", `class "error" has no classDef`},
		{"bad classDef", "flowchart LR\n  classDef error\n", "a classDef is"},
		{"subgraph is outside the subset", "flowchart LR\n  subgraph one\n  a --> b\n  end\n", `"subgraph" cannot be a node id`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := Check(c.src)
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("Check: %v", err)
			case c.wantErr != "" && err == nil:
				t.Errorf("Check accepted it; want an error with %q", c.wantErr)
			case c.wantErr != "" && !strings.Contains(err.Error(), c.wantErr):
				t.Errorf("Check: %v; want an error with %q", err, c.wantErr)
			}
		})
	}
}
