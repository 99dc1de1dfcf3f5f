"""Huawei and Volcengine zones must belong to the stack's region, and the provider's region key
(`aws:region`, `alicloud:region`, ...) must agree with `trainstack:cluster.region`."""

import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from clouds.config import ConfigError, check_provider_region, provider_region_key
from clouds.contract import ClusterConfig
from clouds.huaweicloud.validate import validate_args as huawei_validate
from clouds.volcengine.validate import validate_args as volcengine_validate
from components.registry import REGISTRY
from profiles.stack.writer import render_stack
from tests.cases import cases
from tests.cli.helpers import ROOT, one_error_line
from tests.clusters import example_config
from trainstack.cli.app import app

HUAWEI_STACK = ROOT / "stacks" / "Pulumi.training-a100-huaweicloud.yaml"
VOLCENGINE_STACK = ROOT / "stacks" / "Pulumi.training-a10-volcengine.yaml"
STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml"))


def _stack_config(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))["config"]


def _cluster(path: Path, **overrides) -> ClusterConfig:
    return ClusterConfig.model_validate({**_stack_config(path)["trainstack:cluster"], **overrides})


# Each cloud's zone rule and the committed stack its cases change.
ZONE_RULES = {"huaweicloud": (huawei_validate, HUAWEI_STACK), "volcengine": (volcengine_validate, VOLCENGINE_STACK)}


@pytest.mark.parametrize(
    ("cloud", "overrides", "message"), cases("zone_refusals.yaml", "cloud", "overrides", "message")
)
def test_a_zone_outside_the_region_is_refused(cloud, overrides, message):
    validate, stack = ZONE_RULES[cloud]
    with pytest.raises(ValueError) as raised:
        validate(_cluster(stack, **overrides), "training")
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


@pytest.mark.parametrize(("cloud", "region", "zone"), cases("zones_accepted.yaml", "cloud", "region", "zone"))
def test_a_zone_of_the_region_is_accepted(cloud, region, zone):
    validate, stack = ZONE_RULES[cloud]
    validate(_cluster(stack, region=region, zone=zone), "training")


@pytest.mark.parametrize("stack", STACKS)
def test_region_keys_are_the_ones_the_stack_writer_writes(stack):
    cluster = ClusterConfig(
        **yaml.safe_load((ROOT / "stacks" / f"Pulumi.{stack}.yaml").read_text())["config"]["trainstack:cluster"]
    )
    priced = cluster.model_copy(update={"usd_per_hour": cluster.usd_per_hour or 1.0})  # the writer writes priced picks
    written = yaml.safe_load(render_stack(priced, "w.yaml", "2026-01-01"))["config"]
    assert written[provider_region_key(cluster.provider)] == cluster.region
    check_provider_region(cluster, written[provider_region_key(cluster.provider)])


def test_the_committed_stacks_cover_every_provider():
    assert {
        yaml.safe_load((ROOT / "stacks" / f"Pulumi.{s}.yaml").read_text())["config"]["trainstack:cluster"]["provider"]
        for s in STACKS
    } == set(REGISTRY)


def test_provider_region_check_is_pure():
    cluster = _cluster(HUAWEI_STACK)
    check_provider_region(cluster, "cn-north-4")
    with pytest.raises(
        ConfigError,
        match=r"^huaweicloud:region: not set; the provider would build in whatever "
        r"region its environment names",
    ):
        check_provider_region(cluster, None)
    with pytest.raises(ConfigError) as raised:
        check_provider_region(cluster, "cn-east-3")
    assert str(raised.value) == (
        "huaweicloud:region: 'cn-east-3' disagrees with trainstack:cluster.region 'cn-north-4'; set "
        "huaweicloud:region: cn-north-4, or change the cluster's region and zone together (e.g. rerun "
        "`trainstack resolve --write-stack`)"
    )


def _plan_in(tmp_path, monkeypatch, stack: str, config: dict):
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    shutil.copy(ROOT / "__main__.py", tmp_path)
    (tmp_path / "stacks").mkdir(exist_ok=True)
    (tmp_path / "stacks" / f"Pulumi.{stack}.yaml").write_text(yaml.safe_dump({"config": config}))
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(app, ["plan", "-s", stack])


@pytest.mark.parametrize("stack", STACKS)
def test_plan_refuses_a_provider_region_key_naming_another_region(tmp_path, monkeypatch, stack):
    config = _stack_config(ROOT / "stacks" / f"Pulumi.{stack}.yaml")
    cluster = config["trainstack:cluster"]
    key = provider_region_key(cluster["provider"])
    config[key] = "elsewhere-1"  # the Azure example sets no key: adding one is checked too
    result = _plan_in(tmp_path, monkeypatch, stack, config)
    one_error_line(
        result,
        f"{key}: 'elsewhere-1' disagrees with trainstack:cluster.region "
        f"'{cluster['region']}'; set {key}: {cluster['region']}",
    )


def test_plan_of_a_stack_without_the_region_key_is_refused(tmp_path, monkeypatch):
    config = _stack_config(VOLCENGINE_STACK)
    del config["volcengine:region"]
    result = _plan_in(tmp_path, monkeypatch, "no-key", config)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "volcengine:region: not set; " in result.stderr and "set volcengine:region: cn-beijing" in result.stderr


@pytest.mark.parametrize(
    "path, zone, text",
    [
        pytest.param(HUAWEI_STACK, "cn-east-3a", "zone: 'cn-east-3a' is not a zone of region cn-north-4;", id="huawei"),
        pytest.param(
            VOLCENGINE_STACK,
            "cn-shanghai-a",
            "zone: 'cn-shanghai-a' is not a zone of region cn-beijing;",
            id="volcengine",
        ),
    ],
)
def test_plan_shows_the_zone_refusal_as_one_line(tmp_path, monkeypatch, path, zone, text):
    config = _stack_config(path)
    config["trainstack:cluster"]["zone"] = zone
    one_error_line(_plan_in(tmp_path, monkeypatch, "bad-zone", config), text)


def test_volcengine_accepts_both_zone_forms_of_a_numbered_region():
    import re

    from clouds.common import check_zone_in_region
    from clouds.volcengine.validate import validate_args  # noqa: F401  (the module under test)

    base = example_config("volcengine", region="ap-southeast-1", zone="ap-southeast-1a", nodes=1, hours=1)
    for zone in ("ap-southeast-1a", "ap-southeast-1-a"):
        check_zone_in_region(
            base.model_copy(update={"zone": zone}),
            "Volcengine",
            re.compile(r"^[a-z]+(-[a-z]+)+(-\d+)?$"),
            "cn-beijing",
            separator="-",
            also=("",),
        )
