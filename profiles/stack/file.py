"""The one home of stack files (`stacks/Pulumi.<name>.yaml`): find, read, validate and write.

Every caller goes through here (`plan`, `plan --against`, `check`, the budget, `resolve
--write-stack` and `__main__.py`'s `validate_cluster`), so a stack is read with one bounded
reader (`clouds.input_file`) and refused for the same reasons everywhere: an invalid cluster,
an unknown provider, a field the catalog contradicts (`profiles.stack.check`), a provider
region key that is unset or disagrees.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clouds.config import (
    CONFIG_KEY,
    ConfigError,
    check_provider_region,
    parse_cluster_config,
    provider_region_key,
)
from clouds.contract import ClusterConfig
from clouds.input_file import read_text
from clouds.job_secrets import missing_secret, stored_secrets_problem
from profiles.files import write_atomically
from profiles.stack.document import (
    StackFileError,
    digest,
    existing,
    has_checksum,
    is_hand_edited,
    parse_document,
    placement,
    read_document,
    read_for_rewrite,
)
from profiles.stack.names import STACK_IS_NAMED, STACK_NAME, valid_stack_name
from profiles.stack.rewrite import (
    file_system_change,
    hand_edit_problem,
    move_problem,
    no_cluster_fix,
    replacement_problem,
)

STACKS_DIR = "stacks"
FALLBACKS_KEY = "trainstack:fallbacks"  # rows `trainstack up` may move to (`profiles.stack.fallbacks`)
_KEYS = ("max_usd_per_hour", "previous_names", "refuse_oversized", "secrets")  # with the cluster, fallbacks
TRAINSTACK_KEYS = frozenset({CONFIG_KEY, FALLBACKS_KEY, *(f"trainstack:{key}" for key in _KEYS)})

# The stack file as a document (parsing, the checksum, what a rewrite reads) lives in
# `profiles.stack.document`; its names stay importable from here.
__all__ = ["StackFileError", "digest", "existing", "is_hand_edited", "parse_document", "placement"]
__all__ += ["read_document", "read_for_rewrite", "read_config", "read_cluster", "stack_path", "validate_cluster"]
__all__ += ["write_stack", "FALLBACKS_KEY", "STACKS_DIR", "TRAINSTACK_KEYS", "ConfigError", "STACK_NAME"]
__all__ += ["valid_stack_name"]


def stack_path(project_dir: Path, name: str) -> Path:
    """`<project>/stacks/Pulumi.<name>.yaml`.

    Raises:
        StackFileError: `name` is empty or not 1-40 lowercase letters, digits and hyphens
            starting with a letter (see `STACK_NAME`).
    """
    if not name:
        raise StackFileError("stack name: give one, e.g. training-a100; cloud resource names derive from it")
    if name == "-":  # `-` is standard input (or output) where a file is read (or written); a stack is named
        raise StackFileError(f"stack name '-': {STACK_IS_NAMED}; give a name such as training-a100")
    if not STACK_NAME.fullmatch(name):
        raise StackFileError(
            f"stack name '{name}': use 1-40 lowercase letters, digits and '-', starting with a letter "
            f"(e.g. {valid_stack_name(name)}); cloud resource names derive from it and GCP and Azure accept no other"
        )
    return Path(project_dir) / STACKS_DIR / f"Pulumi.{name}.yaml"


def read_config(path: Path) -> dict[str, Any]:
    """The `config:` map of the stack file at `path`, with its `trainstack:cluster`.

    Raises:
        StackFileError: as `read_document`, or no `trainstack:cluster`, or an unknown
            `trainstack:` key (a typo would silently disable what it meant to set).
    """
    config = read_document(path).get("config")
    if not isinstance(config, dict) or CONFIG_KEY not in config:
        empty = not read_text(path, "stack file").strip()
        raise StackFileError(f"{path}: no `config: {CONFIG_KEY}:` map; {no_cluster_fix(_stack_name(path), empty)}")
    unknown = sorted(k for k in config if str(k).startswith("trainstack:") and k not in TRAINSTACK_KEYS)
    if unknown:
        raise StackFileError(
            f"{path}: {unknown[0]}: unknown key; trainstack reads only "
            f"{', '.join(sorted(TRAINSTACK_KEYS))} (a typo here would silently disable it)"
        )
    old = config.get("trainstack:previous_names")
    if old is not None and not (isinstance(old, list) and all(STACK_NAME.fullmatch(str(n)) for n in old)):
        raise StackFileError(
            f"{path}: trainstack:previous_names: {str(old)[:60]!r} is not a list of stack names; "
            "write it as a list, e.g. trainstack:previous_names: [training-old]"
        )
    if problem := stored_secrets_problem(config.get("trainstack:secrets"), _stack_name(path)):
        raise StackFileError(f"{path}: {problem}")
    return config


def validate_cluster(raw: Any, region_value: Any, name: str = "cluster") -> ClusterConfig:
    """The stack's cluster, validated the way `plan`, `check` and `pulumi up` all validate it.

    Args:
        raw: the value under `trainstack:cluster` (mapping or JSON text).
        region_value: the stack's provider region key (`aws:region`), None when unset.
        name: the cluster's name (the stack name), for the cloud's checks on names.

    Raises:
        ConfigError: one line naming the field and the fix: the cluster model refuses it, the
            provider is unknown, the catalog contradicts a field (with the valid values), the
            cloud's own checks refuse it (`clouds.registry.validator`: what its component
            would refuse before creating anything), or the region key is unset or disagrees.
    """
    from clouds.platform_job import stack_job_problem
    from clouds.registry import validator
    from profiles.stack.check import catalog_problems

    cluster = parse_cluster_config(raw)
    problems = catalog_problems(cluster)
    if problems:
        raise ConfigError("; ".join(f"{CONFIG_KEY}.{p}" for p in problems))
    validate = validator(cluster.provider, cluster.platform)
    try:
        if validate is not None:
            validate(cluster, name)
    except ValueError as exc:  # one line already; the first line if a check ever gave more
        raise ConfigError(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__) from None
    if problem := stack_job_problem(cluster):  # what `run` would refuse, as resolve leaves it out
        raise ConfigError(problem)
    check_provider_region(cluster, region_value)
    return cluster


def read_cluster(path: Path) -> tuple[dict[str, Any], ClusterConfig]:
    """`(config map, validated cluster)` of the stack file at `path`.

    Raises:
        StackFileError: as `read_config`, or `validate_cluster` refuses it (message prefixed
            with the file).
    """
    config = read_config(path)
    try:
        raw = config[CONFIG_KEY]
        provider = raw.get("provider") if isinstance(raw, dict) else None
        region = config.get(provider_region_key(str(provider))) if provider else None
        cluster = validate_cluster(raw, region, _stack_name(path))
        if problem := missing_secret(cluster.job, config.get("trainstack:secrets"), _stack_name(path)):
            raise ConfigError(problem)
        return config, cluster
    except ConfigError as exc:
        raise StackFileError(f"{path}: {exc}") from None


def write_stack(path: Path, text: str, force: bool = False) -> bool:
    """Write a stack file atomically; returns False when the file already had this text.

    A stack whose nodes' bootstrap the cloud would refuse (over its user-data limit:
    `Cloud.bootstrap_check`) is never written.

    Raises:
        StackFileError: the cloud would refuse the nodes' bootstrap (nothing is written); or,
            without `force`: the file was edited by hand (or not by trainstack; an empty file is
            written as if absent: it holds nothing to lose), or the new text
            replaces its file system (`profiles.stack.rewrite`) or moves the cluster to another
            provider, region or zone (which replaces every resource).
    """
    if path.exists():
        current, mapping = read_for_rewrite(path) or ("", {})
        if not current.strip():  # an empty file holds nothing to lose: written as if absent
            current = ""
        elif current == text:
            return False
        # A text `plan` would refuse is refused first, so a refusal below that says "pass --force"
        # is only ever given where --force then writes (a bad --zone is named as such).
        _check_before_writing(path, text)
        change = file_system_change(current, text) if current else None
        if current and is_hand_edited(current) and not force:
            has_cluster = CONFIG_KEY in ((mapping or {}).get("config") or {})
            raise StackFileError(hand_edit_problem(path, has_checksum(current), change, has_cluster))
        if change and not force:
            raise StackFileError(replacement_problem(path, change))
        old, new = placement(current), placement(text)
        if old is not None and new is not None and old != new and not force:
            raise StackFileError(move_problem(path, old, new, current))
    else:
        _check_before_writing(path, text)
    write_atomically(path, text)
    return True


def _check_before_writing(path: Path, text: str) -> None:
    """Refuse `text` for `path` when `plan` would refuse the stack: the cluster checked the way
    `plan` checks it (`validate_cluster`: the model, the catalog, the cloud's own checks, the
    region key; a zone a region-priced pick still needs, say) and the nodes' bootstrap
    (`Cloud.bootstrap_check`: the cloud's user-data, custom-data or metadata limit); one line naming the field and the fix."""
    from clouds.base import load
    from clouds.registry import CLOUDS

    config = parse_document(text, str(path)).get("config") or {}
    raw = config.get(CONFIG_KEY)
    provider = CLOUDS.get(str(raw.get("provider"))) if isinstance(raw, dict) else None
    if provider is None:
        return
    try:
        cluster = validate_cluster(raw, config.get(provider_region_key(provider.name)), _stack_name(path))
    except ConfigError as exc:
        raise StackFileError(f"{path}: not written, `plan` would refuse it: {exc}") from None
    problem = load(provider.bootstrap_check)(cluster, _stack_name(path)) if provider.bootstrap_check else None
    if problem:
        raise StackFileError(f"{path}: not written, `plan` would refuse it: {problem}")


def _stack_name(path: Path) -> str:
    return path.name.removeprefix("Pulumi.").removesuffix(".yaml")
