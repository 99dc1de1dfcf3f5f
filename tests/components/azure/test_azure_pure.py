"""Pure helpers of the Azure component: no Pulumi engine involved."""

from __future__ import annotations

import pytest

from clouds.azure.amlfs import AMLFS_SKUS, amlfs_sizing, round_capacity_tib
from clouds.azure.facts import infiniband_size, rdma_size_names
from clouds.azure.validate import validate_args
from clouds.common import cluster_tags
from components.azure.layout import availability_zones
from components.azure.profile import computer_name_prefix, vm_profile
from components.azure.purchase import priority_settings
from components.azure.security import security_rules
from tests.cases import cases

RDMA_SIZES = [
    "Standard_ND96asr_v4",
    "Standard_ND96amsr_A100_v4",
    "Standard_ND96isr_H100_v5",
    "Standard_ND96isr_H200_v5",
]


@pytest.mark.parametrize(
    ("throughput", "capacity_gib", "sku", "tib"),
    [
        pytest.param(250, 4800, "AMLFS-Durable-Premium-250", 8, id="250-4800GiB-8TiB"),
        pytest.param(250, 1, "AMLFS-Durable-Premium-250", 8, id="250-min-8TiB"),
        pytest.param(250, 8192, "AMLFS-Durable-Premium-250", 8, id="250-exact-8TiB"),
        pytest.param(250, 8193, "AMLFS-Durable-Premium-250", 16, id="250-just-over-16TiB"),
        pytest.param(40, 1, "AMLFS-Durable-Premium-40", 48, id="40-min-48TiB"),
        pytest.param(40, 49 * 1024, "AMLFS-Durable-Premium-40", 96, id="40-49TiB-96TiB"),
        pytest.param(125, 16 * 1024, "AMLFS-Durable-Premium-125", 16, id="125-exact-16TiB"),
        pytest.param(125, 20000, "AMLFS-Durable-Premium-125", 32, id="125-20000GiB-32TiB"),
        pytest.param(500, 4096, "AMLFS-Durable-Premium-500", 4, id="500-exact-4TiB"),
        pytest.param(500, 4097, "AMLFS-Durable-Premium-500", 8, id="500-just-over-8TiB"),
        pytest.param(500, 100 * 1024, "AMLFS-Durable-Premium-500", 100, id="500-100TiB"),
    ],
)
def test_amlfs_sku_and_capacity_rounding(throughput, capacity_gib, sku, tib):
    sizing = amlfs_sizing(capacity_gib, throughput)
    assert (sizing.sku, sizing.capacity_tib, sizing.mbps_per_tib) == (sku, tib, throughput)


@pytest.mark.parametrize("throughput", [0, 100, 200, 1000])
def test_invalid_throughput_lists_valid_tiers(throughput):
    with pytest.raises(ValueError) as info:
        amlfs_sizing(4800, throughput)
    message = str(info.value)
    assert f"throughput_mbps_per_tib: {throughput}" in message
    for tier, sku in AMLFS_SKUS.items():
        assert f"{tier} ({sku.name})" in message


def test_round_capacity_rejects_non_positive():
    with pytest.raises(ValueError, match="capacity_gib: 0"):
        round_capacity_tib(0, AMLFS_SKUS[250])


def test_infiniband_facts_are_case_insensitive_and_list_the_nd_sizes():
    assert rdma_size_names() == RDMA_SIZES
    assert infiniband_size("standard_nd96isr_h100_v5").ib_gbps_per_gpu == 400
    assert infiniband_size("Standard_ND96asr_v4").ib_generation == "HDR"
    assert infiniband_size("Standard_NC96ads_A100_v4") is None


def test_validate_accepts_the_example(azure_config):
    validate_args(azure_config())
    validate_args(azure_config(nodes=100))


def test_more_than_100_rdma_nodes_is_an_error_saying_what_to_do(azure_config):
    with pytest.raises(ValueError) as info:
        validate_args(azure_config(nodes=101))
    message = str(info.value)
    assert message.startswith("nodes: 101 exceeds 100")
    assert "InfiniBand" in message and "placement group" in message
    assert "nodes: 100 or fewer" in message and "split the job" in message


def test_more_than_100_plain_nodes_is_an_error_too(azure_config):
    with pytest.raises(ValueError, match=r"nodes: 150 exceeds 100; the cluster is one"):
        validate_args(azure_config(nodes=150, interconnect="none"))


def test_rdma_on_a_size_without_infiniband_names_it_and_lists_rdma_sizes(azure_config):
    with pytest.raises(ValueError) as info:
        validate_args(azure_config(instance_type="Standard_NC96ads_A100_v4"))
    message = str(info.value)
    assert "instance_type Standard_NC96ads_A100_v4" in message
    for size in RDMA_SIZES:
        assert size in message
    assert "interconnect: none" in message


def test_size_without_infiniband_is_fine_without_rdma(azure_config):
    validate_args(azure_config(instance_type="Standard_NC96ads_A100_v4", interconnect="none"))


