"""A build helper for the Alibaba component tests (imported by the test modules).

The shared `trainstack.mocks.TrainstackMocks` answers Alibaba resources and the image
lookup (see `trainstack/mock_alicloud.py`); `RecordingMocks` also keeps every invoke.
"""

from __future__ import annotations

from typing import Any

import pulumi
from pulumi.runtime.mocks import MockCallArgs

from components.contract import OUTPUT_NAMES, ClusterConfig
from trainstack.mocks import RecordingMonitor, TrainstackMocks

# 2 x ecs.ebmgn7ex.32xlarge (8 x A100 80 GB, eRDMA), on-demand, 3,600 GiB CPFS advance_200.
EXAMPLE: dict[str, Any] = {
    "provider": "alicloud",
    "region": "cn-beijing",
    "zone": "cn-beijing-h",
    "instance_type": "ecs.ebmgn7ex.32xlarge",
    "accelerator": "A100-80GB",
    "accelerator_count": 8,
    "nodes": 2,
    "purchase": "on-demand",
    "interconnect": "rdma",
    "hours": 72,
    "usd_per_hour": 80.0,
    "file_system": {"capacity_gib": 3600, "throughput_mbps_per_tib": 200},
}


def make_config(**changes: Any) -> ClusterConfig:
    """The example config with `changes`."""
    return ClusterConfig.model_validate({**EXAMPLE, **changes})


class RecordingMocks(TrainstackMocks):
    """`TrainstackMocks` that also keeps `(token, args)` of every invoke."""

    def __init__(self, region: str) -> None:
        super().__init__(region)
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def call(self, args: MockCallArgs) -> tuple[dict[str, Any], list]:
        self.calls.append((args.token, dict(args.args)))
        return super().call(args)


class Plan:
    """What one component build registered: outputs, records and invokes."""

    def __init__(self, outputs: dict[str, Any], monitor: RecordingMonitor, mocks: RecordingMocks) -> None:
        self.outputs = outputs
        self.records = monitor.records()
        self.registered_outputs = monitor.registered_outputs.get("c", {})
        self.calls = mocks.calls

    def of_type(self, token: str) -> list[dict[str, Any]]:
        """Records of one resource type, in natural name order."""
        return [r for r in self.records if r["type"] == token]

    def named(self, name: str) -> dict[str, Any]:
        """The record with this logical name."""
        return next(r for r in self.records if r["name"] == name)


def install_mocks(region: str = "cn-beijing") -> tuple[RecordingMocks, RecordingMonitor]:
    """Point the Pulumi runtime at fresh mocks; return them and the recording monitor."""
    mocks = RecordingMocks(region)
    monitor = RecordingMonitor(mocks)
    pulumi.runtime.set_mocks(mocks, project="trainstack", stack="test", preview=False, monitor=monitor)
    return mocks, monitor


def build(config: ClusterConfig) -> Plan:
    """Build `AlicloudGpuCluster("c", config)` in a fresh run and return what it registered."""
    from components.alicloud.cluster import AlicloudGpuCluster

    mocks, monitor = install_mocks(config.region)
    resolved: dict[str, Any] = {}

    @pulumi.runtime.test
    def program() -> pulumi.Output:
        cluster = AlicloudGpuCluster("c", config)
        outputs = {key: getattr(cluster, key) for key in OUTPUT_NAMES}
        return pulumi.Output.all(**outputs).apply(resolved.update)

    program()
    return Plan(resolved, monitor, mocks)
