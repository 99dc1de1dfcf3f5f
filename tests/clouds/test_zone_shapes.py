"""Zone ids of the region-priced clouds are accepted in every form the consoles list, and only
those: Alibaba's region plus one letter (with a dash in most regions, without in some), Tencent's
region plus a number."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from clouds.alicloud.validate import _check_zone
from clouds.tencentcloud.validate import validate_args as tencent_validate
from profiles.stack.file import read_cluster

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("region", "zone"),
    [
        pytest.param("cn-beijing", "cn-beijing-h", id="dash-letter"),
        pytest.param("ap-southeast-1", "ap-southeast-1a", id="no-dash-letter"),
    ],
)
def test_alibaba_zone_forms_are_accepted(region, zone):
    assert _check_zone(SimpleNamespace(region=region, zone=zone, instance_type="ecs.ebmgn7ex.32xlarge")) is None


@pytest.mark.parametrize("zone", ["ap-beijing-7", "ap-beijing-10"])
def test_tencent_numbered_zones_are_accepted(zone):
    _, config = read_cluster(ROOT / "stacks" / "Pulumi.training-a100-tencentcloud.yaml")
    tencent_validate(config.model_copy(update={"zone": zone}), "training-a100-tencentcloud")


@pytest.mark.parametrize("zone", ["ap-beijing-", "ap-beijing-6a", "ap-beijing-123"])
def test_tencent_other_shapes_are_refused(zone):
    _, config = read_cluster(ROOT / "stacks" / "Pulumi.training-a100-tencentcloud.yaml")
    with pytest.raises(ValueError, match=rf"^zone: '{zone}' is not a zone of region ap-beijing"):
        tencent_validate(config.model_copy(update={"zone": zone}), "training-a100-tencentcloud")
