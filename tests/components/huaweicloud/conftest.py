"""Fixtures for the Huawei Cloud component tests (`hw_config`, `hw_monitor`, `hw_run`,
`hw_records`, see `tests.components.harness.cloud_fixtures`): the example config
(tests/fixtures/clusters/huaweicloud.yaml) and `HuaweicloudGpuCluster("c", config)` built under
the shared `TrainstackMocks`."""

from tests.components.harness import cloud_fixtures

hw_config, hw_monitor, hw_run, hw_records = cloud_fixtures(
    "hw", "huaweicloud", "components.huaweicloud.cluster:HuaweicloudGpuCluster"
)
