"""SageMaker rules, pure: the names the SageMaker pool gives its execution role and bucket (which
`trainstack run` computes again to submit a training job) and the training container.

Names: an S3 bucket name is 3-63 lowercase letters, digits, dots and hyphens, globally unique
(S3 user guide, "Bucket naming rules"), so it carries the account id; an IAM role name is at
most 64 characters (IAM quotas). A training job name matches `^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}`
(SageMaker API reference, CreateTrainingJob `TrainingJobName`).
"""

from __future__ import annotations

import re

from clouds.contract import ClusterConfig

# The AWS Deep Learning Containers' account for the commercial regions (aws/deep-learning-containers
# available_images.md: "763104351884" for us-east-1 and most regions) and the PyTorch training
# image the job runs in; China and GovCloud regions use other accounts (not built here).
DLC_ACCOUNT = "763104351884"
PYTORCH_TRAINING_TAG = "pytorch-training:2.3.0-gpu-py311-cu121-ubuntu20.04-sagemaker"
# Where SageMaker syncs checkpoints from and to on every node (CheckpointConfig `LocalPath`
# default, SageMaker API reference).
CHECKPOINT_LOCAL_PATH = "/opt/ml/checkpoints"
# trainstack's choices, assumed: the training volume per node (GB), the run-time limit as a
# multiple of the stack's planned hours, and the spot wait (capacity + run) as a multiple of that.
VOLUME_GB = 200
RUNTIME_MARGIN = 1.5
SPOT_WAIT_FACTOR = 2.0
MAX_RUNTIME_SECONDS = 28 * 24 * 3600  # CreateTrainingJob's MaxRuntimeInSeconds limit (28 days)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9-]", "-", name.lower()).strip("-") or "cluster"


def role_name(cluster: str) -> str:
    """The training jobs' execution role: `<cluster>-sagemaker` (at most 64 characters)."""
    return f"{_slug(cluster)[:53]}-sagemaker"


def role_arn(cluster: str, account: str) -> str:
    """The execution role's ARN in `account`."""
    return f"arn:aws:iam::{account}:role/{role_name(cluster)}"


def bucket_name(cluster: str, account: str) -> str:
    """The pool's bucket (code, checkpoints, output): `<cluster>-sm-<account>`, 63 at most."""
    return f"{_slug(cluster)[: 63 - 4 - len(account)]}-sm-{account}"


def mlflow_server_name(cluster: str) -> str:
    """The pool's MLflow tracking server: `<cluster>-mlflow` (CreateMlflowTrackingServer:
    letters, digits and hyphens, starting and ending with a letter or digit)."""
    return f"{_slug(cluster)[:200]}-mlflow"


def mlflow_server_arn(cluster: str, account: str, region: str, partition: str = "aws") -> str:
    """The tracking server's ARN: the job's `MLFLOW_TRACKING_URI` (the `sagemaker-mlflow`
    plugin of the MLflow client takes an ARN as the tracking URI)."""
    return f"arn:{partition}:sagemaker:{region}:{account}:mlflow-tracking-server/{mlflow_server_name(cluster)}"


def mlflow_role_name(cluster: str) -> str:
    """The tracking server's own role (it writes the artifacts): `<cluster>-mlflow`, 64 at most."""
    return f"{_slug(cluster)[:57]}-mlflow"


MLFLOW_PREFIX = "mlflow/"  # the artifact store: s3://<pool bucket>/mlflow/
# What a training job's MLflow client calls on its tracking server (Service Authorization
# Reference, "Actions, resources, and condition keys for Amazon SageMaker with MLflow"; each
# takes the mlflow-tracking-server resource): experiments and runs, metrics, parameters,
# models and inputs. Nothing that deletes or reads other users' registries.
MLFLOW_JOB_ACTIONS = (
    "sagemaker-mlflow:CreateExperiment",
    "sagemaker-mlflow:GetExperiment",
    "sagemaker-mlflow:GetExperimentByName",
    "sagemaker-mlflow:CreateRun",
    "sagemaker-mlflow:GetRun",
    "sagemaker-mlflow:UpdateRun",
    "sagemaker-mlflow:LogMetric",
    "sagemaker-mlflow:LogBatch",
    "sagemaker-mlflow:LogModel",
    "sagemaker-mlflow:LogInputs",
)


def mlflow_server_policy(bucket: str, partition: str = "aws") -> dict:
    """The tracking server's role policy: the artifact store's prefix of the pool bucket only."""
    own = f"arn:{partition}:s3:::{bucket}"
    return {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "ArtifactObjects",
                "Effect": "Allow",
                "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
                "Resource": [f"{own}/{MLFLOW_PREFIX}*"],
            },
            {
                "Sid": "ArtifactList",
                "Effect": "Allow",
                "Action": ["s3:ListBucket", "s3:GetBucketLocation"],
                "Resource": [own],
                "Condition": {"StringLike": {"s3:prefix": [f"{MLFLOW_PREFIX}*"]}},
            },
        ],
    }


