package cpi_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/reftest"
)

// readReference returns the file rel below the reference folder of SAP's specs and samples (reftest.Read).
func readReference(t *testing.T, rel string) []byte {
	t.Helper()
	return reftest.Read(t, rel, "SAP's specs to ../"+reftest.Dir)
}
