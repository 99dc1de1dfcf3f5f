"""`AzureMlPool`: an Azure Machine Learning workspace (storage account, key vault, identity) and
an AmlCompute cluster of the stack's VM size that scales to zero, in its own subnet behind a NAT
gateway, with no public IP and SSH off. No file system: jobs keep code, checkpoints and output
in the workspace's storage account.

Jobs are not resources: `trainstack run` submits a command job to the cluster (`trainstack.run.
azureml`), so `pulumi up` never waits on a run and no change of the pool restarts one. Names
come from `clouds.azure.aml`, which the submitter reads too.
"""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_azure_native as azure_native

from clouds.azure import aml
from clouds.azure.data import STORAGE_BLOB_DATA_CONTRIBUTOR, role_definition_id
from clouds.contract import ClusterConfig
from components.azure.network import create_network
from components.azure.place import Place
from components.cluster_base import ClusterOutputs, GpuClusterBase, pool_outputs, protected

TYPE_TOKEN = "trainstack:azure:AmlPool"


class AzureMlPool(GpuClusterBase):
    """An Azure ML pool: workspace + AmlCompute cluster (min 0, max `nodes`).

    Public outputs (`OUTPUT_NAMES`): `node_ids` is `[compute id]` (AmlCompute nodes exist only
    while a job runs), `node_private_ips` `[]`, `placement_group` and the file-system pair None.
    Extra outputs: `workspace_name`, `compute_name`.

    Security: the storage account takes HTTPS only, TLS 1.2, no public blob access and no shared
    keys (identity-based access); the key vault uses Azure RBAC with purge protection; the
    cluster's nodes get no public IP (`enableNodePublicIp: false`), remote login is disabled
    (`remoteLoginPortPublicAccess: Disabled`) and they run as the pool's user-assigned identity.
    """

    TYPE_TOKEN = TYPE_TOKEN
    PROVIDER = "azure"

    def check(self, name: str, args: ClusterConfig) -> None:
        """The pool's checks (`clouds.azure.aml.validate_pool`, as `plan` runs them)."""
        aml.validate_pool(args, name)

    def build(self, name: str, args: ClusterConfig, tags: Any, child: pulumi.ResourceOptions) -> ClusterOutputs:
        """Create the children; return the outputs (see the class docstring)."""
        self.resource_group = azure_native.resources.ResourceGroup(
            f"{name}-rg", resource_group_name=aml.resource_group_name(name), location=args.region, tags=tags, opts=child
        )
        place = Place(name, args.region, None, self.resource_group.name, tags, child)
        network = create_network(place, args)
        self.identity = azure_native.managedidentity.UserAssignedIdentity(
            f"{name}-aml-identity", **place.located(), opts=child
        )
        client = azure_native.authorization.get_client_config_output(opts=pulumi.InvokeOutputOptions(parent=self))
        tenant = client.tenant_id
        self.storage_account = self._storage(name, place)
        self.storage_access = self._storage_access(name, client.subscription_id, child)
        self.key_vault = azure_native.keyvault.Vault(
            f"{name}-kv",
            vault_name=aml.key_vault_name(name),
            **place.located(),
            properties={
                "tenant_id": tenant,
                "sku": {"family": "A", "name": "standard"},
                "enable_rbac_authorization": True,
                "enable_purge_protection": True,
                "enable_soft_delete": True,
            },
            opts=child,
        )
        identity = {"type": "UserAssigned", "user_assigned_identities": [self.identity.id]}
        self.workspace = azure_native.machinelearningservices.Workspace(
            f"{name}-ws",
            workspace_name=aml.workspace_name(name),
            **place.located(),
            identity=identity,
            primary_user_assigned_identity=self.identity.id,
            storage_account=self.storage_account.id,
            key_vault=self.key_vault.id,
            system_datastores_auth_mode="identity",  # the account takes no shared key (`_storage`)
            sku={"name": "Basic", "tier": "Basic"},
            opts=child,
        )
        self.compute = azure_native.machinelearningservices.Compute(
            f"{name}-compute",
            compute_name=aml.compute_name(name),
            workspace_name=self.workspace.name,
            **place.located(),
            identity=identity,
            properties={
                "compute_type": "AmlCompute",
                "disable_local_auth": True,
                "properties": {
                    "vm_size": args.instance_type,
                    "vm_priority": aml.vm_priority(args.purchase),
                    "scale_settings": aml.scale_settings(args),
                    "subnet": {"id": network.node_subnet_id},
                    "enable_node_public_ip": False,
                    "remote_login_port_public_access": "Disabled",
                    "os_type": "Linux",
                },
            },
            opts=child,
        )
        self.workspace_name = self.workspace.name
        self.compute_name = pulumi.Output.from_input(aml.compute_name(name))
        return pool_outputs(self.compute.id.apply(lambda compute_id: [compute_id]))  # data: the workspace storage

    def _storage(self, name: str, place: Place) -> azure_native.storage.StorageAccount:
        """The workspace's storage account (artifacts, logs, checkpoints): protected, since it
        holds what runs wrote, and named from the cluster so a pool change never replaces it."""
        return azure_native.storage.StorageAccount(
            f"{name}-storage",
            account_name=aml.storage_account_name(name),
            **place.located(),
            kind="StorageV2",
            sku={"name": "Standard_LRS"},
            enable_https_traffic_only=True,
            minimum_tls_version="TLS1_2",
            allow_blob_public_access=False,
            allow_shared_key_access=False,
            opts=protected(place.opts),
        )

    def _storage_access(
        self, name: str, subscription: pulumi.Input[str], child: pulumi.ResourceOptions
    ) -> azure_native.authorization.RoleAssignment:
        """Storage Blob Data Contributor for the pool's identity on the workspace's own account,
        which takes no shared key: the workspace's system datastores (`workspaceblobstore`, where
        `trainstack run` puts code and checkpoints) are read and written as that identity
        (`system_datastores_auth_mode: identity`; Microsoft Learn, "Disable shared key access for
        your workspace's storage account")."""
        return azure_native.authorization.RoleAssignment(
            f"{name}-aml-storage-access",
            principal_id=self.identity.principal_id,
            principal_type="ServicePrincipal",
            role_definition_id=pulumi.Output.from_input(subscription).apply(
                lambda sub: role_definition_id(sub, STORAGE_BLOB_DATA_CONTRIBUTOR)
            ),
            scope=self.storage_account.id,
            opts=child,
        )

    def extra_outputs(self) -> dict[str, pulumi.Output[Any]]:
        """The workspace and compute names `trainstack run` submits to."""
        return {"workspace_name": self.workspace_name, "compute_name": self.compute_name}
