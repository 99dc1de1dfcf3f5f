"""`bench run --send` and `bench fetch` against moto's EC2 and Systems Manager (SendCommand by tag,
ListCommandInvocations), and the clouds and stacks they refuse in one line."""

from __future__ import annotations

import shutil
from pathlib import Path

import boto3
import pytest
from moto import mock_aws
from typer.testing import CliRunner

from tests.aws_live import credentials, registered_image
from trainstack.bench import aws_ssm as ssm
from trainstack.cli.app import app

ROOT = Path(__file__).parents[2]
STACK = "training-a100"
JOB = "    job:\n      command: /fsx/train.py\n"


@pytest.fixture()
def aws(monkeypatch):
    """moto with two instances of the stack (tagged as the component tags them) and one of another."""
    credentials(monkeypatch)
    with mock_aws():
        ec2 = boto3.client("ec2", region_name="eu-north-1")
        image = registered_image(ec2, monkeypatch)

        def launch(cluster: str, count: int) -> list[str]:
            tags = [{"ResourceType": "instance", "Tags": [{"Key": "trainstack:cluster", "Value": cluster}]}]
            found = ec2.run_instances(ImageId=image, MinCount=count, MaxCount=count, TagSpecifications=tags)
            return sorted(i["InstanceId"] for i in found["Instances"])

        yield launch(STACK, 2), launch("someone-else", 1)


@pytest.fixture()
def project(tmp_path, monkeypatch):
    """The committed training-a100 stack with a job, as a project folder."""
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    for name in (STACK, "training-a100-alicloud"):
        shutil.copy(ROOT / "stacks" / f"Pulumi.{name}.yaml", tmp_path / "stacks")
    path = tmp_path / "stacks" / f"Pulumi.{STACK}.yaml"
    text = path.read_text()
    path.write_text(text.replace("    provider: aws\n", "    provider: aws\n" + JOB, 1))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_send_reaches_the_stacks_instances_by_tag_only(aws) -> None:
    mine, other = aws
    client = boto3.client("ssm", region_name="eu-north-1")
    command_id = ssm.send(client, STACK, ["echo hi"], "test", 60)
    sent = client.list_commands(CommandId=command_id)["Commands"][0]
    assert sent["DocumentName"] == "AWS-RunShellScript" and sent["Parameters"]["commands"] == ["echo hi"]
    assert sent["Targets"] == [{"Key": "tag:trainstack:cluster", "Values": [STACK]}]
    instances = ssm.stack_instances(boto3.client("ec2", region_name="eu-north-1"), STACK)
    assert instances == mine
    runs = ssm.wait(client, command_id, instances, 5, pause=0.0)
    assert sorted(r.instance_id for r in runs) == mine and other[0] not in {r.instance_id for r in runs}
    assert {r.status for r in runs} == {"Success"}


def test_wait_names_the_nodes_that_never_got_the_command(aws) -> None:
    mine, other = aws
    client = boto3.client("ssm", region_name="eu-north-1")
    command_id = ssm.send(client, STACK, ["echo hi"], "test", 60)
    ticks = iter([0.0, 0.0, 5.0, 11.0])
    # the other cluster's instance was not targeted: GetCommandInvocation says InvocationDoesNotExist
    with pytest.raises(ssm.RemoteError, match=f"still running after 10 s \\({other[0]}\\)"):
        ssm.wait(client, command_id, [*mine, *other], 10, pause=1.0, sleep=lambda _: None, clock=lambda: next(ticks))
    with pytest.raises(ssm.RemoteError, match="no running instance is tagged trainstack:cluster"):
        ssm.wait(client, command_id, [], 10)


def test_bench_run_send_is_one_command(aws, project) -> None:
    result = CliRunner().invoke(app, ["bench", "run", "-s", STACK, "--send", "--steps", "5"])
    assert result.exit_code == 0, result.output
    assert "sent to 2 nodes of training-a100 (SSM command " in result.output
    assert "logs: /fsx/trainstack/bench/training-a100/" in result.output
    client = boto3.client("ssm", region_name="eu-north-1")
    sent = client.list_commands()["Commands"][0]
    script = "\n".join(sent["Parameters"]["commands"])
    assert "python3 -m nodeagent run" in script and "--steps 5" in script
    assert sorted(sent["InstanceIds"]) == aws[0]


def test_bench_fetch_with_no_logs_printed_fails_in_one_line(aws, project) -> None:
    # moto answers every invocation with empty standard output: the node printed no logs
    result = CliRunner().invoke(app, ["bench", "fetch", "-s", STACK])
    assert result.exit_code == 1 and "the node printed no benchmark logs: (nothing)" in result.output
    assert not (project / f"bench-{STACK}.json").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(
            ["run", "-s", "training-a100-alicloud", "--send"],
            "--send: alicloud has no remote run in trainstack yet (only aws, azure, gcp)",
            id="alicloud-refused",
        ),
        pytest.param(["run", "-s", STACK, "--wait"], "--wait: only with --send", id="wait-alone"),
    ],
)
def test_refusals_are_one_line(project, args, message) -> None:
    result = CliRunner().invoke(app, ["bench", *args])
    assert result.exit_code == 2 and result.output.startswith("error: ") and message in result.output


def test_a_stack_without_a_job_is_refused(tmp_path, monkeypatch) -> None:
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    shutil.copy(ROOT / "stacks" / f"Pulumi.{STACK}.yaml", tmp_path / "stacks")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["bench", "fetch", "-s", STACK])
    assert result.exit_code == 2 and "has no job:, so its nodes have no node agent" in result.output


def test_send_without_credentials_is_one_line_with_the_fix(project, monkeypatch) -> None:
    credentials(monkeypatch, present=False)
    for name in ("AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"):
        monkeypatch.setenv(name, str(project / "none"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    result = CliRunner().invoke(app, ["bench", "run", "-s", STACK, "--send"])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert result.output.startswith("error: bench: no usable credentials (") and "docs/platforms.md" in result.output
