"""Fixtures for the Volcengine component tests (`vc_config`, `vc_monitor`, `vc_run`,
`vc_records`, see `tests.components.harness.cloud_fixtures`): the example config
(tests/fixtures/clusters/volcengine.yaml) and `VolcengineGpuCluster("c", config)` built under
the shared `TrainstackMocks`."""

from tests.components.harness import cloud_fixtures

vc_config, vc_monitor, vc_run, vc_records = cloud_fixtures(
    "vc", "volcengine", "components.volcengine.cluster:VolcengineGpuCluster"
)
