"""TPU slices as queued resources, kept requested by the cluster's controller VM: its service
account, custom role and grants, and the on-demand VM running `nodeagent.gcp_queued` (the
rules and why: `clouds.gcp.queued`)."""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_gcp as gcp

from clouds.contract import ClusterConfig
from clouds.gcp.machine import SCOPES, SHIELDED, scheduling
from clouds.gcp.queued import (
    CONTROLLER_IMAGE,
    CONTROLLER_MACHINE_TYPE,
    CONTROLLER_PERMISSIONS,
    CONTROLLER_SCOPES,
    controller_config,
    controller_role_id,
    queued_resource_body,
    queued_resource_ids,
)
from clouds.gcp.tpu import TPU_METADATA, tpu_accelerator_type, tpu_runtime_version
from components.gcp.compute import service_account
from components.gcp.controller_script import controller_script
from components.gcp.network import ClusterNetwork

__all__ = ["QueuedController", "create_queued_controller", "queued_resource_ids", "slice_bodies"]


@dataclass
class QueuedController:
    """The controller's resources: `account`, `role` (custom role), `grant` (the role on the
    project), `act_as` (service-account user on the node account only), `instance` (the VM)."""

    account: gcp.serviceaccount.Account
    role: gcp.projects.IAMCustomRole
    grant: gcp.projects.IAMMember
    act_as: gcp.serviceaccount.IAMMember
    instance: gcp.compute.Instance


def slice_bodies(name: str, args: ClusterConfig, project: str, network: str, subnet: str, email: str, labels: dict):
    """Queued resource id -> its TPU v2 request body, for every slice in node order."""
    return {
        resource_id: queued_resource_body(
            resource_id,
            project,
            args.zone,
            tpu_accelerator_type(args.instance_type),
            tpu_runtime_version(args.instance_type),
            network,
            subnet,
            email,
            SCOPES,
            labels,
            TPU_METADATA,
            args.purchase,
            args.capacity_reservation_id,
        )
        for resource_id in queued_resource_ids(name, args.nodes)
    }


def create_queued_controller(
    name: str,
    args: ClusterConfig,
    net: ClusterNetwork,
    node_account: gcp.serviceaccount.Account,
    labels: dict[str, str],
    project: pulumi.Input[str],
    opts: pulumi.ResourceOptions,
) -> QueuedController:
    """Create the controller that keeps every slice's queued resource requested.

    Args:
        name: the cluster name; children are `{name}-queued*`.
        args: the cluster config (`instance_type`, `zone`, `nodes`, `purchase`, `reservation`).
        net: the cluster networks (controller and slices on the primary subnet, internal IPs).
        node_account: the service account the slices run as.
        labels: the cluster's labels (controller and slices).
        project: the project id.
        opts: child options.
    """
    account, member = service_account(f"{name}-queued", f"trainstack {name} queued-resource controller", opts)
    role = gcp.projects.IAMCustomRole(
        f"{name}-queued-role",
        role_id=controller_role_id(name),
        title=f"trainstack {name} TPU queued resources",
        description="Create, read and delete the cluster's TPU queued resources (clouds.gcp.queued)",
        permissions=list(CONTROLLER_PERMISSIONS),
        project=project,
        opts=opts,
    )
    # Project-wide: Cloud TPU has no IAM Conditions resource attributes (clouds.gcp.queued).
    grant = gcp.projects.IAMMember(f"{name}-queued-tpu", project=project, role=role.name, member=member, opts=opts)
    act_as = gcp.serviceaccount.IAMMember(
        f"{name}-queued-act-as",
        service_account_id=node_account.name,
        role="roles/iam.serviceAccountUser",
        member=member,
        opts=opts,
    )

    def script(values: list) -> str:
        project_id, network, subnet, email = values
        bodies = slice_bodies(name, args, project_id, network, subnet, email, labels)
        return controller_script(controller_config(project_id, args.zone, bodies))

    startup = pulumi.Output.all(project, net.network.name, net.subnet.name, node_account.email).apply(script)
    instance = gcp.compute.Instance(
        f"{name}-queued-controller",
        machine_type=CONTROLLER_MACHINE_TYPE,
        zone=args.zone,
        boot_disk={"auto_delete": True, "initialize_params": {"image": CONTROLLER_IMAGE, "labels": labels}},
        network_interfaces=[{"network": net.network.id, "subnetwork": net.subnet.id}],
        scheduling=scheduling("on-demand"),
        service_account={"email": account.email, "scopes": list(CONTROLLER_SCOPES)},
        shielded_instance_config={**SHIELDED, "enable_secure_boot": True},
        metadata={"enable-oslogin": "TRUE", "startup-script": startup},
        labels=labels,
        allow_stopping_for_update=True,
        # The controller reads its config at boot and keeps no state (the queued resources live
        # in the TPU API): a changed config (more slices, new labels) replaces it, delete-first,
        # and the new one adopts the existing queued resources by id.
        opts=pulumi.ResourceOptions.merge(
            opts,
            pulumi.ResourceOptions(
                depends_on=[grant, act_as], replace_on_changes=["metadata"], delete_before_replace=True
            ),
        ),
    )
    return QueuedController(account, role, grant, act_as, instance)
