"""Configs the GCP component rejects before creating anything, with the fix in the message."""

from __future__ import annotations

from typing import Any

import pytest

from clouds.gcp.validate import validate_args
from tests.cases import cases
from tests.components.gcp.gcp_harness import TPU_EXAMPLE, make_config


@pytest.mark.parametrize(("changes", "message"), cases("gcp_refusals.yaml", "changes", "message"))
def test_rejected(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        validate_args(make_config(**changes), "train")


@pytest.mark.parametrize("name", ["Train", "train_1", "1train", "x" * 41, "train-"])
def test_bad_names(name: str) -> None:
    with pytest.raises(ValueError, match="name:"):
        validate_args(make_config(), name)


def test_tpu_chip_count_must_match_the_slice() -> None:
    with pytest.raises(ValueError, match="set accelerator_count: 4"):
        validate_args(make_config(TPU_EXAMPLE, accelerator_count=8), "train")


@pytest.mark.parametrize(
    "changes",
    [
        pytest.param({}, id="example"),
        pytest.param(
            {"instance_type": "a2-highgpu-8g", "accelerator": "A100", "interconnect": "none"},
            id="a2-none",
        ),
        pytest.param(
            {"instance_type": "n1-standard-16", "accelerator": "T4", "interconnect": "none"},
            id="n1-t4",
        ),
        pytest.param({"purchase": "on-demand", "capacity_reservation_id": "r1"}, id="reservation"),
        pytest.param({"ssh_cidrs": ["203.0.113.0/24"], "tags": {"team": "ml"}}, id="ssh-tags"),
    ],
)
def test_accepted(changes: dict[str, Any]) -> None:
    validate_args(make_config(**changes), "train")
    validate_args(make_config(TPU_EXAMPLE), "train")
