"""What rewriting an existing stack's cluster would do to its file system, said before it is
written (`profiles.stack.file.write_stack`).

A file system holds the team's data. Shrinking it, or changing its throughput tier or
deployment type, is not something the parallel file systems trainstack builds apply in place
(FSx for Lustre cannot shrink and replaces on a new `deploymentType`:
`clouds/aws/replacements.yaml`; GCP replaces a Managed Lustre instance that shrinks:
`clouds/gcp/replacements.yaml`), so `pulumi up` would replace it and lose what it holds. Some
are in place on some clouds (FSx's throughput tier without EFA, a Filestore Zonal shrink within
its range): the refusal errs toward caution there, and `plan --against` says what happens. A re-`resolve` over a stack whose file system was grown by hand would do
exactly that; it needs `--force`, and the refusal says what `--force` then does.
"""

from __future__ import annotations

from typing import Any

import yaml

from clouds.config import CONFIG_KEY
from clouds.input_file import parse_yaml

_FIELDS = (
    ("throughput_mbps_per_tib", "throughput {old} -> {new} MB/s per TiB"),
    ("deployment_type", "deployment type {old} -> {new}"),
)


def _file_system(text: str) -> Any:
    try:
        return ((parse_yaml(text) or {}).get("config") or {}).get(CONFIG_KEY, {}).get("file_system")
    except (ValueError, AttributeError, yaml.YAMLError):  # unreadable: the writer's own checks say so
        return None


def file_system_change(current: str, text: str) -> str | None:
    """The change of the file system that replaces it, in words, or None.

    Args:
        current, text: the stack file on disk and the text about to be written.
    """
    old, new = _file_system(current), _file_system(text)
    if not isinstance(old, dict) or not isinstance(new, dict):
        return None
    found = []
    try:
        if int(new.get("capacity_gib", 0)) < int(old.get("capacity_gib", 0)):
            found.append(f"capacity {int(old['capacity_gib']):,} -> {int(new['capacity_gib']):,} GiB (a shrink)")
    except (TypeError, ValueError):
        return None
    for key, words in _FIELDS:
        if old.get(key) is not None and new.get(key) is not None and old.get(key) != new.get(key):
            found.append(words.format(old=old[key], new=new[key]))
    return ", ".join(found) or None


def replacement_problem(path: Any, change: str) -> str:
    """The one-line refusal of a rewrite that replaces the file system, saying what --force does."""
    return (
        f"{path}: the new pick changes the file system's {change}, which replaces it: `pulumi up` would "
        "delete the file system and the data on it; review with `trainstack plan --against`, keep the "
        "stack, or pass --force to write the pick as it is (--force does not keep a size grown by hand)"
    )


def move_problem(path: Any, old: tuple[str, ...], new: tuple[str, ...], current: str) -> str:
    """The one-line refusal of a pick that moves the cluster: `old` and `new` are (provider,
    region, zone). A move to another provider or region replaces every resource; one to another
    zone of the same region replaces the nodes and what else is fixed to a zone (a subnet, a
    zonal file system, a zonal placement), not what is regional (the network, roles, security
    rules). The file system is named only when the stack on disk has one."""
    stored = _file_system(current) is not None
    if tuple(old[:2]) == tuple(new[:2]):
        what = "the nodes and every other resource fixed to a zone" + (
            ", the file system and its data included" if stored else ""
        )
    else:
        what = "every resource" + (", its file system included" if stored else "")
    return (
        f"{path}: the new pick moves the cluster from {' '.join(old)} to {' '.join(new)}, so "
        f"`pulumi up` would replace {what}; pass --force or write another stack name"
    )


def hand_edit_problem(path: Any, had_checksum: bool, change: str | None, has_cluster: bool = True) -> str:
    """The one-line refusal of rewriting a stack edited by hand (or not written by trainstack),
    saying what --force replaces: the cluster (or adds one, to a file `has_cluster` False), and
    the file system when `change` is set."""
    if not has_cluster:
        return f"{path}: not written by trainstack and has no cluster; pass --force to add one (its other settings are kept)"
    why = "edited by hand since trainstack wrote it" if had_checksum else "not written by trainstack"
    also = f"; it also changes the file system's {change}, which replaces it and its data" if change else ""
    return f"{path}: {why}; pass --force to replace its cluster (its other settings are kept{also})"


def no_cluster_fix(name: str, empty: bool) -> str:
    """The command that writes a cluster into stack `name`'s file, which has none: an `empty`
    file is written as if absent (`write_stack`: it holds nothing to lose); one holding anything
    else (settings, comments) needs --force, which adds the cluster and keeps its other settings."""
    command = f"`trainstack resolve WORKLOAD.yaml --write-stack {name}"
    if empty:
        return f"the file is empty: write it with {command}`"
    return f"write one with {command} --force` (--force adds the cluster; the file's other settings are kept)"
