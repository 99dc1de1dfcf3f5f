"""The Blob -> Azure Managed Lustre link: URI forms, ARM ids, and the HSM settings, the resource
provider's roles and the nodes' container-scoped role under mocks."""

from __future__ import annotations

import pytest

from clouds.azure import data as az
from clouds.azure.mock import HPC_CACHE_PRINCIPAL_ID
from clouds.contract import ClusterConfig
from components.azure.cluster import AzureGpuCluster
from policies.registry import evaluate
from tests.components.azure.azure_mocks import EXAMPLE, SUBSCRIPTION
from tests.components.harness import run_component

ACCOUNT = f"/subscriptions/{SUBSCRIPTION}/resourceGroups/data-rg/providers/Microsoft.Storage/storageAccounts/teamdata"
CONTAINER = f"{ACCOUNT}/blobServices/default/containers/datasets"
ROLES = f"/subscriptions/{SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions"


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        pytest.param(
            "https://teamdata.blob.core.windows.net/datasets/imagenet/train",
            ("teamdata", "datasets", "imagenet/train/"),
            id="blob-url",
        ),
        pytest.param("https://teamdata.blob.core.windows.net/datasets/", ("teamdata", "datasets", ""), id="container"),
        pytest.param("az://teamdata/datasets/imagenet", ("teamdata", "datasets", "imagenet/"), id="az-short-form"),
        pytest.param(
            "abfss://datasets@teamdata.dfs.core.windows.net/imagenet/",
            ("teamdata", "datasets", "imagenet/"),
            id="data-lake",
        ),
        pytest.param(
            "https://teamdata.blob.core.chinacloudapi.cn/datasets/x", ("teamdata", "datasets", "x/"), id="azure-china"
        ),
    ],
)
def test_split_uri_accepts_the_forms_azure_users_type(uri, expected):
    assert az.split_uri(uri) == expected
    assert az.owns(uri)


@pytest.mark.parametrize(
    "uri",
    [
        pytest.param("https://TeamData.blob.core.windows.net/datasets", id="uppercase-account"),
        pytest.param("https://ab.blob.core.windows.net/datasets", id="account-too-short"),
        pytest.param("https://teamdata.blob.core.windows.net/da", id="container-too-short"),
        pytest.param("https://teamdata.blob.core.windows.net/data--sets", id="double-hyphen"),
        pytest.param("https://teamdata.blob.core.windows.net/datasets-", id="trailing-hyphen"),
        pytest.param("az://teamdata", id="no-container"),
    ],
)
def test_a_bad_blob_uri_names_the_field_and_the_form(uri):
    with pytest.raises(ValueError, match=r"^data.source: .* is not an Azure Blob URI .* write it like https://"):
        az.split_uri(uri)


@pytest.mark.parametrize(
    ("uri", "owned"),
    [
        ("https://teamdata.blob.core.windows.net/x", True),
        ("https://s3.amazonaws.com/bucket/x", False),
        ("https://storage.googleapis.com/bucket/x", False),
        ("s3://bucket/x", False),
        ("az://x", True),
    ],
)
def test_only_blob_storage_uris_are_azures(uri, owned):
    assert az.owns(uri) is owned


@pytest.mark.parametrize(
    ("prefix", "expected"), [("", "/"), ("imagenet/", "/imagenet"), ("imagenet/train/", "/imagenet/train")]
)
def test_import_prefix(prefix, expected):
    assert az.import_prefix(az.BlobSource("a", "c", prefix)) == expected


@pytest.mark.parametrize(
    ("cluster", "expected"),
    [
        ("training-h100", "training-h100-lustre-logs"),
        ("Team_Run.7", "team-run-7-lustre-logs"),
        ("x" * 80, "x" * 50 + "-lustre-logs"),
        ("__", "cluster-lustre-logs"),
    ],
)
def test_logging_container_names_are_valid_container_names(cluster, expected):
    name = az.logging_container_name(cluster)
    assert name == expected
    assert 3 <= len(name) <= 63 and "--" not in name


def _config(write_back: bool) -> ClusterConfig:
    data = {
        "source": "https://teamdata.blob.core.windows.net/datasets/imagenet/train",
        "resource_group": "data-rg",
        "size_gib": 140,
        "write_back": write_back,
    }
    return ClusterConfig.model_validate({**EXAMPLE, "data": data})


