"""The job's progress from its files: the shell lines run by bash on a folder laid out as torchrun
and a training script leave it (the real tools), their output read into the status line, and
the Run Command path against moto (SSM, EC2)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from datetime import datetime, timedelta, timezone

import pytest
import responses

from nodeagent.progress import lines
from tests.aws_live import stubbed
from trainstack.status.progress import Progress, aws_progress, progress_commands, progress_line, read_progress

NOW = datetime(2026, 12, 7, 13, 0, tzinfo=timezone.utc)


def _touch(path, text: str, when: datetime) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    os.utime(path, (when.timestamp(), when.timestamp()))


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("find") is None, reason="needs bash and GNU find")
def test_the_lines_read_the_newest_checkpoint_and_the_last_step(tmp_path):
    checkpoints, logs = tmp_path / "checkpoints" / "c", tmp_path / "logs" / "c"
    _touch(checkpoints / "step-1000.pt", "x", datetime(2026, 12, 7, 12, 0, tzinfo=timezone.utc))
    _touch(checkpoints / "step-2000" / "model.pt", "x", datetime(2026, 12, 7, 12, 30, tzinfo=timezone.utc))
    os.utime(checkpoints / "step-2000", (1796646600, 1796646600))  # 2026-12-07 12:30 UTC
    _touch(checkpoints / ".checkpoint-request", "", NOW)  # the launcher's request file is no checkpoint
    old = logs / "c-1a-20261207" / "attempt_0" / "0" / "stdout.log"
    _touch(old, "step 10 loss 3.1\n", datetime(2026, 12, 7, 11, 0, tzinfo=timezone.utc))
    new = logs / "c-1a-20261207" / "attempt_1" / "0" / "stdout.log"
    _touch(
        new,
        "epoch 1 step=2,040 loss 2.2\nStep: 2041 loss 2.1\nsaving\n",
        datetime(2026, 12, 7, 12, 57, tzinfo=timezone.utc),
    )
    script = "\n".join(progress_commands(str(checkpoints), str(logs)))
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=10, check=True)
    assert progress_line(read_progress(done.stdout), NOW) == (
        "progress: last step 2,041 (log written 3 min ago); last checkpoint step-2000 (2026-12-07 12:30 UTC, 30 min ago)"
    )
    # the head's own reading (GCP publishes it as a guest attribute) says the same
    assert read_progress(lines(str(checkpoints), str(logs))) == read_progress(done.stdout)
    empty = subprocess.run(
        ["bash", "-c", "\n".join(progress_commands(str(tmp_path / "none"), str(tmp_path / "none")))],
        capture_output=True,
        text=True,
        timeout=10,
        check=True,
    )
    assert progress_line(read_progress(empty.stdout), NOW) == "progress: no worker log yet; no checkpoint yet"
    assert lines(str(tmp_path / "none"), str(tmp_path / "none")) == ""


@pytest.mark.parametrize(
    ("output", "line"),
    [
        ("", "progress: no worker log yet; no checkpoint yet"),
        (
            f"TRAINSTACK-PROGRESS step {NOW.timestamp() - 10800} \n",
            "progress: no step in the newest worker log (written 3.0 h ago); no checkpoint yet",
        ),
        ("noise\nTRAINSTACK-PROGRESS step bad x\n", "progress: no worker log yet; no checkpoint yet"),
    ],
)
def test_read_progress_table(output, line):
    assert progress_line(read_progress(output), NOW) == line


def test_a_progress_with_a_checkpoint_only():
    at = datetime(2026, 12, 6, 13, 0, tzinfo=timezone.utc)
    assert progress_line(Progress("ckpt-9", at), NOW) == (
        "progress: no worker log yet; last checkpoint ckpt-9 (2026-12-06 13:00 UTC, 24.0 h ago)"
    )


def test_run_command_goes_to_one_running_node_of_the_stack():
    """Recorded answers in the EC2 and SSM APIs' documented shapes (Stubber checks them)."""
    ec2, ec2_stub = stubbed("ec2")
    ssm, ssm_stub = stubbed("ssm")
    running = {
        "Reservations": [{"Instances": [{"InstanceId": "i-0fedcba9876543210"}, {"InstanceId": "i-0123456789abcdef0"}]}]
    }
    ec2_stub.add_response("describe_instances", running)
    commands = progress_commands("/fsx/checkpoints/c", "/fsx/trainstack/logs/c")
    sent = {
        "DocumentName": "AWS-RunShellScript",
        "InstanceIds": ["i-0123456789abcdef0"],
        "Parameters": {"commands": commands, "executionTimeout": ["60"]},
        "Comment": "trainstack progress c",
    }
    ssm_stub.add_response("send_command", {"Command": {"CommandId": "0b1e5c2a-0000-4000-8000-000000000002"}}, sent)
    output = f"TRAINSTACK-PROGRESS checkpoint {NOW.timestamp() - 600} step-800\nTRAINSTACK-PROGRESS step {NOW.timestamp() - 60} step 812\n"
    ssm_stub.add_response(
        "get_command_invocation",
        {
            "CommandId": "0b1e5c2a-0000-4000-8000-000000000002",
            "InstanceId": "i-0123456789abcdef0",
            "Status": "Success",
            "StandardOutputContent": output,
        },
        {"CommandId": "0b1e5c2a-0000-4000-8000-000000000002", "InstanceId": "i-0123456789abcdef0"},
    )
    line = aws_progress(ssm, ec2, "c", "/fsx/checkpoints/c", "/fsx/trainstack/logs/c", NOW)
    assert (
        line
        == "progress: last step 812 (log written 1 min ago); last checkpoint step-800 (2026-12-07 12:50 UTC, 10 min ago)"
    )
    ssm_stub.assert_no_pending_responses()
    ec2_stub.add_response("describe_instances", {"Reservations": []})
    assert aws_progress(ssm, ec2, "other", "/x", "/y", NOW) == "progress: no running node to read the file system from"