@pytest.mark.parametrize(("overrides", "match"), cases("azure_refusals.yaml", "overrides", "match"))
def test_validate_rejects(azure_config, overrides, match):
    with pytest.raises(ValueError, match=match):
        validate_args(azure_config(**overrides))


def test_existing_subnet_is_fine_without_a_file_system(azure_config):
    validate_args(azure_config(subnet_id="/subscriptions/x/subnets/s", file_system=None))


def test_priority_settings_spot_and_on_demand():
    assert priority_settings("spot") == {
        "priority": "Spot",
        "eviction_policy": "Delete",
        "billing_profile": {"max_price": -1.0},
    }
    assert priority_settings("on-demand") == {"priority": "Regular"}
    with pytest.raises(ValueError, match="purchase: 'reserved'"):
        priority_settings("reserved")


def test_security_rules_without_ssh_cidrs_have_no_ssh_rule():
    rules = {rule["name"]: rule for rule in security_rules(())}
    assert set(rules) == {"allow-vnet", "deny-internet"}
    assert rules["allow-vnet"]["source_address_prefix"] == "VirtualNetwork"
    assert (rules["deny-internet"]["access"], rules["deny-internet"]["source_address_prefix"]) == (
        "Deny",
        "Internet",
    )


def test_security_rules_allow_ssh_only_from_the_given_cidrs():
    rules = security_rules(["203.0.113.0/24", "198.51.100.7/32"])
    ssh = rules[0]
    assert ssh["name"] == "allow-ssh"
    assert ssh["source_address_prefixes"] == ["203.0.113.0/24", "198.51.100.7/32"]
    assert (ssh["protocol"], ssh["destination_port_range"]) == ("Tcp", "22")
    assert ssh["direction"] == "Inbound"
    allows = [r for r in rules if r["access"] == "Allow"]
    assert all(r.get("source_address_prefix") not in ("*", "Internet", "0.0.0.0/0") for r in allows)
    assert sorted(r["priority"] for r in rules) == [r["priority"] for r in rules]


@pytest.mark.parametrize(
    ("zone", "zones"),
    [("eastus", None), ("1", ["1"]), (" 3 ", ["3"]), ("4", None)],
)
def test_availability_zones(zone, zones):
    assert availability_zones(zone) == zones


def test_cluster_tags():
    assert cluster_tags("azure", "c", {"team": "ml"}) == {
        "trainstack:cluster": "c",
        "trainstack:provider": "azure",
        "team": "ml",
    }


@pytest.mark.parametrize(
    ("name", "prefix"),
    [
        ("train-a100", "train-a100"),
        ("My_Cluster.Prod-2026-long-name", "my-cluster-prod"),
        ("__", "node"),
    ],
)
def test_computer_name_prefix(name, prefix):
    assert computer_name_prefix(name) == prefix


def test_vm_profile_is_key_only_hpc_image_accelerated_nic(azure_config):
    profile = vm_profile("c", azure_config(), "subnet-id", "nsg-id", "ssh-ed25519 AAAA k")
    linux = profile["os_profile"]["linux_configuration"]
    assert linux["disable_password_authentication"] is True
    assert "admin_password" not in profile["os_profile"]
    assert linux["ssh"]["public_keys"][0]["key_data"] == "ssh-ed25519 AAAA k"
    assert profile["storage_profile"]["image_reference"] == {
        "publisher": "microsoft-dsvm",
        "offer": "ubuntu-hpc",
        "sku": "2204",
        "version": "22.04.2026072901",  # pinned, not latest
    }
    nic = profile["network_profile"]["network_interface_configurations"][0]
    assert nic["enable_accelerated_networking"] is True
    assert nic["network_security_group"] == {"id": "nsg-id"}
    assert nic["ip_configurations"][0]["subnet"] == {"id": "subnet-id"}


@pytest.mark.parametrize(
    ("deployment_type", "problem"),
    [
        pytest.param(None, None, id="unset"),
        pytest.param("AMLFS-Durable-Premium-250", None, id="the-tiers-own-sku"),
        pytest.param("amlfs-durable-premium-250", None, id="its-sku-any-case"),
        pytest.param(
            "PERSISTENT_2",
            "file_system.deployment_type: 'PERSISTENT_2' is not an Azure Managed Lustre choice: its SKU follows "
            "throughput_mbps_per_tib (here AMLFS-Durable-Premium-250); remove deployment_type",
            id="an-fsx-type",
        ),
        pytest.param("AMLFS-Durable-Premium-500", "(here AMLFS-Durable-Premium-250)", id="another-tiers-sku"),
    ],
)
def test_a_deployment_type_azure_would_ignore_is_refused(deployment_type, problem):
    """Every other cloud refuses a deployment type it does not build; Azure ignored one."""
    from clouds.azure.amlfs import deployment_type_problem

    said = deployment_type_problem(deployment_type, 250)
    if problem is None:
        assert said is None
    else:
        assert said is not None and problem in said
