"""`trainstack check` runs the component's own validation before any live check, so it never
says ok for a stack `trainstack plan` and `pulumi up` refuse."""

import inspect
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from clouds.contract import ClusterConfig
from components.registry import REGISTRY
from profiles.preflight.check import PreflightError, component_validation, preflight, read_cluster, validation_finding
from trainstack.cli.app import app

ROOT = Path(__file__).parents[2]
STACKS = {p.name.removeprefix("Pulumi.").removesuffix(".yaml"): p for p in (ROOT / "stacks").glob("Pulumi.*.yaml")}
BY_PROVIDER = {
    "alicloud": "training-a100-alicloud",
    "tencentcloud": "training-a100-tencentcloud",
    "huaweicloud": "training-a100-huaweicloud",
    "volcengine": "training-a10-volcengine",
    "baiducloud": "training-a100-baiducloud",
    "aws": "training-a100",
}


def _config(stack: str) -> dict:
    return yaml.safe_load(STACKS[stack].read_text(encoding="utf-8"))["config"]


def _cluster(provider: str, **overrides) -> ClusterConfig:
    return ClusterConfig.model_validate({**_config(BY_PROVIDER[provider])["trainstack:cluster"], **overrides})


@pytest.fixture()
def no_live_checks(monkeypatch):
    def live(*args, **kwargs):
        raise AssertionError("a live check ran for a stack the component refuses")

    monkeypatch.setattr("profiles.preflight.aws.check_aws", live)
    monkeypatch.setattr("profiles.preflight.guidance.GUIDANCE", {p: live for p in REGISTRY})


@pytest.mark.parametrize(
    "provider, overrides, message",
    [
        pytest.param(
            "alicloud",
            {"kms_key_id": "key-1"},
            "kms_key_id: not supported by the Alibaba component yet (it encrypts system disks with the "
            "ECS service key); remove kms_key_id",
            id="alicloud-kms",
        ),
        pytest.param(
            "alicloud",
            {"capacity_reservation_id": "crp-1"},
            "capacity_reservation_id: not supported by the Alibaba component yet (it creates its own VPC "
            "and pay-as-you-go nodes); remove capacity_reservation_id",
            id="alicloud-reservation",
        ),
        pytest.param(
            "tencentcloud",
            {"capacity_reservation_id": "cr-1"},
            "capacity_reservation_id: not supported by the Tencent component yet (it creates its own VPC "
            "and pay-as-you-go or spot nodes); remove capacity_reservation_id",
            id="tencent-reservation",
        ),
        pytest.param(
            "huaweicloud",
            {"capacity_reservation_id": "cr-1"},
            "capacity_reservation_id: not supported by the Huawei Cloud component yet (it cannot launch "
            "into a capacity reservation); remove capacity_reservation_id",
            id="huawei-reservation",
        ),
        pytest.param(
            "volcengine",
            {"capacity_reservation_id": "cr-1"},
            "capacity_reservation_id: not supported by the Volcengine component yet (it cannot launch "
            "into a capacity reservation); remove capacity_reservation_id",
            id="volcengine-reservation",
        ),
        pytest.param(
            "baiducloud",
            {"capacity_reservation_id": "cr-1"},
            "capacity_reservation_id: not supported by the Baidu AI Cloud component yet (it cannot launch "
            "into a capacity reservation); remove capacity_reservation_id",
            id="baidu-reservation",
        ),
        pytest.param(
            "alicloud",
            {"zone": "cn-shanghai-a"},
            "zone: 'cn-shanghai-a' is not a zone id of region cn-beijing; use a zone id of that region "
            "(cn-beijing-<letter>, e.g. cn-beijing-a)",
            id="alicloud-zone-elsewhere",
        ),
        pytest.param(
            "alicloud",
            {"zone": "cn-beijing"},
            "zone: the price catalog lists Alibaba prices per region, so this stack has no zone yet; set "
            "zone to a zone id of cn-beijing (<region>-<letter>) that sells ecs.ebmgn7ex.32xlarge, as the "
            "Alibaba console lists them",
            id="alicloud-zone-is-region",
        ),
        pytest.param(
            "tencentcloud",
            {"purchase": "spot"},
            "spot_max_price: purchase spot on Tencent needs a bid per node-hour in the account's currency "
            "(CNY on the China site), which ClusterConfig does not carry; pass spot_max_price='<price>' to "
            "TencentcloudGpuCluster or set purchase: on-demand",
            id="tencent-spot-without-bid",
        ),
        pytest.param(
            "huaweicloud",
            {"zone": "cn-east-3a"},
            "zone: 'cn-east-3a' is not a zone of region cn-north-4; Huawei Cloud zone ids are <region><letter>: "
            "use a zone id of that region (cn-north-4<letter>, e.g. cn-north-4a) or set region to the zone's "
            "region",
            id="huawei-zone-elsewhere",
        ),
        pytest.param(
            "aws",
            {"zone": "apse2-az2"},
            "zone: 'apse2-az2' is not an AZ ID of region us-east-1 (those begin use1-az); set zone and "
            "region to the same place",
            id="aws-zone-elsewhere",
        ),
    ],
)
def test_component_refusal_is_a_fail_finding_and_no_live_check_runs(no_live_checks, provider, overrides, message):
    cluster = _cluster(provider, **overrides)
    findings = preflight(cluster, catalog_version=cluster.catalog_version, name=BY_PROVIDER[provider])
    assert [f.check for f in findings] == ["config", "catalog"]  # nothing live after the refusal
    assert findings[0].status == "fail"
    assert findings[0].detail == message
    assert findings[0].fix == (
        "change the stack file as it says; `trainstack plan` and `pulumi up` refuse it until then"
    )


