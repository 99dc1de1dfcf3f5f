"""Azure Blob datasets: the URI forms, the container's resource id and the roles (see `clouds.data`).

The link is Azure Managed Lustre blob integration (Lustre HSM): at creation the file system
imports the container's names and metadata under the import prefix, and a file's contents
load from Blob on its first read ("Use Azure Blob storage with Azure Managed Lustre",
MicrosoftDocs azure-managed-lustre/blob-integration.md), so no copy precedes training (`lazy`).
With write-back an auto-export job copies new and changed files back to the container
(auto-export.md, a preview feature).

Prerequisites the docs state (amlfs-prerequisites.md, "Blob integration prerequisites"): the
"HPC Cache Resource Provider" service principal holds Storage Account Contributor and Storage
Blob Data Contributor on the storage account before the file system is created; the account
allows storage-account-key access; logs go to a second container of the same account.

URI forms accepted (what Azure users type):
  https://ACCOUNT.blob.core.windows.net/CONTAINER/PREFIX   the blob URL (portal, AzCopy)
  az://ACCOUNT/CONTAINER/PREFIX                            short form
  abfss://CONTAINER@ACCOUNT.dfs.core.windows.net/PREFIX    Data Lake Storage Gen2 (hierarchical)
The storage account's resource group is not part of any of them: `data.resource_group` names it
(the account is in the deployment's subscription).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from clouds.data_config import DataConfig

SOURCE_KIND = "an Azure Blob container (https://ACCOUNT.blob.core.windows.net/CONTAINER/PREFIX)"
LINK = "lazy"
NEEDS_FILE_SYSTEM = True
DATA_FIELDS = ("resource_group",)  # DataConfig fields only this cloud's link reads

# Built-in role definition ids (learn.microsoft.com role-based-access-control/built-in-roles/storage).
STORAGE_ACCOUNT_CONTRIBUTOR = "17d1049b-9a84-46fb-8f53-869881c3d3ab"
STORAGE_BLOB_DATA_CONTRIBUTOR = "ba92f5b4-2d11-453d-a403-e96b0029c9fe"
STORAGE_BLOB_DATA_READER = "2a2b9908-6ea1-4ae2-8e65-a410df84e7d1"
# The roles the file system's resource provider needs on the account (amlfs-prerequisites.md).
AMLFS_ACCOUNT_ROLES = {
    "account-contributor": STORAGE_ACCOUNT_CONTRIBUTOR,
    "blob-contributor": STORAGE_BLOB_DATA_CONTRIBUTOR,
}
# Its service principal's display name ("storagecache Resource Provider" before GA, same page).
AMLFS_PRINCIPAL_NAME = "HPC Cache Resource Provider"

_ACCOUNT = r"(?P<account>[a-z0-9]{3,24})"
_CONTAINER = r"(?P<container>[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,62})"
_SUFFIX = r"core\.(?:windows\.net|chinacloudapi\.cn|usgovcloudapi\.net)"
_FORMS = (
    re.compile(rf"^https://{_ACCOUNT}\.blob\.{_SUFFIX}/{_CONTAINER}(?:/(?P<prefix>.*))?$"),
    re.compile(rf"^az://{_ACCOUNT}/{_CONTAINER}(?:/(?P<prefix>.*))?$"),
    re.compile(rf"^abfss?://{_CONTAINER}@{_ACCOUNT}\.dfs\.{_SUFFIX}(?:/(?P<prefix>.*))?$"),
)
_EXAMPLE = "https://myaccount.blob.core.windows.net/datasets/imagenet"


class BlobSource(NamedTuple):
    """A dataset in Azure Blob Storage.

    Attributes:
        account: storage account name.
        container: blob container name.
        prefix: blob-name prefix ending in `/`, or "" for the whole container.
    """

    account: str
    container: str
    prefix: str


def owns(uri: str) -> bool:
    """True when `uri` names Azure Blob Storage (any accepted form, valid or not)."""
    text = uri.strip().lower()
    return text.startswith(("az://", "abfs://", "abfss://")) or (
        text.startswith("https://") and ".blob.core." in text.split("/")[2]
    )


def split_uri(uri: str) -> BlobSource:
    """Parse an Azure Blob URI (the forms in the module docstring).

    Raises:
        ValueError: `data.source: ...` naming the expected form.
    """
    for form in _FORMS:
        match = form.match(uri.strip())
        if match:
            prefix = (match.group("prefix") or "").strip("/")
            return BlobSource(match.group("account"), match.group("container"), f"{prefix}/" if prefix else "")
    raise ValueError(
        f"data.source: '{uri}' is not an Azure Blob URI (lowercase account of 3-24 letters and digits, "
        f"container of 3-63); write it like {_EXAMPLE}"
    )


def config_problem(data: DataConfig) -> str | None:
    """What the Azure link needs beyond the URI: the storage account's resource group."""
    if not data.resource_group:
        return (
            "data.resource_group: an Azure Blob dataset needs its storage account's resource group "
            "(the account must be in the deployment's subscription); add data.resource_group"
        )
    return None


