"""`trainstack run` on a VM stack: one Run Command (moto's Systems Manager, SendCommand by tag) that
gives every worker the run's rendezvous id and restarts its job unit; `status` follows the run.
What the nodes print is read by pure functions (tables below): moto runs no shell."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import boto3
import pytest
from moto import mock_aws
from typer.testing import CliRunner

from clouds.job_bootstrap import node_job
from tests.aws_live import credentials, registered_image
from tests.clusters import example_config
from trainstack.cli.app import app
from trainstack.run import RunError, vm_job
from trainstack.run.record import RunRecord, load
from trainstack.status.job_follow import vm_commands, vm_state

ROOT = Path(__file__).parents[3]
STACK = "training-a100"
JOB = "    job:\n      command: /fsx/train.py --epochs 10\n"
STAMP = "20261207-043900"
NOW = "2026-12-07T04:39:00+00:00"


@pytest.fixture()
def aws(monkeypatch):
    """moto with the stack's node group (2 nodes, tagged as the component tags them) and one
    instance of another cluster; (the stack's instances, the other's)."""
    credentials(monkeypatch)
    with mock_aws():
        ec2 = boto3.client("ec2", region_name="eu-north-1")
        image = registered_image(ec2, monkeypatch)  # order-free: moto keeps its default images off once off
        ec2.create_launch_template(
            LaunchTemplateName="node-lt", LaunchTemplateData={"ImageId": image, "InstanceType": "m5.large"}
        )
        boto3.client("autoscaling", region_name="eu-north-1").create_auto_scaling_group(
            AutoScalingGroupName=f"{STACK}-nodes",
            LaunchTemplate={"LaunchTemplateName": "node-lt", "Version": "$Latest"},
            MinSize=2,
            MaxSize=2,
            DesiredCapacity=2,
            AvailabilityZones=["eu-north-1a"],
            Tags=[{"Key": "trainstack:cluster", "Value": STACK, "PropagateAtLaunch": True}],
        )
        tags = [{"ResourceType": "instance", "Tags": [{"Key": "trainstack:cluster", "Value": "someone-else"}]}]
        other = ec2.run_instances(ImageId=image, MinCount=1, MaxCount=1, TagSpecifications=tags)["Instances"]
        yield ssm_instances(ec2), [i["InstanceId"] for i in other]


def ssm_instances(ec2) -> list[str]:
    from trainstack.bench.aws_ssm import stack_instances

    return stack_instances(ec2, STACK)


@pytest.fixture()
def project(tmp_path, monkeypatch):
    """The committed training-a100 stack (eu-north-1, 2 x p4d) with a job, as a project folder."""
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    path = tmp_path / "stacks" / f"Pulumi.{STACK}.yaml"
    text = (ROOT / "stacks" / f"Pulumi.{STACK}.yaml").read_text()
    path.write_text(text.replace("    provider: aws\n", "    provider: aws\n" + JOB, 1))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TRAINSTACK_NOW", NOW)
    return tmp_path


def test_run_restarts_the_job_on_the_stacks_nodes_under_a_new_run_id_and_status_follows_it(aws, project):
    mine, other = aws
    result = CliRunner().invoke(app, ["run", "-s", STACK])
    assert result.exit_code == 0, result.output
    cluster = example_config("aws", job={"command": "/fsx/train.py --epochs 10"})
    digest = node_job(STACK, cluster, "HEAD", "/fsx", "")["job_id"]  # what the nodes' job files hold
    run_id = f"{digest}-{STAMP}"
    lines = result.stdout.splitlines()
    assert lines[0] == f"job: {run_id}"
    assert lines[1].startswith(f"logs: /fsx/trainstack/logs/{STACK}/ on the shared file system")
    assert lines[2] == f"checkpoints: /fsx/checkpoints/{STACK}"
    assert lines[3].startswith("expected cost: $") and "per job" in lines[3]
    ssm = boto3.client("ssm", region_name="eu-north-1")
    [sent] = ssm.list_commands()["Commands"]
    assert sent["Targets"] == [{"Key": "tag:trainstack:cluster", "Values": [STACK]}]
    assert sorted(sent["InstanceIds"]) == mine and other[0] not in sent["InstanceIds"]
    script = sent["Parameters"]["commands"]
    assert (
        f"PYTHONPATH=/opt/trainstack /usr/bin/python3 -m nodeagent start-run {run_id} /etc/trainstack/job.json || exit 3"
        in script
    )
    assert "systemctl restart --no-block trainstack-job" in script
    record = load(project, STACK)
    assert record == RunRecord(run_id, "vm", "aws", "eu-north-1", NOW, lines[1][6:], f"/fsx/checkpoints/{STACK}")
    # `status` follows the run through the nodes (one moto setup for both: it costs seconds)
    result = CliRunner().invoke(app, ["status", "-s", STACK])
    assert result.exit_code == 0, result.output
    group, job, progress = result.stdout.splitlines()
    assert group == f"{STACK}-nodes: 2 of 2 running; no failed scaling"
    # the job's files are read on one node (`trainstack.status.progress`); moto's node prints nothing
    assert progress == "progress: no worker log yet; no checkpoint yet"
    # moto's invocations print nothing, so no node reports the job unit (`vm_state` reads real answers)
    assert job.startswith(f"job {record.job_id} (started {NOW}): no node answered with the job unit")
    assert job.endswith(f"checkpoints: /fsx/checkpoints/{STACK}")
    sent = ssm.list_commands()["Commands"]
    status_command = next(c for c in sent if c["Comment"].startswith("trainstack status"))
    assert status_command["Parameters"]["commands"][-1].endswith(
        f'$(cat /fsx/trainstack/rendezvous/{STACK}.run 2>/dev/null || echo -)"'
    )


def test_dry_run_prints_the_command_and_sends_nothing(project):
    result = CliRunner().invoke(app, ["run", "-s", STACK, "--dry-run"])
    assert result.exit_code == 0, result.output
    request = json.loads(result.stdout)
    assert request["DocumentName"] == "AWS-RunShellScript"
    assert request["Targets"] == [{"Key": "tag:trainstack:cluster", "Values": [STACK]}]
    assert load(project, STACK) is None


def test_a_vm_stack_without_a_job_is_refused_naming_the_field():
    with pytest.raises(RunError, match="^job: the stack has no job"):
        vm_job.run_id(example_config("aws"), "c", STAMP)


def test_other_clouds_vms_refused_in_one_line():
    from trainstack.run.command import vm_runner

    assert [vm_runner(p) for p in ("aws", "gcp", "azure")] == [
        "trainstack.run.vm_job",
        "trainstack.run.gcp_channel",
        "trainstack.run.azure_channel",
    ]
    with pytest.raises(RunError, match="^platform: trainstack has no remote run on alicloud VMs .* by hand$"):
        vm_runner("alicloud")  # no job runs on its VMs yet (the config refuses `job:` there)
    with pytest.raises(RunError, match="^platform: Systems Manager Run Command reaches AWS VMs only, not azure"):
        vm_job.submit(example_config("azure", job={"command": "train.py"}), "c", STAMP)


@pytest.mark.parametrize(
    ("outputs", "started"),
    [
        pytest.param(["", ""], 2, id="two-workers"),
        pytest.param(["h: no job unit here (the head node): nothing to start", "w: restarted"], 1, id="head-and-one"),
    ],
)
def test_started_nodes_leave_out_the_head(outputs, started):
    assert vm_job.started_nodes(outputs) == started


def test_only_a_head_answering_is_an_error():
    with pytest.raises(RunError, match="^job: no node of the stack runs the job unit trainstack-job"):
        vm_job.started_nodes(["h: no job unit here (the head node): nothing to start"])


@pytest.mark.parametrize(
    ("outputs", "state"),
    [
        pytest.param(
            ["TRAINSTACK-STATE active r-1\n", "TRAINSTACK-STATE active r-1\n"], "running on 2 of 2 nodes", id="all"
        ),
        pytest.param(
            ["TRAINSTACK-STATE active r-1", "TRAINSTACK-STATE failed r-1", ""],
            "running on 1 of 2 nodes; job unit failed elsewhere",
            id="one-failed-head-silent",
        ),
        pytest.param(
            ["TRAINSTACK-STATE active r-0", "TRAINSTACK-STATE active r-1"],
            "running on 1 of 2 nodes; 1 node(s) on another run than r-1",
            id="stale-run",
        ),
        pytest.param(["", "garbage"], "no node answered with the job unit (is the stack up?)", id="none"),
        pytest.param(
            ["TRAINSTACK-STATE finished r-1", "TRAINSTACK-STATE finished r-1"],
            "running on 0 of 2 nodes; finished on 2",
            id="ended-waiting-for-the-next-run",
        ),
        pytest.param(
            ["TRAINSTACK-STATE active r-1", "TRAINSTACK-STATE failed r-1"],
            "running on 1 of 2 nodes; job unit failed elsewhere",
            id="one-run-failed",
        ),
    ],
)
def test_vm_state_reads_each_nodes_unit(outputs, state):
    assert vm_state(outputs, "r-1") == state


def test_vm_commands_print_nothing_on_the_head():
    record = RunRecord("r-1", "vm", "aws", "eu-north-1", NOW, "", "")
    lines = vm_commands(record, "/fsx/x.run")
    assert lines[0] == "[ -f /etc/systemd/system/trainstack-job.service ] || exit 0"


@pytest.mark.parametrize(
    ("unit", "note", "state"),
    [
        pytest.param("active", None, "active", id="running"),
        pytest.param("active", "finished r-1", "finished", id="waiting-after-a-finished-run"),
        pytest.param("active", "failed r-1 1", "failed", id="waiting-after-a-failed-run"),
        pytest.param("inactive", None, "inactive", id="stopped"),
    ],
)
def test_a_node_waiting_for_the_next_run_answers_how_its_run_ended(tmp_path, unit, note, state):
    """The lines run by bash, as a worker answers: `systemctl` stands in for the unit's state, and
    the launcher's note (`nodeagent.follow.ENDED_FILE`) is where the node keeps it."""
    import subprocess

    from nodeagent.follow import ENDED_FILE

    (tmp_path / "unit").mkdir()
    (tmp_path / "unit" / "trainstack-job.service").touch()
    (tmp_path / "c.run").write_text("r-1\n")
    if note is not None:
        (tmp_path / "job-ended").write_text(note + "\n")
    (tmp_path / "systemctl").write_text(f"#!/bin/sh\necho {unit}\n")
    (tmp_path / "systemctl").chmod(0o755)
    lines = vm_commands(RunRecord("r-1", "vm", "gcp", "r", NOW, "", ""), str(tmp_path / "c.run"))
    script = "\n".join(lines).replace("/etc/systemd/system", str(tmp_path / "unit"))
    script = script.replace(ENDED_FILE, str(tmp_path / "job-ended"))
    env = {"PATH": f"{tmp_path}:/usr/bin:/bin"}
    answer = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, check=True).stdout
    assert answer == f"TRAINSTACK-STATE {state} r-1\n"
