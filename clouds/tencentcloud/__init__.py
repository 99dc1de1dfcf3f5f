"""Pure rules of the tencentcloud cluster (validation, sizing, facts): no Pulumi or cloud SDK imports."""
