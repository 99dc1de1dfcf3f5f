"""A build helper for the Alibaba component tests (imported by the test modules): the example
config (tests/fixtures/clusters/alicloud.yaml: 2 x ecs.ebmgn7ex.32xlarge, eRDMA, on-demand,
3,600 GiB CPFS advance_200) and the component built under the shared mocks, which answer
Alibaba resources and the image lookup (`clouds/alicloud/mock.py`)."""

from __future__ import annotations

from functools import partial

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from tests.clusters import example, example_config
from tests.components import harness

EXAMPLE = example("alicloud")
make_config = partial(example_config, "alicloud")
install_mocks = partial(harness.install_mocks, "cn-beijing")


def build(config: ClusterConfig) -> harness.Plan:
    """Build `AlicloudGpuCluster("c", config)` in a fresh run and return what it registered."""
    from components.alicloud.cluster import AlicloudGpuCluster

    return harness.build_plan(AlicloudGpuCluster, config, OUTPUT_NAMES)
