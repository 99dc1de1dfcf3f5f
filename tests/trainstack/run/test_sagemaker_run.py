"""`trainstack run` on a SageMaker stack, against moto (which implements CreateTrainingJob):
managed spot with checkpoints in the pool's bucket, a spot wait, torchrun across the nodes, the
dataset's S3 prefix as the training channel; refusals name the job field."""

from __future__ import annotations

import json

import boto3
import pytest
import yaml
from moto import mock_aws

from clouds.aws import sagemaker as sm
from tests.clusters import example_config
from trainstack.run import RunError
from trainstack.run.aws_sagemaker import submit, training_job_request
from trainstack.run.record import RunRecord
from trainstack.status.job_follow import job_line, sagemaker_state

ACCOUNT = "123456789012"  # moto's account
JOB = {"command": "train.py --epochs 10 --lr=3e-4", "max_restarts": 2, "env": {"NCCL_DEBUG": "WARN"}}


def _cluster(**changes):
    values = {"platform": "sagemaker", "job": JOB, "purchase": "spot", "hours": 10.0, "nodes": 2, **changes}
    return example_config("aws", **values)


@pytest.fixture
def aws(monkeypatch):
    for key, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "t",
    }.items():
        monkeypatch.setenv(key, value)
    with mock_aws():
        yield


