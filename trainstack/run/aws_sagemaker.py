"""Submit the stack's job as a SageMaker training job (CreateTrainingJob, boto3).

The request is what the SageMaker Python SDK's PyTorch estimator sends with
`distribution={"torch_distributed": {"enabled": True}}`: the PyTorch training container, the
script and its `--key value` arguments as hyperparameters (`sagemaker_program`, the code folder's
`sourcedir.tar.gz` in the pool's bucket as `sagemaker_submit_directory`), torchrun across
`nodes` instances of `ml.<type>`, managed spot training with checkpoints synced to S3 and a spot
wait, the dataset's S3 prefix as the `training` channel (FastFile), and retries from
`job.max_restarts`. The execution role and bucket are the SageMaker pool's
(`clouds.aws.sagemaker`). Tested against moto, which implements CreateTrainingJob.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from clouds.aws import sagemaker as sm
from clouds.contract import ClusterConfig
from clouds.job_secrets import plain_env
from clouds.platform_lookup import find
from clouds.tracking import MANAGED, tracking_env
from trainstack.run import RunError, Submitted, as_hyperparameters, aws_credentials, checked


def training_job_request(cluster: ClusterConfig, name: str, account: str, stamp: str) -> dict[str, Any]:
    """The CreateTrainingJob request for the stack's job.

    Args:
        cluster: the stack's cluster (`platform: sagemaker`).
        name: the stack's cluster name (the pool's names derive from it).
        account: the AWS account id (the role and bucket names carry it).
        stamp: what makes this job's name unique (a UTC time, `20261207-0439`).

    Raises:
        RunError: a job field SageMaker's PyTorch launcher cannot honour (one line naming it).
    """
    job, script, args = checked(cluster, "SageMaker")
    if job.nproc_per_node is not None and job.nproc_per_node != cluster.accelerator_count:
        raise RunError(
            f"job.nproc_per_node: SageMaker's torch_distributed runs one process per GPU ({cluster.accelerator_count}); "
            "remove nproc_per_node"
        )
    bucket = sm.bucket_name(name, account)
    spot = cluster.purchase == "spot"
    runtime = min(math.ceil(cluster.hours * 3600 * sm.RUNTIME_MARGIN), sm.MAX_RUNTIME_SECONDS)
    stopping: dict[str, int] = {"MaxRuntimeInSeconds": runtime}
    if spot:
        stopping["MaxWaitTimeInSeconds"] = min(math.ceil(runtime * sm.SPOT_WAIT_FACTOR), sm.MAX_RUNTIME_SECONDS)
    request: dict[str, Any] = {
        "TrainingJobName": sm.job_name(name, stamp),
        "AlgorithmSpecification": {"TrainingImage": sm.training_image(cluster.region), "TrainingInputMode": "FastFile"},
        "RoleArn": sm.role_arn(name, account),
        "HyperParameters": {
            **as_hyperparameters(args),
            "sagemaker_program": script,
            "sagemaker_submit_directory": f"s3://{bucket}/code/sourcedir.tar.gz",
            "sagemaker_torch_distributed_enabled": "true",
            "sagemaker_region": cluster.region,
        },
        "OutputDataConfig": {"S3OutputPath": f"s3://{bucket}/output/"},
        "ResourceConfig": {
            "InstanceType": _platform().instance_name(cluster.instance_type),
            "InstanceCount": cluster.nodes,
            "VolumeSizeInGB": sm.VOLUME_GB,
        },
        "StoppingCondition": stopping,
        "EnableManagedSpotTraining": spot,
        "CheckpointConfig": {"S3Uri": f"s3://{bucket}/checkpoints/{name}/", "LocalPath": sm.CHECKPOINT_LOCAL_PATH},
        "Environment": {
            **plain_env(job),
            **tracking_env(job.tracking, "sagemaker"),
            **_managed_mlflow(job, name, account, cluster.region),
            "TRAINSTACK_CHECKPOINT_DIR": sm.CHECKPOINT_LOCAL_PATH,
        },
        "Tags": [{"Key": "trainstack:cluster", "Value": name}],
    }
    if job.max_restarts:
        request["RetryStrategy"] = {"MaximumRetryAttempts": min(job.max_restarts, 30)}  # API range 1-30
    if cluster.data is not None:
        request["InputDataConfig"] = [_channel(cluster.data.source)]
    return request


def _managed_mlflow(job, name: str, account: str, region: str) -> dict[str, str]:
    """`MLFLOW_TRACKING_URI` = the pool's MLflow server ARN for `{mlflow: managed}`, else {}."""
    if job.tracking is None or job.tracking.mlflow != MANAGED:
        return {}
    return {"MLFLOW_TRACKING_URI": sm.mlflow_server_arn(name, account, region)}


def _platform():
    platform = find("aws", "sagemaker")
    assert platform is not None  # clouds/aws/cloud.yaml declares it
    return platform


def _channel(source: str) -> dict[str, Any]:
    """The dataset as the `training` channel, or a refusal for a bucket SageMaker cannot read."""
    if not source.startswith("s3://"):
        raise RunError(f"data.source: {source} is not an S3 URI; a SageMaker job reads its data from S3")
    return {
        "ChannelName": "training",
        "DataSource": {
            "S3DataSource": {"S3DataType": "S3Prefix", "S3Uri": source, "S3DataDistributionType": "FullyReplicated"}
        },
        "InputMode": "FastFile",
    }


def submit(cluster: ClusterConfig, name: str, stamp: str, env: Mapping[str, str] | None = None) -> Submitted:
    """Create the training job with boto3 in the stack's region (credentials from the usual
    AWS chain) and say where its logs and checkpoints are.

    Raises:
        MissingCredentials: the AWS SDK finds no credentials.
    """
    import boto3

    session = boto3.session.Session(region_name=cluster.region)
    with aws_credentials():
        account = session.client("sts").get_caller_identity()["Account"]
    request = training_job_request(cluster, name, account, stamp)
    with aws_credentials():
        answer = session.client("sagemaker").create_training_job(**request)
    job = request["TrainingJobName"]
    return Submitted(
        job_id=answer["TrainingJobArn"],
        logs=f"CloudWatch log group /aws/sagemaker/TrainingJobs, streams {job}/algo-*",
        checkpoints=request["CheckpointConfig"]["S3Uri"],
        request=request,
    )


def request_preview(cluster: ClusterConfig, name: str, stamp: str) -> dict[str, Any]:
    """The request `submit` would send, with `ACCOUNT` for the account id (`run --dry-run`)."""
    return training_job_request(cluster, name, "ACCOUNT", stamp)
