"""GCP: what trainstack knows about it, as one `Cloud` (see `clouds.base`); its pure
rules (validation, sizing, facts, mock answers, replace-on-change inputs) sit beside it."""

from __future__ import annotations

from clouds.base import Cloud, FileSystemRule

CLOUD = Cloud(
    name="gcp",
    display_name="GCP",
    component="components.gcp.cluster:GcpGpuCluster",
    validator="clouds.gcp.validate:validate_args",
    fetcher="profiles.catalog.fetchers.gcp:fetch",
    mock="clouds.gcp.mock:MOCK",
    replacements="clouds.gcp.replacements:REPLACEMENTS",
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