def test_spot_estimator_job_created_with_checkpoints(aws):
    cluster = _cluster(data={"source": "s3://team-data/imagenet/"})
    done = submit(cluster, "c", "20261207-0439")
    assert done.job_id == f"arn:aws:sagemaker:{cluster.region}:{ACCOUNT}:training-job/c-20261207-0439"
    assert done.checkpoints == f"s3://c-sm-{ACCOUNT}/checkpoints/c/"
    seen = boto3.client("sagemaker", region_name=cluster.region).describe_training_job(
        TrainingJobName="c-20261207-0439"
    )
    assert seen["EnableManagedSpotTraining"] is True
    assert seen["CheckpointConfig"] == {
        "S3Uri": f"s3://c-sm-{ACCOUNT}/checkpoints/c/",
        "LocalPath": "/opt/ml/checkpoints",
    }
    # 10 h planned x 1.5 = 54,000 s run time; x 2 = 108,000 s spot wait (capacity + run)
    assert seen["StoppingCondition"] == {"MaxRuntimeInSeconds": 54_000, "MaxWaitTimeInSeconds": 108_000}
    assert seen["ResourceConfig"] == {"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 2, "VolumeSizeInGB": 200}
    assert seen["RoleArn"] == f"arn:aws:iam::{ACCOUNT}:role/c-sagemaker"
    hyper = seen["HyperParameters"]
    assert hyper["sagemaker_program"] == "train.py"
    assert hyper["sagemaker_torch_distributed_enabled"] == "true"
    assert hyper["sagemaker_submit_directory"] == f"s3://c-sm-{ACCOUNT}/code/sourcedir.tar.gz"
    assert (hyper["epochs"], hyper["lr"]) == ("10", "3e-4")
    assert seen["AlgorithmSpecification"]["TrainingImage"] == sm.training_image(cluster.region)
    channel = seen["InputDataConfig"][0]
    assert channel["DataSource"]["S3DataSource"]["S3Uri"] == "s3://team-data/imagenet/"
    assert done.request["RetryStrategy"] == {"MaximumRetryAttempts": 2}
    assert done.request["Environment"] == {"NCCL_DEBUG": "WARN", "TRAINSTACK_CHECKPOINT_DIR": "/opt/ml/checkpoints"}
    # `trainstack status` follows it with DescribeTrainingJob (moto answers Completed at once)
    record = RunRecord(done.job_id, "sagemaker", "aws", cluster.region, "t0", done.logs, done.checkpoints)
    assert job_line(record, "c").startswith(f"job {done.job_id} (started t0): Completed (Completed); logs: CloudWatch")


@pytest.mark.parametrize(
    ("answer", "state"),
    [
        pytest.param(
            {"TrainingJobStatus": "InProgress", "SecondaryStatus": "Training", "BillableTimeInSeconds": 5400},
            "InProgress (Training), 1.5 h billed",
            id="training",
        ),
        pytest.param(
            {"TrainingJobStatus": "Failed", "SecondaryStatus": "Failed", "FailureReason": "AlgorithmError:\n exit 1"},
            "Failed (Failed): AlgorithmError: exit 1",
            id="failed",
        ),
    ],
)
def test_describe_training_job_answer_as_a_state(answer, state):
    assert sagemaker_state(answer) == state


def test_on_demand_job_has_no_spot_wait():
    request = training_job_request(_cluster(purchase="on-demand"), "c", ACCOUNT, "s1")
    assert request["EnableManagedSpotTraining"] is False
    assert request["StoppingCondition"] == {"MaxRuntimeInSeconds": 54_000}


def test_run_time_capped_at_28_days():
    request = training_job_request(_cluster(hours=1000.0), "c", ACCOUNT, "s1")
    assert request["StoppingCondition"] == {"MaxRuntimeInSeconds": 2_419_200, "MaxWaitTimeInSeconds": 2_419_200}


def test_run_says_a_job_longer_than_28_days_stops_and_is_run_again(aws, tmp_path):
    from trainstack.run.command import run

    path = tmp_path / "stacks" / "Pulumi.c.yaml"
    path.parent.mkdir()
    cluster = _cluster(hours=1000.0, file_system=None)
    config = {"aws:region": cluster.region, "trainstack:cluster": cluster.model_dump(mode="json", exclude_none=True)}
    path.write_text(yaml.safe_dump({"config": config}))
    said: list[str] = []
    run(path, "c", said.append)
    (note,) = [line for line in said if line.startswith("note: ")]
    assert note.startswith("note: Amazon SageMaker stops a job at 672 h") and "run as 2 jobs" in note
    # --json says the same as numbers: the expected cost and the note, nothing else on stdout
    printed: list[str] = []
    run(path, "c", printed.append, as_json=True)
    (text,) = printed
    data = json.loads(text)
    assert set(data) == {"job_id", "logs", "checkpoints", "hours", "usd_per_hour", "usd_per_job", "price_note", "notes"}
    assert data["job_id"].endswith(":training-job/c-20261204-120000") and data["hours"] == 1000.0
    assert data["price_note"].startswith("the stack records $20.50/hour, but 2 x p4d.24xlarge spot costs")
    assert data["usd_per_job"] == pytest.approx(data["usd_per_hour"] * 1000.0, abs=0.01)
    (cost,) = [line for line in said if line.startswith("expected cost: ")]
    assert cost.startswith(
        f"expected cost: ${data['usd_per_job']:,.2f} per job (1,000.0 h at ${data['usd_per_hour']:,.2f}/hour)"
    )
    assert data["notes"] == [note.removeprefix("note: ")]


@pytest.mark.parametrize(
    ("job", "field"),
    [
        pytest.param({"script": "/fsx/code/run.sh"}, "job.script", id="script"),
        pytest.param({"command": "/fsx/code/train.py"}, "job.command: /fsx/code/train.py", id="absolute"),
        pytest.param({"command": "train.py epochs"}, "job.command: 'epochs'", id="not-key-value"),
        pytest.param({"command": "pkg.train", "module": True}, "job.module", id="module"),
        pytest.param({"command": "train.py", "nproc_per_node": 4}, "job.nproc_per_node", id="nproc"),
        pytest.param({"command": "train.py", "min_nodes": 1}, "job.min_nodes", id="elastic"),
    ],
)
def test_refuses_what_sagemaker_cannot_run_naming_the_field(job, field):
    with pytest.raises(RunError, match=f"^{field}"):
        training_job_request(_cluster(job=job), "c", ACCOUNT, "s1")


def test_names_fit_sagemaker_and_s3_limits():
    long = "a-very-long-cluster-name-that-goes-on-and-on-past-every-limit-there-is"
    assert len(sm.bucket_name(long, ACCOUNT)) <= 63
    assert len(sm.role_name(long)) <= 64
    assert len(sm.job_name(long, "20261207-0439")) <= 63


def test_managed_mlflow_points_the_job_at_the_pools_server():
    cluster = _cluster(job={"command": "train.py --epochs 1", "tracking": {"mlflow": "managed"}})
    request = training_job_request(cluster, "c", ACCOUNT, "s1")
    assert request["Environment"]["MLFLOW_TRACKING_URI"] == (
        f"arn:aws:sagemaker:{cluster.region}:{ACCOUNT}:mlflow-tracking-server/c-mlflow"
    )


def test_run_without_aws_credentials_is_one_line_with_the_fix(tmp_path, monkeypatch):
    from tests.aws_live import credentials
    from tests.cli.helpers import one_error_line, run

    credentials(monkeypatch, present=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    (tmp_path / "stacks").mkdir()
    (tmp_path / "Pulumi.yaml").write_text("name: trainstack\nruntime: python\n")
    cluster = _cluster(file_system=None)
    config = {"aws:region": cluster.region, "trainstack:cluster": cluster.model_dump(mode="json", exclude_none=True)}
    (tmp_path / "stacks" / "Pulumi.c.yaml").write_text(yaml.safe_dump({"config": config}))
    result = run("run", "-s", "c", "--project-dir", str(tmp_path))
    assert result.exit_code == 1, result.stderr
    one_error_line(
        result,
        "run: no AWS credentials (Unable to locate credentials); run `aws configure` or `aws sso login`, or set "
        "AWS_PROFILE (docs/platforms.md, Credentials)",
        code=1,
    )


def test_a_failed_call_is_its_message_never_a_bare_class_name():
    from trainstack.cli.usage_errors import work_failed

    assert work_failed("run", RuntimeError("HTTP 403: forbidden\nmore")) == "run: HTTP 403: forbidden"
    assert work_failed("bench", TimeoutError()) == "bench: TimeoutError"
