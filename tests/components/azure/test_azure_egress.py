"""Outbound path of the Azure nodes: a NAT gateway with a Standard public IP on the node
subnet, and nothing that lets the internet in."""

from __future__ import annotations

from typing import Any

import pulumi

from components.azure.cluster import AzureGpuCluster
from tests.components.azure.test_azure_cluster import NSG, SUBNET, by_type, one, scale_set_profile

NAT = "azure-native:network:NatGateway"
PUBLIC_IP = "azure-native:network:PublicIPAddress"
TAGS = {"trainstack:cluster": "c", "trainstack:provider": "azure", "team": "ml"}


@pulumi.runtime.test
def test_node_subnet_goes_out_through_a_nat_gateway_with_a_standard_ip(azure_monitor, azure_config):
    cluster = AzureGpuCluster("c", azure_config(tags={"team": "ml"}))

    def check(ids: list[Any]) -> None:
        nat_id, ip_id = ids[:2]
        records = azure_monitor.records()
        ip = one(records, PUBLIC_IP)
        assert (ip["name"], ip["parent"]) == ("c-nat-ip", "c")
        assert {
            key: ip["inputs"].get(key)
            for key in ("sku", "publicIPAllocationMethod", "publicIPAddressVersion", "location", "tags")
        } == {
            "sku": {"name": "Standard"},
            "publicIPAllocationMethod": "Static",
            "publicIPAddressVersion": "IPv4",
            "location": "eastus",
            "tags": TAGS,
        }
        nat = one(records, NAT)
        assert (nat["name"], nat["parent"]) == ("c-nat", "c")
        assert nat["inputs"]["sku"] == {"name": "Standard"}
        assert nat["inputs"]["publicIpAddresses"] == [{"id": ip_id}]
        assert nat["inputs"]["tags"] == TAGS
        subnets = {r["name"]: r["inputs"] for r in by_type(records, SUBNET)}
        assert subnets["c-nodes-subnet"]["natGateway"] == {"id": nat_id}
        # The file-system subnet keeps its own outbound settings (as Microsoft's CCW does).
        assert "natGateway" not in subnets["c-lustre-subnet"]
        assert not [r for r in records if r["protect"] and r["type"] in (NAT, PUBLIC_IP)]

    # The file system and the scale set register last; wait for them before reading records.
    return pulumi.Output.all(
        cluster.nat_gateway.id,
        cluster.egress_public_ip.id,
        cluster.node_subnet.id,
        cluster.file_system.id,
        cluster.scale_set.id,
    ).apply(check)


def test_egress_opens_nothing_inbound(azure_records, azure_config):
    records = azure_records(azure_config())
    nic = scale_set_profile(records)["networkProfile"]["networkInterfaceConfigurations"][0]
    # No node gets an address of its own: the only public IP sits on the NAT gateway.
    assert all("publicIPAddressConfiguration" not in ip for ip in nic["ipConfigurations"])
    assert [r["name"] for r in by_type(records, PUBLIC_IP)] == ["c-nat-ip"]
    rules = one(records, NSG)["inputs"]["securityRules"]
    internet = [r for r in rules if r.get("sourceAddressPrefix") == "Internet"]
    assert [(r["direction"], r["access"]) for r in internet] == [("Inbound", "Deny")]


def test_existing_subnet_gets_no_nat_gateway(azure_run, azure_config):
    monitor, _ = azure_run(azure_config(subnet_id="/subscriptions/x/subnets/s", file_system=None))
    records = monitor.records()
    assert not by_type(records, NAT) and not by_type(records, PUBLIC_IP)
    assert not by_type(records, SUBNET)
