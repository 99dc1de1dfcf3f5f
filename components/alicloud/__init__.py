"""Alibaba Cloud GPU cluster component (`trainstack:alicloud:GpuCluster`) and its pure helpers.

Importing this package loads nothing: `clouds.alicloud.placement` and the other pure
modules can be used by the resolver without Pulumi or the Alibaba SDK.
"""
