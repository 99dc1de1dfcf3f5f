"""The GCP GPU nodes: an instance template, a zonal managed instance group that recreates lost
VMs (auto-healing on a TCP health check), and, with a `job`, the on-demand head node.

The rules (termination action, update and lifecycle policies, why zonal) are in
`clouds.gcp.group`; the per-VM settings in `clouds.gcp.machine`.
"""

from __future__ import annotations

import pulumi
import pulumi_gcp as gcp

from clouds.contract import ClusterConfig
from clouds.gcp.capacity import regional_group_args
from clouds.gcp.flex_start import flex_scheduling, run_seconds
from clouds.gcp.group import (
    AUTOHEAL_DELAY_SECONDS,
    HEALTH_CHECK,
    HEALTH_PORT,
    group_scheduling,
    lifecycle_policy,
    update_policy,
)
from clouds.gcp.machine import (
    BOOT_DISK_GB,
    IMAGE,
    METADATA,
    SCOPES,
    SHIELDED,
    boot_disk_type,
    guest_accelerators,
    node_scopes,
    reservation_affinity,
    scheduling,
)
from clouds.gcp.nics import NicLayout
from clouds.job_secrets import secret_refs
from components.gcp.network import ClusterNetwork, nic_args
from nodeagent.clouds.gcp import JOB_ATTRIBUTE

# A choice, not a sourced figure: 2 vCPU / 8 GiB is plenty for torch's TCPStore.
HEAD_MACHINE_TYPE = "n2-standard-2"


def create_template(
    name: str,
    args: ClusterConfig,
    layout: NicLayout,
    net: ClusterNetwork,
    account: gcp.serviceaccount.Account,
    policy: gcp.compute.ResourcePolicy | None,
    startup_script: pulumi.Input[str] | None,
    labels: dict[str, str],
    opts: pulumi.ResourceOptions,
    suffix: str = "",
) -> gcp.compute.InstanceTemplate:
    """Create `{name}-template`: what every node looks like (GPUs, GPUDirect NICs, spot, placement).

    A template is immutable: any change makes a new one (`name_prefix`, created before the
    old one is deleted), which the group uses only for VMs it creates from then on.

    Args:
        name: the cluster name.
        args: the cluster config.
        layout: the NIC layout of each node.
        net: the cluster networks.
        account: the node service account.
        policy: the compact placement policy, or None.
        startup_script: the node bootstrap (`metadata.startup-script`), or None.
        labels: labels for every node and boot disk.
        opts: child options.
        suffix: `-on-demand` for the on-demand side's template (`{name}-template-on-demand`).
    """
    metadata: dict[str, pulumi.Input[str]] = dict(METADATA)
    if startup_script is not None:
        metadata["startup-script"] = startup_script
    return gcp.compute.InstanceTemplate(
        f"{name}-template{suffix}",
        name_prefix=f"{name}{suffix}-",
        machine_type=args.instance_type,
        disks=[
            {
                "boot": True,
                "auto_delete": True,
                "source_image": IMAGE,
                "disk_size_gb": BOOT_DISK_GB,
                "disk_type": boot_disk_type(args.instance_type),
                "labels": labels,
            }
        ],
        network_interfaces=nic_args(layout, net),
        guest_accelerators=guest_accelerators(args.instance_type, args.accelerator, args.accelerator_count) or None,
        scheduling=flex_scheduling(args.hours) if args.flex_start else group_scheduling(scheduling(args.purchase)),
        reservation_affinity=reservation_affinity(args.capacity_reservation_id),
        resource_policies=policy.self_link if policy else None,
        service_account={"email": account.email, "scopes": list(node_scopes(bool(secret_refs(args.job))))},
        shielded_instance_config=SHIELDED,
        metadata=metadata,
        labels=labels,
        opts=opts,
    )


def create_health_check(name: str, opts: pulumi.ResourceOptions) -> gcp.compute.HealthCheck:
    """Create `{name}-health`: TCP to sshd, the auto-healing signal (see `clouds.gcp.group`)."""
    return gcp.compute.HealthCheck(
        f"{name}-health",
        tcp_health_check={"port": HEALTH_PORT},
        description=f"trainstack cluster {name}: node auto-healing",
        **HEALTH_CHECK,
        opts=opts,
    )


