# The queues under acme/aem/prod/ of the Advanced Event Mesh broker that are no dead message
# queue, each as a sapmessaging_aem_queue with every setting the broker holds
# (terraform query -generate-config-out=generated.tf writes them with their import blocks).
list "sapmessaging_aem_queue" "aem_prod" {
  provider         = sapmessaging
  include_resource = true
  limit            = 1000

  config {
    name_prefix = "acme/aem/prod/"
  }
}
