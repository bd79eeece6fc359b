package provider

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// adoptionPending lists the error rules that can meet an existing object and have no adoption attribute yet
// (their entry in adoptions says adoptionTODO). The list only shrinks: a rule that gets its attribute, or its
// reason, leaves it.
var adoptionPending = []string{}

// ruleIDPattern is the form of a rule ID, for example "queue.redelivery_unlimited".
var ruleIDPattern = regexp.MustCompile(`^[a-z_]+\.[a-z0-9_]+$`)

// parseRules parses the non-test source files of internal/rules.
func parseRules(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("..", "rules", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// errorRuleIDs returns the ID of every error rule in the non-test source of internal/rules, with where it is
// raised: the first argument of each errorf call, the rule of each range (intRange, whose check reports errors
// only), and a rule ID handed to a function value of the package that reports errors (the AEM sender's
// invalid-value check).
func errorRuleIDs(t *testing.T) map[string]string {
	t.Helper()
	fset, files := parseRules(t)
	ids := map[string]string{}
	literal := func(e ast.Expr) (string, bool) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(lit.Value)
		return s, err == nil && ruleIDPattern.MatchString(s)
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				switch fn := n.Fun.(type) {
				case *ast.SelectorExpr:
					if fn.Sel.Name == "errorf" && len(n.Args) > 0 {
						if id, ok := literal(n.Args[0]); ok {
							ids[id] = fset.Position(n.Pos()).String()
						} else {
							// A rule handed on: the range's own (c.rule), or a parameter whose callers pass the
							// literal (collected below). Anything else the scan cannot follow.
							switch a := n.Args[0].(type) {
							case *ast.SelectorExpr:
								if a.Sel.Name != "rule" {
									t.Errorf("%s: errorf with a rule ID the catalogue test cannot see; write it as a string literal", fset.Position(n.Pos()))
								}
							case *ast.Ident:
							default:
								t.Errorf("%s: errorf with a rule ID the catalogue test cannot see; write it as a string literal", fset.Position(n.Pos()))
							}
						}
					}
				case *ast.Ident:
					// A function or function value of the package (not warnf or infof, which are methods)
					// that hands a rule ID it is given on to errorf.
					if fn.Obj != nil && handsRuleToErrorf(fn.Obj.Decl) {
						for _, a := range n.Args {
							if id, ok := literal(a); ok {
								ids[id] = fset.Position(n.Pos()).String()
							}
						}
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "rule" {
					if id, ok := literal(n.Value); ok {
						ids[id] = fset.Position(n.Pos()).String()
					}
				}
			}
			return true
		})
	}
	return ids
}

// warningRuleIDs returns the ID of every warning rule in the non-test source of internal/rules: the first argument
// of each warnf call, and for a warnf whose ID is a range's rule with a suffix (c.rule+"_allowed"), each range rule
// with that suffix.
func warningRuleIDs(t *testing.T) map[string]bool {
	t.Helper()
	_, files := parseRules(t)
	ids := map[string]bool{}
	var suffixes, ranges []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				fn, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || fn.Sel.Name != "warnf" || len(n.Args) == 0 {
					return true
				}
				switch a := n.Args[0].(type) {
				case *ast.BasicLit:
					if s, err := strconv.Unquote(a.Value); err == nil {
						ids[s] = true
					}
				case *ast.BinaryExpr:
					if lit, ok := a.Y.(*ast.BasicLit); ok {
						if s, err := strconv.Unquote(lit.Value); err == nil {
							suffixes = append(suffixes, s)
						}
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "rule" {
					if lit, ok := n.Value.(*ast.BasicLit); ok {
						if s, err := strconv.Unquote(lit.Value); err == nil {
							ranges = append(ranges, s)
						}
					}
				}
			}
			return true
		})
	}
	for _, r := range ranges {
		for _, s := range suffixes {
			ids[r+s] = true
		}
	}
	return ids
}

