package rules

import (
	"strings"
	"testing"
)

func TestValidIFlowIDPrefix(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"", "Orders", "Orders In 'EU'", "com.sap.PA_SE_IN.", "_x", "Ö"} {
		if err := ValidIFlowIDPrefix(ok); err != nil {
			t.Errorf("ValidIFlowIDPrefix(%q) = %v, want nil", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"Orders\nIn": "control character",
		"\tOrders":   "control character",
		" Orders":    "white space",
	} {
		err := ValidIFlowIDPrefix(bad)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ValidIFlowIDPrefix(%q) = %v, want an error about %s", bad, err, want)
		}
	}
}

func TestValidPackageID(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"Sales", "com.acme.crm_2024-prod"} {
		if err := ValidPackageID(ok); err != nil {
			t.Errorf("ValidPackageID(%q) = %v, want nil", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"":          "empty",
		"Sales EU":  `holds ' '`,
		"Sales/EU":  `holds '/'`,
		"Sälës":     `holds 'ä'`,
		"Sales'EU'": `holds '\''`,
	} {
		err := ValidPackageID(bad)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ValidPackageID(%q) = %v, want an error with %s", bad, err, want)
		}
	}
}
