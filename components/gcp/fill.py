"""The GCP spot cluster's on-demand fill: the head's watcher unit and what it may do.

The watcher (`nodeagent.fill`) runs on the on-demand head node as the node service account; it
reads the cluster's two groups by name and resizes `{name}-nodes-on-demand`. Two custom roles
hold only the instance-group-manager permissions that takes, each bound with an IAM condition on
the resource name (Compute Engine supports the `resource.name` attribute for instance group
managers: cloud.google.com/iam/docs/conditions-resource-attributes, format
`projects/PROJECT/zones/ZONE/instanceGroupManagers/NAME`): `get` on this cluster's spot and
on-demand groups, `update` (resize) on its on-demand group alone. No `list` (a list call is
checked on the project, where no group name can narrow it), so the watcher is given the spot
group's name. The nodes' account holds the grants, workers included.
"""

from __future__ import annotations

from functools import partial

import pulumi
import pulumi_gcp as gcp

from clouds.contract import ClusterConfig
from clouds.fill_bootstrap import fill_config, fill_script

# instanceGroupManagers.get (the sizes) and .update (resize), Compute Engine IAM permissions.
READ_PERMISSIONS = ("compute.instanceGroupManagers.get",)
RESIZE_PERMISSIONS = ("compute.instanceGroupManagers.update",)
FILL_PERMISSIONS = READ_PERMISSIONS + RESIZE_PERMISSIONS
GROUP_TYPE = "compute.googleapis.com/InstanceGroupManager"


def group_condition(project: str, where: str, groups: list[str]) -> str:
    """The CEL expression that holds a grant to the named groups of `where` (`zones/Z` or
    `regions/R`): the resource type and each group's full resource name."""
    names = " || ".join(f'resource.name == "projects/{project}/{where}/instanceGroupManagers/{g}"' for g in groups)
    return f'resource.type == "{GROUP_TYPE}" && ({names})'


def location(args: ClusterConfig) -> str:
    """Where the cluster's groups are, as the API paths name it: a regional group with fallback
    types (`regions/R`), else the zone (`zones/Z`)."""
    return f"regions/{args.region}" if args.fallback_types else f"zones/{args.zone}"


def with_fill(
    script: pulumi.Output[str],
    name: str,
    args: ClusterConfig,
    project: pulumi.Input[str],
    spot_group: pulumi.Input[str],
) -> pulumi.Output[str]:
    """The head's startup script with the fill unit appended (`clouds.fill_bootstrap`);
    `spot_group` is the spot group's name (the watcher reads it by name)."""
    assert args.on_demand_after_minutes is not None
    after = args.on_demand_after_minutes

    def add(values: list) -> str:
        text, project_id, group = values
        config = fill_config(
            name, args.nodes, after, "gcp", project=project_id, location=location(args), spot_group=group
        )
        return text + "\n" + fill_script(config)

    return pulumi.Output.all(script, project, spot_group).apply(add)


def _condition_of(where: str, values: list[str]) -> str:
    return group_condition(values[0], where, values[1:])


def create_fill_grant(
    name: str,
    args: ClusterConfig,
    project: pulumi.Input[str],
    account: gcp.serviceaccount.Account,
    spot_group: pulumi.Input[str],
    opts: pulumi.ResourceOptions,
) -> gcp.projects.IAMCustomRole:
    """Create `{name}-fill-role` (`RESIZE_PERMISSIONS`), granted to the node account on the
    on-demand group alone (`{name}-fill`), and `{name}-fill-read-role` (`READ_PERMISSIONS`),
    granted on the spot and on-demand groups (`{name}-fill-read`): conditional bindings on
    the project (`group_condition`). Returns the resize role."""
    clean = "".join(c if c.isalnum() else "_" for c in name)
    member = account.email.apply(lambda email: f"serviceAccount:{email}")
    on_demand = f"{name}-nodes-on-demand"
    role = None
    for suffix, permissions, what in (
        ("", RESIZE_PERMISSIONS, "Resize the cluster's on-demand instance group (nodeagent.fill)"),
        ("-read", READ_PERMISSIONS, "Read the cluster's spot and on-demand instance groups (nodeagent.fill)"),
    ):
        made = gcp.projects.IAMCustomRole(
            f"{name}-fill{suffix}-role",
            role_id=f"trainstack_{clean}_fill{suffix.replace('-', '_')}"[:64],
            title=f"trainstack {name} on-demand fill{suffix}",
            description=what,
            permissions=list(permissions),
            project=project,
            opts=opts,
        )
        names = [spot_group, on_demand] if suffix else [on_demand]
        groups = pulumi.Output.all(project, *names).apply(partial(_condition_of, location(args)))
        condition = {"title": f"trainstack {name} groups", "expression": groups}
        gcp.projects.IAMMember(
            f"{name}-fill{suffix}", project=project, role=made.name, member=member, condition=condition, opts=opts
        )
        role = role or made
    assert role is not None
    return role
