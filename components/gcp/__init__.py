"""GCP GPU/TPU cluster component and its pure helpers.

The component itself lives in `components.gcp.cluster` (imported lazily by the registry);
this package imports nothing so the pure helpers load without pulumi_gcp.
"""
