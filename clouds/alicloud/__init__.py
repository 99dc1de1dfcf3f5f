"""Pure rules of the alicloud cluster (validation, sizing, facts): no Pulumi or cloud SDK imports."""
