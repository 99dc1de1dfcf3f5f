"""Provider name -> GPU cluster component class, imported only when asked for.

Loading lazily keeps `import components.registry` cheap and never pulls in the SDK of a
cloud the stack does not use.
"""

from __future__ import annotations

from clouds.base import load
from clouds.registry import CLOUDS

# provider -> "module:ClassName" of its ComponentResource (`Cloud.component`).
REGISTRY: dict[str, str] = {name: c.component for name, c in CLOUDS.items()}


def component_for(provider: str) -> type:
    """The component class registered for a provider.

    Args:
        provider: registry name, e.g. `aws`.

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
    try:
        return load(target)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] in ("components", "clouds"):
            raise
        found = CLOUDS[provider]
        raise ModuleNotFoundError(
            f"provider '{provider}': the {found.display_name} component needs {found.sdk} ({exc.name} is not "
            f"installed); install it with: pip install 'trainstack[{found.extra}]'",
            name=exc.name,
        ) from None