def test_the_cluster_name_is_the_stack_name(no_live_checks):
    (finding,) = preflight(_cluster("huaweicloud"), name="Bad_Name_" + "x" * 40)
    assert finding.status == "fail" and finding.detail.startswith("name: 'Bad_Name_")


@pytest.mark.parametrize("stack", sorted(STACKS))
def test_every_committed_stack_passes_its_component_validation(stack):
    assert validation_finding(read_cluster(STACKS[stack]), stack) is None


@pytest.mark.parametrize("provider", sorted(REGISTRY))
def test_every_registered_component_has_a_validate_function(provider):
    validate = component_validation(provider)
    assert validate.__module__ == f"clouds.{provider}.validate"
    assert list(inspect.signature(validate).parameters)[:2] == ["args", "name"]  # one protocol


def test_unknown_provider_keeps_the_existing_error():
    assert component_validation("mars") is None
    with pytest.raises(PreflightError, match="provider 'mars': trainstack check knows aws, "):
        preflight(ClusterConfig.model_validate({**_cluster("aws").model_dump(), "provider": "mars"}))


def test_validation_imports_no_pulumi_or_cloud_sdk():
    code = (
        "import sys; from profiles.preflight.check import read_cluster, validation_finding; "
        "from pathlib import Path; "
        "[validation_finding(read_cluster(p), 'x') for p in sorted(Path('stacks').glob('Pulumi.*.yaml'))]; "
        "print(sorted(m for m in ('pulumi', 'boto3', 'pulumi_aws', 'pulumi_alicloud') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _check_in(tmp_path, monkeypatch, stack: str, config: dict):
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    (tmp_path / "stacks").mkdir(exist_ok=True)
    (tmp_path / "stacks" / f"Pulumi.{stack}.yaml").write_text(yaml.safe_dump({"config": config}))
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(app, ["check", "-s", stack])


@pytest.mark.parametrize(
    ("stack", "change", "words"),
    [
        pytest.param(
            "training-a100-alicloud",
            {"kms_key_id": "key-1"},
            "kms_key_id: not supported by the Alibaba component yet",
            id="alicloud-kms",
        ),
        pytest.param(
            "training-a100",
            {"file_system": {"capacity_gib": 4800, "throughput_mbps_per_tib": 300}},
            "file_system.throughput_mbps_per_tib: 300 is not valid for PERSISTENT_2",
            id="aws-fsx-throughput",
        ),
        pytest.param(
            "training-a100",
            {
                "purchase": "on-demand",
                "reservation": {"kind": "capacity-block", "id": "cr-0123", "ends": "2020-01-01T00:00:00Z"},
            },
            "reservation.ends: 2020-01-01T00:00:00Z has passed",
            id="aws-ended-block",
        ),
        pytest.param(
            "training-a100-tencentcloud",
            {"kms_key_id": "key-1"},
            "kms_key_id",
            id="tencent-kms",
        ),
    ],
)
def test_check_refuses_what_plan_refuses_with_exit_2(tmp_path, monkeypatch, no_live_checks, stack, change, words):
    """A stack the component refuses is input to fix: `check` exits 2 with the one `error:` line
    `plan` prints (docs/cli.md exit statuses), not a failed check (exit 1)."""
    from trainstack.plan.runner import PlanError, run_plan

    config = _config(stack)
    config["trainstack:cluster"].update(change)
    result = _check_in(tmp_path, monkeypatch, "refused", config)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert words in result.stderr and "FAIL" not in result.output
    shutil.copy(ROOT / "__main__.py", tmp_path)
    with pytest.raises(PlanError) as planned:
        run_plan("refused", tmp_path)
    assert result.stderr == f"error: {planned.value}\n"


def test_check_refuses_a_provider_region_key_naming_another_region(tmp_path, monkeypatch, no_live_checks):
    config = _config("training-a100-tencentcloud")
    config["tencentcloud:region"] = "ap-shanghai"
    result = _check_in(tmp_path, monkeypatch, "other-region", config)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert (
        "tencentcloud:region: 'ap-shanghai' disagrees with trainstack:cluster.region 'ap-beijing'; "
        "set tencentcloud:region: ap-beijing"
    ) in result.stderr


def test_check_of_a_valid_chinese_stack_still_gives_guidance(tmp_path, monkeypatch):
    result = _check_in(tmp_path, monkeypatch, "huawei", _config("training-a100-huaweicloud"))
    assert result.exit_code == 0, result.output
    assert "FAIL" not in result.stdout and "config:" not in result.stdout
