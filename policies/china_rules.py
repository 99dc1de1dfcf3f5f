"""Inbound-rule shapes of the Chinese clouds' security groups, for `rules.admin_ports_open`.

Each function yields `(world source, [(low, high) port ranges])` for every inbound allow
rule whose source is the whole internet, like `rules._world_ingress` does for AWS, Azure
and GCP. A rule with no source at all means "from anywhere" on Huawei Cloud and Volcengine
(their security-group rule references: the remote prefix/CIDR is optional and defaults
to all addresses).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from policies.cidr import is_world

Opening = tuple[str, list[tuple[int, int]]]


def _ports(low: Any, high: Any = None) -> list[tuple[int, int]]:
    try:
        low_port = int(low)
    except (TypeError, ValueError):
        return [(0, 65535)]
    if low_port < 0:
        return [(0, 65535)]
    return [(low_port, int(high) if high not in (None, "", -1) else low_port)]


def _text_ports(text: Any, separators: str = "-/,") -> list[tuple[int, int]]:
    text = str(text or "").strip().lower()
    if text in ("", "all", "-1", "-1/-1", "*"):
        return [(0, 65535)]
    for separator in separators:
        if separator in text:
            low, _, high = text.partition(separator)
            return _ports(low, high)
    return _ports(text)


def alicloud(inputs: dict[str, Any]) -> Iterable[Opening]:
    """`alicloud:ecs/securityGroupRule:SecurityGroupRule` (type ingress, policy accept)."""
    if inputs.get("type") == "ingress" and inputs.get("policy", "accept") == "accept":
        if is_world(inputs.get("cidrIp")) or is_world(inputs.get("ipv6CidrIp")):
            yield "0.0.0.0/0", _text_ports(inputs.get("portRange"), "/")


def tencentcloud(inputs: dict[str, Any]) -> Iterable[Opening]:
    """`tencentcloud:Security/groupRuleSet:GroupRuleSet` ingresses with action ACCEPT."""
    for rule in inputs.get("ingresses") or []:
        if rule.get("action") == "ACCEPT" and (is_world(rule.get("cidrBlock")) or is_world(rule.get("ipv6CidrBlock"))):
            yield "0.0.0.0/0", _text_ports(rule.get("port"), "-,")


def huaweicloud(inputs: dict[str, Any]) -> Iterable[Opening]:
    """`huaweicloud:Vpc/secgroupRule:SecgroupRule` inbound, open when the source is the
    world or missing."""
    if inputs.get("direction") != "ingress" or inputs.get("action", "allow") != "allow":
        return
    sources = [inputs.get(k) for k in ("remoteIpPrefix", "remoteGroupId", "remoteAddressGroupId")]
    if is_world(inputs.get("remoteIpPrefix")) or not any(sources):
        ports = inputs.get("ports") or (inputs.get("portRangeMin"), inputs.get("portRangeMax"))
        yield "0.0.0.0/0", _text_ports(ports) if isinstance(ports, str) else _ports(*ports)


def volcengine(inputs: dict[str, Any]) -> Iterable[Opening]:
    """`volcengine:vpc/securityGroupRule:SecurityGroupRule` inbound accept, open when the
    source is the world or missing."""
    if inputs.get("direction") != "ingress" or inputs.get("policy", "accept") != "accept":
        return
    sources = [inputs.get(k) for k in ("cidrIp", "sourceGroupId", "prefixListId")]
    if is_world(inputs.get("cidrIp")) or not any(sources):
        yield "0.0.0.0/0", _ports(inputs.get("portStart"), inputs.get("portEnd"))


def baiducloud(inputs: dict[str, Any]) -> Iterable[Opening]:
    """trainstack's Baidu dynamic `SecurityGroup`: `rules` with `sourceIp`."""
    for rule in inputs.get("rules") or []:
        if rule.get("direction") == "ingress" and is_world(rule.get("sourceIp")):
            yield "0.0.0.0/0", _text_ports(rule.get("portRange"))


BY_TYPE = {
    "alicloud:ecs/securityGroupRule:SecurityGroupRule": alicloud,
    "tencentcloud:Security/groupRuleSet:GroupRuleSet": tencentcloud,
    "huaweicloud:Vpc/secgroupRule:SecgroupRule": huaweicloud,
    "volcengine:vpc/securityGroupRule:SecurityGroupRule": volcengine,
    "pulumi-python:dynamic/baiducloud:SecurityGroup": baiducloud,
}
