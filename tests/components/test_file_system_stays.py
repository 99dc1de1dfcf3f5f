"""Every cloud whose component creates a file system: it and everything its inputs come from
are registered exactly as before when only the node count, the instance type or the purchase
option changes (so `pulumi up` never replaces the data), while the nodes do change (so the
equality is not vacuous). GCP and AWS have their own versions (test_gcp_cluster, test_plan)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from tests.cases import cases
from tests.clusters import example_config
from tests.components import harness
from tests.components.alicloud import alicloud_harness
from tests.components.tencentcloud import tencentcloud_harness

# pulumi_volcengine.ecs imports its deprecated data-source aliases on first use.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:pulumi_volcengine.*")


@dataclass(frozen=True)
class Cloud:
    """How one cloud's stability is checked: how to build its component, the logical names of
    its file system and of what that file system's inputs come from, and the type tokens of
    what holds its nodes (instances, or a scaling group and its configuration)."""

    build: Callable[[ClusterConfig], harness.Plan]
    file_system: frozenset[str]
    nodes: tuple[str, ...]


def built(component: str) -> Callable[[ClusterConfig], harness.Plan]:
    """Build `module:Class` in a fresh run (`harness.build_plan`)."""

    def build(config: ClusterConfig) -> harness.Plan:
        import importlib

        module, name = component.split(":")
        return harness.build_plan(getattr(importlib.import_module(module), name), config, OUTPUT_NAMES)

    return build


CLOUDS = {
    "azure": Cloud(
        built("components.azure.cluster:AzureGpuCluster"),
        frozenset({"c-lustre", "c-lustre-subnet", "c-vnet", "c-rg", "c-nodes-subnet"}),
        ("azure-native:compute:VirtualMachineScaleSet",),
    ),
    "huaweicloud": Cloud(
        built("components.huaweicloud.cluster:HuaweicloudGpuCluster"),
        frozenset({"c-sfs", "c-sfs-sg", "c-sfs-sg-from-nodes", "c-sfs-sg-egress", "c-sg", "c-vpc", "c-subnet"}),
        (
            "huaweicloud:Ecs/instance:Instance",
            "huaweicloud:As/group:Group",
            "huaweicloud:As/configuration:Configuration",
        ),
    ),
    "volcengine": Cloud(
        built("components.volcengine.cluster:VolcengineGpuCluster"),
        frozenset({"c-vepfs", "c-mount", "c-mount-vepfs", "c-vpc", "c-subnet"}),
        (
            "volcengine:autoscaling/scalingGroup:ScalingGroup",
            "volcengine:autoscaling/scalingConfiguration:ScalingConfiguration",
        ),
    ),
    "alicloud": Cloud(
        alicloud_harness.build,
        frozenset({"c-cpfs", "c-cpfs-mount", "c-vpc", "c-vsw"}),
        ("alicloud:ess/scalingGroup:ScalingGroup", "alicloud:ess/scalingConfiguration:ScalingConfiguration"),
    ),
    "tencentcloud": Cloud(
        tencentcloud_harness.build,
        frozenset({"c-cfs", "c-ccn", "c-ccn-vpc", "c-cfs-access", "c-cfs-rule", "c-vpc"}),
        (
            "tencentcloud:Instance/instance:Instance",
            "tencentcloud:As/scalingGroup:ScalingGroup",
            "tencentcloud:As/scalingConfig:ScalingConfig",
        ),
    ),
}


@pytest.mark.parametrize(("cloud", "change"), cases("file_system_changes.yaml", "cloud", "change"))
def test_file_system_does_not_change_with_nodes_type_or_purchase(cloud, change):
    rules = CLOUDS[cloud]
    before, after = rules.build(example_config(cloud)), rules.build(example_config(cloud, **change))
    kept = lambda plan: [r for r in plan.records if r["name"] in rules.file_system]  # noqa: E731
    assert sorted(r["name"] for r in kept(before)) == sorted(rules.file_system)  # each one, once
    assert kept(after) == kept(before)
    nodes = lambda plan: [plan.of_type(token) for token in rules.nodes]  # noqa: E731
    assert nodes(after) != nodes(before)  # the change reached the nodes
