"""Platform look-ups across the registry's clouds: the words a workload's `platform:` may take,
which cloud a platform belongs to, and why a stack cannot name one.

Kept apart from `clouds.platforms` (the `Platform` record, read by every cloud's `clouds.base`),
because these read `clouds.registry`, which imports every cloud: together they would import
each other back.
"""

from __future__ import annotations

from typing import Any

from clouds.platforms import ANY, VM, Platform


def _all() -> dict[str, tuple[str, Platform]]:
    """Platform name -> (its cloud, the `Platform`), from the registry's clouds."""
    from clouds.registry import CLOUDS

    return {p.name: (cloud.name, p) for cloud in CLOUDS.values() for p in cloud.platforms.values()}


def platform_words() -> tuple[str, ...]:
    """Every word a workload's `platform:` may take: `vm`, the clouds' platforms, `any`."""
    return (VM, *sorted(_all()), ANY)


def find(provider: str, name: str | None) -> Platform | None:
    """The `Platform` called `name` on `provider`, or None for `vm` / None / one it lacks."""
    from clouds.registry import CLOUDS

    cloud = CLOUDS.get(provider)
    if cloud is None or name in (None, VM):
        return None
    return cloud.platforms.get(str(name))


def named(name: str | None) -> Platform | None:
    """The `Platform` called `name` on whichever cloud has it, or None (`vm`, None, unknown)."""
    entry = _all().get(name) if name else None
    return entry[1] if entry else None


def platform_cloud(name: str) -> str | None:
    """The cloud a platform belongs to (`sagemaker` -> `aws`), or None for `vm`/`any`/unknown."""
    entry = _all().get(name)
    return entry[0] if entry else None


def platform_problem(provider: str, name: str | None) -> str | None:
    """Why a stack on `provider` cannot name platform `name` (another cloud's, unknown, or one
    trainstack builds no pool for yet), or None when it can."""
    if name in (None, VM):
        return None
    found = find(provider, name)
    if found is not None:
        if found.pool:
            return None
        return (
            f"platform: trainstack builds no {found.display_name} pool yet (docs/platforms.md); "
            "its rows are priced for comparison only: pick another row, or set platform in the workload"
        )
    from clouds.registry import CLOUDS

    owner = platform_cloud(str(name))
    own = sorted(p.name for p in CLOUDS[provider].platforms.values() if p.pool) if provider in CLOUDS else []
    where = f"it is {owner}'s" if owner else f"valid on {provider}: {', '.join([VM, *own])}"  # never another cloud's
    return f"platform: '{name}' does not run on {provider} ({where}); remove platform or change provider"


def platform_word(value: object) -> Any:
    """A platform word in lowercase (`SageMaker` -> `sagemaker`); a non-string as is.

    Raises:
        ValueError: not `vm`, `any` or a platform of a cloud trainstack knows (`clouds.platforms`).
    """
    if not isinstance(value, str):
        return value
    words = platform_words()
    name = value.strip().lower()
    if name not in words:
        raise ValueError(f"'{value}' is not a platform trainstack knows; use {', '.join(words[:-1])} or {words[-1]}")
    return name
