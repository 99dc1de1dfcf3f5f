"""Volcengine GPU cluster component and its pure helpers.

The component lives in `components.volcengine.cluster` (imported lazily by the registry);
this package imports nothing, so the pure helpers load without pulumi_volcengine.
"""
