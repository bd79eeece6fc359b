package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// formatVerb matches a fmt verb; the text a verb stands for is not known to the test.
var formatVerb = regexp.MustCompile(`%[-+# 0-9.*]*[a-zA-Z%]`)

// messageText returns the text of e with the unknown parts as X: a string literal, a sum of
// them, fmt.Sprintf with a literal format, or a call of a function of this package that returns
// one of these. ok is false when the end of the text is unknown.
func messageText(e ast.Expr, funcs map[string]*ast.FuncDecl, depth int) (text string, ok bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.Ident:
		// A constant of this package.
		if e.Obj != nil && e.Obj.Kind == ast.Con {
			if spec, ok := e.Obj.Decl.(*ast.ValueSpec); ok && len(spec.Values) == 1 {
				return messageText(spec.Values[0], funcs, depth)
			}
		}
		if v := styleConsts[e.Name]; v != nil {
			return messageText(v, funcs, depth)
		}
	case *ast.SelectorExpr:
		// A constant of another package of the provider (framework.X).
		if pkg, isPkg := e.X.(*ast.Ident); isPkg {
			if v := styleConsts[pkg.Name+"."+e.Sel.Name]; v != nil {
				return messageText(v, funcs, depth)
			}
		}
	case *ast.ParenExpr:
		return messageText(e.X, funcs, depth)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			l, _ := messageText(e.X, funcs, depth)
			r, rok := messageText(e.Y, funcs, depth)
			if l == "" {
				l = "X"
			}
			return l + r, rok
		}
	case *ast.CallExpr:
		if sel, isSel := e.Fun.(*ast.SelectorExpr); isSel && sel.Sel.Name == "Sprintf" && len(e.Args) > 0 {
			f, ok := messageText(e.Args[0], funcs, depth)
			return formatVerb.ReplaceAllString(f, "X"), ok
		}
		name := ""
		switch fn := e.Fun.(type) {
		case *ast.Ident:
			name = fn.Name
		case *ast.SelectorExpr:
			if pkg, isPkg := fn.X.(*ast.Ident); isPkg {
				name = pkg.Name + "." + fn.Sel.Name
			}
		}
		if depth < 2 {
			if fd := funcs[name]; fd != nil && fd.Body != nil {
				for _, st := range fd.Body.List {
					if ret, isRet := st.(*ast.ReturnStmt); isRet && len(ret.Results) == 1 {
						return messageText(ret.Results[0], funcs, depth+1)
					}
				}
			}
		}
	}
	return "", false
}

// styleConsts are the string constants of the provider's packages, by name and by qualified name
// (framework.X, tfaem.X), for the constants one file uses from another.
var styleConsts = map[string]ast.Expr{}

// styleFiles are the provider's Go files: internal/provider, its framework and the product packages,
// each with the name other packages qualify its identifiers with.
func styleFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	for pattern, qualifier := range map[string]string{"*.go": "", filepath.Join("framework", "*.go"): "framework"} {
		names, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			files[n] = qualifier
		}
	}
	names, err := filepath.Glob(filepath.Join("..", "service", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		q := filepath.Base(filepath.Dir(n))
		if q == "eventmesh" || q == "aem" {
			q = "tf" + q // the name the provider imports them by, beside the clients of the same name
		}
		files[n] = q
	}
	return files
}

// Every diagnostic written in internal/provider and the product packages follows the conventions the rules' findings
// follow (rules.StyleProblems): a Title Case summary, and a detail that ends with the fix.
func TestDiagnosticStyle(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	var parsed []*ast.File
	funcs := map[string]*ast.FuncDecl{}
	for name, qualifier := range styleFiles(t) {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				funcs[fd.Name.Name] = fd
				if qualifier != "" {
					funcs[qualifier+"."+fd.Name.Name] = fd
				}
			}
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.CONST {
				for _, spec := range gd.Specs {
					if vs, ok := spec.(*ast.ValueSpec); ok && len(vs.Names) == 1 && len(vs.Values) == 1 {
						styleConsts[vs.Names[0].Name] = vs.Values[0]
						if qualifier != "" {
							styleConsts[qualifier+"."+vs.Names[0].Name] = vs.Values[0]
						}
					}
				}
			}
		}
	}
	// The functions of internal/rules that write a diagnostic's detail, as rules.<name>.
	ruleFiles, err := filepath.Glob(filepath.Join("..", "rules", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range ruleFiles {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
				funcs["rules."+fd.Name.Name] = fd
			}
		}
	}
	checked := 0
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || len(call.Args) < 2 {
				return true
			}
			switch sel.Sel.Name {
			case "AddError", "AddWarning", "AddAttributeError", "AddAttributeWarning":
			default:
				return true
			}
			at := fset.Position(call.Pos())
			if s, ok := call.Args[len(call.Args)-2].(*ast.SelectorExpr); ok && s.Sel.Name == "Summary" {
				return true // A rule's finding, which the tests of internal/rules check.
			}
			summary, ok := messageText(call.Args[len(call.Args)-2], funcs, 0)
			if !ok {
				t.Errorf("%s: the summary is not a string literal", at)
				return true
			}
			detail, ok := messageText(call.Args[len(call.Args)-1], funcs, 0)
			if !ok {
				t.Errorf("%s: the end of the detail is not written here, so its fix cannot be checked", at)
				return true
			}
			for _, p := range rules.StyleProblems(summary, detail, rules.FixOpenings) {
				t.Errorf("%s: %s: %s", at, summary, p)
			}
			checked++
			return true
		})
	}
	if checked < 50 {
		t.Errorf("checked %d diagnostics; the scan misses some", checked)
	}
}
