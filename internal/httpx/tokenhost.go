package httpx

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// BTPDomains are the domains of SAP BTP landscapes whose hosts issue tokens
// for SAP's services: XSUAA (authentication. and authentication.cert. hosts)
// under hana.ondemand.com (Cloud Foundry and Neo, trial included) and
// cloud.sap, SAP Cloud Identity Services (accounts.ondemand.com,
// accounts.cloud.sap), and the China landscape (platform.sapcloud.cn).
var BTPDomains = []string{
	"hana.ondemand.com",
	"hanatrial.ondemand.com",
	"accounts.ondemand.com",
	"cloud.sap",
	"sapcloud.cn",
}

// TokenHostWarning returns a warning when the token endpoint of tokenURL
// is on a host that shares no registrable domain with the API host of
// apiURL and is neither under BTPDomains nor under one of trusted (host
// names or domains, which match their subdomains too); otherwise "". The
// warning names both hosts. The client credentials go to the token
// endpoint, so a service key whose token host belongs to someone else
// would hand them over.
func TokenHostWarning(apiURL, tokenURL string, trusted []string) string {
	api, tok := hostOf(apiURL), hostOf(tokenURL)
	if api == "" || tok == "" || api == tok {
		return ""
	}
	if underAny(tok, BTPDomains) || underAny(tok, trusted) {
		return ""
	}
	if a, t := registrableDomain(api), registrableDomain(tok); a != "" && a == t {
		return ""
	}
	return fmt.Sprintf("the token endpoint host %q and the API host %q share no domain, and %q is not a host of SAP BTP (%s): "+
		"the client credentials are sent to %q", tok, api, tok, strings.Join(BTPDomains, ", "), tok)
}

func hostOf(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}

// registrableDomain returns the registrable domain (eTLD+1) of host, or ""
// for an IP address or a host that has none.
func registrableDomain(host string) string {
	if net.ParseIP(host) != nil {
		return ""
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return ""
	}
	return d
}

// underAny reports whether host is one of domains or a subdomain of one.
func underAny(host string, domains []string) bool {
	for _, d := range domains {
		d = strings.TrimSuffix(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(d)), "."), ".")
		if d != "" && (host == d || strings.HasSuffix(host, "."+d)) {
			return true
		}
	}
	return false
}
