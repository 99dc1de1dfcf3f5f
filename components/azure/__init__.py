"""Azure GPU cluster component and its pure helpers.

The component itself lives in `components.azure.cluster` (imported lazily by the registry);
this package imports nothing so the pure helpers load without pulumi_azure_native.
"""