def training_image(region: str) -> str:
    """The PyTorch training container in `region` (Deep Learning Containers)."""
    return f"{DLC_ACCOUNT}.dkr.ecr.{region}.amazonaws.com/{PYTORCH_TRAINING_TAG}"


def job_name(cluster: str, stamp: str) -> str:
    """A training job name: `<cluster>-<stamp>` within SageMaker's 63 characters."""
    return f"{_slug(cluster)[: 62 - len(stamp)]}-{stamp}"


def _bucket_of(uri: str) -> str:
    return uri.removeprefix("s3://").split("/", 1)[0]


def execution_policy(
    bucket: str, region: str, partition: str = "aws", data_source: str | None = None, mlflow_server: str | None = None
) -> dict:
    """The training jobs' execution role policy, least privilege (IAM policy JSON).

    The pool's bucket: read and write objects, list the bucket (code, checkpoints, output); the
    dataset's bucket, when the stack names one: read and list only; the training container:
    pull from the Deep Learning Containers' `pytorch-training` repository (SageMaker developer
    guide, "How to use SageMaker AI execution roles": ECR, CloudWatch Logs and metrics actions);
    logs and metrics of training jobs only; with `mlflow_server` (the pool's tracking server
    ARN), the MLflow calls a run makes on that server only (`MLFLOW_JOB_ACTIONS`).
    """
    own = f"arn:{partition}:s3:::{bucket}"
    statements: list[dict] = [
        {
            "Sid": "PoolBucketObjects",
            "Effect": "Allow",
            "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
            "Resource": [f"{own}/*"],
        },
        {"Sid": "PoolBucketList", "Effect": "Allow", "Action": ["s3:ListBucket"], "Resource": [own]},
    ]
    if data_source and data_source.startswith("s3://"):
        data = f"arn:{partition}:s3:::{_bucket_of(data_source)}"
        prefix = data_source.removeprefix("s3://").split("/", 1)[1] if "/" in data_source[5:] else ""
        statements += [
            {"Sid": "DatasetRead", "Effect": "Allow", "Action": ["s3:GetObject"], "Resource": [f"{data}/{prefix}*"]},
            {"Sid": "DatasetList", "Effect": "Allow", "Action": ["s3:ListBucket"], "Resource": [data]},
        ]
    statements += [
        {
            "Sid": "PullTrainingImage",
            "Effect": "Allow",
            "Action": ["ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer", "ecr:BatchCheckLayerAvailability"],
            "Resource": [f"arn:{partition}:ecr:{region}:{DLC_ACCOUNT}:repository/pytorch-training"],
        },
        {"Sid": "EcrToken", "Effect": "Allow", "Action": ["ecr:GetAuthorizationToken"], "Resource": ["*"]},
        {
            "Sid": "TrainingLogs",
            "Effect": "Allow",
            "Action": ["logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"],
            "Resource": [f"arn:{partition}:logs:{region}:*:log-group:/aws/sagemaker/TrainingJobs*"],
        },
        {
            "Sid": "TrainingMetrics",
            "Effect": "Allow",
            "Action": ["cloudwatch:PutMetricData"],
            "Resource": ["*"],
            "Condition": {"StringEquals": {"cloudwatch:namespace": "/aws/sagemaker/TrainingJobs"}},
        },
    ]
    if mlflow_server:
        statements.append(
            {"Sid": "MlflowRuns", "Effect": "Allow", "Action": list(MLFLOW_JOB_ACTIONS), "Resource": [mlflow_server]}
        )
    return {"Version": "2012-10-17", "Statement": statements}


# Who may assume the execution role: the SageMaker service (the role's trust policy).
ASSUME_SAGEMAKER = {
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}],
}


def validate_pool(config: ClusterConfig, name: str = "cluster") -> None:
    """The SageMaker pool's checks (the EC2 cluster's do not apply: no EC2 node is created).

    Raises:
        ValueError: one line naming the field and the fix.
    """
    if config.file_system is not None:
        raise ValueError("file_system: SageMaker jobs keep code, checkpoints and output in S3; remove file_system")
    if config.ssh_cidrs:
        raise ValueError("ssh_cidrs: SageMaker training instances take no SSH; remove ssh_cidrs")
    if config.capacity_reservation_id:
        raise ValueError("reservation: a SageMaker pool launches no EC2 capacity; remove reservation")
    from clouds.aws.validate import TAG_RULES, tag_problem

    if problem := tag_problem(TAG_RULES, config.tags):  # the pool's IAM role and S3 bucket carry them
        raise ValueError(problem)
