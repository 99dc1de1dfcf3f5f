"""`SageMakerPool`: what SageMaker training jobs need from the stack: the pool's bucket (code,
checkpoints, output; encrypted, public access blocked, protected) and the execution role the
jobs run as, scoped to that bucket and the dataset's. SageMaker training jobs have no
long-lived nodes: `trainstack run` creates each job (`trainstack.run.aws_sagemaker`), billed per
second while it runs. Names come from `clouds.aws.sagemaker`, which the submitter reads too.
"""

from __future__ import annotations

import json
from typing import Any

import pulumi
import pulumi_aws as aws

from clouds.aws import sagemaker as sm
from clouds.contract import ClusterConfig
from clouds.tracking import MANAGED
from components.aws.pool_bucket import create_pool_bucket
from components.cluster_base import ClusterOutputs, GpuClusterBase, nothing, pool_outputs

TYPE_TOKEN = "trainstack:aws:SageMakerPool"


class SageMakerPool(GpuClusterBase):
    """A SageMaker pool: bucket + execution role (no nodes until a job runs).

    Public outputs (`OUTPUT_NAMES`): `node_ids` and `node_private_ips` `[]` (a training job's
    instances are SageMaker's), `placement_group` and the file-system pair None. Extra outputs:
    `bucket_name` (the pool's bucket) and `role_arn` (the execution role).
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = "aws"

    def check(self, name: str, args: ClusterConfig) -> None:
        """The pool's checks (`clouds.aws.sagemaker.validate_pool`, as `plan` runs them)."""
        sm.validate_pool(args, name)

    def build(self, name: str, args: ClusterConfig, tags: Any, child: pulumi.ResourceOptions) -> ClusterOutputs:
        """Create the bucket and the execution role; return the outputs (see the class docstring)."""
        invoke = pulumi.InvokeOutputOptions(parent=self)
        account = aws.get_caller_identity_output(opts=invoke).account_id
        partition = aws.get_partition_output(opts=invoke).partition
        self.bucket = create_pool_bucket(name, account.apply(lambda a: sm.bucket_name(name, a)), tags, child)
        self.role = aws.iam.Role(
            f"{name}-sagemaker-role",
            name=sm.role_name(name),
            assume_role_policy=json.dumps(sm.ASSUME_SAGEMAKER),
            tags=tags,
            opts=child,
        )
        source = args.data.source if args.data else None
        managed = args.job is not None and args.job.tracking is not None and args.job.tracking.mlflow == MANAGED
        server = (
            pulumi.Output.all(account, partition).apply(lambda v: sm.mlflow_server_arn(name, v[0], args.region, v[1]))
            if managed
            else pulumi.Output.from_input("")
        )
        self.role_policy = aws.iam.RolePolicy(
            f"{name}-sagemaker-access",
            role=self.role.id,
            policy=pulumi.Output.all(self.bucket.bucket, partition, server).apply(
                lambda v: json.dumps(sm.execution_policy(v[0], args.region, v[1], source, v[2] or None))
            ),
            opts=child,
        )
        self.mlflow_tracking_arn = self._mlflow(name, tags, partition, child) if managed else nothing()
        self.bucket_name = self.bucket.bucket
        self.role_arn = self.role.arn
        return pool_outputs()

    def _mlflow(self, name: str, tags: Any, partition: Any, child: pulumi.ResourceOptions) -> pulumi.Output[Any]:
        """The SageMaker managed MLflow tracking server (`job.tracking: {mlflow: managed}`): its
        artifact store the pool bucket's `mlflow/` prefix, written by its own role only; the
        smallest size. It bills by the hour while it exists (not in the catalog: unpriced)."""
        self.mlflow_role = aws.iam.Role(
            f"{name}-mlflow-role",
            name=sm.mlflow_role_name(name),
            assume_role_policy=json.dumps(sm.ASSUME_SAGEMAKER),
            tags=tags,
            opts=child,
        )
        self.mlflow_role_policy = aws.iam.RolePolicy(
            f"{name}-mlflow-artifacts",
            role=self.mlflow_role.id,
            policy=pulumi.Output.all(self.bucket.bucket, partition).apply(
                lambda v: json.dumps(sm.mlflow_server_policy(v[0], v[1]))
            ),
            opts=child,
        )
        self.mlflow = aws.sagemaker.MlflowTrackingServer(
            f"{name}-mlflow",
            tracking_server_name=sm.mlflow_server_name(name),
            artifact_store_uri=self.bucket.bucket.apply(lambda b: f"s3://{b}/{sm.MLFLOW_PREFIX}"),
            role_arn=self.mlflow_role.arn,
            tracking_server_size="Small",
            automatic_model_registration=False,
            tags=tags,
            opts=pulumi.ResourceOptions.merge(child, pulumi.ResourceOptions(depends_on=[self.mlflow_role_policy])),
        )
        return self.mlflow.arn

    def extra_outputs(self) -> dict[str, pulumi.Output[Any]]:
        """The bucket, the execution role `trainstack run` uses and the MLflow server (or None)."""
        return {
            "bucket_name": self.bucket_name,
            "role_arn": self.role_arn,
            "mlflow_tracking_arn": self.mlflow_tracking_arn,
        }
