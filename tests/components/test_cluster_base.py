"""The shared component skeleton (`components.cluster_base.GpuClusterBase`): check before any
child, children parented to the component, the outputs set and registered once."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from clouds.contract import OUTPUT_NAMES
from components.cluster_base import ClusterOutputs, GpuClusterBase, nothing
from components.registry import REGISTRY, component_for
from tests.components.harness import install_mocks


class _Thing(pulumi.CustomResource):
    def __init__(self, name: str, tags: dict[str, str], opts: pulumi.ResourceOptions) -> None:
        super().__init__("test:index:Thing", name, {"tags": tags}, opts)


class _Toy(GpuClusterBase):
    TYPE_TOKEN = "trainstack:toy:GpuCluster"
    PROVIDER = "toy"

    def check(self, name: str, args: Any) -> None:
        if args.nodes > 4:
            raise ValueError("nodes: the toy cloud builds at most 4; lower nodes")

    def build(self, name: str, args: Any, tags: Any, child: pulumi.ResourceOptions) -> ClusterOutputs:
        self.things = [_Thing(f"{name}-node-{i}", tags, child) for i in range(args.nodes)]
        return ClusterOutputs(
            node_ids=pulumi.Output.all(*[t.id for t in self.things]),
            node_private_ips=pulumi.Output.from_input([]),
            placement_group=pulumi.Output.from_input("pg-1"),
            file_system_dns=nothing(),
            file_system_mount_name=nothing(),
        )

    def extra_outputs(self) -> dict[str, pulumi.Output[Any]]:
        return {"things": pulumi.Output.from_input(len(self.things))}


def _build(config) -> tuple[Any, dict[str, Any]]:
    _, monitor = install_mocks(config.region, config.zone)
    seen: dict[str, Any] = {}

    @pulumi.runtime.test
    def program() -> Any:
        toy = _Toy("c", config)
        return pulumi.Output.all(toy.node_ids, toy.usd_per_hour).apply(lambda v: seen.update(ids=v[0], usd=v[1]))

    program()
    return monitor, seen


def test_a_refused_config_registers_nothing(make_config):
    _, monitor = install_mocks("us-east-1")
    with pytest.raises(ValueError, match="^nodes: the toy cloud builds at most 4"):
        _Toy("c", make_config(nodes=5))
    assert monitor.records() == []


def test_children_are_parented_tagged_and_the_outputs_registered_once(make_config):
    monitor, seen = _build(make_config(nodes=3, usd_per_hour=12.5))
    records = monitor.records()
    assert [r["type"] for r in records] == ["trainstack:toy:GpuCluster", *["test:index:Thing"] * 3]
    things = records[1:]
    assert {r["parent"] for r in things} == {"c"}
    assert [r["name"] for r in things] == ["c-node-0", "c-node-1", "c-node-2"]
    assert things[0]["inputs"]["tags"]["trainstack:cluster"] == "c"
    assert things[0]["inputs"]["tags"]["trainstack:provider"] == "toy"
    registered = monitor.registered_outputs["c"]
    # the recording drops None values (file_system_dns, file_system_mount_name here)
    assert sorted(registered) == sorted(
        [*(set(OUTPUT_NAMES) - {"file_system_dns", "file_system_mount_name", "file_system_mount_command"}), "things"]
    )
    assert registered["usd_per_hour"] == 12.5 and registered["things"] == 3
    assert registered["placement_group"] == "pg-1" and registered["node_private_ips"] == []
    assert seen == {"ids": ["c-node-0-id", "c-node-1-id", "c-node-2-id"], "usd": 12.5}


@pytest.mark.parametrize("provider", sorted(REGISTRY))
def test_the_clouds_components_share_the_skeleton(provider):
    component = component_for(provider)
    assert issubclass(component, GpuClusterBase)
    assert component.PROVIDER == provider
    assert component.TYPE_TOKEN == f"trainstack:{provider}:GpuCluster"
    # one skeleton: each cloud says how it builds; the base checks (the cloud's validate_args)
    # and registers the outputs
    assert "build" in vars(component) and "register_outputs" not in vars(component)
    assert "check" not in vars(component) or provider == "tencentcloud"  # Tencent adds spot_max_price
