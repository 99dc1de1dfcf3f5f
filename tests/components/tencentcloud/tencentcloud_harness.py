"""A build helper for the Tencent component tests (imported by the test modules).

The shared `trainstack.mocks.TrainstackMocks` answers Tencent resources and the image
lookup (see `trainstack/mock_tencentcloud.py`); `RecordingMocks` also keeps every invoke.
"""

from __future__ import annotations

from typing import Any

import pulumi
from pulumi.runtime.mocks import MockCallArgs

from components.contract import OUTPUT_NAMES, ClusterConfig
from trainstack.mocks import RecordingMonitor, TrainstackMocks

# 2 x GT4.41XLARGE948 (8 x A100 40 GB, no RDMA), on-demand, 4,800 GiB -> 20,480 GiB TP.
EXAMPLE: dict[str, Any] = {
    "provider": "tencentcloud",
    "region": "ap-beijing",
    "zone": "ap-beijing-6",
    "instance_type": "GT4.41XLARGE948",
    "accelerator": "A100",
    "accelerator_count": 8,
    "nodes": 2,
    "purchase": "on-demand",
    "interconnect": "none",
    "hours": 72,
    "usd_per_hour": 60.0,
    "file_system": {"capacity_gib": 4800, "throughput_mbps_per_tib": 250},
}
# An HCC type: the family is sourced (section 1.2); the size suffix is not.
HCC_TYPE = "HCCPNV4h.48XLARGE1024"


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


def install_mocks(region: str = "ap-beijing") -> tuple[RecordingMocks, RecordingMonitor]:
    """Point the Pulumi runtime at fresh mocks; return them and the recording monitor."""
    mocks = RecordingMocks(region)
    monitor = RecordingMonitor(mocks)
    pulumi.runtime.set_mocks(mocks, project="trainstack", stack="test", preview=False, monitor=monitor)
    return mocks, monitor


def build(config: ClusterConfig, spot_max_price: str | None = None) -> Plan:
    """Build `TencentcloudGpuCluster("c", config)` in a fresh run; return what it registered.

    Args:
        config: the cluster config.
        spot_max_price: the spot bid; "30.00" is used for spot configs when None.
    """
    from components.tencentcloud.cluster import TencentcloudGpuCluster

    if spot_max_price is None and config.purchase == "spot":
        spot_max_price = "30.00"
    mocks, monitor = install_mocks(config.region)
    resolved: dict[str, Any] = {}

    @pulumi.runtime.test
    def program() -> pulumi.Output:
        cluster = TencentcloudGpuCluster("c", config, spot_max_price=spot_max_price)
        outputs = {key: getattr(cluster, key) for key in OUTPUT_NAMES}
        return pulumi.Output.all(**outputs).apply(resolved.update)

    program()
    return Plan(resolved, monitor, mocks)
