"""`GcpGpuCluster`: GPU nodes with GPUDirect NICs in a compact placement policy, kept at their
size by a managed instance group, or TPU slices, sharing Filestore or Managed Lustre.

The component only wires children together; the logic sits in pure modules beside it
(`nics`, `placement`, `tpu`, `machine`, `group`, `filesystems`, `firewall`, `addressing`,
`labels`, `validate`) and in the resource builders `network`, `compute`, `nodes` and `storage`.
"""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_gcp as gcp

from clouds.contract import ClusterConfig
from clouds.gcp.bootstrap import startup_script
from clouds.gcp.filesystems import LUSTRE, choose_file_system
from clouds.gcp.labels import cluster_labels
from clouds.gcp.nics import SINGLE_NIC, NicLayout, nic_layout
from clouds.gcp.tpu import is_tpu
from clouds.job_bootstrap import channel_text
from clouds.mounts import SHARED_MOUNT
from components.cluster_base import ClusterOutputs, GpuClusterBase, nothing
from components.gcp.compute import create_placement, create_service_account, create_tpus
from components.gcp.data_link import create_bucket_access, create_mlflow_access, data_import_commands
from components.gcp.fill import create_fill_grant, with_fill
from components.gcp.network import create_network
from components.gcp.nodes import (
    create_head_address,
    create_head_node,
    create_health_check,
    create_node_group,
    create_resize_request,
    create_template,
)
from components.gcp.queued import create_queued_controller, queued_resource_ids
from components.gcp.secrets import create_job_secrets
from components.gcp.storage import create_file_system

TYPE_TOKEN = "trainstack:gcp:GpuCluster"
TPU_PLACEMENT = "tpu-ici"  # a slice's chips are joined by ICI; there is no VM policy