def create_node_group(
    name: str,
    args: ClusterConfig,
    template: gcp.compute.InstanceTemplate,
    health_check: gcp.compute.HealthCheck | None,
    opts: pulumi.ResourceOptions,
    on_demand: bool = False,
) -> gcp.compute.InstanceGroupManager | gcp.compute.RegionInstanceGroupManager:
    """Create `{name}-nodes`: exactly `args.nodes` VMs in the cluster's zone, recreated when lost:
    a zonal group of one machine type, or, with `fallback_types`, a regional group kept to the
    zone whose instance flexibility policy ranks the types.

    Args:
        name: the cluster name; VMs are named `{name}-node-xxxx` by the group.
        args: the cluster config (`nodes`, `zone`).
        template: the node template (referenced by its unique self link).
        health_check: the auto-healing health check; None for a flex-start group (no healing).
        opts: child options.
        on_demand: the spot cluster's on-demand side (`{name}-nodes-on-demand`, named so, empty,
            sized by the head node's watcher `nodeagent.fill`: `pulumi up` leaves its size alone).
    """
    suffix = "-on-demand" if on_demand else ""
    empty = on_demand or args.flex_start  # sized by the watcher, or by the flex-start resize request
    if empty:
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(ignore_changes=["targetSize"]))
    healing = None
    if health_check is not None and not args.flex_start:
        healing = {"health_check": health_check.id, "initial_delay_sec": AUTOHEAL_DELAY_SECONDS}
    common = dict(
        base_instance_name=f"{name}-node{suffix}",
        target_size=0 if empty else args.nodes,
        versions=[{"name": "nodes", "instance_template": template.self_link_unique}],
        # flex-start VMs are not recreated (a new one would be a standard VM): DO_NOTHING, no healing
        instance_lifecycle_policy={"default_action_on_failure": "DO_NOTHING"}
        if args.flex_start
        else lifecycle_policy(),
        auto_healing_policies=healing,
        # `pulumi up` never waits for GPU capacity: the group keeps trying and records each
        # failure in its instance errors (`trainstack status` reads them).
        wait_for_instances=False,
        opts=opts,
    )
    if args.fallback_types:
        # Instance flexibility is a regional group's (pulumi-gcp: RegionInstanceGroupManager's
        # `instance_flexibility_policy`), kept to the one zone (`clouds.gcp.capacity`).
        return gcp.compute.RegionInstanceGroupManager(
            f"{name}-nodes{suffix}",
            **({"name": f"{name}-nodes-on-demand"} if on_demand else {}),
            **regional_group_args(args.region, args.zone, args.instance_type, args.fallback_types),
            update_policy={**update_policy(args.nodes), "instance_redistribution_type": "NONE"},
            **common,
        )
    return gcp.compute.InstanceGroupManager(
        f"{name}-nodes{suffix}",
        zone=args.zone,
        update_policy=update_policy(args.nodes),
        **({"name": f"{name}-nodes-on-demand"} if on_demand else {}),
        **common,
    )


def create_head_address(
    name: str, args: ClusterConfig, net: ClusterNetwork, labels: dict[str, str], opts: pulumi.ResourceOptions
) -> gcp.compute.Address:
    """Reserve `{name}-head-ip`: the head node's internal IP on the primary subnet.

    The workers' rendezvous endpoint is this address, so a replaced head node (a new VM) keeps
    it and the running workers, and the instance template, need no change (Compute Engine
    "Reserve a static internal IP address": `address_type` INTERNAL in a subnetwork).
    """
    return gcp.compute.Address(
        f"{name}-head-ip",
        address_type="INTERNAL",
        purpose="GCE_ENDPOINT",
        subnetwork=net.subnet.id,
        region=args.region,
        description=f"trainstack cluster {name}: the job's rendezvous (head node)",
        labels=labels,
        opts=opts,
    )


def create_head_node(
    name: str,
    args: ClusterConfig,
    net: ClusterNetwork,
    account: gcp.serviceaccount.Account,
    startup_script: pulumi.Input[str],
    labels: dict[str, str],
    opts: pulumi.ResourceOptions,
    address: gcp.compute.Address | None = None,
    channel: str = "",
) -> gcp.compute.Instance:
    """Create `{name}-head`: an on-demand VM on the primary subnet keeping the job's rendezvous.

    The job channel (`channel`, `clouds.job_bootstrap.channel_text`) is its metadata attribute
    `trainstack-job`: a job or node-count edit changes only that value, which the provider sets
    on the running VM (`instances.setMetadata`, no restart), and the head's store unit relays it
    to the workers (`nodeagent.publisher`).

    Standard provisioning (never spot), no GPU, no external IP, the nodes' image, service
    account and shielded settings; the internal firewall rule lets workers reach the store.
    With `address` its NIC takes that reserved IP, and a replacement deletes the old VM first
    (`delete_before_replace`), since two VMs cannot hold one address.
    """
    nic: dict = {"network": net.network.id, "subnetwork": net.subnet.id}
    if address is not None:
        nic["network_ip"] = address.address
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(delete_before_replace=True))
    # a newer pinned image (a trainstack upgrade) reaches new nodes, never the running head
    opts = pulumi.ResourceOptions.merge(
        opts, pulumi.ResourceOptions(ignore_changes=["bootDisk.initializeParams.image"])
    )
    return gcp.compute.Instance(
        f"{name}-head",
        machine_type=HEAD_MACHINE_TYPE,
        zone=args.zone,
        boot_disk={"auto_delete": True, "initialize_params": {"image": IMAGE, "size": BOOT_DISK_GB, "labels": labels}},
        network_interfaces=[nic],
        scheduling=scheduling("on-demand"),
        service_account={"email": account.email, "scopes": list(SCOPES)},
        shielded_instance_config=SHIELDED,
        metadata={
            "enable-oslogin": METADATA["enable-oslogin"],
            "startup-script": startup_script,
            # the head's agent publishes the job's progress as a guest attribute, which
            # `trainstack status` reads without reaching the node (nodeagent/clouds/gcp.py)
            **({JOB_ATTRIBUTE: channel, "enable-guest-attributes": "TRUE"} if channel else {}),
        },
        labels=labels,
        allow_stopping_for_update=True,
        opts=opts,
    )


def create_resize_request(
    name: str, args: ClusterConfig, group: gcp.compute.InstanceGroupManager, opts: pulumi.ResourceOptions
) -> gcp.compute.ResizeRequest:
    """Create `{name}-flex`: the Dynamic Workload Scheduler request for all `args.nodes` flex-start
    VMs of the (empty) group, created at once when capacity is there and deleted after
    `run_seconds(args.hours)` (`clouds.gcp.flex_start`). Every input is fixed at create: a change
    of node count or hours makes a new request (the old one is deleted first)."""
    return gcp.compute.ResizeRequest(
        f"{name}-flex",
        name=f"{name}-flex",
        instance_group_manager=group.name,
        zone=args.zone,
        description=f"trainstack cluster {name}: {args.nodes} flex-start nodes",
        resize_by=args.nodes,
        requested_run_duration={"seconds": str(run_seconds(args.hours)), "nanos": 0},
        opts=pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(delete_before_replace=True)),
    )
