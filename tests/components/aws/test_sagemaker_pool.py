"""`SageMakerPool` under Pulumi mocks: the pool's bucket (encrypted, public access blocked,
protected) and the execution role SageMaker assumes, scoped to that bucket, the dataset's prefix,
the training image's repository and training-job logs (IAM policy JSON as SageMaker's
execution-role documentation lists the actions)."""

from __future__ import annotations

import json

import pytest

from clouds.aws import sagemaker as sm
from clouds.aws.mock import ACCOUNT_ID
from clouds.helper_vms import unpriced_hourly
from components.aws.sagemaker import TYPE_TOKEN, SageMakerPool
from tests.clusters import example_config
from tests.components.harness import build_plan, one

NAMES = ("node_ids", "bucket_name", "role_arn", "mlflow_tracking_arn")
BUCKET = f"c-sm-{ACCOUNT_ID}"


def _pool(**changes):
    values = {"platform": "sagemaker", "file_system": None, "interconnect": "none", **changes}
    return build_plan(SageMakerPool, example_config("aws", **values), NAMES)


def test_bucket_protected_encrypted_and_closed():
    plan = _pool()
    bucket = one(plan.records, "aws:s3/bucket:Bucket")
    assert bucket["protect"] is True and bucket["inputs"]["bucket"] == BUCKET
    encryption = one(
        plan.records, "aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration"
    )
    rule = encryption["inputs"]["rules"][0]
    assert rule["applyServerSideEncryptionByDefault"] == {"sseAlgorithm": "aws:kms"}
    block = one(plan.records, "aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock")["inputs"]
    assert all(
        block[k] is True for k in ("blockPublicAcls", "blockPublicPolicy", "ignorePublicAcls", "restrictPublicBuckets")
    )
    assert plan.outputs["bucket_name"] == BUCKET


def test_role_trusts_sagemaker_and_is_scoped_to_the_buckets():
    plan = _pool(data={"source": "s3://team-data/imagenet/train/"})
    role = one(plan.records, "aws:iam/role:Role")["inputs"]
    assert role["name"] == "c-sagemaker"
    trust = json.loads(role["assumeRolePolicy"])["Statement"][0]
    assert trust["Principal"] == {"Service": "sagemaker.amazonaws.com"} and trust["Action"] == "sts:AssumeRole"
    policy = json.loads(one(plan.records, "aws:iam/rolePolicy:RolePolicy")["inputs"]["policy"])
    by_sid = {s["Sid"]: s for s in policy["Statement"]}
    assert by_sid["PoolBucketObjects"]["Resource"] == [f"arn:aws:s3:::{BUCKET}/*"]
    assert by_sid["DatasetRead"] == {
        "Sid": "DatasetRead",
        "Effect": "Allow",
        "Action": ["s3:GetObject"],
        "Resource": ["arn:aws:s3:::team-data/imagenet/train/*"],
    }
    resources = [r for s in policy["Statement"] for r in s["Resource"]]
    assert all(r == "*" or BUCKET in r or "team-data" in r or ":ecr:" in r or ":logs:" in r for r in resources)
    assert {s["Sid"] for s in policy["Statement"] if s["Resource"] == ["*"]} == {"EcrToken", "TrainingMetrics"}
    assert not any("s3:*" in s["Action"] or "*" in s["Action"] for s in policy["Statement"])


def test_no_dataset_no_dataset_statements():
    policy = sm.execution_policy("b", "us-east-1")
    assert "DatasetRead" not in {s["Sid"] for s in policy["Statement"]}


def test_token_and_no_nodes():
    plan = _pool()
    assert any(r["type"] == TYPE_TOKEN and r["name"] == "c" for r in plan.records)
    assert plan.outputs["node_ids"] == []
    assert not plan.of_type("aws:autoscaling/group:Group")


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        pytest.param({"file_system": {"capacity_gib": 1200}}, "file_system: SageMaker jobs keep", id="file-system"),
        pytest.param({"ssh_cidrs": ["203.0.113.7/32"]}, "ssh_cidrs: SageMaker training instances", id="ssh"),
    ],
)
def test_refused_before_building(changes, field):
    pool = SageMakerPool.__new__(SageMakerPool)
    values = {"platform": "sagemaker", "file_system": None, "interconnect": "none", **changes}
    with pytest.raises(ValueError, match=field):
        pool.check("c", example_config("aws", **values))


def test_managed_mlflow_server_writes_only_its_prefix_and_jobs_only_log_runs():
    job = {"command": "train.py --epochs 1", "tracking": {"mlflow": "managed"}}
    plan = _pool(job=job)
    region = example_config("aws").region
    server = one(plan.records, "aws:sagemaker/mlflowTrackingServer:MlflowTrackingServer")["inputs"]
    assert server["trackingServerName"] == "c-mlflow"
    assert server["artifactStoreUri"] == f"s3://{BUCKET}/mlflow/"
    assert (server["trackingServerSize"], server["automaticModelRegistration"]) == ("Small", False)
    # it bills by the hour with no recorded price: every cost names it as unpriced
    (line,) = unpriced_hourly("aws", region, plan.records)
    assert line.startswith(
        "SageMaker managed MLflow tracking server c-mlflow (aws:sagemaker/mlflowTrackingServer:MlflowTrackingServer) "
        "bills by the hour and is not in USD/hour or USD/job: unpriced"
    )
    assert {r["inputs"]["name"] for r in plan.of_type("aws:iam/role:Role")} == {"c-sagemaker", "c-mlflow"}
    policies = {r["name"]: json.loads(r["inputs"]["policy"]) for r in plan.of_type("aws:iam/rolePolicy:RolePolicy")}
    artifacts = {s["Sid"]: s for s in policies["c-mlflow-artifacts"]["Statement"]}
    assert artifacts["ArtifactObjects"]["Resource"] == [f"arn:aws:s3:::{BUCKET}/mlflow/*"]
    assert artifacts["ArtifactList"]["Condition"] == {"StringLike": {"s3:prefix": ["mlflow/*"]}}
    runs = {s["Sid"]: s for s in policies["c-sagemaker-access"]["Statement"]}["MlflowRuns"]
    assert runs["Resource"] == [f"arn:aws:sagemaker:{region}:{ACCOUNT_ID}:mlflow-tracking-server/c-mlflow"]
    assert runs["Action"] == list(sm.MLFLOW_JOB_ACTIONS) and not any(a.endswith("*") for a in runs["Action"])
    # without managed tracking: no server, no MLflow statement
    plain = _pool()
    assert not plain.of_type("aws:sagemaker/mlflowTrackingServer:MlflowTrackingServer")
    assert plain.outputs["mlflow_tracking_arn"] is None
