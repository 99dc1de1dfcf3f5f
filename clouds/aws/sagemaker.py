"""SageMaker rules, pure: the names the SageMaker pool gives its execution role and bucket (which
`trainstack run` computes again to submit a training job) and the training container.

Names: an S3 bucket name is 3-63 lowercase letters, digits, dots and hyphens, globally unique
(S3 user guide, "Bucket naming rules"), so it carries the account id; an IAM role name is at
most 64 characters (IAM quotas). A training job name matches `^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}`
(SageMaker API reference, CreateTrainingJob `TrainingJobName`).
"""

from __future__ import annotations

import re

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


def training_image(region: str) -> str:
    """The PyTorch training container in `region` (Deep Learning Containers)."""
    return f"{DLC_ACCOUNT}.dkr.ecr.{region}.amazonaws.com/{PYTORCH_TRAINING_TAG}"


def job_name(cluster: str, stamp: str) -> str:
    """A training job name: `<cluster>-<stamp>` within SageMaker's 63 characters."""
    return f"{_slug(cluster)[: 62 - len(stamp)]}-{stamp}"
