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
