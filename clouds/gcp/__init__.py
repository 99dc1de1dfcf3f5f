"""Pure rules of the gcp cluster (validation, sizing, facts): no Pulumi or cloud SDK imports."""
