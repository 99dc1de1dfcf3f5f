"""`resolve --write-stack` never writes a stack `plan` refuses: one written stack per cloud that
resolve can pick is planned, and a region-priced pick without `--zone` writes nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli.helpers import ROOT, one_error_line, run
from trainstack.plan.runner import run_plan

WORKLOADS = ROOT / "profiles" / "workloads"


@pytest.fixture()
def project(tmp_path: Path, monkeypatch) -> Path:
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, tmp_path)
    (tmp_path / "stacks").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("workload", "cloud", "zone"),
    [
        pytest.param("training-a100.yaml", "aws", None, id="aws"),
        pytest.param("training-h100-azure.yaml", "azure", None, id="azure"),
        pytest.param("training-a3-gcp.yaml", "gcp", None, id="gcp"),
        pytest.param("training-a100-alicloud.yaml", "alicloud", "cn-beijing-h", id="alicloud"),
        pytest.param("training-a100-tencentcloud.yaml", "tencentcloud", "ap-beijing-6", id="tencentcloud"),
    ],
)
def test_every_written_stack_plans(project: Path, workload: str, cloud: str, zone: str | None) -> None:
    args = ["resolve", str(WORKLOADS / workload), "--top", "1", "--write-stack", "written"]
    result = run(*args, *(["--zone", zone] if zone else []))
    assert result.exit_code == 0, result.output
    plan = run_plan("written", project)
    assert plan.provider == cloud and plan.resources


@pytest.mark.parametrize(
    ("workload", "says"),
    [
        pytest.param("training-a100-alicloud.yaml", "lists Alibaba prices per region", id="alicloud"),
        pytest.param("training-a100-tencentcloud.yaml", "lists Tencent prices per region", id="tencentcloud"),
    ],
)
def test_a_region_priced_pick_without_a_zone_writes_nothing(project: Path, workload: str, says: str) -> None:
    result = run("resolve", str(WORKLOADS / workload), "--top", "1", "--write-stack", "written")
    one_error_line(result, f"not written, `plan` would refuse it: zone: the price catalog {says}")
    assert "pass --zone ZONE with --write-stack" in result.stderr
    assert not (project / "stacks" / "Pulumi.written.yaml").exists()


def test_a_zone_for_a_pick_priced_in_its_own_zone_is_refused(project: Path) -> None:
    result = run("resolve", str(WORKLOADS / "training-a100.yaml"), "--write-stack", "written", "--zone", "use1-az9")
    one_error_line(result, "--zone use1-az9: the pick is priced in its own zone")
    assert not (project / "stacks" / "Pulumi.written.yaml").exists()


@pytest.mark.parametrize(
    ("workload", "cloud", "token"),
    [
        pytest.param("training-a100-azureml.yaml", "azure", "trainstack:azure:AmlPool", id="azureml"),
        pytest.param("training-a100-sagemaker.yaml", "aws", "trainstack:aws:SageMakerPool", id="sagemaker"),
        pytest.param("training-h100-hyperpod.yaml", "aws", "trainstack:aws:HyperPodPool", id="hyperpod"),
        pytest.param(
            "training-ascend-modelarts.yaml", "huaweicloud", "trainstack:huaweicloud:ModelArtsPool", id="modelarts"
        ),
        pytest.param("training-a100-pai-lingjun.yaml", "alicloud", "trainstack:alicloud:LingjunPool", id="pai-lingjun"),
        pytest.param("training-a100-ti-one.yaml", "tencentcloud", "trainstack:tencentcloud:TiOnePool", id="ti-one"),
    ],
)
def test_a_managed_platform_pick_plans_its_pool(project: Path, workload: str, cloud: str, token: str) -> None:
    """The platform's pick is written with `platform:` and plans as that platform's pool: an Azure
    ML workspace and an AmlCompute cluster (min 0, LowPriority for spot), a SageMaker bucket and
    role, a HyperPod cluster with the workload's FSx, a ModelArts Ascend 910B pool, a PAI Lingjun cluster
    of pay-as-you-go nodes, a TI-ONE training resource group."""
    result = run("resolve", str(WORKLOADS / workload), "--top", "1", "--write-stack", "written")
    assert result.exit_code == 0, result.output
    plan = run_plan("written", project)
    assert plan.provider == cloud
    types = {r["type"]: r for r in plan.resources}
    assert types[token]["parent"] is None
    compute = types.get("azure-native:machinelearningservices:Compute")
    if compute is not None:
        inner = compute["inputs"]["properties"]["properties"]
        assert inner["scaleSettings"]["minNodeCount"] == 0 and inner["vmPriority"] == "LowPriority"
        assert "azure-native:machinelearningservices:Workspace" in types
    cluster = types.get("pulumi-python:dynamic/aws:HyperPodCluster")
    if cluster is not None:  # the persistent cluster keeps the workload's FSx, mounted at /fsx
        workers = cluster["inputs"]["request"]["InstanceGroups"][1]
        assert (workers["InstanceType"], workers["InstanceCount"]) == ("ml.p5.48xlarge", 2)
        assert workers["InstanceStorageConfigs"][0]["FsxLustreConfig"]["MountPath"] == "/fsx"
        assert types["aws:fsx/lustreFileSystem:LustreFileSystem"]["inputs"]["storageCapacity"] == 4800
    lingjun = [r["inputs"] for r in plan.resources if r["type"] == "alicloud:eflo/node:Node"]
    if token.endswith("LingjunPool"):
        assert [(n["machineType"], n["paymentType"]) for n in lingjun] == [("efg1.nvga1", "PayAsYouGo")] * 2
    group = types.get("pulumi-python:dynamic/tencentcloud:TiOneResourceGroup")
    if token.endswith("TiOnePool"):
        assert group["inputs"]["request"]["Name"] == "written-train" and group["protect"] is True


def test_a_written_zone_is_corrected_by_zone_and_force(project: Path) -> None:
    args = ["resolve", str(WORKLOADS / "training-a100-alicloud.yaml"), "--top", "1", "--write-stack", "written"]
    assert run(*args, "--zone", "cn-beijing-g").exit_code == 0
    path = project / "stacks" / "Pulumi.written.yaml"
    assert "zone: cn-beijing-g" in path.read_text()
    # moving the nodes is the writer's to refuse without --force; with it, --zone corrects the zone
    moved = run(*args, "--zone", "cn-beijing-h", "--force")
    assert moved.exit_code == 0, moved.output
    assert "zone: cn-beijing-h" in path.read_text() and "cn-beijing-g" not in path.read_text()
    # without --zone, a rewrite keeps the corrected zone
    assert run(*args).exit_code == 0 and "zone: cn-beijing-h" in path.read_text()


@pytest.mark.parametrize(
    "zone",
    [
        pytest.param("cn-beijing-zz", id="no-such-zone"),
        pytest.param("cn-shanghai-a", id="zone-of-another-region"),
        pytest.param("use1-az1", id="zone-of-another-cloud"),
    ],
)
def test_a_bad_zone_over_a_written_stack_is_named_not_sent_to_force(project: Path, zone: str) -> None:
    """Over an existing stack, a bad --zone was first refused as a move ("pass --force"), and
    --force then refused the zone: the suggestion was not valid input. The zone is named first."""
    args = ["resolve", str(WORKLOADS / "training-a100-alicloud.yaml"), "--top", "1", "--write-stack", "written"]
    assert run(*args, "--zone", "cn-beijing-g").exit_code == 0
    result = run(*args, "--zone", zone)
    one_error_line(result, f"not written, `plan` would refuse it: zone: '{zone}' is not a zone id of region cn-beijing")
    assert "--force" not in result.stderr
    assert "zone: cn-beijing-g" in (project / "stacks" / "Pulumi.written.yaml").read_text()


def test_an_azure_zone_is_corrected_back_to_regional_by_zone_and_force(project: Path) -> None:
    """`--zone eastus` (the region's own name: regional placement, docs/cli.md) over a stack in
    zone 2 was read as "no zone given" and the stack's zone 2 was kept ("stack unchanged")."""
    args = ["resolve", str(WORKLOADS / "training-h100-azure.yaml"), "--top", "1", "--write-stack", "written"]
    path = project / "stacks" / "Pulumi.written.yaml"
    assert run(*args, "--zone", "2").exit_code == 0 and "zone: '2'" in path.read_text()
    moved = run(*args, "--zone", "eastus", "--force")
    assert moved.exit_code == 0 and "stack written: " in moved.stdout, moved.output
    assert "    zone: eastus" in path.read_text()
