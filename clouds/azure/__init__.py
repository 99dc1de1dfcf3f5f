"""Pure rules of the azure cluster (validation, sizing, facts): no Pulumi or cloud SDK imports."""
