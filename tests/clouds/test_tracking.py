"""MLflow tracking (`job.tracking`): the URI forms accepted, `MLFLOW_TRACKING_URI` in the
training environment (the node agent's job on VM stacks, the SageMaker and Azure ML requests),
and `managed` refused in one line where trainstack creates no tracking server."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from clouds.contract import ClusterConfig
from clouds.job_bootstrap import node_job
from clouds.tracking import TrackingConfig, tracking_env, tracking_problem
from tests.clusters import example
from trainstack.run.aws_sagemaker import training_job_request
from trainstack.run.azure_ml import command_job_body

URI = "https://mlflow.example.com:5000"


@pytest.mark.parametrize(
    "value",
    [
        URI,
        "http://10.0.0.5:5000",
        "databricks",
        "file:/fsx/mlruns",
        "managed",
        "arn:aws:sagemaker:us-east-1:123456789012:mlflow-tracking-server/team",
    ],
)
def test_accepted_tracking_uris(value):
    assert TrackingConfig(mlflow=value).mlflow == value


@pytest.mark.parametrize(
    "value", ["https://alice:s3cr3t@mlflow.example.com", "http://tok3n@10.0.0.5:5000/", "https://a:b@c@mlflow.example"]
)
def test_a_uri_carrying_credentials_is_refused_without_echoing_them(value):
    with pytest.raises(ValidationError) as refused:
        TrackingConfig(mlflow=value)
    line = str(refused.value.errors()[0]["msg"])
    assert (
        "job.tracking.mlflow: the URI carries credentials" in line and "MLFLOW_TRACKING_PASSWORD: {secret: KEY}" in line
    )
    assert "s3cr3t" not in line and "tok3n" not in line  # the CLI prints the message alone


@pytest.mark.parametrize("value", ["mlflow.example.com", "ftp://x", "s3://bucket/mlruns"])
def test_refused_tracking_uris_name_the_field(value):
    with pytest.raises(ValidationError, match="job.tracking.mlflow: .* is not an MLflow tracking URI"):
        TrackingConfig(mlflow=value)


@pytest.mark.parametrize(
    ("platform", "refused"),
    [
        pytest.param(None, True, id="vm"),
        pytest.param("sagemaker", False, id="sagemaker"),  # SageMakerPool creates the server
        pytest.param("azureml", False, id="azureml"),
    ],
)
def test_managed_only_where_the_platform_runs_the_server(platform, refused):
    problem = tracking_problem(TrackingConfig(mlflow="managed"), platform)
    assert (problem is not None) is refused
    assert tracking_env(TrackingConfig(mlflow="managed"), platform) == {}


def test_a_cloud_without_a_head_server_is_named():
    from clouds.tracking import head_server_problem

    assert head_server_problem("alicloud", "oss://team-data/imagenet") == (
        "job.tracking.mlflow: managed: trainstack runs an MLflow server on the head node of aws, azure, gcp VM "
        "stacks only, not alicloud yet; give the server's URI instead (job.tracking: {mlflow: https://...})"
    )


def _job(tracking):
    return {"command": "train.py --epochs 1", "tracking": tracking}


def test_vm_stack_node_job_gets_the_uri():
    cluster = ClusterConfig.model_validate(example("aws", job={**_job({"mlflow": URI}), "command": "/fsx/train.py"}))
    env = node_job("c", cluster, "10.0.0.4", "/fsx", "/etc/trainstack/env")["env"]
    assert env["MLFLOW_TRACKING_URI"] == URI


@pytest.mark.parametrize(
    ("provider", "data", "problem"),
    [
        pytest.param("aws", {"source": "s3://team-data/imagenet"}, None, id="aws-with-its-bucket"),
        pytest.param(
            "aws",
            None,
            "job.tracking.mlflow: managed: the head's MLflow server keeps its artifacts in the team's bucket, the "
            "dataset's; add data: {source: s3://BUCKET/PREFIX} or give the server's URI",
            id="aws-without-a-bucket",
        ),
        pytest.param("gcp", {"source": "gs://team-data/imagenet"}, None, id="gcp-with-its-bucket"),
        pytest.param(
            "azure",
            {"source": "https://teamdata.blob.core.windows.net/datasets/imagenet", "resource_group": "team-rg"},
            None,
            id="azure-with-its-container",
        ),
    ],
)
def test_vm_stack_runs_managed_on_the_head_where_it_can(provider, data, problem):
    """`managed` on a VM stack: a server on the head (`clouds.mlflow_head`), refused in one line
    where the cloud keeps no artifacts for it yet or no dataset names the team's bucket."""
    config = {**example(provider), "job": {**_job({"mlflow": "managed"}), "command": "/fsx/train.py"}, "data": data}
    if problem is None:
        assert ClusterConfig.model_validate(config).job.tracking.mlflow == "managed"  # type: ignore[union-attr]
        return
    with pytest.raises(ValidationError, match=re.escape(problem)):
        ClusterConfig.model_validate(config)


def test_sagemaker_and_azureml_requests_carry_the_uri():
    sm = ClusterConfig.model_validate(example("aws", platform="sagemaker", file_system=None, job=_job({"mlflow": URI})))
    assert training_job_request(sm, "c", "123456789012", "s1")["Environment"]["MLFLOW_TRACKING_URI"] == URI
    aml = ClusterConfig.model_validate(
        example("azure", platform="azureml", file_system=None, job=_job({"mlflow": URI}))
    )
    assert command_job_body(aml, "c", "sub")["properties"]["environmentVariables"] == {"MLFLOW_TRACKING_URI": URI}
    managed = ClusterConfig.model_validate(
        example("azure", platform="azureml", file_system=None, job=_job({"mlflow": "managed"}))
    )
    assert command_job_body(managed, "c", "sub")["properties"]["environmentVariables"] == {}
