"""Provider registry: lazy lookup and a helpful error for unknown names."""

import pytest

from components.registry import REGISTRY, component_for

PROVIDERS = ("aws", "azure", "gcp", "alicloud", "tencentcloud", "huaweicloud", "volcengine", "baiducloud")


def test_every_provider_is_registered():
    assert set(REGISTRY) == set(PROVIDERS)


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_registered_components(provider):
    """Each cloud's component is `<Cloud>GpuCluster` in `components/<cloud>/cluster.py`."""
    cls = component_for(provider)
    assert (cls.__module__, cls.__name__) == (f"components.{provider}.cluster", f"{provider.capitalize()}GpuCluster")


def test_unknown_provider_lists_valid_names():
    valid = "alicloud, aws, azure, baiducloud, gcp, huaweicloud, tencentcloud, volcengine"
    with pytest.raises(ValueError, match=rf"^unknown provider 'oci'; valid: {valid}$"):
        component_for("oci")
