"""`trainstack up`: `pulumi up` through the Automation API that walks the stack's fallbacks on no capacity."""
