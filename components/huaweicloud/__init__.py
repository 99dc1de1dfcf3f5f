"""Huawei Cloud GPU cluster component and its pure helpers.

The component lives in `components.huaweicloud.cluster` (imported lazily by the registry);
this package imports nothing, so the pure helpers load without pulumi_huaweicloud.
"""
