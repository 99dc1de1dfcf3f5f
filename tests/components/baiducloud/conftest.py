"""Fixtures for the Baidu tests: recorded-response replay, credentials, configs, mocks."""

from __future__ import annotations

import functools
import http.client
import ssl
from collections.abc import Callable
from typing import Any

import pulumi
import pytest

from clouds.contract import OUTPUT_NAMES, ClusterConfig
from components.baiducloud.dynamic_base import BaiduProvider
from tests.clusters import example, example_config
from tests.components.baiducloud.replay import Replay
from trainstack.plan.mocks import RecordingMonitor, TrainstackMocks

ACCESS_KEY = "ALTAKmockTrainstack0001"
SECRET_KEY = "mock0secret0key0trainstack0000001"

# 2 x bcc.hgn5IB.c116m978.8A100-80g, spot, InfiniBand (tests/fixtures/clusters/baiducloud.yaml).
EXAMPLE: dict[str, Any] = example("baiducloud")


@pytest.fixture
def credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    """A (fake) Baidu access key in the environment, and the default endpoint."""
    monkeypatch.setenv("BCE_ACCESS_KEY_ID", ACCESS_KEY)
    monkeypatch.setenv("BCE_SECRET_ACCESS_KEY", SECRET_KEY)
    monkeypatch.delenv("BCE_BCC_ENDPOINT", raising=False)


@pytest.fixture
def replay(monkeypatch: pytest.MonkeyPatch) -> Replay:
    """Serve recorded responses to every `http.client` connection; no polling delay.

    The SDK builds a new `HTTPSConnection` per request, and each builds a default TLS context
    (loading the system's CA store: about 25 ms of CPU) that the replay never uses: they get
    one context for the test process instead."""
    recorded = Replay()
    for cls in (http.client.HTTPConnection, http.client.HTTPSConnection):
        monkeypatch.setattr(cls, "connect", lambda connection: recorded.connect(connection))
    monkeypatch.setattr(http.client.ssl, "_create_default_https_context", _one_tls_context)
    monkeypatch.setattr(BaiduProvider, "POLL_SECONDS", 0.0)
    return recorded


@functools.cache
def _one_tls_context() -> ssl.SSLContext:
    return ssl.create_default_context()


@pytest.fixture
def baidu_config() -> Callable[..., ClusterConfig]:
    """A factory: the example Baidu config with keyword overrides."""
    return lambda **overrides: example_config("baiducloud", **overrides)


@pytest.fixture
def baidu_run() -> Callable[[ClusterConfig], tuple[RecordingMonitor, dict[str, Any]]]:
    """Build `BaiducloudGpuCluster("c", config)` under the shared mocks in a fresh run.

    Returns a function giving the monitor (`records()`, `registered_outputs`) and the
    cluster's resolved outputs (`OUTPUT_NAMES`, the extra outputs and whether
    `ssh_private_key` is a secret).
    """
    from components.baiducloud.cluster import BaiducloudGpuCluster

    names = (*OUTPUT_NAMES, "ssh_private_key", "ehc_cluster_id", "security_group_id", "subnet_id")

    def run(config: ClusterConfig) -> tuple[RecordingMonitor, dict[str, Any]]:
        mocks = TrainstackMocks(region=config.region)
        monitor = RecordingMonitor(mocks)
        pulumi.runtime.set_mocks(mocks, project="trainstack", stack="test", preview=False, monitor=monitor)
        resolved: dict[str, Any] = {}

        @pulumi.runtime.test
        def program() -> Any:
            cluster = BaiducloudGpuCluster("c", config)
            secret = pulumi.Output.from_input(cluster.ssh_private_key.is_secret())
            values = pulumi.Output.all(*[getattr(cluster, key) for key in names], secret)
            keys = (*names, "ssh_private_key_is_secret")
            return values.apply(lambda v: resolved.update(zip(keys, v, strict=False)))

        program()
        return monitor, resolved

    return run
