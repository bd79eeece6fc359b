package provider

import (
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const modulePath = "github.com/sapmessaging/terraform-provider-sapmessaging/"

// roomImports reads the imports of the package in dir, split as go/build splits them, keeping only
// this module's, without the module's prefix.
func roomImports(t *testing.T, dir string) (code, internalTests, externalTests []string) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := build.ImportDir(abs, 0)
	if err != nil {
		t.Fatalf("reading package %s: %v", dir, err)
	}
	if len(pkg.GoFiles) == 0 {
		t.Fatalf("package %s has no non-test files; the check would pass without looking", dir)
	}
	own := func(imports []string) []string {
		var out []string
		for _, imp := range imports {
			if rel, ok := strings.CutPrefix(imp, modulePath); ok {
				out = append(out, rel)
			}
		}
		return out
	}
	return own(pkg.Imports), own(pkg.TestImports), own(pkg.XTestImports)
}

// The rooms of the provider (DESIGN.md, "Rooms"): each product's package (internal/service/<product>)
// imports the shared framework (internal/provider/framework) and the domain packages, never another
// product's package and never internal/provider, which imports them; only the product's external
// tests (package <product>_test) import internal/provider and internal/acctest, to serve the whole
// provider to Terraform. The framework imports no product and not the provider. The provider names
// the product packages in registry.go alone and asks each for its types.
func TestProviderRooms(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob(filepath.Join("..", "service", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var products []string
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			products = append(products, "internal/service/"+filepath.Base(d))
		}
	}
	if len(products) < 5 {
		t.Fatalf("found the product packages %v under internal/service; want eventmesh, aem, integration, netweaver and landscape", products)
	}
	isProduct := func(rel string) bool {
		return slices.ContainsFunc(products, func(p string) bool { return rel == p || strings.HasPrefix(rel, p+"/") })
	}
	for _, product := range products {
		code, internalTests, externalTests := roomImports(t, filepath.Join("..", "..", product))
		for _, imp := range append(slices.Clone(code), internalTests...) {
			switch {
			case isProduct(imp) && imp != product:
				t.Errorf("%s imports %s: a product never imports another product's package; move what both use to internal/provider/framework", product, imp)
			case imp == "internal/provider" || imp == "internal/acctest":
				t.Errorf("%s imports %s outside its external tests: the provider imports the products, so only package %s_test may import it", product, imp, filepath.Base(product))
			}
		}
		for _, imp := range externalTests {
			if isProduct(imp) && imp != product {
				t.Errorf("the tests of %s import %s: a product's tests never import another product's package; put a helper both use in internal/acctest", product, imp)
			}
		}
	}
	code, internalTests, _ := roomImports(t, "framework")
	for _, imp := range append(code, internalTests...) {
		if isProduct(imp) || imp == "internal/provider" || imp == "internal/acctest" {
			t.Errorf("internal/provider/framework imports %s: the framework sits below the products and the provider", imp)
		}
	}
	// The provider names the products in registry.go only, and each of them there.
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	registered := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			rel, ok := strings.CutPrefix(imp, modulePath)
			if !ok || !isProduct(rel) {
				continue
			}
			if name != "registry.go" {
				t.Errorf("internal/provider/%s imports %s: the provider names the product packages in registry.go only", name, rel)
			}
			registered[rel] = true
		}
	}
	for _, p := range products {
		if !registered[p] {
			t.Errorf("%s is not in servicePackages of internal/provider/registry.go: the provider would serve none of its types", p)
		}
	}
}
