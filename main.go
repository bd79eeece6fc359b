// Command terraform-provider-sapmessaging serves the sapmessaging Terraform
// provider over plugin protocol 6.
package main

import (
	"flag"
	"log"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpuprofile"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider"
)

// Documentation and examples are generated and formatted by `make generate`
// (GNUmakefile), which runs tfplugindocs offline against the local Terraform
// or OpenTofu binary.

// version is set by the release build through
// -ldflags "-X main.version=<version>".
var version = "dev"

// address is the provider's registry address.
const address = "registry.terraform.io/sapmessaging/sapmessaging"

func main() {
	var debug bool

	flag.BoolVar(&debug, "debug", false, "set to true to run the provider with support for debuggers like delve")
	flag.Parse()

	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}

	framework.SilenceUnwantedLogs()
	stopProfile := cpuprofile.Start() // opt-in: SAPMESSAGING_CPU_PROFILE, for the provider benchmark
	err := tf6server.Serve(address, provider.NewProtocol6Server(version), opts...)
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}
