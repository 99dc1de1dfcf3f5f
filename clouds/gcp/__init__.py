"""GCP: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

from clouds.access import GROUP, NodeAccess
from clouds.base import GROUP_RESTART_HOURS, Cloud, FileSystemRule, Healing

# The nodes have no external IP and use OS Login (clouds/gcp/machine.py); IAP TCP forwarding
# reaches them once the firewall admits IAP's source range on TCP 22, which a stack does by
# listing it in `ssh_cidrs` (components/gcp/firewall.py).
IAP_RANGE = "35.235.240.0/20"  # Google Cloud docs, "Using IAP for TCP forwarding"; not in reference-facts
IAP = "--zone {zone} --tunnel-through-iap"
ACCESS = NodeAccess(
    service="IAP TCP forwarding",
    needs="gcloud on your machine; roles/iap.tunnelResourceAccessor and roles/compute.osAdminLogin",
    find=f"gcloud compute instance-groups managed list-instances {GROUP} --zone {{zone}}",
    shell=f"gcloud compute ssh {{node}} {IAP}",
    copy_to=f"gcloud compute scp {IAP} {{file}} {{node}}:",
    copy_back=f"gcloud compute scp {IAP} {{node}}:{{remote}} {{local}}",
    bucket_copy="gcloud storage cp {src} {dst}",
    ssh_cidrs=(IAP_RANGE,),
    ssh_cidrs_source="IAP's TCP forwarding range",
)

CLOUD = Cloud(
    name="gcp",
    display_name="GCP",
    extra="gcp",
    sdk="pulumi-gcp",
    guidance="profiles.preflight_guidance:gcp_guidance",
    region_key="gcp:region",
    capacity_note="clouds.gcp.tpu:capacity_note",
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
        f"rejoins the job (unsourced {GROUP_RESTART_HOURS:g} h per interruption; TPU slices are not replaced)",
        (("tpu-", "TPU slices get no node bootstrap yet"),),
        ("tpu-",),
    ),
    notice_watcher="gcp",
    access=ACCESS,
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
