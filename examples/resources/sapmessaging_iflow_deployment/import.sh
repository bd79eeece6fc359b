# A deployment is imported by the integration flow's ID. The first apply after
# the import records the triggers in the state only; it deploys nothing.
terraform import 'sapmessaging_iflow_deployment.flow["Acme_Orders_Inbound"]' Acme_Orders_Inbound
