"""`trainstack run` without the platform's credentials behaves the same on every platform
(docs/cli.md, exit statuses): exit 1, one `error: run: no <cloud> credentials ...` line naming
what to set or how to log in, never a `job:` blame on a job that is fine (new-user pass 2,
findings 3 and 4)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from clouds.huaweicloud.modelarts import credential_values
from tests.aws_live import credentials as aws_credentials
from tests.cli.helpers import one_error_line, run
from tests.trainstack.run.test_china_platforms_run import STAMP, _modelarts, _pai, _tione
from trainstack.run import MissingCredentials, modelarts, pai_dlc, ti_one

ROOT = Path(__file__).parents[3]
JOB = "    job:\n      command: /fsx/train.py --epochs 10\n"
CLOUD_VARIABLES = (
    "GOOGLE_OAUTH_ACCESS_TOKEN",
    "GOOGLE_PROJECT",
    "GOOGLE_CLOUD_PROJECT",
    "CLOUDSDK_CORE_PROJECT",
    "AZURE_ACCESS_TOKEN",
    "AZURE_SUBSCRIPTION_ID",
)


@pytest.mark.parametrize(
    ("stack", "provider", "said"),
    [
        pytest.param(
            "training-a100",
            "aws",
            "run: no AWS credentials (Unable to locate credentials); run `aws configure`",
            id="aws-vm",
        ),
        pytest.param(
            "training-a3-gcp",
            "gcp",
            "run: no GCP credentials: gcloud is not installed (not on PATH); log in with `gcloud auth login`",
            id="gcp-vm",
        ),
        pytest.param(
            "training-h100-azure",
            "azure",
            "run: no Azure credentials: az is not installed (not on PATH); log in with `az login`",
            id="azure-vm",
        ),
        pytest.param(
            "training-a100-azureml",
            None,
            "run: no Azure credentials: az is not installed (not on PATH); log in with `az login`",
            id="azureml",
        ),
    ],
)
def test_run_without_credentials_exits_1_naming_them(stack, provider, said, tmp_path, monkeypatch):
    aws_credentials(monkeypatch, present=False)
    for name in CLOUD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))  # no gcloud, no az
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    text = (ROOT / "stacks" / f"Pulumi.{stack}.yaml").read_text()
    if provider:  # a VM stack: give it a job to (re)start
        text = text.replace(f"    provider: {provider}\n", f"    provider: {provider}\n{JOB}", 1)
    (tmp_path / "stacks" / f"Pulumi.{stack}.yaml").write_text(text)
    result = run("run", "-s", stack, "--project-dir", str(tmp_path))
    one_error_line(result, said, code=1)
    assert "job:" not in result.stderr


@pytest.mark.parametrize(
    ("submit", "build", "names"),
    [
        pytest.param(pai_dlc.submit, _pai, "ALIBABA_CLOUD_ACCESS_KEY_ID and ALIBABA_CLOUD_ACCESS_KEY_SECRET", id="pai"),
        pytest.param(ti_one.submit, _tione, "TENCENTCLOUD_SECRET_ID and TENCENTCLOUD_SECRET_KEY", id="ti-one"),
    ],
)
def test_china_platforms_name_their_variables(submit, build, names):
    with pytest.raises(MissingCredentials, match=f"^no .* Cloud credentials: set {names} "):
        submit(build(), "c", STAMP, {})


def test_modelarts_names_the_sdks_variables(monkeypatch):
    for name in ("HUAWEICLOUD_SDK_AK", "HUAWEICLOUD_SDK_SK", "HUAWEICLOUD_SDK_PROJECT_ID"):
        monkeypatch.delenv(name, raising=False)
    for name in ("HUAWEICLOUD_ACCESS_KEY", "HUAWEICLOUD_SECRET_KEY", "HUAWEICLOUD_PROJECT_ID"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(MissingCredentials, match="^no Huawei Cloud credentials: set HUAWEICLOUD_SDK_AK and "):
        modelarts.submit(_modelarts(), "c", STAMP)


@pytest.mark.parametrize(
    ("env", "values", "problem"),
    [
        pytest.param(
            {"HUAWEICLOUD_SDK_AK": "a", "HUAWEICLOUD_SDK_SK": "s", "HUAWEICLOUD_SDK_PROJECT_ID": "p"},
            ["a", "s", "p"],
            "",
            id="sdk-names",
        ),
        pytest.param(
            {"HUAWEICLOUD_ACCESS_KEY": "a", "HUAWEICLOUD_SECRET_KEY": "s", "HUAWEICLOUD_PROJECT_ID": "p"},
            ["a", "s", "p"],
            "",
            id="older-names-still-read",
        ),
        pytest.param(
            {"HUAWEICLOUD_SDK_AK": "a", "HUAWEICLOUD_ACCESS_KEY": "old", "HUAWEICLOUD_SDK_SK": "s"},
            ["a", "s", ""],
            "HUAWEICLOUD_SDK_PROJECT_ID not set",
            id="sdk-name-first-one-missing",
        ),
    ],
)
def test_huawei_credentials_one_set(env, values, problem):
    found, said = credential_values(env)
    assert found == values
    assert (problem in said) if problem else said == ""
