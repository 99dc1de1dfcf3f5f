"""The clouds trainstack knows: one line per cloud, naming the module of its `Cloud` object.

Adding a cloud is its own files (`clouds/<name>/`, `components/<name>/`, its price fetcher)
plus one line here. Everything else asks this registry (`CLOUDS`, `cloud`) instead of
naming a cloud. Loading it imports only the small `clouds/<name>/__init__.py` modules, each reading its
`cloud.yaml` (`clouds.cloud_file`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from clouds.base import Cloud, load

_MODULES: tuple[str, ...] = (
    "clouds.aws",
    "clouds.azure",
    "clouds.gcp",
    "clouds.alicloud",
    "clouds.tencentcloud",
    "clouds.huaweicloud",
    "clouds.volcengine",
    "clouds.baiducloud",
)

CLOUDS: dict[str, Cloud] = {c.name: c for c in (importlib.import_module(m).CLOUD for m in _MODULES)}
NAMES: tuple[str, ...] = tuple(CLOUDS)


def cloud(provider: str) -> Cloud:
    """The `Cloud` registered as `provider`.

    Raises:
        ValueError: `unknown provider 'x'; valid: aws, ...` for an unregistered name.
    """
    found = CLOUDS.get(provider)
    if found is None:
        raise ValueError(f"unknown provider '{provider}'; valid: {', '.join(sorted(CLOUDS))}")
    return found


def validator(provider: str, platform: str | None = None) -> Callable[..., None] | None:
    """The cloud's `validate_args` (the checks its component runs before creating anything),
    or, for a stack on one of its managed platforms, that platform's pool validator.

    Args:
        provider: registry name, e.g. `aws`.
        platform: the stack's `platform` (`azureml`), or None for the cloud's VMs.

    Returns:
        The function its `Cloud.validator` names, imported on first use; None for a name
        that is not registered.
    """
    found = CLOUDS.get(provider)
    if found is None:
        return None
    pool = found.platforms.get(platform) if platform else None
    return load(pool.validator if pool is not None and pool.validator else found.validator)
