"""The managed platforms end to end through the CLI: `platform: any` ranks VM and managed rows
for A100 on AWS and Azure with sourced or labelled prices; `run` submits the committed Azure ML
stack's PyTorch command job against a recorded answer (ARM REST format); a VM stack and a job
the platform cannot run are refused in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import responses

from clouds.azure import aml
from tests.cli.helpers import ROOT, one_error_line, run

RECORDED = ROOT / "tests" / "fixtures" / "platforms" / "azureml-command-job-created.json"
SUB = "00000000-0000-0000-0000-000000000000"


def _any_workload(tmp_path: Path) -> Path:
    path = tmp_path / "a100-any.yaml"
    path.write_text(
        "name: a100-any\naccelerators: [A100:8]\nnodes: 2\npurchase: on-demand\nhours: 10h\n"
        "platform: any\nproviders: [aws, azure]\nregions: [us-east-1, eastus]\n"
    )
    return path


def _rows(stdout: str) -> list[dict]:
    answer = json.loads(stdout)
    return [answer["choice"], *answer["alternatives"]]


def test_platform_any_ranks_vm_and_managed_rows_with_labelled_prices(tmp_path):
    result = run("resolve", str(_any_workload(tmp_path)), "--json", "--top", "40")
    assert result.exit_code == 0, result.output
    rows = _rows(result.stdout)
    seen = {(r["provider"], r["platform"]) for r in rows}
    assert {("aws", "vm"), ("aws", "sagemaker"), ("azure", "vm"), ("azure", "azureml")} <= seen
    by = {(r["provider"], r["platform"], r["instance_type"], r["region"]): r for r in rows}
    vm = by[("aws", "vm", "p4d.24xlarge", "us-east-1")]
    managed = by[("aws", "sagemaker", "p4d.24xlarge", "us-east-1")]
    # SageMaker: the EC2 price x 1.15, an explicit 'assumed' estimate (no source gives ml.* rates)
    assert round(managed["usd_compute_per_hour"], 4) == round(vm["usd_compute_per_hour"] * 1.15, 4)
    assert any("assumed: SageMaker bills its own ml.* rate" in note for note in managed["notes"])
    azure_vm = next(r for r in rows if (r["provider"], r["platform"]) == ("azure", "vm"))
    azure_ml = by[("azure", "azureml", azure_vm["instance_type"], azure_vm["region"])]
    assert azure_ml["usd_compute_per_hour"] == azure_vm["usd_compute_per_hour"]  # billed at the VM price
    assert any("infracost PR #2902" in note for note in azure_ml["notes"])
    assert "on Azure Machine Learning: adds scale to zero" in azure_ml["reason"]


def test_vm_only_by_default(tmp_path):
    path = _any_workload(tmp_path)
    path.write_text(path.read_text().replace("platform: any\n", ""))
    rows = _rows(run("resolve", str(path), "--json", "--top", "40").stdout)
    assert {r["platform"] for r in rows} == {"vm"}


@responses.activate
def test_run_submits_the_azureml_stack_and_status_follows_it(monkeypatch, tmp_path):
    monkeypatch.setenv("AZURE_ACCESS_TOKEN", "token-1")
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", SUB)
    monkeypatch.setenv("TRAINSTACK_NOW", "2026-12-07T04:39:00+00:00")
    url = (
        f"https://management.azure.com/subscriptions/{SUB}/resourceGroups/training-a100-azureml-rg/providers/"
        "Microsoft.MachineLearningServices/workspaces/training-a100-azureml-ws/jobs/"
        f"training-a100-azureml-20261207-043900?api-version={aml.API_VERSION}"
    )
    answer = json.loads(RECORDED.read_text())
    responses.put(url, json=answer, status=201)
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    (tmp_path / "stacks").mkdir()
    shutil.copy(ROOT / "stacks" / "Pulumi.training-a100-azureml.yaml", tmp_path / "stacks")
    one_error_line(  # a managed stack has no node group of ours: status is its job, none yet
        run("status", "-s", "training-a100-azureml", "--project-dir", str(tmp_path)),
        "status: no job started on stack training-a100-azureml from here; start one: trainstack run",
        code=1,
    )
    result = run("run", "-s", "training-a100-azureml", "--project-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    body = json.loads(responses.calls[0].request.body)["properties"]
    assert body["distribution"] == {"distributionType": "PyTorch", "processCountPerInstance": 8}
    assert body["computeId"].endswith("/computes/training-a10-gpu")
    lines = result.stdout.splitlines()
    assert lines[0] == f"job: {answer['id']}"
    assert lines[1].startswith("logs: https://ml.azure.com/runs/")
    assert lines[2] == "checkpoints: azureml://datastores/workspaceblobstore/paths/checkpoints/training-a100-azureml/"
    assert lines[3].startswith("expected cost: $") and "per job" in lines[3]
    responses.get(f"https://management.azure.com{answer['id']}", json={**answer, "properties": {"status": "Running"}})
    result = run("status", "-s", "training-a100-azureml", "--project-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"job {answer['id']} (started 2026-12-07T04:39:00+00:00): Running; logs: ")


def test_run_refuses_a_vm_stack_without_a_job():
    one_error_line(
        run("run", "-s", "training-a100", "--project-dir", str(ROOT)),
        "job: stack training-a100 has no job to run; add job: {command: train.py ...} to "
        "profiles/workloads/training-a100.yaml and rerun "
        "`trainstack resolve profiles/workloads/training-a100.yaml --write-stack training-a100`",
    )


def test_status_on_a_pool_run_submits_nothing_to_names_no_run_command(tmp_path):
    # PAI Lingjun: `run` refuses the stack (no submitter) and status reads no node of it, so
    # status must not say "start one: trainstack run -s ..."
    import yaml

    cluster = {
        "provider": "alicloud",
        "region": "cn-wulanchabu",
        "zone": "cn-wulanchabu-a",
        "instance_type": "efg1.nvga1",
        "accelerator": "A100-80GB",
        "accelerator_count": 8,
        "nodes": 2,
        "purchase": "on-demand",
        "interconnect": "none",
        "hours": 24.0,
        "platform": "pai-lingjun",
        "node_image": "i190297201634099844192",
    }
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    (tmp_path / "stacks").mkdir()
    stack = {"config": {"alicloud:region": "cn-wulanchabu", "trainstack:cluster": cluster}}
    (tmp_path / "stacks" / "Pulumi.lj.yaml").write_text(yaml.safe_dump(stack))
    result = run("status", "-s", "lj", "--project-dir", str(tmp_path))
    one_error_line(result, "status: stack lj runs on Alibaba PAI Lingjun, to which trainstack submits no job yet")
    assert "trainstack run" not in result.stderr
    one_error_line(run("run", "-s", "lj", "--project-dir", str(tmp_path)), "has no job submitter yet")
