package rules

import (
	"fmt"
	"strings"
	"unicode"
)

// The filters of the Cloud Integration list resources. The OData API description
// (IntegrationContent.json) states no pattern for the ID of an integration flow or of an
// integration package, so these checks refuse only what no ID can hold (assumed: an ID is a
// single line of text, and the API's own examples and the tenant's generated IDs start with a
// letter, a digit or "_"; flow IDs with spaces and quotes exist, see the tests of
// internal/cpi): a filter that could match nothing is a mistake rather than a filter.

// packageIDPattern explains the package ID check in words for error texts.
const packageIDPattern = `a package ID (the package's technical name) is made of letters, digits, "_", "." and "-"`

// ValidIFlowIDPrefix checks the start of an integration flow ID that a filter matches: "" (every
// flow), or text that an ID can start with: no line breaks or other control characters, and no
// white space at its start.
func ValidIFlowIDPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	if i := strings.IndexFunc(prefix, unicode.IsControl); i >= 0 {
		return fmt.Errorf("no integration flow ID starts with %q: it holds the control character %q at byte %d, and an ID is a single line of text", prefix, prefix[i], i)
	}
	if r := []rune(prefix)[0]; unicode.IsSpace(r) {
		return fmt.Errorf("no integration flow ID starts with %q: an ID does not start with white space", prefix)
	}
	return nil
}

// ValidPackageID checks the ID of an integration package that a filter names: not empty, and
// only letters, digits, "_", "." and "-".
func ValidPackageID(id string) error {
	if id == "" {
		return fmt.Errorf("the package ID is empty, and every integration flow is in a package with an ID; %s", packageIDPattern)
	}
	for i, r := range id {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '-') {
			continue
		}
		return fmt.Errorf("the package ID %q holds %q at byte %d; %s", id, r, i, packageIDPattern)
	}
	return nil
}
