"""GCP: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

from clouds.base import GROUP_RESTART_HOURS, Cloud, FileSystemRule, Healing
from clouds.gcp.queued import REQUEUE_RESTART_HOURS

CLOUD = Cloud(
    name="gcp",
    display_name="GCP",
    extra="gcp",
    sdk="pulumi-gcp",
    guidance="profiles.preflight_guidance:gcp_guidance",
    region_key="gcp:region",
    capacity_note="clouds.gcp.tpu:capacity_note",
    queued_resource="clouds.gcp.queued:requests_queued",
    request_price="facts.request_prices:CLOUD_STORAGE_STANDARD",
    file_system=FileSystemRule(
        "clouds.gcp.filesystems:offered_file_system",
        "GCP",
        explicit_choice="clouds.gcp.filesystems:explicit_deployment_type",
    ),
    healing=Healing(
        True,
        True,
        GROUP_RESTART_HOURS,
        "GPU nodes are a managed instance group: a preempted spot VM is deleted, recreated and "
        f"rejoins the job (unsourced {GROUP_RESTART_HOURS:g} h per interruption)",
        (("tpu-", "TPU slices get no node bootstrap yet"),),
        ("tpu-",),
        queued=Healing(
            True,
            False,
            REQUEUE_RESTART_HOURS,
            "TPU slices are queued resources: the cluster's controller VM deletes and re-requests a "
            f"slice a preemption left SUSPENDED (unsourced {REQUEUE_RESTART_HOURS:g} h per interruption, "
            "the re-request time); restart training on it by hand (TPU slices get no node agent)",
        ),
    ),
    notice_watcher="gcp",
    shared_mount="/fsx",  # components/node_bootstrap.SHARED_MOUNT (every cloud mounts it there)
    nccl="clouds.gcp.nccl:kit_environment",
    # Off on-demand, from shared/reference-facts/pricing-models.md: G3 (third-party, CUDs 37-55 %).
    reserved_discount={"1y": 0.37, "3y": 0.55},
    stateful=frozenset(
        {
            "gcp:filestore/instance:Instance",
            "gcp:lustre/instance:Instance",
            "gcp:storage/bucket:Bucket",
            "gcp:compute/disk:Disk",
        }
    ),
    untaggable=frozenset(
        {
            "gcp:storage/bucketIAMMember:BucketIAMMember",
            "gcp:compute/network:Network",
            "gcp:compute/subnetwork:Subnetwork",
            "gcp:compute/firewall:Firewall",
            "gcp:compute/router:Router",
            "gcp:compute/routerNat:RouterNat",
            "gcp:compute/resourcePolicy:ResourcePolicy",
            "gcp:compute/instanceGroupManager:InstanceGroupManager",
            "gcp:compute/healthCheck:HealthCheck",
            "gcp:projects/iAMMember:IAMMember",
            "gcp:serviceaccount/account:Account",
            "gcp:servicenetworking/connection:Connection",
        }
    ),
)
