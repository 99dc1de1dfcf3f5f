"""Provider name -> GPU cluster component class, imported only when asked for.

Loading lazily keeps `import components.registry` cheap and never pulls in the SDK of a
cloud the stack does not use.
"""

from __future__ import annotations

import importlib

# provider -> "module:ClassName" of its ComponentResource.
REGISTRY: dict[str, str] = {
    "aws": "components.aws.cluster:AwsGpuCluster",
    "azure": "components.azure.cluster:AzureGpuCluster",
    "gcp": "components.gcp.cluster:GcpGpuCluster",
    "huaweicloud": "components.huaweicloud.cluster:HuaweicloudGpuCluster",
    "volcengine": "components.volcengine.cluster:VolcengineGpuCluster",
    "alicloud": "components.alicloud.cluster:AlicloudGpuCluster",
    "tencentcloud": "components.tencentcloud.cluster:TencentcloudGpuCluster",
    "baiducloud": "components.baiducloud.cluster:BaiducloudGpuCluster",
}


def component_for(provider: str) -> type:
    """The component class registered for a provider.

    Args:
        provider: registry name, e.g. `aws`.

    Returns:
        The `pulumi.ComponentResource` subclass; its module is imported on first use.

    Raises:
        ValueError: `unknown provider 'x'; valid: aws, ...` for an unregistered name.
    """
    target = REGISTRY.get(provider)
    if target is None:
        raise ValueError(f"unknown provider '{provider}'; valid: {', '.join(sorted(REGISTRY))}")
    module_name, class_name = target.split(":")
    return getattr(importlib.import_module(module_name), class_name)
