"""Provider name -> GPU cluster component class, imported only when asked for.

Loading lazily keeps `import components.registry` cheap and never pulls in the SDK of a
cloud the stack does not use.
"""

from __future__ import annotations

from clouds.base import load
from clouds.platform_lookup import find, platform_problem
from clouds.registry import CLOUDS

# provider -> "module:ClassName" of its ComponentResource (`Cloud.component`).
REGISTRY: dict[str, str] = {name: c.component for name, c in CLOUDS.items()}


def component_for(provider: str, platform: str | None = None) -> type:
    """The component class registered for a provider, or for one of its managed platforms.

    Args:
        provider: registry name, e.g. `aws`.
        platform: the stack's `platform` (`azureml`): that platform's pool component
            (`clouds.platforms.Platform.pool`); None: the cloud's VM cluster.

    Returns:
        The `pulumi.ComponentResource` subclass; its module is imported on first use.

    Raises:
        ValueError: `unknown provider 'x'; valid: aws, ...` for an unregistered name.
        ModuleNotFoundError: the cloud's SDK is not installed; the message names the
            `trainstack[<extra>]` to install.
    """
    target = REGISTRY.get(provider)
    if target is None:
        raise ValueError(f"unknown provider '{provider}'; valid: {', '.join(sorted(REGISTRY))}")
    found = CLOUDS[provider]
    name, sdk, extra = found.display_name, found.sdk, found.extra
    if platform is not None:
        if (pool := find(provider, platform)) is None or not pool.pool:
            raise ValueError(platform_problem(provider, platform) or f"platform: {platform} has no pool component yet")
        target, name, sdk, extra = pool.pool, pool.display_name, pool.sdk, pool.extra
    try:
        return load(target)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] in ("components", "clouds"):
            raise
        raise ModuleNotFoundError(
            f"provider '{provider}': the {name} component needs {sdk} ({exc.name} is not "
            f"installed); install it with: pip install 'trainstack[{extra}]'",
            name=exc.name,
        ) from None
