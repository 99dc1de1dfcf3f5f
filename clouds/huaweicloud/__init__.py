"""Pure rules of the huaweicloud cluster (validation, sizing, facts): no Pulumi or cloud SDK imports."""