@pytest.mark.parametrize("write_back", [False, True])
def test_the_file_system_links_the_container_and_the_nodes_reach_it_only(write_back):
    _, monitor, _ = run_component(AzureGpuCluster, _config(write_back), ("node_ids",))
    records = monitor.records()
    by_name = {r["name"]: r for r in records}
    logs = by_name["c-lustre-logs"]["inputs"]
    assert logs == {
        "accountName": "teamdata",
        "containerName": "c-lustre-logs",
        "publicAccess": "None",
        "resourceGroupName": "data-rg",
    }
    hsm = by_name["c-lustre"]["inputs"]["hsm"]["settings"]
    assert hsm == {
        "container": CONTAINER,
        "loggingContainer": f"{ACCOUNT}/blobServices/default/containers/c-lustre-logs",
        "importPrefix": "/imagenet/train",
    }
    # The resource provider holds both account roles before the file system is created.
    provider_roles = (
        ("account-contributor", az.STORAGE_ACCOUNT_CONTRIBUTOR),
        ("blob-contributor", az.STORAGE_BLOB_DATA_CONTRIBUTOR),
    )
    for key, role in provider_roles:
        assert by_name[f"c-amlfs-{key}"]["inputs"] == {
            "principalId": HPC_CACHE_PRINCIPAL_ID,
            "principalType": "ServicePrincipal",
            "roleDefinitionId": f"{ROLES}/{role}",
            "scope": ACCOUNT,
        }
    # (no input of the file system refers to them: only depends_on orders them first)
    assert {"c-amlfs-account-contributor", "c-amlfs-blob-contributor"} <= set(monitor.depends_on["c-lustre"])
    node_role = az.STORAGE_BLOB_DATA_CONTRIBUTOR if write_back else az.STORAGE_BLOB_DATA_READER
    blobs = "Microsoft.Storage/storageAccounts/blobServices/containers/blobs"
    # with write-back: write, create and rename only under imagenet/train/, delete nothing
    condition = {
        "condition": (
            f"((!(ActionMatches{{'{blobs}/write'}}) AND !(ActionMatches{{'{blobs}/add/action'}}) AND "
            f"!(ActionMatches{{'{blobs}/move/action'}})) OR "
            f"(@Resource[{blobs}:path] StringStartsWith 'imagenet/train/')) AND "
            f"((!(ActionMatches{{'{blobs}/delete'}})))"
        ),
        "conditionVersion": "2.0",
    }
    assert by_name["c-node-container"]["inputs"] == {
        "principalId": "c-node-identity-principal",
        "principalType": "ServicePrincipal",
        "roleDefinitionId": f"{ROLES}/{node_role}",
        "scope": CONTAINER,
        **(condition if write_back else {}),
    }
    identity = by_name["c-nodes"]["inputs"]["identity"]
    assert identity == {
        "type": "UserAssigned",
        "userAssignedIdentities": [
            f"/subscriptions/{SUBSCRIPTION}/resourceGroups/c-rg/providers/"
            "Microsoft.ManagedIdentity/userAssignedIdentities/c-node-identity"
        ],
    }
    exports = [r["inputs"] for r in records if r["type"] == "azure-native:storagecache:AutoExportJob"]
    assert exports == ([{**exports[0], "autoExportPrefixes": ["/imagenet/train"]}] if write_back else [])
    if write_back:
        assert exports[0]["amlFilesystemName"] == "c-lustre" and exports[0]["resourceGroupName"] == "c-rg"
    assert [r.rule for r in evaluate(records) if r.violations] == []


def test_without_data_the_cluster_has_no_link_and_no_identity():
    _, monitor, _ = run_component(AzureGpuCluster, ClusterConfig.model_validate(EXAMPLE), ("node_ids",))
    records = monitor.records()
    types = {r["type"] for r in records}
    assert not types & {
        "azure-native:authorization:RoleAssignment",
        "azure-native:storage:BlobContainer",
        "azure-native:managedidentity:UserAssignedIdentity",
    }
    by_name = {r["name"]: r for r in records}
    assert "hsm" not in by_name["c-lustre"]["inputs"] and "identity" not in by_name["c-nodes"]["inputs"]
