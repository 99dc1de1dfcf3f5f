"""Provider registry: lazy lookup and a helpful error for unknown names."""

import pytest

from components.registry import component_for


@pytest.mark.parametrize(
    ("provider", "module", "name"),
    [
        ("aws", "components.aws.cluster", "AwsGpuCluster"),
        ("azure", "components.azure.cluster", "AzureGpuCluster"),
        ("gcp", "components.gcp.cluster", "GcpGpuCluster"),
    ],
)
def test_registered_components(provider, module, name):
    cls = component_for(provider)
    assert (cls.__module__, cls.__name__) == (module, name)


def test_unknown_provider_lists_valid_names():
    with pytest.raises(ValueError, match=r"^unknown provider 'oci'; valid: aws, azure, gcp$"):
        component_for("oci")
