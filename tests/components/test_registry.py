"""Provider registry: lazy lookup and a helpful error for unknown names."""

import pytest

from components.registry import REGISTRY, component_for


def test_aws_component():
    cls = component_for("aws")
    assert (cls.__module__, cls.__name__) == ("components.aws.cluster", "AwsGpuCluster")
    assert REGISTRY["aws"] == "components.aws.cluster:AwsGpuCluster"


def test_unknown_provider_lists_valid_names():
    with pytest.raises(ValueError, match=r"^unknown provider 'azure'; valid: aws$"):
        component_for("azure")
