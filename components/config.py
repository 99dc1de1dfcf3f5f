"""Turn the raw `trainstack:cluster` stack value into a `ClusterConfig`, with one-line errors."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from components.contract import CLUSTER_KEY, CONFIG_NAMESPACE, ClusterConfig

CONFIG_KEY = f"{CONFIG_NAMESPACE}:{CLUSTER_KEY}"


class ConfigError(ValueError):
    """The stack's cluster config is missing or invalid; the message is one line."""


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
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{CONFIG_KEY}: not valid JSON ({exc.msg})") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{CONFIG_KEY}: expected a mapping of cluster fields")
    try:
        return ClusterConfig.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_one_line(exc)) from None


def _one_line(exc: ValidationError) -> str:
    first = exc.errors()[0]
    field = "".join(f".{part}" for part in first["loc"])
    more = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    message = first["msg"].removeprefix("Value error, ")
    return (
        f"{CONFIG_KEY}{field}: {message}{more}; fix the stack file "
        "or rerun `trainstack resolve --write-stack`"
    )