// handsRuleToErrorf reports whether decl, the declaration of a function or of a function value, calls errorf
// with a rule ID it does not write itself (a parameter).
func handsRuleToErrorf(decl any) bool {
	var body ast.Node
	switch d := decl.(type) {
	case *ast.FuncDecl:
		body = d.Body
	case *ast.AssignStmt:
		for _, rhs := range d.Rhs {
			if lit, ok := rhs.(*ast.FuncLit); ok {
				body = lit.Body
			}
		}
	}
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "errorf" && len(c.Args) > 0 {
				if _, isIdent := c.Args[0].(*ast.Ident); isIdent {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// resourceAttributes returns, per resource type of the provider, its top-level attribute names.
func resourceAttributes(t *testing.T) map[string][]string {
	t.Helper()
	srv := providerserver.NewProtocol6(New("test")())()
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for typ, s := range resp.ResourceSchemas {
		for _, a := range s.Block.Attributes {
			out[typ] = append(out[typ], a.Name)
		}
	}
	return out
}

// Every error rule of internal/rules has an adoption attribute on each resource type that raises it, or a reason
// why it cannot meet an object that already exists: a refusal without either makes the configuration that
// terraform query -generate-config-out writes for such an object fail to plan, and with it the whole run.
func TestAdoptionCatalogue(t *testing.T) {
	t.Parallel()
	ids := errorRuleIDs(t)
	if len(ids) < 60 {
		t.Fatalf("found only %d error rules in internal/rules: the scan misses the way rules are written now", len(ids))
	}
	schemas := resourceAttributes(t)
	pending := map[string]bool{}
	for _, id := range adoptionPending {
		pending[id] = true
	}
	sorted := make([]string, 0, len(ids))
	for id := range ids {
		sorted = append(sorted, id)
	}
	sort.Strings(sorted)
	for _, id := range sorted {
		a, ok := framework.Adoptions[id]
		switch {
		case !ok:
			t.Errorf("%s: error rule %q is not in adoptions (adoption.go): give it the adoption attribute of each resource that raises it, "+
				"or the reason why it cannot meet an existing object", ids[id], id)
			continue
		case len(a.Attributes) == 0 && a.Reason == "":
			t.Errorf("error rule %q has neither an adoption attribute nor a reason", id)
		case len(a.Attributes) > 0 && a.Reason != "":
			t.Errorf("error rule %q has an adoption attribute and a reason; keep one", id)
		case a.Reason == framework.AdoptionTODO && !pending[id]:
			t.Errorf("error rule %q can meet an existing object and has no adoption attribute (%s)", id, framework.AdoptionTODO)
		case a.Reason != framework.AdoptionTODO && pending[id]:
			t.Errorf("error rule %q is listed in adoptionPending but is done: remove it from the list", id)
		}
		for _, at := range a.Attributes {
			names, ok := schemas[at.Resource]
			if !ok {
				t.Errorf("error rule %q: resource type %q does not exist", id, at.Resource)
				continue
			}
			if !slices.Contains(names, at.Attribute) {
				t.Errorf("error rule %q: %s has no attribute %q", id, at.Resource, at.Attribute)
			} else if !strings.HasPrefix(at.Attribute, "allow_") && !strings.HasPrefix(at.Attribute, "accept_") {
				t.Errorf("error rule %q: adoption attribute %s.%s is named neither allow_* nor accept_*", id, at.Resource, at.Attribute)
			}
		}
	}
	// An adoption attribute that adopts keeps the plan warning until it is removed, and one set where nothing needs
	// it says that it changes nothing: each entry names the warning rules of both, and they exist.
	warnings := warningRuleIDs(t)
	adopting := map[string]bool{}
	for _, id := range sorted {
		a := framework.Adoptions[id]
		if len(a.Attributes) > 0 && len(a.Warnings) == 0 {
			t.Errorf("error rule %q has adoption attributes but names no warning rule that the plan gives while one keeps the object as it is", id)
		}
		for _, w := range a.Warnings {
			if !warnings[w] {
				t.Errorf("error rule %q: its adoption warning %q is no warning rule of internal/rules", id, w)
			}
		}
		for _, at := range a.Attributes {
			key := at.Resource + "." + at.Attribute
			adopting[key] = true
			if w, ok := framework.AdoptionUnused[key]; !ok {
				t.Errorf("adoption attribute %s has no entry in framework.AdoptionUnused: name the warning rule that says it changes nothing where it is set but not needed", key)
			} else if !warnings[w] {
				t.Errorf("adoption attribute %s: its warning %q is no warning rule of internal/rules", key, w)
			}
		}
	}
	for key := range framework.AdoptionUnused {
		if !adopting[key] {
			t.Errorf("framework.AdoptionUnused lists %s, which is no adoption attribute of the catalogue", key)
		}
	}
	for id := range framework.Adoptions {
		if _, ok := ids[id]; !ok {
			t.Errorf("adoptions lists %q, which is no error rule of internal/rules", id)
		}
	}
	for _, id := range adoptionPending {
		if _, ok := framework.Adoptions[id]; !ok {
			t.Errorf("adoptionPending lists %q, which adoptions does not", id)
		}
	}
	t.Logf("%d error rules, %d pending", len(ids), len(adoptionPending))
}

// Each list resource's description names the adoption attributes its generated configuration sets: those the
// catalogue gives the resource type it lists.
func TestListResourcesNameAdoptionAttributes(t *testing.T) {
	t.Parallel()
	srv := providerserver.NewProtocol6(New("test")())()
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.ListResourceSchemas) == 0 {
		t.Fatal("the provider's schema has no list resources")
	}
	for typ, s := range resp.ListResourceSchemas {
		for _, name := range framework.AdoptionAttributesOf(typ) {
			if !strings.Contains(s.Block.Description, "`"+name) {
				t.Errorf("the description of list resource %s does not name the adoption attribute `%s` its results set", typ, name)
			}
		}
	}
}
