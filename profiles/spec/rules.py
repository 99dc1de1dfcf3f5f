"""The workload spec's reading rules, in plain functions: the shorthands each key accepts and
the checks across keys.

Both readers of a spec call them: the pydantic models (`profiles.spec.model`,
`profiles.cost.work`), whose validators are one-line calls of these, and the fast reader
(`profiles.spec.reader`) that `trainstack resolve` uses without importing pydantic. So a rule
has one home, and both readers accept exactly the same values. A rule raises `ValueError`
with the one-line message the user sees. No pydantic import here.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from clouds.job_fields import NO_FILE_SYSTEM, job_size_problem
from facts.performance import PERFORMANCE
from profiles.catalog.loader import PROVIDERS
from profiles.spec.agreement import check_together
from profiles.spec.counts import count_of, share, split_counts
from profiles.spec.purchase_words import read as read_purchase
from profiles.spec.units import at_most_gib, at_most_hours, not_bool, parse_count, parse_duration_hours, parse_size_gib

# `nodes: auto` considers 1 to this many nodes (a choice, not a sourced figure).
AUTO_MAX_NODES = 64
# Accelerators with a dense BF16 figure, i.e. the ones `gpu_hours` can be measured on.
_REFERENCES = {name.lower(): name for name, _ in PERFORMANCE}
_CHECKPOINTING_WORDS = {"off": "none", "no": "none", "false": "none", "on": "full", "yes": "full", "true": "full"}

__all__ = ["AUTO_MAX_NODES", "count_of", "known_provider", "not_bool", "share", "split_counts"]


def known_provider(value: object) -> Any:
    """A cloud name in lowercase, as the catalog spells it (`AWS` -> `aws`); a non-string as is.

    Raises:
        ValueError: not a cloud trainstack knows (the message lists them).
    """
    if not isinstance(value, str):
        return value
    name = value.strip().lower()
    if name not in PROVIDERS:
        from clouds.registry import CLOUDS  # only on this error path: resolve stays light

        clouds = f"{', '.join(PROVIDERS[:-1])} or {PROVIDERS[-1]}"
        # the company's name (`Alibaba`, `Tencent Cloud`) for the cloud's: its display name
        named = [c for c in CLOUDS.values() if name in (c.display_name.lower(), c.display_name.split()[0].lower())]
        hint = f"did you mean {named[0].name} ({named[0].display_name})? " if named else ""
        raise ValueError(f"'{value}' is not a cloud trainstack knows; {hint}use {clouds}")
    return name


# --- single keys (before type checks) -------------------------------------------------------


def run_hours(value: object) -> float | None:
    """`hours`: the key names the unit, so `hours: 72` is 72 hours; at most `MAX_HOURS`."""
    return None if value is None else at_most_hours(parse_duration_hours(value, bare_hours=True), value)


def deadline_hours(value: object) -> float | None:
    """`deadline`: a duration with its unit (`7d`), at most `MAX_HOURS`."""
    return None if value is None else at_most_hours(parse_duration_hours(value), value)


def gpu_memory_gib(value: object) -> float | None:
    """`min_gpu_memory`: `80GB` (as GPU memory is sold) or `80GiB`."""
    return None if value is None else parse_size_gib(value, suggest="{n}GB (as GPU memory is sold) or {n}GiB")


def as_list(value: object) -> object:
    """A single name where a list goes is a one-item list."""
    return [value] if isinstance(value, str) else value


def region_names(value: tuple[str, ...]) -> tuple[str, ...]:
    """Region ids are lowercase in every cloud's catalog (`US-East-1` reads as `us-east-1`);
    names the catalog does not know are refused by the resolver (`profiles.known_names`)."""
    return tuple(dict.fromkeys(name.strip().lower() for name in value))


def provider_names(value: tuple[str, ...]) -> tuple[str, ...]:
    """Each provider as the catalog spells it, once."""
    return tuple(dict.fromkeys(known_provider(name) for name in value))


def commitment(value: object) -> object:
    """`commitment: none`/`false` is none; `commitment: 1y` is `{term: 1y}`."""
    if value is None or value in ("none", False):
        return None
    return {"term": value} if isinstance(value, str) else value


def purchase(value: object) -> object:
    """The purchase option as written in any case, with `_` or spaces for `-`, and its aliases
    (`profiles.spec.purchase_words`).

    Raises:
        ValueError: another way to pay given as the purchase option (a reserved term, held
            capacity, another cloud's name for spot), with the key that expresses it.
    """
    return read_purchase(value) if isinstance(value, str) else value


def word(value: object) -> object:
    """A one-word choice in any case and spacing (`jurisdiction: CN-Mainland` reads as
    `cn-mainland`, as `regions` do); anything else is left for the type check."""
    return value.strip().lower() if isinstance(value, str) else value


def capacity_gib(value: object) -> float:
    """`file_system.capacity`: `4800GiB`, `4.8TiB`, `5TB`; at most the largest file system."""
    return at_most_gib(parse_size_gib(value, suggest="{n}GiB (or TiB, GB, TB)"), value)


def count(value: object) -> float | None:
    """`7B`, `300B`, `1.28M`, `12.3G` (or None)."""
    return None if value is None else parse_count(value)


def hours_of(value: object) -> float | None:
    """A duration with its unit (`1h`, `15m`), or None."""
    return None if value is None else parse_duration_hours(value)


def reference(value: object) -> object:
    """`work.reference`: the accelerator name as the performance facts spell it (any case)."""
    if value is None or not isinstance(value, str):
        return value
    if value.strip().lower() not in _REFERENCES:
        names = ", ".join(sorted(set(_REFERENCES.values()), key=str.lower))
        raise ValueError(f"no BF16 figure for '{value}'; use one of {names}")
    return _REFERENCES[value.strip().lower()]


def attention_count(value: object) -> object:
    """`work.mfu_attention`: the coefficient as YAML writes it (`12`) read as its word (`"12"`)."""
    return str(value) if type(value) is int else value


def checkpointing(value: object) -> object:
    """`model.gradient_checkpointing`: YAML booleans and on/off words: off/false/no -> none,
    on/true/yes -> full."""
    if isinstance(value, bool):
        return "full" if value else "none"
    return _CHECKPOINTING_WORDS.get(value.strip().lower(), value) if isinstance(value, str) else value


# --- the whole mapping, before its keys are read --------------------------------------------


def file_system_for_data(data: object) -> object:
    """`data` with a size and no `file_system`: size one for the data and checkpoints."""
    if not isinstance(data, dict) or not isinstance(data.get("data"), dict) or data.get("file_system"):
        return data
    from profiles.data_path.spec import sized_file_system  # a spec with `data` is read by pydantic anyway

    params = next(
        (
            part.get("params")
            for part in (data.get("model"), data.get("work"))
            if isinstance(part, dict) and part.get("params") is not None
        ),
        None,
    )
    sized = sized_file_system(data["data"], params)
    return {**data, "file_system": sized} if sized else data


def node_range(data: object) -> object:
    """`nodes: 2-16` -> nodes 2, max_nodes 16; `nodes: auto` -> 1 to AUTO_MAX_NODES."""
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), str):
        return data
    text = data["nodes"].strip().lower()
    if text == "auto":
        return {**data, "nodes": 1, "max_nodes": AUTO_MAX_NODES}
    match = re.fullmatch(r"(\d+)\s*-\s*(\d+)", text)
    if match is None:
        return data  # a plain number in quotes, or an error pydantic words
    low, high = int(match.group(1)), int(match.group(2))
    if not 1 <= low <= high:
        raise ValueError(f"nodes: '{data['nodes']}' is not a range of node counts; write it like 2-16 or auto")
    return {**data, "nodes": low, "max_nodes": high}


# --- the read values, across keys (`spec`/`work` are the plain values or the pydantic models) --


def check_workload(spec: Any) -> None:
    """The workload's keys agree with each other.

    Raises:
        ValueError: naming the first key that does not fit the others, and the fix.
    """
    if not spec.accelerators and spec.min_gpu_memory_gib is None:
        raise ValueError("accelerators: name at least one (e.g. A100:8) or set min_gpu_memory (e.g. 80GB)")
    if (spec.hours is None) == (spec.work is None):
        raise ValueError(
            "hours: give either hours (e.g. 72h) or work (e.g. work: {gpu_hours: 1200, reference: A100-80GB})"
        )
    check_together(spec)  # data, job paths and params (#16)
    # a managed platform keeps checkpoints in its own storage (`clouds.platforms`): no file system needed
    managed = getattr(spec, "platform", "vm") not in ("vm", "any")
    if spec.purchase in ("any", "spot") and (spec.spot is None or (spec.file_system is None and not managed)):
        raise ValueError(
            f"spot: purchase '{spec.purchase}' allows spot, which needs checkpoints on shared storage; "
            "add spot: {checkpoint_interval: 1h} and a file_system, or set purchase: on-demand"
        )
    if spec.purchase in ("spot", "flex-start") and spec.commitment is not None:  # bought in place of on-demand only
        raise ValueError(
            f"commitment: a {spec.commitment.term} reserved term (reserved instances, savings plan) replaces "
            f"on-demand capacity, never {spec.purchase}, so purchase: {spec.purchase} would ignore it; set purchase: any to rank spot "
            "against the commitment, or remove commitment"
        )
    if spec.purchase == "spot" and spec.reservations:  # held capacity runs on-demand (clouds.reservation)
        raise ValueError(
            "reservations: held capacity (a capacity reservation or Capacity Block) runs on-demand, never spot, "
            "so purchase: spot would ignore one of them; set purchase: any to rank spot against the held "
            "capacity, or remove reservations"
        )
    if spec.data and spec.data.size_gib and spec.file_system and spec.file_system.capacity_gib < spec.data.size_gib:
        raise ValueError(
            f"file_system.capacity: {spec.file_system.capacity_gib:g} GiB is less than the "
            f"{spec.data.size_gib:g} GiB of data; raise it, or drop file_system to size it from data"
        )
    if spec.max_nodes is not None and spec.max_nodes < spec.nodes:
        raise ValueError(
            f"max_nodes: {spec.max_nodes} is below nodes {spec.nodes}; write e.g. max_nodes: {spec.nodes}, "
            f"or the range as nodes: {spec.max_nodes}-{spec.nodes}"
        )
    if spec.job is not None and spec.file_system is None and getattr(spec, "platform", "vm") == "vm":
        # with `platform: any` the VM rows are left out instead (`profiles.matching.job_detail`)
        raise ValueError(NO_FILE_SYSTEM)
    if problem := job_size_problem(spec.job, spec.nodes, spec.gpus_per_node, spec.max_nodes):
        raise ValueError(problem)


def check_work(work: Any) -> None:
    """The work is given exactly one way, with every key that way needs.

    Raises:
        ValueError: no way or two ways given, or one missing its companions.
    """
    ways = [
        work.gpu_hours is not None,
        work.params is not None or work.tokens is not None,
        work.images is not None or work.epochs is not None or work.flops_per_image is not None,
    ]
    if sum(ways) != 1:
        raise ValueError(
            "work: give exactly one of gpu_hours+reference, params+tokens+mfu, or images+epochs+flops_per_image+mfu"
        )
    if work.gpu_hours is not None and not work.reference:
        raise ValueError("work.reference: name the accelerator the gpu_hours were measured on, e.g. A100-80GB")
    if ways[1] and (work.params is None or work.tokens is None or work.mfu is None):
        raise ValueError("work: params, tokens and mfu go together, e.g. params: 7B, tokens: 300B, mfu: 0.4")
    if ways[2] and None in (work.images, work.epochs, work.flops_per_image, work.mfu):
        raise ValueError("work: images, epochs, flops_per_image and mfu go together")


def training_flops(work: Any) -> float | None:
    """Total training FLOPs of `work`, or None when the work is given as gpu_hours: 6 x params
    x tokens (Kaplan et al. 2020, sec. 2.1), or images x epochs x flops_per_image."""
    if work.params is not None and work.tokens is not None:
        return 6.0 * work.params * work.tokens
    if work.images is not None and work.epochs is not None and work.flops_per_image is not None:
        return work.images * work.epochs * work.flops_per_image
    return None


@functools.lru_cache(maxsize=64)
def node_counts(nodes: int, max_nodes: int | None) -> tuple[int, ...]:
    """Node counts to consider: `nodes` alone, every count of a range of up to 32, or for wider
    ranges the powers of two inside it plus both ends."""
    high = max_nodes or nodes
    if high - nodes < 32:
        return tuple(range(nodes, high + 1))
    powers = {2**k for k in range(15) if nodes <= 2**k <= high}
    return tuple(sorted(powers | {nodes, high}))
