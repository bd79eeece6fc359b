package provider

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// registeredTypes returns the names of everything the provider registers, by the kind the
// listing tables of README.md and templates/index.md.tmpl name in their first column: the names
// the provider's schema answer holds for each kind.
func registeredTypes(t *testing.T) map[string][]string {
	t.Helper()
	srv, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("the provider's schema: %v %v", err, resp.Diagnostics)
	}
	types := map[string][]string{
		"Resource":      slices.Collect(maps.Keys(resp.ResourceSchemas)),
		"Data source":   slices.Collect(maps.Keys(resp.DataSourceSchemas)),
		"List resource": slices.Collect(maps.Keys(resp.ListResourceSchemas)),
		"Action":        slices.Collect(maps.Keys(resp.ActionSchemas)),
		"Function":      slices.Collect(maps.Keys(resp.Functions)),
	}
	if len(types["Resource"]) == 0 || len(types["List resource"]) == 0 || len(types["Action"]) == 0 {
		t.Fatalf("the provider registers no resources, list resources or actions: %v", types)
	}
	return types
}

// The resource tables of README.md and of the provider page (templates/index.md.tmpl, and the
// docs/index.md generated from it) list every resource, data source, list resource, action and
// function the provider registers, each in a row of its kind: | Kind | `name`, ... | ... |.
func TestReadmeAndIndexListEveryType(t *testing.T) {
	t.Parallel()
	types := registeredTypes(t)
	for _, page := range []string{"README.md", "templates/index.md.tmpl", "docs/index.md"} {
		b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(page)))
		if err != nil {
			t.Fatal(err)
		}
		rows := map[string]string{} // kind → the names column of all its rows
		for _, line := range strings.Split(string(b), "\n") {
			cells := strings.Split(line, "|")
			if len(cells) < 4 || strings.TrimSpace(cells[0]) != "" {
				continue
			}
			kind := strings.TrimSpace(cells[1])
			rows[kind] += cells[2]
		}
		for kind, names := range types {
			for _, name := range names {
				if !strings.Contains(rows[kind], "`"+name+"`") {
					t.Errorf("%s: no %q row of its table lists `%s`", page, kind, name)
				}
			}
		}
	}
}

// README.md is read to its first command on one screen (`make demo` within the first 40
// lines), and links to the provider page, every guide, DESIGN.md and BENCHMARKS.md, which
// holds the benchmark tables and timings (README keeps none: it has no table with a "Wall
// time" column).
func TestReadmeFitsOnAScreenAndLinksOn(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	lines := strings.Split(readme, "\n")
	first := -1
	for i, line := range lines {
		if strings.HasPrefix(line, "make demo") {
			first = i + 1
			break
		}
	}
	if first < 0 || first > 40 {
		t.Errorf("README.md shows `make demo` on line %d, want within the first 40 lines", first)
	}
	if !strings.Contains(readme, "\nmake test ") {
		t.Error("README.md does not show `make test`")
	}
	guides, err := filepath.Glob(filepath.Join("..", "..", "docs", "guides", "*.md"))
	if err != nil || len(guides) == 0 {
		t.Fatalf("no guides in docs/guides: %v", err)
	}
	links := []string{"](docs/index.md)", "](DESIGN.md)", "](BENCHMARKS.md)"}
	for _, g := range guides {
		links = append(links, "](docs/guides/"+filepath.Base(g)+")")
	}
	for _, l := range links {
		if !strings.Contains(readme, l) {
			t.Errorf("README.md has no link %q", strings.TrimPrefix(l, "]"))
		}
	}
	if strings.Contains(readme, "| Wall time") {
		t.Error("README.md holds a benchmark table: move it to BENCHMARKS.md")
	}
	if _, err := os.Stat(filepath.Join("..", "..", "BENCHMARKS.md")); err != nil {
		t.Error(err)
	}
}
