"""Cloud SDKs are extras: the demo path (resolve and plan an AWS stack) imports no other
cloud's SDK, and each cloud names the extra that installs its SDK."""

from __future__ import annotations

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


def test_the_demo_path_imports_no_other_clouds_sdk():
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from typer.testing import CliRunner\n"
        "from trainstack.cli.app import app\n"
        "result = CliRunner().invoke(app, ['resolve', 'profiles/workloads/training-a100.yaml'])\n"
        "assert result.exit_code == 0, result.output\n"
        "from trainstack.plan.runner import run_plan\n"
        "run_plan('training-a100', Path('.'))\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({OTHER_SDKS!r})))\n"
        "print('pulumi_aws' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["[]", "True"]


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


def test_a_missing_cloud_sdk_names_the_extra_to_install():
    code = (
        "import sys; sys.modules['pulumi_gcp'] = None\n"
        "from components.registry import component_for\n"
        "try:\n    component_for('gcp')\nexcept ModuleNotFoundError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == (
        "provider 'gcp': the GCP component needs pulumi-gcp (pulumi_gcp is not installed); "
        "install it with: pip install 'trainstack[gcp]'"
    )


@pytest.mark.parametrize("review", [False, True], ids=["plan", "plan-markdown"])
def test_planning_a_stack_without_its_clouds_extra_is_one_line_and_exit_2(review):
    argv = ["plan", "-s", "training-a3-gcp"] + (["--markdown"] if review else [])
    code = f"import sys; sys.modules['pulumi_gcp'] = None\nfrom trainstack.cli.app import app\napp({argv!r})\n"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr[-2000:]
    assert "Traceback" not in out.stderr and "Traceback" not in out.stdout
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "Pulumi.training-a3-gcp.yaml" in lines[0] and "pip install 'trainstack[gcp]'" in lines[0]