def container_id(subscription: str, resource_group: str, source: BlobSource) -> str:
    """The container's ARM resource id (AmlFilesystem `hsm.settings.container`, role scope)."""
    return (
        f"{account_id(subscription, resource_group, source.account)}/blobServices/default/containers/{source.container}"
    )


def account_id(subscription: str, resource_group: str, account: str) -> str:
    """The storage account's ARM resource id."""
    return (
        f"/subscriptions/{subscription}/resourceGroups/{resource_group}"
        f"/providers/Microsoft.Storage/storageAccounts/{account}"
    )


def role_definition_id(subscription: str, role: str) -> str:
    """The subscription-scoped id of a built-in role definition (`role` is its GUID)."""
    return f"/subscriptions/{subscription}/providers/Microsoft.Authorization/roleDefinitions/{role}"


def import_prefix(source: BlobSource) -> str:
    """The AMLFS import prefix for the source: `/` for a whole container, else `/PREFIX` (no
    trailing slash, the form of the docs' examples). On a flat-namespace account it is a
    blob-name prefix, so `/train` also imports `train2/...` (blob-integration.md)."""
    return "/" + source.prefix.rstrip("/")


def logging_container_name(cluster: str) -> str:
    """A valid container name for the import/export logs of `cluster`'s file system:
    lowercase letters, digits and single hyphens, 3-63 characters."""
    text = re.sub(r"[^a-z0-9]+", "-", cluster.lower()).strip("-")
    return f"{text[:50].rstrip('-') or 'cluster'}-lustre-logs"


def node_role(write_back: bool) -> str:
    """The nodes' role on the dataset container: read (Storage Blob Data Reader), or with
    write-back Storage Blob Data Contributor limited by `node_condition`; never wider than the
    container."""
    return STORAGE_BLOB_DATA_CONTRIBUTOR if write_back else STORAGE_BLOB_DATA_READER


_BLOBS = "Microsoft.Storage/storageAccounts/blobServices/containers/blobs"


def node_condition(prefix: str, write_back: bool) -> str | None:
    """The role assignment condition (Azure ABAC, version 2.0) on the nodes' write-back role, or
    None without write-back (the Reader role needs none).

    What it covers: Storage Blob Data Contributor may read every blob of the container, write,
    create (`add/action`) and rename (`move/action`) only blobs whose path starts with the
    dataset's prefix (`@Resource[...blobs:path] StringStartsWith`, the path relative to the
    container), and delete no blob at all (overwriting is a write). Syntax and attributes:
    Microsoft's "Example Azure role assignment conditions for Blob Storage" and "Azure role
    assignment condition format". A whole-container dataset ("" prefix) may be written anywhere
    in that container only. The prefix ends in `/`, so `imagenet/` does not admit `imagenet2/`.

    Args:
        prefix: the dataset's blob-name prefix ending in `/`, or "" for the whole container.
        write_back: True when the nodes may write.
    """
    if not write_back:
        return None
    writes = " AND ".join(
        f"!(ActionMatches{{'{_BLOBS}/{action}'}})" for action in ("write", "add/action", "move/action")
    )
    return (
        f"(({writes}) OR (@Resource[{_BLOBS}:path] StringStartsWith '{prefix}'))"
        f" AND ((!(ActionMatches{{'{_BLOBS}/delete'}})))"
    )


# `job.tracking: {mlflow: managed}` on a VM stack (`clouds.mlflow_head`): the head's MLflow
# server keeps artifacts in the dataset's container. MLflow's Azure Blob store needs
# azure-storage-blob and, without a connection string or key, azure-identity's
# DefaultAzureCredential ("Artifact Stores": Azure Blob Storage), which takes the VM's managed
# identity from IMDS (one user-assigned identity on the VM: no client id needed).
MLFLOW_PACKAGES = ("azure-storage-blob", "azure-identity")


def mlflow_artifacts(source: str, prefix: str) -> str:
    """The MLflow server's `--artifacts-destination`: `prefix` (ending in `/`) of the dataset
    `source`'s container, as MLflow's `wasbs://CONTAINER@ACCOUNT.blob.core.windows.net/PATH`."""
    blob = split_uri(source)
    return f"wasbs://{blob.container}@{blob.account}.blob.core.windows.net/{prefix.rstrip('/')}"


def mlflow_condition(prefix: str) -> str:
    """The role assignment condition (ABAC 2.0) on the nodes' Storage Blob Data Contributor role
    for the MLflow artifacts: write, create and rename only blobs under `prefix` (relative to the
    container), delete none; as `node_condition` for a write-back dataset."""
    condition = node_condition(prefix, True)
    assert condition is not None
    return condition
