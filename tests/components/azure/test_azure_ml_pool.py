"""`AzureMlPool` under Pulumi mocks: workspace, storage, key vault, identity and an AmlCompute
cluster whose inputs follow the Microsoft.MachineLearningServices compute schema (AmlCompute
`vmSize`, `vmPriority` Dedicated | LowPriority, `scaleSettings` min/max/idle, `subnet`,
`enableNodePublicIp`, `remoteLoginPortPublicAccess` Enabled | Disabled | NotSpecified)."""

from __future__ import annotations

import pytest

from clouds.azure import aml
from components.azure.aml import TYPE_TOKEN, AzureMlPool
from tests.clusters import example_config
from tests.components.azure.azure_mocks import SUBSCRIPTION
from tests.components.harness import build_plan, one

COMPUTE = "azure-native:machinelearningservices:Compute"
WORKSPACE = "azure-native:machinelearningservices:Workspace"
NAMES = ("node_ids", "file_system_dns", "workspace_name", "compute_name")


def _pool(**changes):
    config = example_config("azure", platform="azureml", **{"file_system": None, **changes})
    return build_plan(AzureMlPool, config, NAMES)


@pytest.mark.parametrize(
    ("purchase", "priority"),
    [pytest.param("spot", "LowPriority", id="spot"), pytest.param("on-demand", "Dedicated", id="on-demand")],
)
def test_amlcompute_scales_to_zero_low_priority_when_spot(purchase, priority):
    plan = _pool(purchase=purchase, nodes=3)
    compute = one(plan.records, COMPUTE)
    props = compute["inputs"]["properties"]
    assert props["computeType"] == "AmlCompute"
    assert props["disableLocalAuth"] is True
    inner = props["properties"]
    assert inner["vmSize"] == "Standard_ND96asr_v4"
    assert inner["vmPriority"] == priority
    assert inner["scaleSettings"] == {"minNodeCount": 0, "maxNodeCount": 3, "nodeIdleTimeBeforeScaleDown": "PT300S"}
    assert inner["enableNodePublicIp"] is False
    assert inner["remoteLoginPortPublicAccess"] == "Disabled"
    assert inner["subnet"]["id"].endswith("/virtualNetworks/c-vnet/subnets/c-nodes-subnet")
    assert compute["inputs"]["computeName"] == "c-gpu" == aml.compute_name("c")
    assert compute["parent"] == "c"


def test_workspace_has_its_storage_key_vault_and_identity():
    plan = _pool()
    ws = one(plan.records, WORKSPACE)["inputs"]
    group = f"/subscriptions/{SUBSCRIPTION}/resourceGroups/c-rg"
    assert ws["workspaceName"] == "c-ws"
    assert ws["storageAccount"].startswith(group) and ws["storageAccount"].endswith("/c-storage")
    assert ws["keyVault"] == f"{group}/providers/Microsoft.KeyVault/vaults/{aml.key_vault_name('c')}"
    assert ws["identity"]["type"] == "UserAssigned"
    assert ws["primaryUserAssignedIdentity"].endswith("/userAssignedIdentities/c-aml-identity")
    vault = one(plan.records, "azure-native:keyvault:Vault")["inputs"]
    assert vault["properties"]["enableRbacAuthorization"] is True
    assert vault["properties"]["enablePurgeProtection"] is True
    assert vault["properties"]["tenantId"] == "22222222-2222-2222-2222-222222222222"  # getClientConfig's
    assert vault["vaultName"] == aml.key_vault_name("c") and len(vault["vaultName"]) <= 24


def test_storage_account_is_protected_and_closed():
    plan = _pool()
    account = one(plan.records, "azure-native:storage:StorageAccount")
    assert account["protect"] is True
    inputs = account["inputs"]
    assert inputs["allowBlobPublicAccess"] is False
    assert inputs["allowSharedKeyAccess"] is False
    assert inputs["minimumTlsVersion"] == "TLS1_2"
    assert inputs["enableHttpsTrafficOnly"] is True
    assert 3 <= len(inputs["accountName"]) <= 24 and inputs["accountName"].isalnum()


def test_the_workspace_reaches_its_keyless_account_as_the_pools_identity():
    # The account takes no shared key, so the workspace's system datastores (workspaceblobstore:
    # run's code and checkpoints) must use identity access, and the pool's identity needs Storage
    # Blob Data Contributor on that account only (Microsoft Learn, "Disable shared key access for
    # your workspace's storage account"); with the default (account keys) they could not be used.
    plan = _pool()
    assert one(plan.records, WORKSPACE)["inputs"]["systemDatastoresAuthMode"] == "identity"
    (grant,) = [
        r for r in plan.of_type("azure-native:authorization:RoleAssignment") if r["name"] == "c-aml-storage-access"
    ]
    inputs = grant["inputs"]
    assert inputs["roleDefinitionId"] == (
        f"/subscriptions/{SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/"
        "ba92f5b4-2d11-453d-a403-e96b0029c9fe"  # Storage Blob Data Contributor
    )
    assert inputs["scope"].endswith("/c-storage") and inputs["principalType"] == "ServicePrincipal"
    assert grant["parent"] == "c"


def test_outputs_and_no_file_system():
    plan = _pool()
    assert not plan.of_type("azure-native:storagecache:AmlFilesystem")
    assert plan.outputs["file_system_dns"] is None
    assert plan.outputs["workspace_name"] == "c-ws"
    assert plan.outputs["compute_name"] == "c-gpu"
    assert plan.outputs["node_ids"][0].endswith("/c-compute")
    assert plan.registered_outputs["compute_name"] == "c-gpu"


def test_token_and_no_scale_set():
    plan = _pool()
    assert any(r["type"] == TYPE_TOKEN and r["name"] == "c" for r in plan.records)
    assert not plan.of_type("azure-native:compute:VirtualMachineScaleSet")


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        pytest.param(
            {"ssh_cidrs": ["203.0.113.7/32"], "file_system": None}, "ssh_cidrs: the Azure ML pool has SSH off", id="ssh"
        ),
        pytest.param({}, "file_system: Azure ML jobs keep", id="file-system"),
    ],
)
def test_refused_before_building(changes, field):
    pool = AzureMlPool.__new__(AzureMlPool)
    with pytest.raises(ValueError, match=field):
        pool.check("c", example_config("azure", platform="azureml", **changes))


@pytest.mark.parametrize(
    ("cluster", "compute"),
    [
        pytest.param("training-a100-azureml", "training-a10-gpu", id="cut-to-16"),
        pytest.param("7nodes", "c7nodes-gpu", id="starts-with-a-letter"),
    ],
)
def test_compute_names_fit_amlcompute_limits(cluster, compute):
    assert aml.compute_name(cluster) == compute
    assert 2 <= len(compute) <= 16 and compute[0].isalpha()
