"""Fixtures for the GCP component tests; mocks and helpers live in `gcp_harness`."""

from __future__ import annotations

import pytest

from clouds.contract import ClusterConfig
from tests.components.gcp.gcp_harness import make_config


@pytest.fixture
def example() -> ClusterConfig:
    """The A3 High spot example config: 2 x a3-highgpu-8g, rdma, 4,800 GiB at 250 MB/s/TiB."""
    return make_config()
