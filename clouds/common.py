"""Rules every cloud's component shares: cost tags, the provider check, SSH sources and the
zone-in-region check of clouds whose zone ids extend the region id.

Tag keys use `:` (`trainstack:cluster`), which AWS and Azure both accept (Azure forbids
only `<`, `>`, `%`, `&`, `\\`, `?` and `/` in tag names, ARM resource `tags` reference);
GCP labels cannot hold `:` and use `clouds.gcp.labels` instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypeVar

from clouds.cidrs import ssh_cidr_problem
from clouds.contract import ClusterConfig
from clouds.reservation import reservation_problem
from clouds.words import article

F = TypeVar("F")


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


# A cluster name every derived child name fits: a letter, then letters, digits, `_` and `-`,
# 40 characters at most (Pulumi appends an 8-character suffix to autonamed children).
CLUSTER_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,39}$")


def check_cluster_name(name: str, rules: str) -> None:
    """Refuse a cluster name outside `CLUSTER_NAME`; `rules` names the cloud's naming rules.

    Raises:
        ValueError: `name: '<name>' must start with a letter and ...; rename the stack or cluster`.
    """
    if not CLUSTER_NAME.match(name):
        raise ValueError(
            f"name: '{name}' must start with a letter and hold at most 40 letters, digits, "
            f"'_' or '-' ({rules}); rename the stack or cluster"
        )


def check_gpu_count(args: ClusterConfig, instance_type: str, gpus: int, source: str) -> None:
    """Refuse an `accelerator_count` other than the `gpus` a known `instance_type` has.

    Raises:
        ValueError: `accelerator_count: N does not match <type>, which has M GPUs (<source>); ...`.
    """
    if gpus != args.accelerator_count:
        raise ValueError(
            f"accelerator_count: {args.accelerator_count} does not match {instance_type}, which "
            f"has {gpus} GPUs ({source}); set accelerator_count: {gpus}"
        )


def check_known_type(
    args: ClusterConfig, family: F | None, types: Mapping[str, Any], what: str, source: str, form: str
) -> F:
    """The family of a known GPU `args.instance_type`; for a type the cloud's facts list, its
    GPU count is checked too (`check_gpu_count`).

    Args:
        args: the cluster config.
        family: the family the cloud's facts give for the type, or None when unknown.
        types: the types the facts list, by name (each with `name` and `gpus`).
        what: what the type must be, for the message (`ECS GPU type`).
        source: where the facts come from, for the message (`section 1.1`).
        form: how to write a type, for the message (`ecs.<family>-..., family one of ...`).

    Raises:
        ValueError: `instance_type: '<type>' is not a known <what> (<source>); use <form>`, or
            the GPU count's message.
    """
    if family is None:
        raise ValueError(f"instance_type: '{args.instance_type}' is not a known {what} ({source}); use {form}")
    known = types.get(args.instance_type.strip())
    if known:
        check_gpu_count(args, known.name, known.gpus, source)
    return family


def check_ssh_cidrs(cidrs: tuple[str, ...] | list[str]) -> None:
    """Every SSH source must be an IPv4 network written exactly, and not the internet
    (`clouds.cidrs.ssh_cidr_problem`; the contract refuses the same).

    Raises:
        ValueError: `ssh_cidrs: '<cidr>' ...` naming the fix.
    """
    for cidr in cidrs:
        if problem := ssh_cidr_problem(cidr):
            raise ValueError(problem)


def reject_unsupported(args: ClusterConfig, fields: tuple[str, ...], cloud: str, why: str) -> None:
    """Refuse optional contract fields a component cannot honour yet.

    Raises:
        ValueError: `<field>: not supported by the <cloud> component yet (<why>); remove <field>`.
    """
    for field in fields:
        if getattr(args, field):
            raise ValueError(f"{field}: not supported by the {cloud} component yet ({why}); remove {field}")


def check_zone_in_region(
    args: ClusterConfig,
    cloud: str,
    region_shape: re.Pattern[str],
    region_example: str,
    separator: str,
    also: tuple[str, ...] = (),
) -> None:
    """The zone must be a zone id `<region><separator><letter>` of the stack's region.

    For clouds whose zone ids extend the region id by one letter (Huawei Cloud `cn-north-4a`,
    separator `""`; Volcengine `cn-beijing-a`, separator `"-"`). No region list is kept: the
    region is only checked against the cloud's id shape, and the zone against the region.

    Args:
        args: the cluster config (`region`, `zone`, `instance_type`).
        cloud: the cloud's name in messages (`Huawei Cloud`).
        region_shape: the cloud's region id pattern.
        region_example: a region id of that shape, for the message (`cn-north-4`).
        separator: what stands between the region and the zone letter.
        also: other separators accepted (where the facts do not settle the form everywhere).

    Raises:
        ValueError: `region: ...` for a region of another shape; `zone: ...` for a zone equal
            to the region (a region-priced catalog row) or of another region or shape.
    """
    region, zone = args.region, args.zone
    if not region_shape.match(region):
        raise ValueError(f"region: '{region}' is not {article(cloud)} region id; write it like {region_example}")
    form, example = f"{region}{separator}<letter>", f"{region}{separator}a"
    if zone == region:
        raise ValueError(
            f"zone: '{zone}' is the region, not a zone (the price catalog lists {cloud} prices per "
            f"region); set zone to a zone id of {region} ({form}, e.g. {example}) that sells "
            f"{args.instance_type}, as the {cloud} console lists them"
        )
    if not any(re.fullmatch(re.escape(region + sep) + "[a-z]", zone) for sep in (separator, *also)):
        raise ValueError(
            f"zone: '{zone}' is not a zone of region {region}; {cloud} zone ids are "
            f"<region>{separator}<letter>: use a zone id of that region ({form}, e.g. {example}) "
            "or set region to the zone's region"
        )


def check_group_size(nodes: int, most: int, group: str) -> None:
    """Refuse more nodes than the cloud's node group holds (`most`, sourced by the caller).

    Raises:
        ValueError: one line naming `nodes` and the fix.
    """
    if nodes > most:
        raise ValueError(
            f"nodes: {nodes} exceeds {most}, the most {group} holds; "
            f"set nodes: {most} or fewer, or split the job into several clusters"
        )


def check_reservation_support(
    args: ClusterConfig,
    cloud: str,
    kinds: tuple[str, ...] = ("capacity-reservation",),
    placement_group: bool = False,
    group_arn: bool = False,
) -> None:
    """Refuse a reservation kind or field a cloud's component cannot launch into, then what
    no cloud can launch (`clouds.reservation.reservation_problem`). Clouds that launch into no reservation at
    all refuse the field instead (`clouds.common.reject_unsupported`).

    Args:
        args: the cluster config; nothing to check without `reservation`.
        cloud: the cloud's display name (`GCP`).
        kinds: the kinds the component launches into.
        placement_group: whether it can launch into the reservation's placement group.
        group_arn: whether it can target a resource group ARN.

    Raises:
        ValueError: one line naming the field and the fix.
    """
    reservation = args.reservation
    if reservation is None:
        return
    if reservation.kind not in kinds:
        raise ValueError(
            f"reservation.kind: {reservation.kind} is not something the {cloud} component launches into "
            f"(it takes {', '.join(kinds)}); {'Capacity Blocks are AWS capacity; ' if reservation.kind == 'capacity-block' else ''}"
            f"set reservation.kind: {kinds[0]}"
        )
    if reservation.placement_group and not placement_group:
        raise ValueError(
            f"reservation.placement_group: the {cloud} component cannot launch into an existing placement "
            "group; remove it"
        )
    if reservation.is_group_arn and not group_arn:
        raise ValueError(
            f"reservation.id: {reservation.id} is an AWS resource group ARN; on {cloud} give the reservation's name"
        )
    # beside a Capacity Block (`block_nodes`), only the block's own group launches into it, on-demand
    if args.block_nodes is not None:
        problem = reservation_problem(reservation, "on-demand", args.block_nodes, args.zone)
    else:
        problem = reservation_problem(reservation, args.purchase, args.nodes, args.zone)
    if problem:
        raise ValueError(problem)
