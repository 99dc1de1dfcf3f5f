"""A build helper for the Alibaba component tests (imported by the test modules).

The shared `trainstack.plan.mocks.TrainstackMocks` answers Alibaba resources and the image
lookup (see `clouds/alicloud/mock.py`); `tests/components/harness.py` builds the component and keeps every invoke.
"""

from __future__ import annotations

from typing import Any

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from tests.components import harness
from tests.components.harness import CallRecordingMocks, Monitor, Plan

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


def install_mocks(region: str = "cn-beijing") -> tuple[CallRecordingMocks, Monitor]:
    """Point the Pulumi runtime at fresh mocks; return them and the recording monitor."""
    return harness.install_mocks(region)


def build(config: ClusterConfig) -> Plan:
    """Build `AlicloudGpuCluster("c", config)` in a fresh run and return what it registered."""
    from components.alicloud.cluster import AlicloudGpuCluster

    return harness.build_plan(AlicloudGpuCluster, config, OUTPUT_NAMES)
