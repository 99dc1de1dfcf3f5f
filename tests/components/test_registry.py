"""Provider registry: lazy lookup and a helpful error for unknown names."""

import pytest

from components.registry import REGISTRY, component_for

EXPECTED = {
    "aws": ("components.aws.cluster", "AwsGpuCluster"),
    "azure": ("components.azure.cluster", "AzureGpuCluster"),
    "gcp": ("components.gcp.cluster", "GcpGpuCluster"),
    "alicloud": ("components.alicloud.cluster", "AlicloudGpuCluster"),
    "tencentcloud": ("components.tencentcloud.cluster", "TencentcloudGpuCluster"),
    "huaweicloud": ("components.huaweicloud.cluster", "HuaweicloudGpuCluster"),
    "volcengine": ("components.volcengine.cluster", "VolcengineGpuCluster"),
    "baiducloud": ("components.baiducloud.cluster", "BaiducloudGpuCluster"),
}


def test_every_provider_is_registered():
    assert set(REGISTRY) == set(EXPECTED)


@pytest.mark.parametrize("provider", sorted(EXPECTED))
def test_registered_components(provider):
    cls = component_for(provider)
    assert (cls.__module__, cls.__name__) == EXPECTED[provider]


def test_unknown_provider_lists_valid_names():
    valid = "alicloud, aws, azure, baiducloud, gcp, huaweicloud, tencentcloud, volcengine"
    with pytest.raises(ValueError, match=rf"^unknown provider 'oci'; valid: {valid}$"):
        component_for("oci")
