package provider_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider"
)

// Every list resource has an example under examples/list-resources, and every query file there
// is run by an acceptance test of the provider or of a product package (acctest.ReadExample), as TestAccExamples runs the .tf
// examples.
func TestListResourceExamplesRun(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..", "examples", "list-resources")
	var tests []string
	for _, pattern := range []string{"*_test.go", filepath.Join("..", "service", "*", "*_test.go")} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, files...)
	}
	var src strings.Builder
	for _, f := range tests {
		b := acctest.ReadFile(t, f)
		src.Write(b)
	}
	p, ok := provider.New("test")().(fwprovider.ProviderWithListResources)
	if !ok {
		t.Fatal("New does not return a provider with list resources")
	}
	for _, newList := range p.ListResources(context.Background()) {
		var resp fwresource.MetadataResponse
		newList().Metadata(context.Background(), fwresource.MetadataRequest{ProviderTypeName: "sapmessaging"}, &resp)
		files, err := filepath.Glob(filepath.Join(root, resp.TypeName, "*.tfquery.hcl"))
		if err != nil || len(files) == 0 {
			t.Errorf("list resource %s has no example under examples/list-resources/%s", resp.TypeName, resp.TypeName)
		}
		for _, f := range files {
			rel := "list-resources/" + resp.TypeName + "/" + filepath.Base(f)
			if !strings.Contains(src.String(), `ReadExample(t, "`+rel+`")`) {
				t.Errorf("no test runs the example %s", rel)
			}
		}
	}
}
