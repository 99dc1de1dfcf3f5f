"""Turn the raw `trainstack:cluster` stack value into a `ClusterConfig`, with one-line errors."""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import ValidationError

from clouds.contract import CLUSTER_KEY, CONFIG_NAMESPACE, ClusterConfig
from clouds.field_errors import worded
from clouds.input_file import InputFileError, parse_json
from clouds.network_fields import ssh_public_key_problem, subnet_id_problem
from clouds.registry import CLOUDS

CONFIG_KEY = f"{CONFIG_NAMESPACE}:{CLUSTER_KEY}"
# The stack key holding each cloud provider's default region (`Cloud.region_key`).
# `profiles.stack.writer` writes these keys.
PROVIDER_REGION_KEYS: dict[str, str] = {name: c.region_key for name, c in CLOUDS.items()}


class ConfigError(ValueError):
    """The stack's cluster config is missing or invalid; the message is one line."""


# The fix every refusal of a stack's cluster ends with; resolve rewrites a hand-edited stack
# only with --force (`profiles.stack.file.write_stack`), so the advice says so.
RESOLVE_AGAIN = "; fix the stack file or rerun `trainstack resolve --write-stack` (with --force over hand edits)"


def parse_cluster_config(raw: Any) -> ClusterConfig:
    """Validate a raw stack value (mapping or JSON string) into a `ClusterConfig`.

    Args:
        raw: the value under `trainstack:cluster`, as a dict or its JSON text.

    Returns:
        The validated config.

    Raises:
        ConfigError: one line naming the first offending field and the fix.
    """
    if isinstance(raw, str):
        try:
            raw = parse_json(raw, CONFIG_KEY)
        except InputFileError as exc:
            raise ConfigError(str(exc)) from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{CONFIG_KEY}: expected a mapping of cluster fields")
    _check_provider(raw.get("provider"))
    try:
        config = ClusterConfig.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_one_line(exc)) from None
    problem = subnet_id_problem(config.provider, config.subnet_id) or ssh_public_key_problem(config.ssh_public_key)
    if problem:
        raise ConfigError(problem)
    return config


def _check_provider(provider: Any) -> None:
    """Refuse a provider no component is registered for, before anything else is judged
    (its region key, its zone), naming the valid ones.

    Raises:
        ConfigError: `trainstack:cluster.provider: unknown provider 'x'; valid: ...`.
    """
    if provider is None or (isinstance(provider, str) and provider in CLOUDS):
        return  # a missing provider is the model's to report
    near = difflib.get_close_matches(str(provider).lower(), list(CLOUDS), n=1)
    hint = f" (did you mean {near[0]}?)" if near else ""
    raise ConfigError(
        f"{CONFIG_KEY}.provider: unknown provider '{provider}'{hint}; valid: {', '.join(sorted(CLOUDS))}{RESOLVE_AGAIN}"
    )


def _one_line(exc: ValidationError) -> str:
    errors = exc.errors()
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])  # a typo explains the rest
    field = "".join(f".{part}" for part in first["loc"])
    more = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    message = worded(first, ClusterConfig)
    return f"{CONFIG_KEY}{field}: {message}{more}{RESOLVE_AGAIN}"


def provider_region_key(provider: str) -> str:
    """The stack key of the cloud provider's default region (`Cloud.region_key`, e.g.
    `azure-native:location`); `<provider>:region` for a name that is not registered."""
    return PROVIDER_REGION_KEYS.get(provider, f"{provider}:region")


def check_provider_region(cluster: ClusterConfig, value: Any) -> None:
    """Refuse a stack whose provider region key is unset or names another region than the cluster.

    Most components create no provider and build in the ambient provider's region (STYLE:
    "Components never create cloud providers"), so a disagreeing key would put the cluster
    in the wrong region; where a component passes the region itself it would still mislead.

    Args:
        cluster: the validated cluster config.
        value: the stack's value under `provider_region_key(cluster.provider)`; None when unset.

    Raises:
        ConfigError: one line naming the key and the fix: when it is unset (the provider
            would fall back to its environment's region) or names another region.
    """
    key = provider_region_key(cluster.provider)
    if value is None:
        raise ConfigError(
            f"{key}: not set; the provider would build in whatever region its environment names "
            f"(e.g. AWS_REGION); set {key}: {cluster.region} in the stack's config"
        )
    if str(value).strip() == cluster.region:
        return
    raise ConfigError(
        f"{key}: '{value}' disagrees with {CONFIG_KEY}.region '{cluster.region}'; set {key}: "
        f"{cluster.region}, or change the cluster's region and zone together (e.g. rerun "
        "`trainstack resolve --write-stack`)"
    )
