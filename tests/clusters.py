"""The checked-in example cluster configs (the shape the resolver writes), one per cloud in
tests/fixtures/clusters/<name>.yaml, shared by the component, plan and preflight tests."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import yaml

from clouds.contract import ClusterConfig

EXAMPLES = Path(__file__).parent / "fixtures" / "clusters"


@functools.cache
def _read(name: str) -> dict[str, Any]:
    return yaml.load((EXAMPLES / f"{name}.yaml").read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def example(name: str, **changes: Any) -> dict[str, Any]:
    """A fresh copy of the example cluster config `name` (aws, azure, gcp, gcp-tpu, alicloud,
    tencentcloud, huaweicloud, volcengine, baiducloud) with `changes` over its keys.

    Raises:
        FileNotFoundError: no tests/fixtures/clusters/<name>.yaml.
    """
    return {**copy.deepcopy(_read(name)), **changes}


def example_config(name: str, **changes: Any) -> ClusterConfig:
    """The example `name` with `changes`, validated as a `ClusterConfig`."""
    return ClusterConfig.model_validate(example(name, **changes))


# 2 x p4d.24xlarge, spot, EFA, 4,800 GiB FSx for Lustre at 250 MB/s per TiB.
BASE_CLUSTER: dict[str, Any] = example("aws")
