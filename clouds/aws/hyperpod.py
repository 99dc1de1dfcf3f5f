"""SageMaker HyperPod rules, pure: the names, the CreateCluster / UpdateCluster requests and the
roles of the persistent Slurm cluster a workload gets with `platform: hyperpod`.

The cluster (SageMaker API reference, CreateCluster) is Slurm-orchestrated with the API-driven
Slurm configuration (`Orchestrator.Slurm`, each instance group's `SlurmConfig.NodeType`: the
HyperPod developer guide's recommended form for new clusters, "SageMaker HyperPod Slurm
configuration"): one controller group and one worker group of the stack's instance type and
`nodes`, `NodeRecovery: Automatic` (HyperPod reboots or replaces a faulty node), deep health
checks when a worker starts (`OnStartDeepHealthChecks`), the lifecycle script from the pool's
bucket, the stack's FSx for Lustre file system mounted at /fsx (`FsxLustreConfig`), all in the
pool's private subnet and security group (`VpcConfig`).

Names: a cluster or instance-group name matches `[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}` (CreateCluster
`ClusterName`, `InstanceGroupName`); the bucket starts with `sagemaker-` (the prefix HyperPod's
own examples and its managed instance policy use for lifecycle-script buckets) and carries the
account id (S3 bucket names are global, at most 63 characters).
"""

from __future__ import annotations

import re
from typing import Any

from clouds.contract import ClusterConfig

# trainstack's choices (assumed, no source fixes them): the Slurm controller's type (the
# smallest general-purpose type HyperPod lists for a controller group; it runs slurmctld only),
# the workers' Slurm partition, where the lifecycle script sits in the bucket.
CONTROLLER_TYPE = "ml.m5.xlarge"
CONTROLLER_GROUP = "controller"
PARTITION = "train"
LIFECYCLE_PREFIX = "lifecycle/"
ON_CREATE = "on_create.sh"
MOUNT_PATH = "/fsx"  # as the AWS VM stacks mount FSx (clouds/aws/cloud_init.py MOUNT_POINT)
# ThreadsPerCore 2: the instance's own default (EC2 keeps simultaneous multithreading on),
# written out because CreateCluster's moto model reads it from every group.
THREADS_PER_CORE = 2
# OnStartDeepHealthChecks (CreateCluster `DeepHealthCheckType`): the GPU/accelerator stress
# test on every worker; the connectivity test (EFA / NCCL between nodes) with an RDMA fabric.
# Both run on GPU and Trainium instances, the only worker types the platform offers; a node
# under test sits in a Slurm maintenance reservation until it passes (HyperPod guide, "Deep
# health checks" for Slurm clusters). The controller (a CPU type) gets none.
STRESS, CONNECTIVITY = "InstanceStress", "InstanceConnectivity"
# What a request may change in place (UpdateCluster takes the instance groups and
# NodeRecovery); the rest of CreateCluster is fixed at create, so a change replaces the cluster.
UPDATABLE = ("InstanceGroups", "NodeRecovery")
FIXED_AT_CREATE = ("ClusterName", "VpcConfig", "Orchestrator")


def _slug(name: str) -> str:
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9-]", "-", name.lower())).strip("-") or "cluster"


def cluster_name(cluster: str) -> str:
    """The HyperPod cluster's name: the cluster's, at most 63 characters."""
    return _slug(cluster)[:63].rstrip("-")


def bucket_name(cluster: str, account: str) -> str:
    """The pool's bucket (lifecycle script, checkpoints): `sagemaker-<cluster>-<account>`."""
    return f"sagemaker-{_slug(cluster)[: 63 - 11 - len(account)].rstrip('-')}-{account}"


def role_name(cluster: str) -> str:
    """The instance groups' execution role: `<cluster>-hyperpod` (64 characters at most)."""
    return f"{_slug(cluster)[:55].rstrip('-')}-hyperpod"


def worker_group(instance_type: str) -> str:
    """The worker group's name, from its type (`workers-p5-48xlarge`): a new type is a new
    group, so UpdateCluster adds it and deletes the old one instead of replacing the cluster."""
    return "workers-" + _slug(instance_type.removeprefix("ml.").replace(".", "-"))


def ml_type(instance_type: str) -> str:
    """The instance type as HyperPod spells it (`ml.p5.48xlarge`)."""
    return instance_type if instance_type.startswith("ml.") else f"ml.{instance_type}"


def _group(name: str, instance_type: str, count: int, role_arn: str, lifecycle: str, storage: list) -> dict:
    group: dict[str, Any] = {
        "InstanceGroupName": name,
        "InstanceType": instance_type,
        "InstanceCount": count,
        "LifeCycleConfig": {"SourceS3Uri": lifecycle, "OnCreate": ON_CREATE},
        "ExecutionRole": role_arn,
        "ThreadsPerCore": THREADS_PER_CORE,
    }
    if storage:
        group["InstanceStorageConfigs"] = storage
    return group


