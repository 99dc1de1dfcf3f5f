"""The SageMaker HyperPod execution role, pure: who may assume it and what its policy allows
(IAM policy JSON). Least privilege in place of the managed `AmazonSageMakerClusterInstanceRolePolicy`
(which reads every `sagemaker-*` bucket): the nodes read the lifecycle script from the pool's
bucket and nothing else of it but the checkpoints prefix, read the dataset's prefix when the
stack names one, write the cluster's logs and metrics, and manage the network interfaces
HyperPod attaches in the pool's VPC.
"""

from __future__ import annotations

from clouds.aws.hyperpod import LIFECYCLE_PREFIX

CHECKPOINT_PREFIX = "checkpoints/"
# The network-interface actions a HyperPod cluster in a customer VPC needs from its execution
# role (HyperPod developer guide, "IAM role for SageMaker HyperPod", the statement for clusters
# with a VpcConfig). The Describe actions take no resource type (Service Authorization Reference,
# Amazon EC2): `policies.rules.NO_RESOURCE_TYPE` lets them stand alone on "*".
ENI_ACTIONS = (
    "ec2:CreateNetworkInterface",
    "ec2:CreateNetworkInterfacePermission",
    "ec2:DeleteNetworkInterface",
    "ec2:DeleteNetworkInterfacePermission",
    "ec2:DetachNetworkInterface",
    "ec2:AssignPrivateIpAddresses",
    "ec2:UnassignPrivateIpAddresses",
    "ec2:ModifyNetworkInterfaceAttribute",
)
DESCRIBE_ACTIONS = (
    "ec2:DescribeNetworkInterfaces",
    "ec2:DescribeVpcs",
    "ec2:DescribeDhcpOptions",
    "ec2:DescribeSubnets",
    "ec2:DescribeSecurityGroups",
)

# Who may assume the execution role: the SageMaker service (HyperPod runs the instance groups).
ASSUME_SAGEMAKER = {
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}],
}


def _dataset(data_source: str | None, partition: str) -> list[dict]:
    if not data_source or not data_source.startswith("s3://"):
        return []
    bucket, _, prefix = data_source.removeprefix("s3://").partition("/")
    arn = f"arn:{partition}:s3:::{bucket}"
    return [
        {"Sid": "DatasetRead", "Effect": "Allow", "Action": ["s3:GetObject"], "Resource": [f"{arn}/{prefix}*"]},
        {
            "Sid": "DatasetList",
            "Effect": "Allow",
            "Action": ["s3:ListBucket"],
            "Resource": [arn],
            "Condition": {"StringLike": {"s3:prefix": [f"{prefix}*"]}},
        },
    ]


def execution_policy(
    bucket: str, region: str, account: str, partition: str = "aws", data_source: str | None = None
) -> dict:
    """The instance groups' execution role policy (IAM policy JSON).

    Args:
        bucket: the pool's bucket (lifecycle script under `lifecycle/`, checkpoints under
            `checkpoints/`).
        region: the cluster's region (logs and network interfaces are scoped to it).
        account: the account id.
        partition: `aws`, or `aws-cn` / `aws-us-gov`.
        data_source: the stack's `data.source` (`s3://bucket/prefix/`), read-only, or None.
    """
    own = f"arn:{partition}:s3:::{bucket}"
    ec2 = f"arn:{partition}:ec2:{region}:{account}"
    statements: list[dict] = [
        {
            "Sid": "LifecycleScripts",
            "Effect": "Allow",
            "Action": ["s3:GetObject"],
            "Resource": [f"{own}/{LIFECYCLE_PREFIX}*"],
        },
        {
            "Sid": "Checkpoints",
            "Effect": "Allow",
            "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
            "Resource": [f"{own}/{CHECKPOINT_PREFIX}*"],
        },
        {
            "Sid": "PoolBucketList",
            "Effect": "Allow",
            "Action": ["s3:ListBucket"],
            "Resource": [own],
            "Condition": {"StringLike": {"s3:prefix": [f"{LIFECYCLE_PREFIX}*", f"{CHECKPOINT_PREFIX}*"]}},
        },
        *_dataset(data_source, partition),
        {
            "Sid": "ClusterLogs",
            "Effect": "Allow",
            "Action": ["logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"],
            "Resource": [f"arn:{partition}:logs:{region}:{account}:log-group:/aws/sagemaker/Clusters/*"],
        },
        {
            "Sid": "ClusterMetrics",
            "Effect": "Allow",
            "Action": ["cloudwatch:PutMetricData"],
            "Resource": ["*"],
            "Condition": {"StringLike": {"cloudwatch:namespace": "/aws/sagemaker/Clusters*"}},
        },
        {
            "Sid": "NetworkInterfaces",
            "Effect": "Allow",
            "Action": list(ENI_ACTIONS),
            "Resource": [f"{ec2}:network-interface/*", f"{ec2}:subnet/*", f"{ec2}:security-group/*"],
        },
        {"Sid": "DescribeNetwork", "Effect": "Allow", "Action": list(DESCRIBE_ACTIONS), "Resource": ["*"]},
        {
            "Sid": "TagNewInterfaces",
            "Effect": "Allow",
            "Action": ["ec2:CreateTags"],
            "Resource": [f"{ec2}:network-interface/*"],
            "Condition": {"StringEquals": {"ec2:CreateAction": "CreateNetworkInterface"}},
        },
    ]
    return {"Version": "2012-10-17", "Statement": statements}
