// Command noapiprovider serves a provider named sapmessaging whose only
// resource, sapmessaging_queue, has the schema of the real one but makes no API
// call: Create and Update copy the plan into the state, Read keeps the state and
// Delete forgets it. The provider benchmark (internal/cmd/bench) times the same
// Terraform commands against it to measure what Terraform and the plugin
// framework cost for N resources of this schema, the part of an apply that no
// provider built on the framework can avoid. With SAPMESSAGING_NOAPI_WAIT set
// (the benchmark's -noapi-wait), Create and Update first wait that long, as a
// provider waits for its API call, and Delete as long for each call the real
// provider makes (the DELETE, and before it a GET without force_destroy),
// without doing any work.
package main

import (
	"context"
	"log"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpuprofile"
)

func main() {
	framework.SilenceUnwantedLogs()
	opts := providerserver.ServeOpts{
		Address:         "registry.terraform.io/sapmessaging/sapmessaging",
		ProtocolVersion: 6,
	}
	stopProfile := cpuprofile.Start() // opt-in: SAPMESSAGING_CPU_PROFILE, for the provider benchmark
	err := providerserver.Serve(context.Background(), newProvider, opts)
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}
