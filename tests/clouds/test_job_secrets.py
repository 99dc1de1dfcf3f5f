"""A credential never reaches a stack file or a node's user data, and the job file that holds
the job's environment on a node is readable by root only (mode 0600 in a 0700 folder)."""

from __future__ import annotations

import shutil

import yaml

from clouds.config import ConfigError, parse_cluster_config
from tests.cli.helpers import ROOT, WORKLOAD, run
from tests.clouds.rendered import STACKS, rendered
from tests.clusters import example_config

SECRET = "wandb-0123456789abcdef-do-not-leak"


def test_every_rendered_job_file_is_written_for_root_only():
    bootstraps = [b for stack in STACKS for b in rendered(stack, True) if "TRAINSTACK_JOB" in b.text]
    assert bootstraps
    for bootstrap in bootstraps:
        text = bootstrap.text
        assert "(umask 077 && cat > /etc/trainstack/job.json) <<'TRAINSTACK_JOB'" in text, bootstrap.label
        assert text.index("chmod 600 /etc/trainstack/job.json") > text.index("\nTRAINSTACK_JOB\n"), bootstrap.label
        assert "chmod 700 /etc/trainstack" in text, bootstrap.label


def test_a_credential_in_a_stack_is_refused_before_any_user_data_is_rendered():
    cluster = example_config("aws").model_dump(exclude_none=True)
    cluster["job"] = {"command": "/fsx/train.py", "env": {"WANDB_API_KEY": SECRET}}
    try:
        parse_cluster_config(cluster)
    except ConfigError as exc:
        assert "job.env.WANDB_API_KEY: looks like a credential" in str(exc) and SECRET not in str(exc)
    else:
        raise AssertionError("a plain credential was accepted")


def test_a_credential_in_a_workload_never_reaches_a_stack_file(tmp_path, monkeypatch):
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    monkeypatch.chdir(tmp_path)
    workload = yaml.safe_load(WORKLOAD.read_text())
    workload["job"] = {"command": "/fsx/train.py", "env": {"HF_TOKEN": SECRET, "NCCL_DEBUG": "WARN"}}
    (tmp_path / "w.yaml").write_text(yaml.safe_dump(workload))
    result = run("resolve", str(tmp_path / "w.yaml"), "--write-stack", "leak")
    assert result.exit_code == 2 and "job.env.HF_TOKEN: looks like a credential" in result.stderr
    assert SECRET not in result.output
    assert not (tmp_path / "stacks").exists()


def test_a_secret_reference_is_written_to_the_stack_as_a_reference(tmp_path, monkeypatch):
    """The workload's `{secret: KEY}` reaches the stack file as itself; its value never does."""
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    monkeypatch.chdir(tmp_path)
    workload = yaml.safe_load(WORKLOAD.read_text())
    workload["providers"] = ["aws"]
    workload["job"] = {"command": "/fsx/train.py", "env": {"WANDB_API_KEY": {"secret": "wandbKey"}}}
    (tmp_path / "w.yaml").write_text(yaml.safe_dump(workload))
    result = run("resolve", str(tmp_path / "w.yaml"), "--write-stack", "sec")
    assert result.exit_code == 0, result.output
    cluster = yaml.safe_load((tmp_path / "stacks" / "Pulumi.sec.yaml").read_text())["config"]["trainstack:cluster"]
    assert cluster["job"]["env"] == {"WANDB_API_KEY": {"secret": "wandbKey"}}


def test_resolve_leaves_out_rows_whose_nodes_cannot_read_a_secret(tmp_path, monkeypatch):
    """A managed platform's job gets no secret from trainstack: its rows are left out, with why."""
    monkeypatch.chdir(tmp_path)
    workload = yaml.safe_load(WORKLOAD.read_text())
    workload["platform"] = "sagemaker"
    workload["job"] = {"command": "train.py", "env": {"WANDB_API_KEY": {"secret": "wandbKey"}}}
    (tmp_path / "w.yaml").write_text(yaml.safe_dump(workload))
    result = run("resolve", str(tmp_path / "w.yaml"))
    assert result.exit_code == 2
    assert "job.env.WANDB_API_KEY: secrets reach VM stacks' nodes only; a sagemaker job" in result.stderr
