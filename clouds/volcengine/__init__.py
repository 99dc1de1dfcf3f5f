"""Pure rules of the volcengine cluster (validation, sizing, facts): no Pulumi or cloud SDK imports."""
