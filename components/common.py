"""Rules every cloud's component shares: cost tags and the provider check.

Tag keys use `:` (`trainstack:cluster`), which AWS and Azure both accept (Azure forbids
only `<`, `>`, `%`, `&`, `\\`, `?` and `/` in tag names, ARM resource `tags` reference);
GCP labels cannot hold `:` and use `components.gcp.labels` instead.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping

from components.contract import ClusterConfig


def cluster_tags(provider: str, name: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """Cost-allocation tags for every taggable resource of one cluster.

    Args:
        provider: registry name of the cloud (`aws`, `azure`).
        name: the component's logical name (the cluster name).
        extra: the stack's own cost tags (`ClusterConfig.tags`), applied last.

    Returns:
        `{"trainstack:cluster": name, "trainstack:provider": provider, **extra}`.
    """
    return {"trainstack:cluster": name, "trainstack:provider": provider, **(extra or {})}


def check_provider(args: ClusterConfig, provider: str, cloud: str) -> None:
    """Reject a config meant for another cloud's component.

    Raises:
        ValueError: `provider: 'x' given to the <cloud> component; ...`.
    """
    if args.provider != provider:
        raise ValueError(
            f"provider: '{args.provider}' given to the {cloud} component; set provider: {provider} "
            "or use the component registered for that provider"
        )


def check_ssh_cidrs(cidrs: tuple[str, ...] | list[str]) -> None:
    """Every SSH source must be an IPv4 CIDR (the contract already refuses 0.0.0.0/0).

    Raises:
        ValueError: `ssh_cidrs: '<cidr>' is not an IPv4 CIDR; ...` or `... is IPv6; ...`.
    """
    for cidr in cidrs:
        try:
            network = ipaddress.ip_network(cidr.strip(), strict=False)
        except ValueError:
            raise ValueError(f"ssh_cidrs: '{cidr}' is not an IPv4 CIDR; write it like 203.0.113.0/24") from None
        if network.version != 4:
            raise ValueError(f"ssh_cidrs: '{cidr}' is IPv6; list IPv4 CIDRs such as 203.0.113.0/24")


def reject_unsupported(args: ClusterConfig, fields: tuple[str, ...], cloud: str, why: str) -> None:
    """Refuse optional contract fields a component cannot honour yet.

    Raises:
        ValueError: `<field>: not supported by the <cloud> component yet (<why>); remove <field>`.
    """
    for field in fields:
        if getattr(args, field):
            raise ValueError(f"{field}: not supported by the {cloud} component yet ({why}); remove {field}")
