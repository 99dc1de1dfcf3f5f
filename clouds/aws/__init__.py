"""Pure rules of the aws cluster (validation, sizing, facts): no Pulumi or cloud SDK imports."""
