"""What rewriting an existing stack file carries over from it: the settings the new pick does
not decide (`keep_cluster_settings`), a region-priced pick's zone id (`keep_zone`), and the
file's own top-level and config keys (`kept_settings`). `profiles.stack.writer` re-exports
these for its callers.
"""

from __future__ import annotations

from pathlib import Path

from clouds.config import CONFIG_KEY, RESOLVE_AGAIN, ConfigError, parse_cluster_config
from clouds.contract import ClusterConfig
from profiles.catalog.platform_rows import picks_zone
from profiles.stack.document import StackFileError, existing, is_hand_edited, placement, read_for_rewrite


def keep_zone(config: ClusterConfig, path: Path) -> ClusterConfig:
    """A region-priced pick (`zone` == `region`, e.g. Alibaba's snapshot rows) keeps the zone
    id the existing stack at `path` names in the same provider and region; other picks, and
    stacks elsewhere, are returned unchanged.
    """
    if config.zone != config.region or not path.exists() or picks_zone(config.provider, config.platform):
        return config  # a platform that picks the job's zone keeps none
    where = placement(path.read_text(encoding="utf-8"))
    if where is None or where[:2] != (config.provider, config.region) or where[2] == config.region:
        return config
    return config.model_copy(update={"zone": where[2]})


# Cluster fields a workload may leave unsaid: a rewrite then keeps the stack's own value.
_WORKLOAD_OPTIONAL = ("job", "data")


def keep_cluster_settings(config: ClusterConfig, path: Path) -> tuple[ClusterConfig, list[str]]:
    """The new pick `config` with the cluster settings the pick does not decide carried over
    from the existing stack file at `path`.

    Kept: every cluster field `cluster_config` does not set (derived from
    `config.model_fields_set`: `ssh_cidrs`, `ssh_public_key`, `tags`, `subnet_id`,
    `kms_key_id`, `queued_resource`, ...), and `job` / `data` when the workload gives none and
    the file was edited by hand (a generated one had them from the workload, which dropped them).
    The pick's own fields (placement, size, purchase, price, file system) come from the pick.

    Returns:
        (the config to write, the names of the kept fields whose value differs from the pick's).

    Raises:
        StackFileError: the existing file cannot be read (rewriting it would lose its settings),
            or a kept setting does not fit the new pick (names the field); nothing is written.
    """
    found = read_for_rewrite(path)
    if found is None:
        return config, []
    text, document = found
    old = ((document.get("config") or {}) if isinstance(document, dict) else {}).get(CONFIG_KEY)
    if not isinstance(old, dict):
        return config, []
    # A `job`/`data` the workload dropped goes, unless it was added to the stack by hand.
    optional = _WORKLOAD_OPTIONAL if is_hand_edited(text) else ()
    keep = {
        key: value
        for key, value in old.items()
        if key in ClusterConfig.model_fields
        and (key not in config.model_fields_set or (key in optional and getattr(config, key) is None))
    }
    new = config.model_dump(mode="json", exclude_none=True)
    kept = [key for key, value in keep.items() if new.get(key) != value]
    if not kept:
        return config, []
    try:
        merged = parse_cluster_config({**new, **keep})
    except ConfigError as exc:
        why = str(exc).removesuffix(RESOLVE_AGAIN)
        raise StackFileError(
            f"{path}: keeping its own {', '.join(kept)}: {why}; fix or remove it in the stack file, then rerun"
        ) from None
    return merged, kept


def kept_settings(path: Path) -> dict:
    """What a rewrite must keep from the stack file at `path`: its top-level keys (e.g. the
    secrets provider's `encryptionsalt`) and every config key but the cluster and its region
    (a budget, `trainstack:previous_names`, secrets, `gcp:project`). `{}` when there is no file.

    Raises:
        StackFileError: the file exists but cannot be read (`stack_file.read_for_rewrite`).
    """
    document = existing(path)
    if not document:
        return {}
    config = document.get("config")
    return {**document, "config": config if isinstance(config, dict) else {}}