@responses.activate
def test_status_on_azure_reads_the_progress_on_a_running_worker_through_run_command(tmp_path, monkeypatch):
    """`trainstack status` on the committed Azure stack with a job: its scale set's line, then the
    progress the lines print on a worker (run here by bash on a folder laid out as torchrun and
    the script leave it), read back from the Run Command operation's recorded answer shape."""
    from tests.bench.test_remote_azure import ARM, OPERATIONS, SET, _answer, succeeded
    from tests.cli.helpers import ROOT, run
    from trainstack.bench.azure_run import in_bash

    logs = tmp_path / "logs" / "run-1" / "attempt_0" / "0" / "stdout.log"
    _touch(logs, "step 410 loss 1.9\n", NOW - timedelta(minutes=2))
    _touch(tmp_path / "checkpoints" / "step-400.pt", "x", NOW - timedelta(minutes=6))
    script = "\n".join(in_bash(progress_commands(str(tmp_path / "checkpoints"), str(tmp_path / "logs"))))
    stdout = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=10, check=True).stdout
    monkeypatch.setenv("AZURE_ACCESS_TOKEN", "token-5")
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", "00000000-0000-0000-0000-000000000000")
    monkeypatch.setenv(
        "TRAINSTACK_NOW", NOW.isoformat()
    )  # the suite's clock: a patched `now` sticks in modules that import it
    responses.get(
        f"{ARM}/providers/Microsoft.Compute/virtualMachineScaleSets", json=_answer("status/azure-vmss-list.json")
    )
    responses.get(f"{SET}/instanceView", json=_answer("status/azure-instance-view.json"))
    responses.get(f"{SET}/virtualMachines", json=_answer("remote/azure-vmss-vms.json"))
    url = f"{OPERATIONS}/op-p?api-version=2024-11-01"
    responses.post(f"{SET}/virtualMachines/0/runCommand", status=202, headers={"Azure-AsyncOperation": url})
    responses.get(url, json=succeeded(stdout))
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, tmp_path)
    (tmp_path / "stacks").mkdir()
    text = (ROOT / "stacks" / "Pulumi.training-h100-azure.yaml").read_text()
    job = "    job:\n      command: /fsx/train.py\n"
    (tmp_path / "stacks" / "Pulumi.train.yaml").write_text(
        text.replace("    provider: azure\n", "    provider: azure\n" + job, 1)
    )
    result = run("status", "-s", "train", "--project-dir", str(tmp_path))
    assert result.stdout.splitlines()[1:] == [
        "progress: last step 410 (log written 2 min ago); last checkpoint step-400.pt (2026-12-07 12:54 UTC, 6 min ago)"
    ]
    sent = next(c.request for c in responses.calls if c.request.method == "POST")
    assert "TRAINSTACK-PROGRESS" in "\n".join(json.loads(sent.body)["script"])