def cluster_request(
    cluster: str,
    config: ClusterConfig,
    role_arn: str,
    bucket: str,
    network: dict[str, list[str]],
    file_system: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The CreateCluster request of the stack's HyperPod cluster (boto3 keyword arguments).

    Args:
        cluster: the stack's cluster name.
        config: the stack's cluster config (instance type, `nodes`, interconnect).
        role_arn: the execution role every instance group assumes.
        bucket: the pool's bucket, where the lifecycle script is.
        network: `{"SecurityGroupIds": [...], "Subnets": [...]}` (CreateCluster `VpcConfig`).
        file_system: `{"DnsName": ..., "MountName": ...}` of the stack's FSx for Lustre, or None.

    Returns:
        `ClusterName`, `InstanceGroups` (controller, workers), `VpcConfig`, `Orchestrator`,
        `NodeRecovery`; no tags (the provider adds the stack's).
    """
    lifecycle = f"s3://{bucket}/{LIFECYCLE_PREFIX}"
    storage = [{"FsxLustreConfig": {**file_system, "MountPath": MOUNT_PATH}}] if file_system else []
    controller = _group(CONTROLLER_GROUP, CONTROLLER_TYPE, 1, role_arn, lifecycle, storage)
    controller["SlurmConfig"] = {"NodeType": "Controller"}
    workers = _group(
        worker_group(config.instance_type), ml_type(config.instance_type), config.nodes, role_arn, lifecycle, storage
    )
    workers["SlurmConfig"] = {"NodeType": "Compute", "PartitionNames": [PARTITION]}
    workers["OnStartDeepHealthChecks"] = [STRESS, CONNECTIVITY] if config.interconnect == "rdma" else [STRESS]
    return {
        "ClusterName": cluster_name(cluster),
        "InstanceGroups": [controller, workers],
        "VpcConfig": network,
        "Orchestrator": {"Slurm": {"SlurmConfigStrategy": "Managed"}},
        "NodeRecovery": "Automatic",
    }


def replaced_by(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The request fields whose change replaces the cluster: UpdateCluster takes no cluster
    name, VPC or orchestrator (SageMaker API model, UpdateCluster), so those are fixed at create."""
    return [key for key in FIXED_AT_CREATE if old.get(key) != new.get(key)]


def update_request(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
    """The UpdateCluster request that turns cluster `old` into `new` (CreateCluster requests,
    same fixed fields), or None when nothing UpdateCluster sets changed.

    Every instance group of `new` is sent (UpdateCluster applies counts, lifecycle config and
    health checks per group; a group it does not know is added); a group `old` has and `new`
    has not (the worker type changed) is named in `InstanceGroupsToDelete`.
    """
    if all(old.get(key) == new.get(key) for key in UPDATABLE):
        return None
    kept = {g["InstanceGroupName"] for g in new["InstanceGroups"]}
    gone = [g["InstanceGroupName"] for g in old.get("InstanceGroups", []) if g["InstanceGroupName"] not in kept]
    request: dict[str, Any] = {
        "ClusterName": new["ClusterName"],
        "InstanceGroups": new["InstanceGroups"],
        "NodeRecovery": new["NodeRecovery"],
    }
    if gone:
        request["InstanceGroupsToDelete"] = gone
    return request


def lifecycle_script(cluster: str, file_system: bool) -> str:
    """The instance groups' OnCreate script (`on_create.sh` in the pool's bucket): HyperPod runs
    it as root on every node it creates or replaces; Slurm itself is set up by HyperPod from the
    request's `SlurmConfig`. It records the node in the provisioning log and, with a file
    system, makes the cluster's checkpoint folder on it."""
    lines = [
        "#!/bin/bash",
        f"# trainstack: SageMaker HyperPod node of {cluster_name(cluster)} (lifecycle OnCreate)",
        "set -euo pipefail",
        'echo "trainstack: node $(hostname) created at $(date -u +%Y-%m-%dT%H:%M:%SZ)"',
    ]
    if file_system:
        lines += [
            f"if mountpoint -q {MOUNT_PATH}; then",
            f"  mkdir -p {MOUNT_PATH}/checkpoints/{cluster_name(cluster)}",
            "fi",
        ]
    return "\n".join(lines) + "\n"


def validate_pool(config: ClusterConfig, name: str = "cluster") -> None:
    """The HyperPod pool's checks (the EC2 cluster's do not apply: HyperPod launches the nodes).

    Raises:
        ValueError: one line naming the field and the fix.
    """
    if config.purchase == "spot":
        raise ValueError(
            "purchase: HyperPod documents spot instance groups for EKS-orchestrated clusters (HyperPod guide, "
            "'Spot instances in Amazon SageMaker HyperPod'); trainstack builds a Slurm cluster: set purchase: "
            "on-demand, or platform: sagemaker for managed spot training"
        )
    if config.ssh_cidrs:
        raise ValueError("ssh_cidrs: HyperPod nodes are reached through SSM Session Manager, not SSH; remove ssh_cidrs")
    if config.reservation is not None:
        raise ValueError(
            "reservation: HyperPod takes reserved capacity as a SageMaker training plan, not an EC2 reservation; "
            "remove reservation"
        )
    if config.kms_key_id:
        raise ValueError("kms_key_id: the pool encrypts with AWS-managed keys; remove kms_key_id")
    if config.fallback_types or config.fallback_zones:
        raise ValueError("fallback_types: a HyperPod instance group has one type in one subnet; remove the fallbacks")
    from clouds.aws.validate import TAG_RULES, check_zone, fsx_sizing, tag_problem

    check_zone(config.region, config.zone)
    if problem := tag_problem(TAG_RULES, config.tags):
        raise ValueError(problem)
    if config.file_system is not None:  # the stack's FSx for Lustre, mounted on every node at /fsx
        fs = config.file_system
        fsx_sizing(fs.capacity_gib, fs.throughput_mbps_per_tib, fs.deployment_type)
