"""`trainstack check` without any cloud's credentials behaves the same on every cloud
(docs/cli.md, `check`): a stack whose checks call a cloud API exits 1 with one `error:` line
naming the missing credentials and how to provide them (after what it found offline); a stack
checked by offline guidance alone says that nothing was read live and exits 0. The cloud
tools' failures are said in words (`gcloud is not installed`, `... failed: <its stderr>`),
never as a Python exception's class name."""

from __future__ import annotations

import os
import stat

import pytest

from profiles.preflight.cloud_cli import tool_output
from profiles.preflight.finding import PreflightError
from tests.aws_live import credentials as aws_credentials
from tests.cli.helpers import ROOT, one_error_line, run

NO_AZURE = "no Azure credentials: az is not installed (not on PATH); log in with `az login`"
NO_GCP = "no GCP credentials: gcloud is not installed (not on PATH); log in with `gcloud auth login`"
OFFLINE = "info live: nothing read live: trainstack calls no {cloud} API for this stack"


@pytest.fixture()
def no_credentials(monkeypatch, tmp_path):
    """No AWS, Azure or GCP credentials, and neither `az` nor `gcloud` on PATH (this machine has
    gcloud installed: the tests must not depend on it)."""
    aws_credentials(monkeypatch, present=False)
    for name in ("AZURE_ACCESS_TOKEN", "AZURE_SUBSCRIPTION_ID", "GOOGLE_OAUTH_ACCESS_TOKEN", "GOOGLE_PROJECT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.chdir(ROOT)
    return tmp_path


@pytest.mark.parametrize(
    ("stack", "error"),
    [
        pytest.param("training-a100-azureml", NO_AZURE, id="azure-spot"),
        pytest.param("training-a3-gcp", NO_GCP, id="gcp-vms"),
    ],
)
def test_a_stack_read_live_exits_1_naming_the_missing_credentials(no_credentials, stack, error):
    """AWS (EC2 and SageMaker stacks) is tested the same way in tests/cli/test_live_cli.py."""
    result = run("check", "-s", stack)
    one_error_line(result, f"live checks did not run: {error}", code=1)
    assert "catalog: stack prices" in result.stdout  # what it found offline comes first
    assert "Error running" not in result.output and "Error (" not in result.output


@pytest.mark.parametrize(
    ("stack", "cloud"),
    [
        pytest.param("training-h100-azure", "Azure", id="azure-on-demand"),
        pytest.param("training-tpu-v5p", "GCP", id="gcp-tpu"),
        pytest.param("training-a100-alicloud", "Alibaba Cloud", id="alicloud"),
        pytest.param("training-a100-tencentcloud", "Tencent Cloud", id="tencentcloud"),
        pytest.param("training-a100-huaweicloud", "Huawei Cloud", id="huaweicloud"),
        pytest.param("training-ascend-modelarts", "Huawei Cloud", id="modelarts"),
        pytest.param("training-a10-volcengine", "Volcengine", id="volcengine"),
        pytest.param("training-a100-baiducloud", "Baidu AI Cloud", id="baiducloud"),
    ],
)
def test_a_stack_checked_offline_says_so_and_exits_0(no_credentials, stack, cloud):
    result = run("check", "-s", stack)
    assert result.exit_code == 0, result.output
    assert OFFLINE.format(cloud=cloud) in result.stdout and "so no credentials are needed" in result.stdout
    assert result.stderr == ""


def _tool(folder, name: str, script: str) -> None:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{script}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


# gcloud's own words when no account is logged in (Google Cloud SDK, `gcloud auth
# print-access-token` with no active account)
NOT_LOGGED_IN = "ERROR: (gcloud.auth.print-access-token) You do not currently have an active account selected."


@pytest.mark.parametrize(
    ("script", "why"),
    [
        pytest.param(
            f"echo '{NOT_LOGGED_IN}' >&2; echo 'Please run:' >&2; exit 1",
            "`gcloud auth print-access-token` failed: ERROR: (gcloud.auth.print-access-token) You do not "
            "currently have an active account selected; log in",
            id="fails-with-stderr",
        ),
        pytest.param("exit 3", "`gcloud auth print-access-token` failed (exit 3); log in", id="fails-silently"),
        pytest.param(None, "gcloud is not installed (not on PATH); log in", id="not-installed"),
    ],
)
def test_the_cloud_tools_failure_is_said_in_words(no_credentials, script, why):
    if script is not None:
        _tool(no_credentials, "gcloud", script)
    with pytest.raises(PreflightError) as raised:
        tool_output(["gcloud", "auth", "print-access-token"], "no GCP credentials", "log in")
    assert str(raised.value) == f"no GCP credentials: {why}"


def test_the_cloud_tools_answer_is_its_output(no_credentials):
    _tool(no_credentials, "az", 'echo "  token-of-$1  "')
    assert tool_output(["az", "account"], "no Azure credentials", "log in") == "token-of-account"


def test_a_tool_that_hangs_is_cut_off(no_credentials):
    _tool(no_credentials, "gcloud", "exec /bin/sleep 5")
    with pytest.raises(PreflightError, match=r"^no GCP credentials: `gcloud auth` did not answer in 0.2 s; log in$"):
        tool_output(["gcloud", "auth"], "no GCP credentials", "log in", timeout=0.2)


def test_the_cli_prints_gclouds_own_words(no_credentials):
    _tool(no_credentials, "gcloud", f"echo '{NOT_LOGGED_IN}' >&2; exit 1")
    assert os.access(no_credentials / "gcloud", os.X_OK)
    result = run("check", "-s", "training-a3-gcp")
    one_error_line(result, "no GCP credentials: `gcloud auth print-access-token` failed: ERROR: (gcloud.auth", 1)
