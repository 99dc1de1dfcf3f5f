"""Compute children of the GCP cluster: node service account, compact placement policy and
TPU VMs (one `tpu.V2Vm` per slice). The GPU nodes are a managed instance group (`nodes`)."""

from __future__ import annotations

import pulumi
import pulumi_gcp as gcp

from clouds.contract import ClusterConfig
from clouds.gcp.labels import gcp_id
from clouds.gcp.machine import SCOPES
from clouds.gcp.placement import placement_spec
from clouds.gcp.tpu import TPU_METADATA, scheduling_config, tpu_accelerator_type, tpu_runtime_version
from components.gcp.network import ClusterNetwork

# Roles the node service account gets: write logs and metrics, nothing else.
NODE_ROLES = {"logs": "roles/logging.logWriter", "metrics": "roles/monitoring.metricWriter"}


def create_service_account(
    name: str, project: pulumi.Input[str], opts: pulumi.ResourceOptions
) -> tuple[gcp.serviceaccount.Account, list[gcp.projects.IAMMember]]:
    """Create the node service account and grant it only log and metric writes.

    Args:
        name: the cluster name; the account is `{name}-nodes` (id at most 30 characters).
        project: project id for the role bindings.
        opts: child options.
    """
    account, member = service_account(f"{name}-nodes", f"trainstack {name} nodes", opts)
    grants = [
        gcp.projects.IAMMember(f"{name}-nodes-{key}", project=project, role=role, member=member, opts=opts)
        for key, role in NODE_ROLES.items()
    ]
    return account, grants


def service_account(
    logical_name: str, display_name: str, opts: pulumi.ResourceOptions
) -> tuple[gcp.serviceaccount.Account, pulumi.Output[str]]:
    """A service account named `logical_name` (its account id the same, shortened to the
    30 characters GCP allows), and the IAM member string that grants it roles
    (`serviceAccount:<email>`)."""
    account = gcp.serviceaccount.Account(
        logical_name, account_id=gcp_id(logical_name, 30), display_name=display_name, opts=opts
    )
    return account, account.email.apply(lambda email: f"serviceAccount:{email}")


def create_placement(name: str, args: ClusterConfig, opts: pulumi.ResourceOptions) -> gcp.compute.ResourcePolicy | None:
    """Create the compact placement policy (see `placement.placement_spec`), or None.

    Args:
        name: the cluster name; the policy is `{name}-placement`.
        args: the cluster config (`instance_type`, `nodes`, `region`).
        opts: child options.
    """
    spec = placement_spec(args.instance_type, args.nodes)
    if spec is None:
        return None
    return gcp.compute.ResourcePolicy(
        f"{name}-placement",
        region=args.region,
        group_placement_policy={
            "collocation": spec.collocation,
            "max_distance": spec.max_distance,
            "vm_count": spec.vm_count,
        },
        opts=opts,
    )


def create_tpus(
    name: str,
    args: ClusterConfig,
    net: ClusterNetwork,
    account: gcp.serviceaccount.Account,
    labels: dict[str, str],
    opts: pulumi.ResourceOptions,
) -> list[gcp.tpu.V2Vm]:
    """Create one TPU VM per node (each a whole slice, `args.instance_type`).

    Args:
        name: the cluster name; slices are `{name}-tpu-0` ... `{name}-tpu-{n-1}`.
        args: the cluster config (`instance_type` such as `tpu-v5p-8`, `zone`, `purchase`).
        net: the cluster networks (TPU workers sit on the primary subnet).
        account: the node service account.
        labels: labels for every slice.
        opts: child options.
    """
    scheduling = scheduling_config(args.purchase, args.capacity_reservation_id)
    return [
        gcp.tpu.V2Vm(
            f"{name}-tpu-{i}",
            zone=args.zone,
            accelerator_type=tpu_accelerator_type(args.instance_type),
            runtime_version=tpu_runtime_version(args.instance_type),
            network_config={
                "network": net.network.id,
                "subnetwork": net.subnet.id,
                "enable_external_ips": False,
            },
            scheduling_config=scheduling,
            service_account={"email": account.email, "scopes": list(SCOPES)},
            metadata=TPU_METADATA,
            labels=labels,
            opts=opts,
        )
        for i in range(args.nodes)
    ]
