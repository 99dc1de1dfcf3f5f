"""The GCP spot cluster's on-demand fill: the head's watcher unit and what it may do.

The watcher (`nodeagent.fill`) runs on the on-demand head node as the node service account; it
lists the cluster's groups and resizes `{name}-nodes-on-demand`. Its custom role holds only
the instance-group-manager permissions that takes, granted on the project (as the TPU
controller's is, `components.gcp.queued`): the nodes' account holds it, workers included.
"""

from __future__ import annotations

import pulumi
import pulumi_gcp as gcp

from clouds.contract import ClusterConfig
from clouds.fill_bootstrap import fill_config, fill_script

# instanceGroupManagers.list / get (the sizes) and .update (resize), Compute Engine IAM permissions.
FILL_PERMISSIONS = (
    "compute.instanceGroupManagers.get",
    "compute.instanceGroupManagers.list",
    "compute.instanceGroupManagers.update",
)


def location(args: ClusterConfig) -> str:
    """Where the cluster's groups are, as the API paths name it: a regional group with fallback
    types (`regions/R`), else the zone (`zones/Z`)."""
    return f"regions/{args.region}" if args.fallback_types else f"zones/{args.zone}"


def with_fill(
    script: pulumi.Output[str], name: str, args: ClusterConfig, project: pulumi.Input[str]
) -> pulumi.Output[str]:
    """The head's startup script with the fill unit appended (`clouds.fill_bootstrap`)."""
    assert args.on_demand_after_minutes is not None
    after = args.on_demand_after_minutes

    def add(values: list) -> str:
        text, project_id = values
        config = fill_config(name, args.nodes, after, "gcp", project=project_id, location=location(args))
        return text + "\n" + fill_script(config)

    return pulumi.Output.all(script, project).apply(add)


def create_fill_grant(
    name: str, project: pulumi.Input[str], account: gcp.serviceaccount.Account, opts: pulumi.ResourceOptions
) -> gcp.projects.IAMCustomRole:
    """Create `{name}-fill-role` (`FILL_PERMISSIONS`) and grant it to the node account (`{name}-fill`)."""
    clean = "".join(c if c.isalnum() else "_" for c in name)
    role = gcp.projects.IAMCustomRole(
        f"{name}-fill-role",
        role_id=f"trainstack_{clean}_fill"[:64],
        title=f"trainstack {name} on-demand fill",
        description="Read the cluster's instance groups and resize its on-demand one (nodeagent.fill)",
        permissions=list(FILL_PERMISSIONS),
        project=project,
        opts=opts,
    )
    member = account.email.apply(lambda email: f"serviceAccount:{email}")
    gcp.projects.IAMMember(f"{name}-fill", project=project, role=role.name, member=member, opts=opts)
    return role
