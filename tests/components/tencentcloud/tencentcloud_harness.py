"""A build helper for the Tencent component tests (imported by the test modules): the example
config (tests/fixtures/clusters/tencentcloud.yaml: 2 x GT4.41XLARGE948, no RDMA, on-demand,
4,800 GiB -> 20,480 GiB TP) and the component built under the shared mocks, which answer
Tencent resources and the image lookup (`clouds/tencentcloud/mock.py`)."""

from __future__ import annotations

from functools import partial

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from tests.clusters import example_config
from tests.components import harness

make_config = partial(example_config, "tencentcloud")
install_mocks = partial(harness.install_mocks, "ap-beijing")
# An HCC type: the family is sourced (section 1.2); the size suffix is not.
HCC_TYPE = "HCCPNV4h.48XLARGE1024"


def build(config: ClusterConfig, spot_max_price: str | None = None) -> harness.Plan:
    """Build `TencentcloudGpuCluster("c", config)` in a fresh run; return what it registered.

    Args:
        config: the cluster config.
        spot_max_price: the spot bid; "30.00" is used for spot configs when None.
    """
    from components.tencentcloud.cluster import TencentcloudGpuCluster

    if spot_max_price is None and config.purchase == "spot":
        spot_max_price = "30.00"
    cluster = partial(TencentcloudGpuCluster, spot_max_price=spot_max_price)
    return harness.build_plan(cluster, config, OUTPUT_NAMES)
