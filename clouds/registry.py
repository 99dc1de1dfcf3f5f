"""The clouds trainstack knows, by registry name, and their rules imported on first use.

Each cloud's pure rules (no Pulumi, no cloud SDK) sit in `clouds/<name>/`; both the decision
side (`profiles/`) and the Pulumi side (`components/`) import them from there.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

# Registry names of the clouds, one per line.
NAMES: tuple[str, ...] = (
    "aws",
    "azure",
    "gcp",
    "huaweicloud",
    "volcengine",
    "alicloud",
    "tencentcloud",
    "baiducloud",
)


def validator(provider: str) -> Callable[..., None] | None:
    """The cloud's `validate_args` (the checks its component runs before creating anything).

    Args:
        provider: registry name, e.g. `aws`.

    Returns:
        `clouds.<provider>.validate.validate_args`, imported on first use; None for a name
        that is not registered.
    """
    if provider not in NAMES:
        return None
    return importlib.import_module(f"clouds.{provider}.validate").validate_args