class GcpGpuCluster(GpuClusterBase):
    """A multi-node GPU (or TPU) training cluster on GCP.

    Public outputs (also registered, names from `OUTPUT_NAMES`):
        node_ids: GPU: the managed instance group's name (its VMs are recreated as they are
            lost; list them with `gcloud compute instance-groups managed list-instances`);
            TPU: the TPU VM ids, in node order; with `queued_resource`, the queued resources' ids.
        node_private_ips: GPU: empty (the group's VMs change); TPU: worker 0 of each slice;
            empty with `queued_resource`.
        queued_resource_controller: with `queued_resource` only (also registered and
            exported): the name of the on-demand VM that creates each slice's queued resource
            and re-requests one a preemption left SUSPENDED or FAILED (`clouds.gcp.queued`).
        data_commands: with `data` only (also registered and exported): the command that copies
            the dataset onto the file system (Lustre import-data; Filestore: rsync from one node).
        placement_group: the compact placement policy's self link; None for series
            without compact placement; `tpu-ici` for TPU slices.
        file_system_dns: the Filestore IP address or the Lustre mount point
            (`IP@tcp:/trainfs`); None without a file system.
        file_system_mount_name: the Filestore share or the Lustre file system name.
        usd_per_hour: the compute price of the nodes at resolve time, USD/hour.

    Child resources are kept as attributes too (`network`, `service_account`,
    `iam_members`, `placement`, `file_system`; GPU: `template`, `health_check`, `node_group`,
    and with a job `head_node` and its reserved internal IP `head_address`, the workers'
    rendezvous endpoint, kept when the head node is replaced; TPU: `nodes`, or with
    `queued_resource` `queued_controller`).

    GPU nodes are a zonal managed instance group over an instance template (see
    `clouds.gcp.group`): a preempted spot VM is deleted and the group recreates it; a VM
    failing its health check is recreated too; a template change never recreates a running VM.
    Every node's startup script (`bootstrap`) mounts the file system at `/fsx`; with a `job`,
    an on-demand head node keeps the rendezvous and every node runs the job under torchrun.
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = "gcp"
    TAG_RULE = cluster_labels  # GCP labels: label-safe keys and values

    def build(
        self, name: str, args: ClusterConfig, labels: dict[str, str], child: pulumi.ResourceOptions
    ) -> ClusterOutputs:
        """Create the children; return the outputs (see the class docstring)."""
        tpu = is_tpu(args.instance_type)
        layout = SINGLE_NIC if tpu else nic_layout(args.instance_type, args.interconnect)
        choice = choose_file_system(args.file_system) if args.file_system else None
        project = gcp.organizations.get_project_output(opts=pulumi.InvokeOutputOptions(parent=self)).project_id
        self._project = project

        self.network = create_network(
            name,
            args.region,
            args.zone,
            layout,
            args.ssh_cidrs,
            bool(choice and choice.kind == LUSTRE),
            project,
            child,
            health_check=not tpu and not args.flex_start,  # a flex-start group heals nothing: no probes
        )
        self.file_system = None
        if choice is not None:
            self.file_system = create_file_system(name, choice, args.zone, self.network.network, labels, child)
        self.service_account, self.iam_members = create_service_account(name, project, child)
        self.secret_grants = create_job_secrets(name, args, self.service_account, labels, project, child)
        self.bucket_access = None
        if args.data is not None:
            self.bucket_access = create_bucket_access(
                name, args.data.source, args.data.write_back, self.service_account, child
            )
        self.mlflow_access = create_mlflow_access(name, args, self.service_account, child)  # job.tracking: managed
        self.data_commands: pulumi.Output[list[str]] | None = None
        if args.data is not None and self.file_system is not None and choice is not None:
            self.data_commands = data_import_commands(
                self.file_system.resource, choice.kind == LUSTRE, args.zone, project, args.data.source, SHARED_MOUNT
            )
        self.placement = self.template = self.health_check = self.node_group = self.head_node = None
        self.head_address = None
        self.nodes: list = []
        self.queued_controller = None
        if tpu and args.queued_resource:  # the controller requests the slices (`clouds.gcp.queued`)
            self.queued_controller = create_queued_controller(
                name, args, self.network, self.service_account, labels, project, child
            )
        elif tpu:
            self.nodes = create_tpus(name, args, self.network, self.service_account, labels, child)
        else:
            self._create_gpu_nodes(name, args, layout, choice.kind if choice else None, labels, child)
        return self._outputs(name, args, tpu)

    def mount_recipe(self, args: ClusterConfig) -> tuple[str, str, str] | None:
        """Managed Lustre or Filestore as the nodes' startup script mounts it
        (`clouds.gcp.bootstrap`); `file_system_dns` is Lustre's whole mount source."""
        if args.file_system is None:
            return None
        if choose_file_system(args.file_system).kind == LUSTRE:
            return "lustre", "{dns}", "defaults"
        return "nfs", "{dns}:/{name}", "hard"

    def _create_gpu_nodes(
        self,
        name: str,
        args: ClusterConfig,
        layout: NicLayout,
        kind: str | None,
        labels: dict[str, str],
        child: pulumi.ResourceOptions,
    ) -> None:
        """The node group (template, health check, group) and, with a job, the head node."""
        fs = self.file_system
        address, share = (fs.address, fs.mount_name) if fs else (None, None)

        def script(role: str, rdzv: pulumi.Input[str] | None) -> pulumi.Output[str]:
            return pulumi.Output.all(address, share, rdzv).apply(
                lambda v: startup_script(name, args, role, kind, v[0], v[1], v[2])
            )

        rdzv_host = head_ip = None
        if args.job is not None:
            head_ip = self.head_address = create_head_address(name, args, self.network, labels, child)
            rdzv_host = head_ip.address  # stays when the head node is replaced
        # one resize request's VMs are densely co-located without a policy (`clouds.gcp.flex_start`)
        self.placement = None if args.flex_start else create_placement(name, args, child)
        worker_script = script("worker", rdzv_host)  # the spot and on-demand templates boot the same script
        self.template = create_template(
            name,
            args,
            layout,
            self.network,
            self.service_account,
            self.placement,
            worker_script,
            labels,
            child,
        )
        # flex-start: no auto-healing policy reads a health check (`create_node_group`), so none is made
        self.health_check = None if args.flex_start else create_health_check(name, child)
        self.node_group = node_group = create_node_group(name, args, self.template, self.health_check, child)
        self.resize_request = None
        if args.flex_start:
            assert isinstance(node_group, gcp.compute.InstanceGroupManager)  # flex-start: a zonal group
            self.resize_request = create_resize_request(name, args, node_group, child)
        self.on_demand_template = self.on_demand_group = self.fill_role = None
        if args.on_demand_after_minutes is not None:
            on_demand = args.model_copy(update={"purchase": "on-demand", "on_demand_after_minutes": None})
            self.on_demand_template = create_template(
                name,
                on_demand,
                layout,
                self.network,
                self.service_account,
                self.placement,
                worker_script,
                labels,
                child,
                suffix="-on-demand",
            )
            self.on_demand_group = create_node_group(
                name, args, self.on_demand_template, self.health_check, child, on_demand=True
            )
            self.fill_role = create_fill_grant(name, args, self._project, self.service_account, node_group.name, child)
        if head_ip is not None:  # after the groups: the head's watcher reads the spot group by its name
            head_script = script("head", "127.0.0.1")
            if args.on_demand_after_minutes is not None:  # the head's watcher fills spot from on-demand
                head_script = with_fill(head_script, name, args, self._project, node_group.name)
            self.head_node = create_head_node(
                name,
                args,
                self.network,
                self.service_account,
                head_script,
                labels,
                child,
                address=head_ip,
                channel=channel_text(name, args),
            )

    def _outputs(self, name: str, args: ClusterConfig, tpu: bool) -> ClusterOutputs:
        fs = self.file_system
        file_system = {
            "file_system_dns": fs.address if fs else nothing(),
            "file_system_mount_name": fs.mount_name if fs else nothing(),
        }
        if not tpu and self.node_group is not None:
            # The group's VMs come and go; they are the group's to list, as on AWS and Azure.
            return ClusterOutputs(
                node_ids=pulumi.Output.all(self.node_group.name),
                node_private_ips=pulumi.Output.from_input([]),
                placement_group=self.placement.self_link if self.placement else nothing(),
                **file_system,
            )
        node_ids = pulumi.Output.all(*[node.id for node in self.nodes])
        if self.queued_controller is not None:  # the queued resources' ids, known ahead
            node_ids = pulumi.Output.from_input(queued_resource_ids(name, args.nodes))
        ips = [node.network_endpoints.apply(_first_endpoint_ip) for node in self.nodes]
        return ClusterOutputs(
            node_ids=node_ids,
            node_private_ips=pulumi.Output.all(*ips),
            placement_group=pulumi.Output.from_input(TPU_PLACEMENT),
            **file_system,
        )

    def extra_outputs(self) -> dict[str, pulumi.Output[Any]]:
        """`queued_resource_controller` with `queued_resource` (the controller VM's name);
        `data_commands` with `data` (what copies the dataset onto the file system)."""
        extra: dict[str, pulumi.Output[Any]] = {}
        if self.queued_controller is not None:
            self.queued_resource_controller = self.queued_controller.instance.name
            extra["queued_resource_controller"] = self.queued_resource_controller
        if self.data_commands is not None:
            extra["data_commands"] = self.data_commands
        return extra


def _first_endpoint_ip(endpoints: list | None) -> str | None:
    return endpoints[0].ip_address if endpoints else None
