package eventmesh_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// A list block stops at its limit (Terraform's default 100) with a warning that says how many
// queues it selects and how to raise limit; with limit = 250 it lists all 110 without one.
func TestAccQueueListResource_limitWarning(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	if !acctest.TerraformAtLeast(t, tf, 14) {
		t.Skipf("%s has no terraform query: list resources need Terraform 1.14 or later", tf)
	}
	t.Parallel()
	env := acctest.NewTestEnv(t)
	em := env.EventMesh(t)
	five := int64(5)
	for i := range 110 {
		if _, _, err := em.PutQueue(context.Background(), fmt.Sprintf("acme/big/prod/q%03d", i), eventmesh.QueueSettings{MaxRedeliveryCount: &five}); err != nil {
			t.Fatal(err)
		}
	}
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	dir := t.TempDir()
	w := acctest.NewCLIWorkspace(t, tf, plugins, dir, env)
	acctest.WriteFile(t, filepath.Join(dir, "main.tf"), acctest.AdoptionMain)
	for _, q := range []struct {
		limit    string
		want     int
		warnings []string
	}{
		{"", 100, []string{"List Results Truncated", "selects 110 queues but returns only 100", "limit = 110"}},
		{"  limit    = 250\n", 110, nil},
	} {
		acctest.WriteFile(t, filepath.Join(dir, "big.tfquery.hcl"), "\nlist \"sapmessaging_queue\" \"big\" {\n  provider = sapmessaging\n"+q.limit+"}\n")
		r := w.MustRun(0, "query", "-no-color")
		if n := strings.Count(r.Output, "list.sapmessaging_queue.big "); n != q.want {
			t.Errorf("terraform query with %q lists %d queues, want %d:\n%s", q.limit, n, q.want, r.Output)
		}
		for _, s := range q.warnings {
			if !strings.Contains(r.Output, s) {
				t.Errorf("terraform query does not warn %q:\n%s", s, r.Output)
			}
		}
		if q.warnings == nil && strings.Contains(r.Output, "Truncated") {
			t.Errorf("terraform query with limit = 250 warns although it lists every queue:\n%s", r.Output)
		}
	}
}
