"""Cloud SDKs are extras: the demo path (resolve and plan an AWS stack) imports no other
cloud's SDK, and each cloud names the extra that installs its SDK."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from clouds.registry import CLOUDS

ROOT = Path(__file__).resolve().parents[1]
# Top-level modules of the SDKs the AWS demo must not load.
OTHER_SDKS = (
    "pulumi_azure_native",
    "pulumi_gcp",
    "pulumi_tls",
    "pulumi_alicloud",
    "tencentcloud_iac_pulumi",
    "pulumi_huaweicloud",
    "pulumi_volcengine",
    "pulumi_volcenginecc",
    "baidubce",
    "tencentcloud",
    "alibabacloud_ecs20140526",
    "alibabacloud_tea_openapi",
    "huaweicloudsdkcore",
    "huaweicloudsdkbss",
    "huaweicloudsdkmodelarts",
    "volcenginesdkcore",
    "volcenginesdkbilling",
    "azure",
    "googleapiclient",  # google.protobuf is Pulumi's own
)


# One child interpreter answers every check here that needs a fresh process, in this order: the
# demo path first (what it imports), then, with pulumi_gcp made unimportable, the missing-SDK
# message and the two plans of a GCP stack (one Python start-up and one Pulumi import instead of
# four). Each section's result is one JSON value in the file the child writes.
FRESH = """
import contextlib, io, json, sys, traceback
from pathlib import Path
results = {}
from typer.testing import CliRunner
from trainstack.cli.app import app
result = CliRunner().invoke(app, ['resolve', 'profiles/workloads/training-a100.yaml'])
assert result.exit_code == 0, result.output
from trainstack.plan.runner import run_plan
run_plan('training-a100', Path('.'))
results['demo'] = [sorted({m.split('.')[0] for m in sys.modules} & set(OTHER_SDKS)), 'pulumi_aws' in sys.modules]
sys.modules['pulumi_gcp'] = None
from components.registry import component_for
try:
    component_for('gcp')
except ModuleNotFoundError as exc:
    results['missing'] = str(exc)
for name, argv in PLANS.items():
    out, err, status = io.StringIO(), io.StringIO(), None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            app(argv)
        except SystemExit as stop:
            status = stop.code
        except BaseException:
            traceback.print_exc()
    results[name] = [status, out.getvalue(), err.getvalue()]
Path(sys.argv[1]).write_text(json.dumps(results))
"""
PLANS = {
    "plan": ["plan", "-s", "training-a3-gcp"],
    "plan-markdown": ["plan", "-s", "training-a3-gcp", "--markdown"],
}


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The child's results (section name -> value); fails with its stderr when it failed."""
    path = tmp_path_factory.mktemp("fresh") / "results.json"
    code = f"OTHER_SDKS = {OTHER_SDKS!r}\nPLANS = {PLANS!r}\n{FRESH}"
    out = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(path.read_text())


def test_the_demo_path_imports_no_other_clouds_sdk(fresh):
    assert fresh["demo"] == [[], True]


def test_core_dependencies_hold_no_cloud_sdk_and_every_cloud_has_an_extra():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = " ".join(project["dependencies"])
    for sdk in ("pulumi-aws", "pulumi-azure-native", "pulumi-gcp", "pulumi-alicloud", "boto3", "bce-python-sdk"):
        assert sdk not in core
    extras = project["optional-dependencies"]
    assert set(extras["all"]) == {"trainstack[aws,azure,gcp,china]"}
    for cloud in CLOUDS.values():
        assert cloud.extra in extras, cloud.name
        assert any(req.startswith(cloud.sdk) for req in extras[cloud.extra]), cloud.name


def test_a_missing_cloud_sdk_names_the_extra_to_install(fresh):
    assert fresh["missing"] == (
        "provider 'gcp': the GCP component needs pulumi-gcp (pulumi_gcp is not installed); "
        "install it with: pip install 'trainstack[gcp]'"
    )


@pytest.mark.parametrize("plan", list(PLANS))
def test_planning_a_stack_without_its_clouds_extra_is_one_line_and_exit_2(fresh, plan):
    status, stdout, stderr = fresh[plan]
    assert status == 2, stderr[-2000:]
    assert "Traceback" not in stderr and "Traceback" not in stdout
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "Pulumi.training-a3-gcp.yaml" in lines[0] and "pip install 'trainstack[gcp]'" in lines[0]
