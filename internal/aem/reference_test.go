package aem_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/reftest"
)

// readReference returns the file rel below the reference folder of the SEMP specifications (reftest.Read).
func readReference(t *testing.T, rel string) []byte {
	t.Helper()
	return reftest.Read(t, rel, "the SEMP specs to ../"+reftest.Dir+"/semp")
}
