"""Pure rules of the baiducloud cluster (validation, sizing, facts): no Pulumi or cloud SDK imports."""
