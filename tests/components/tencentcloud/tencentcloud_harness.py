"""A build helper for the Tencent component tests (imported by the test modules).

The shared `trainstack.plan.mocks.TrainstackMocks` answers Tencent resources and the image
lookup (see `clouds/tencentcloud/mock.py`); `tests/components/harness.py` builds the component and keeps every invoke.
"""

from __future__ import annotations

from typing import Any

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from tests.components import harness
from tests.components.harness import CallRecordingMocks, Monitor, Plan

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


def install_mocks(region: str = "ap-beijing") -> tuple[CallRecordingMocks, Monitor]:
    """Point the Pulumi runtime at fresh mocks; return them and the recording monitor."""
    return harness.install_mocks(region)


def build(config: ClusterConfig, spot_max_price: str | None = None) -> Plan:
    """Build `TencentcloudGpuCluster("c", config)` in a fresh run; return what it registered.

    Args:
        config: the cluster config.
        spot_max_price: the spot bid; "30.00" is used for spot configs when None.
    """
    from functools import partial

    from components.tencentcloud.cluster import TencentcloudGpuCluster

    if spot_max_price is None and config.purchase == "spot":
        spot_max_price = "30.00"
    cluster = partial(TencentcloudGpuCluster, spot_max_price=spot_max_price)
    return harness.build_plan(cluster, config, OUTPUT_NAMES)
