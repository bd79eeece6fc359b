package provider_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/mermaid"
)

// fence is one fenced code block of a Markdown page.
type fence struct {
	lang string // the first word of the info string: terraform, shell, mermaid, …
	body string
	line int // the line of the opening fence, 1 for the first
	// marks are the `<!-- guide-test: … -->` comments between the previous block (or the start)
	// and this one, without the comment syntax.
	marks []string
	// prose is the text between the previous block (or the start) and this one.
	prose string
}

var (
	openFenceRe = regexp.MustCompile("^( {0,3})(`{3,}|~{3,})\\s*([^`\\s]*)")
	guideMarkRe = regexp.MustCompile(`<!--\s*guide-test:\s*(.*?)\s*-->`)
)

// fencedBlocks returns the fenced code blocks of a Markdown page in order. A fence may be
// indented by up to three spaces, or as a list item's content; it closes with a fence of the same
// character at least as long, so a block may show ``` inside a longer fence.
func fencedBlocks(page string) []fence {
	var blocks []fence
	lines := strings.Split(page, "\n")
	var prose strings.Builder
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimLeft(lines[i], " ")
		indent := len(lines[i]) - len(trimmed)
		m := openFenceRe.FindStringSubmatch(trimmed)
		if m == nil {
			prose.WriteString(lines[i] + "\n")
			continue
		}
		marker := m[2]
		b := fence{lang: m[3], line: i + 1, prose: prose.String()}
		for _, mm := range guideMarkRe.FindAllStringSubmatch(b.prose, -1) {
			b.marks = append(b.marks, mm[1])
		}
		prose.Reset()
		var body []string
		for i++; i < len(lines); i++ {
			t := strings.TrimLeft(lines[i], " ")
			if strings.HasPrefix(t, marker) && strings.TrimLeft(t, marker[:1]) == "" {
				break
			}
			// Remove the block's indentation (a fence inside a list item).
			l := lines[i]
			for k := 0; k < indent && strings.HasPrefix(l, " "); k++ {
				l = l[1:]
			}
			body = append(body, l)
		}
		b.body = strings.Join(body, "\n")
		if len(body) > 0 {
			b.body += "\n"
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// docPages returns the Markdown pages under docs/, relative to it.
func docPages(t *testing.T) map[string]string {
	t.Helper()
	root := filepath.Join("..", "..", "docs")
	pages := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		pages[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no page under docs/")
	}
	return pages
}

func TestFencedBlocks(t *testing.T) {
	t.Parallel()
	page := "# Title\n\n<!-- guide-test: file main.tf -->\nIn `main.tf`:\n\n```terraform\nresource \"a\" \"b\" {}\n```\n\n" +
		"* a list item:\n\n  ```shell\n  terraform apply\n  ```\n\n" +
		"````markdown\n```mermaid\nnot a block of its own\n```\n````\n"
	got := fencedBlocks(page)
	if len(got) != 3 {
		t.Fatalf("%d blocks, want 3: %+v", len(got), got)
	}
	if got[0].lang != "terraform" || got[0].body != "resource \"a\" \"b\" {}\n" || got[0].line != 6 ||
		len(got[0].marks) != 1 || got[0].marks[0] != "file main.tf" || !strings.Contains(got[0].prose, "In `main.tf`:") {
		t.Errorf("first block = %+v", got[0])
	}
	if got[1].lang != "shell" || got[1].body != "terraform apply\n" || len(got[1].marks) != 0 {
		t.Errorf("second block = %+v", got[1])
	}
	if got[2].lang != "markdown" || !strings.Contains(got[2].body, "```mermaid") {
		t.Errorf("third block = %+v", got[2])
	}
}

// Every Mermaid block of the documentation is a flowchart Mermaid renders: tfplugindocs reads
// templates as Go templates, so a node shape written {{"…"}} in a template loses its braces
// unless it is escaped ({{"{{"}}).
func TestDocsMermaidParses(t *testing.T) {
	t.Parallel()
	n := 0
	for rel, page := range docPages(t) {
		for _, b := range fencedBlocks(page) {
			if b.lang != "mermaid" {
				continue
			}
			n++
			if err := mermaid.Check(b.body); err != nil {
				t.Errorf("docs/%s, the Mermaid block at line %d:\n%v", rel, b.line, err)
			}
		}
	}
	if n == 0 {
		t.Error("no Mermaid block found under docs/")
	}
}

var subcategoryRe = regexp.MustCompile(`(?m)^subcategory: "(.*)"$`)

// Every page of a resource, data source, list resource, action or function names the product
// it belongs to in its front matter, so that the Registry groups it; the guides are grouped
// as guides.
func TestDocsSubcategories(t *testing.T) {
	t.Parallel()
	for rel, page := range docPages(t) {
		if strings.HasPrefix(rel, "guides/") || rel == "index.md" {
			continue
		}
		m := subcategoryRe.FindStringSubmatch(page)
		if m == nil || m[1] == "" {
			t.Errorf("docs/%s has no subcategory; give its template (templates/%s.tmpl) one", rel, rel)
		}
	}
}

var pageDescriptionRe = regexp.MustCompile(`(?s)\A---\n.*?\ndescription: \|-\n(.*?)\n---\n`)

// A description is read where the page is not: in an editor's hover, in `terraform providers
// schema`, in the Registry's list of pages. None refers to "this page", and every attribute has
// one.
func TestSchemaDescriptions(t *testing.T) {
	t.Parallel()
	srv := providerserver.NewProtocol6(provider.New("test")())()
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	descriptions := map[string]string{} // where -> description
	var walkBlock func(where string, b *tfprotov6.SchemaBlock)
	var walkAttrs func(where string, attrs []*tfprotov6.SchemaAttribute)
	walkAttrs = func(where string, attrs []*tfprotov6.SchemaAttribute) {
		for _, a := range attrs {
			descriptions[where+"."+a.Name] = a.Description
			if a.NestedType != nil {
				walkAttrs(where+"."+a.Name, a.NestedType.Attributes)
			}
		}
	}
	walkBlock = func(where string, b *tfprotov6.SchemaBlock) {
		if b == nil {
			return
		}
		descriptions[where] = b.Description
		walkAttrs(where, b.Attributes)
		for _, nb := range b.BlockTypes {
			walkBlock(where+"."+nb.TypeName, nb.Block)
		}
	}
	walkBlock("provider", resp.Provider.Block)
	for name, s := range resp.ResourceSchemas {
		walkBlock("resource "+name, s.Block)
	}
	for name, s := range resp.DataSourceSchemas {
		walkBlock("data source "+name, s.Block)
	}
	for name, s := range resp.ListResourceSchemas {
		walkBlock("list resource "+name, s.Block)
	}
	for name, s := range resp.ActionSchemas {
		walkBlock("action "+name, s.Schema.Block)
	}
	for name, f := range resp.Functions {
		descriptions["function "+name] = f.Description
		for _, p := range f.Parameters {
			descriptions["function "+name+" parameter "+p.Name] = p.Description
		}
	}
	for rel, page := range docPages(t) {
		if m := pageDescriptionRe.FindStringSubmatch(page); m != nil {
			descriptions["the description of docs/"+rel] = m[1]
		}
	}
	if len(descriptions) < 100 {
		t.Fatalf("only %d descriptions found", len(descriptions))
	}
	for _, w := range slices.Sorted(maps.Keys(descriptions)) {
		d := descriptions[w]
		if strings.TrimSpace(d) == "" {
			t.Errorf("%s has no description", w)
		}
		if strings.Contains(strings.ToLower(d), "this page") {
			t.Errorf("%s refers to \"this page\", which means nothing where a description is read: %q", w, d)
		}
	}
	// The messaging REST credentials are described by what needs them.
	em := descriptions["provider.event_mesh"]
	for _, user := range []string{"sapmessaging_webhook_subscription", "sapmessaging_redrive", "sapmessaging_retry_audit"} {
		if !strings.Contains(em, user) {
			t.Errorf("the description of event_mesh does not say that %s needs the messaging REST API: %q", user, em)
		}
	}
}
