"""Link the team's Blob container to the cluster's Azure Managed Lustre file system, and let the
nodes read that container and nothing else.

The file system's `hsm` settings name the dataset container and a logging container of the same
storage account; at creation AMLFS imports the names under the import prefix and loads each
file's contents from Blob on first read (`clouds.azure.data`). Before that, the "HPC Cache
Resource Provider" service principal must hold Storage Account Contributor and Storage Blob Data
Contributor on the account (amlfs-prerequisites.md: "If the file system can't access your blob
container, file system creation fails"), so the file system depends on those two role
assignments. The principal is looked up by its display name in the tenant (pulumi-azuread),
as the Terraform AMLFS examples do. With write-back an auto-export job sends new and changed
files back to the container.

The nodes' user-assigned identity gets one role on the dataset container only: Storage Blob
Data Reader, or Storage Blob Data Contributor with write-back.
"""

from __future__ import annotations

from typing import NamedTuple

import pulumi
import pulumi_azure_native as azure_native
import pulumi_azuread as azuread

from clouds.azure.data import (
    AMLFS_ACCOUNT_ROLES,
    AMLFS_PRINCIPAL_NAME,
    STORAGE_BLOB_DATA_CONTRIBUTOR,
    account_id,
    container_id,
    import_prefix,
    logging_container_name,
    mlflow_condition,
    node_condition,
    node_role,
    role_definition_id,
    split_uri,
)
from clouds.contract import ClusterConfig
from clouds.data_config import DataConfig
from clouds.mlflow_head import artifact_prefix, on_head
from components.azure.place import Place


class BlobLink(NamedTuple):
    """What the file system needs to link the container.

    Attributes:
        hsm: the AmlFilesystem `hsm` input (container, logging container, import prefix).
        provider_roles: the resource provider's role assignments on the storage account; the
            file system must depend on them.
        logging_container: the import/export log container created in the account.
        subscription: the deployment's subscription id.
    """

    hsm: dict
    provider_roles: list[azure_native.authorization.RoleAssignment]
    logging_container: azure_native.storage.BlobContainer
    subscription: pulumi.Output[str]


def create_blob_link(name: str, data: DataConfig, opts: pulumi.ResourceOptions) -> BlobLink:
    """Create the logging container and the resource provider's two account roles.

    Args:
        name: the cluster name; children are `{name}-amlfs-<role>` and `{name}-lustre-logs`.
        data: the dataset (`source` an Azure Blob URI, `resource_group` its account's group).
        opts: child options.

    Raises:
        ValueError: for a source that is not an Azure Blob URI.
    """
    source = split_uri(data.source)
    group = data.resource_group
    assert group is not None  # the contract refuses an Azure dataset without it
    invoke = pulumi.InvokeOutputOptions(parent=opts.parent)
    subscription = azure_native.authorization.get_client_config_output(opts=invoke).subscription_id
    principal = azuread.get_service_principal_output(display_name=AMLFS_PRINCIPAL_NAME, opts=invoke)
    scope = subscription.apply(lambda sub: account_id(sub, group, source.account))
    roles = [
        azure_native.authorization.RoleAssignment(
            f"{name}-amlfs-{key}",
            principal_id=principal.object_id,
            principal_type="ServicePrincipal",
            role_definition_id=subscription.apply(lambda sub, role=role: role_definition_id(sub, role)),
            scope=scope,
            opts=opts,
        )
        for key, role in AMLFS_ACCOUNT_ROLES.items()
    ]
    logs = azure_native.storage.BlobContainer(
        f"{name}-lustre-logs",
        account_name=source.account,
        resource_group_name=group,
        container_name=logging_container_name(name),
        public_access="None",
        # The logs are the team's record of imports and exports: destroying the cluster keeps them.
        opts=pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(retain_on_delete=True)),
    )
    hsm = {
        "settings": {
            "container": subscription.apply(lambda sub: container_id(sub, group, source)),
            "logging_container": logs.id,
            "import_prefix": import_prefix(source),
        }
    }
    return BlobLink(hsm, roles, logs, subscription)


def create_node_access(
    name: str,
    data: DataConfig,
    subscription: pulumi.Input[str],
    principal_id: pulumi.Input[str],
    opts: pulumi.ResourceOptions,
) -> azure_native.authorization.RoleAssignment:
    """Give the nodes' identity one role on the dataset container: `{name}-node-container`
    (with write-back, writes only under the dataset's prefix and no deletes: `node_condition`).

    Args:
        name: the cluster name.
        data: the dataset (`write_back` picks the role, `clouds.azure.data.node_role`).
        subscription: the deployment's subscription id.
        principal_id: the nodes' identity's principal (object) id.
        opts: child options.
    """
    source = split_uri(data.source)
    group = data.resource_group
    assert group is not None
    role = node_role(data.write_back)
    condition = node_condition(source.prefix, data.write_back)
    return azure_native.authorization.RoleAssignment(
        f"{name}-node-container",
        principal_id=principal_id,
        principal_type="ServicePrincipal",
        role_definition_id=pulumi.Output.from_input(subscription).apply(lambda sub: role_definition_id(sub, role)),
        scope=pulumi.Output.from_input(subscription).apply(lambda sub: container_id(sub, group, source)),
        **({"condition": condition, "condition_version": "2.0"} if condition else {}),
        opts=opts,
    )


def create_mlflow_access(
    name: str, args: ClusterConfig, principal_id: pulumi.Input[str], opts: pulumi.ResourceOptions
) -> azure_native.authorization.RoleAssignment | None:
    """For `job.tracking: {mlflow: managed}` (`clouds.mlflow_head`), `{name}-node-mlflow`: the nodes'
    identity (the head's MLflow server runs with it) gets Storage Blob Data Contributor on the
    dataset's container, writing only under the cluster's artifact prefix and deleting nothing
    (`clouds.azure.data.mlflow_condition`); None without managed tracking.
    """
    if not on_head(args) or args.data is None or args.data.resource_group is None:
        return None
    source, group = split_uri(args.data.source), args.data.resource_group
    invoke = pulumi.InvokeOutputOptions(parent=opts.parent)
    subscription = azure_native.authorization.get_client_config_output(opts=invoke).subscription_id
    return azure_native.authorization.RoleAssignment(
        f"{name}-node-mlflow",
        principal_id=principal_id,
        principal_type="ServicePrincipal",
        role_definition_id=subscription.apply(lambda sub: role_definition_id(sub, STORAGE_BLOB_DATA_CONTRIBUTOR)),
        scope=subscription.apply(lambda sub: container_id(sub, group, source)),
        condition=mlflow_condition(artifact_prefix(name)),
        condition_version="2.0",
        opts=opts,
    )


def create_auto_export(
    place: Place, data: DataConfig, file_system: azure_native.storagecache.AmlFilesystem
) -> azure_native.storagecache.AutoExportJob | None:
    """With write-back, the auto-export job `{name}-export` (new and changed files under the
    import prefix go back to the container; deletions are not exported, auto-export.md); else None."""
    if not data.write_back:
        return None
    return azure_native.storagecache.AutoExportJob(
        f"{place.name}-export",
        **place.located(),
        aml_filesystem_name=file_system.name,
        auto_export_prefixes=[import_prefix(split_uri(data.source))],
        opts=place.opts,
    )
