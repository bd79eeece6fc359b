# Or redrive whenever the fix is rolled out: here after every change of the flow's version.
variable "flow_version" {
  type    = string
  default = "1.0.1"
}

resource "terraform_data" "orders_flow_fix" {
  input = var.flow_version

  lifecycle {
    action_trigger {
      events  = [after_update]
      actions = [action.sapmessaging_aem_redrive.orders]
    }
  }
}
