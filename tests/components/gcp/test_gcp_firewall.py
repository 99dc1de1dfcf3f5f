"""Firewall rules: internal only, SSH only from configured CIDRs, never 0.0.0.0/0."""

from __future__ import annotations

from clouds.gcp.nics import nic_layout
from components.gcp.addressing import PRIMARY_CIDR, PSA_CIDR
from components.gcp.firewall import firewall_rules


def test_default_rules_are_internal_only() -> None:
    rules = firewall_rules(nic_layout("a3-highgpu-8g"), ())
    assert [r.suffix for r in rules] == ["internal"] + [f"gpu-{k}-internal" for k in range(1, 5)]
    assert rules[0].source_ranges == (PRIMARY_CIDR,)
    assert all("0.0.0.0/0" not in r.source_ranges for r in rules)
    assert all(("tcp", ("22",)) not in r.allows for r in rules)


def test_ssh_only_from_configured_cidrs() -> None:
    rules = firewall_rules(nic_layout("a2-highgpu-8g"), ("203.0.113.0/24", "198.51.100.7/32"))
    ssh = [r for r in rules if r.suffix == "ssh"]
    assert len(ssh) == 1
    assert ssh[0].allows == (("tcp", ("22",)),)
    assert ssh[0].source_ranges == ("203.0.113.0/24", "198.51.100.7/32")


def test_lustre_rule_from_peering_range() -> None:
    rules = firewall_rules(nic_layout("a2-highgpu-8g"), (), lustre=True)
    lustre = rules[-1]
    assert (lustre.suffix, lustre.source_ranges) == ("lustre", (PSA_CIDR,))
    assert lustre.allows == (("tcp", ("988", "6988")),)
