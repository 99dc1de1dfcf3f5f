"""A TI-ONE stack end to end through the CLI: `resolve --write-stack` of a `platform: ti-one` pick
writes the stack (its pool: the TI-ONE training resource group), and `trainstack run` submits the
job as a pay-as-you-go `CreateTrainingTask` against a recorded answer in the TI-ONE API's format
(`responses` intercepts `CommonClient`, which signs the real request); `status` then follows it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import responses
import yaml

from tests.cli.helpers import ROOT, run

ANSWERS = ROOT / "tests" / "fixtures" / "platforms"
WORKLOAD = ROOT / "profiles" / "workloads" / "training-a100-ti-one.yaml"


@responses.activate
def test_written_ti_one_stack_runs_its_job(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("TENCENTCLOUD_SECRET_ID", "AKID-test")
    monkeypatch.setenv("TENCENTCLOUD_SECRET_KEY", "test-key-not-real")
    monkeypatch.setenv("TRAINSTACK_NOW", "2026-12-07T04:39:00+00:00")
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    (tmp_path / "stacks").mkdir()
    monkeypatch.chdir(tmp_path)
    written = run("resolve", str(WORKLOAD), "--top", "1", "--write-stack", "tione")
    assert written.exit_code == 0, written.output
    assert "--zone" not in written.stdout  # TI-ONE places its tasks: no zone to set, unlike a CVM row
    cluster = yaml.safe_load((tmp_path / "stacks" / "Pulumi.tione.yaml").read_text())["config"]["trainstack:cluster"]
    assert (cluster["platform"], cluster["nodes"], cluster["purchase"]) == ("ti-one", 2, "on-demand")
    created = json.loads((ANSWERS / "tione-training-task-created.json").read_text())
    responses.post("https://tione.tencentcloudapi.com/", json=created)
    result = run("run", "-s", "tione", "--project-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    sent = responses.calls[0].request
    assert sent.headers["X-TC-Action"] == "CreateTrainingTask" and sent.headers["X-TC-Region"] == cluster["region"]
    body = json.loads(sent.body)
    assert body["Name"] == "tione-20261207-043900" and body["ChargeType"] == "POSTPAID_BY_HOUR"
    assert body["ResourceConfigInfos"] == [
        {"Role": "WORKER", "InstanceType": f"TI.{cluster['instance_type'].upper()}.POST", "InstanceNum": 2}
    ]
    # the example's environment is PyTorch 1.9, which has no `torchrun` command (1.10+): the module
    assert body["FrameworkEnvironment"] == "torch1.9-py3.8-cuda11.1-gpu"
    assert " python -m torch.distributed.run --nnodes=$WORLD_SIZE " in body["StartCmdInfo"]["StartCmd"]
    lines = result.stdout.splitlines()
    assert lines[0] == f"job: {created['Response']['Id']}"
    assert lines[2] == "checkpoints: cos://team-code-1250000000/trainstack/tione/output/checkpoints/"
    assert lines[3].startswith("expected cost: $") and "per job" in lines[3]
    failed = json.loads((ANSWERS / "tione-training-task-failed.json").read_text())
    responses.post("https://tione.tencentcloudapi.com/", json=failed)
    status = run("status", "-s", "tione", "--project-dir", str(tmp_path))
    assert len(responses.calls) == 2, (status.exit_code, status.output, repr(status.exception))
    assert json.loads(responses.calls[1].request.body) == {"Id": created["Response"]["Id"]}
    assert status.stdout.startswith(
        f"job {created['Response']['Id']} (started 2026-12-07T04:39:00+00:00): FAILED: process exited with code 1;"
    )
