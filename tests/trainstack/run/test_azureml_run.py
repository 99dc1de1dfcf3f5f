"""`trainstack run` on an Azure ML stack, against recorded answers in the format of the ARM REST
reference ("Jobs - Create Or Update": 201 with the job resource; errors as ErrorResponse):
the request each submission sends is asserted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import requests
import responses

from clouds.azure import aml
from tests.clusters import example_config
from trainstack.run import RunError
from trainstack.run.azure_ml import command_job_body, submit
from trainstack.run.record import RunRecord
from trainstack.status.job_follow import job_line

SUB = "00000000-0000-0000-0000-000000000000"
ENV = {"AZURE_ACCESS_TOKEN": "token-1", "AZURE_SUBSCRIPTION_ID": SUB}
RECORDED = Path(__file__).parents[2] / "fixtures" / "platforms" / "azureml-command-job-created.json"
URL = (
    f"https://management.azure.com/subscriptions/{SUB}/resourceGroups/c-rg/providers/"
    f"Microsoft.MachineLearningServices/workspaces/c-ws/jobs/c-20261207-0439?api-version={aml.API_VERSION}"
)


def _cluster(**changes):
    job = {"command": "train.py --epochs 10", "env": {"NCCL_DEBUG": "WARN"}}
    return example_config("azure", **{"platform": "azureml", "purchase": "spot", "job": job, "hours": 24.0, **changes})


@responses.activate
def test_pytorch_command_job_submitted_to_the_pool():
    responses.put(URL, json=json.loads(RECORDED.read_text()), status=201)
    done = submit(_cluster(), "c", "20261207-0439", ENV)
    sent = responses.calls[0].request
    assert sent.headers["Authorization"] == "Bearer token-1"
    body = json.loads(sent.body)["properties"]
    assert body["jobType"] == "Command"
    assert body["computeId"].endswith("/workspaces/c-ws/computes/c-gpu")
    assert body["distribution"] == {"distributionType": "PyTorch", "processCountPerInstance": 8}
    assert body["resources"] == {"instanceCount": 2}
    assert (
        body["command"]
        == "TRAINSTACK_CHECKPOINT_DIR=${{outputs.checkpoints}} python ${{inputs.code}}/train.py --epochs 10"
    )
    assert body["outputs"]["checkpoints"]["uri"] == "azureml://datastores/workspaceblobstore/paths/checkpoints/c/"
    assert body["outputs"]["checkpoints"]["mode"] == "ReadWriteMount"
    assert body["environmentVariables"] == {"NCCL_DEBUG": "WARN"}
    assert body["limits"] == {"jobLimitsType": "Command", "timeout": "PT36H"}  # 24 h x 1.5
    assert done.job_id.endswith("/workspaces/c-ws/jobs/c-20261207-0439")
    assert done.logs.startswith("https://ml.azure.com/runs/c-20261207-0439")
    assert done.checkpoints.endswith("/checkpoints/c/")
    # `trainstack status` follows it with `Jobs - Get` (the same JobBase resource the PUT answered)
    responses.get(f"https://management.azure.com{done.job_id}", json=json.loads(RECORDED.read_text()))
    record = RunRecord(done.job_id, "azureml", "azure", "eastus", "t0", done.logs, done.checkpoints)
    with pytest.MonkeyPatch.context() as patch:
        for key, value in ENV.items():
            patch.setenv(key, value)
        line = job_line(record, "c")
    assert line.startswith(f"job {done.job_id} (started t0): NotStarted; logs: https://ml.azure.com/runs/")
    assert responses.calls[1].request.headers["Authorization"] == "Bearer token-1"


@responses.activate
def test_refusal_from_azure_is_one_line():
    error = {"error": {"code": "UserError", "message": "Compute c-gpu not found in workspace c-ws"}}
    responses.put(URL, json=error, status=400)
    with pytest.raises(requests.HTTPError, match="^Azure ML refused the job: UserError: Compute c-gpu not found"):
        submit(_cluster(), "c", "20261207-0439", ENV)


def test_blob_dataset_mounted_as_input():
    source = "https://teamdata.blob.core.windows.net/imagenet/train/"
    body = command_job_body(_cluster(data={"source": source, "resource_group": "data-rg"}), "c", SUB)
    assert body["properties"]["inputs"]["data"] == {
        "jobInputType": "uri_folder",
        "uri": source,
        "mode": "ReadOnlyMount",
    }


@pytest.mark.parametrize(
    ("job", "field"),
    [
        pytest.param({"script": "/fsx/run.sh"}, "job.script", id="script"),
        pytest.param({"command": "/fsx/code/train.py"}, "job.command", id="absolute"),
        pytest.param({"command": "train.py", "min_nodes": 1}, "job.min_nodes", id="elastic"),
    ],
)
def test_refuses_naming_the_field(job, field):
    with pytest.raises(RunError, match=f"^{field}"):
        command_job_body(_cluster(job=job), "c", SUB)
