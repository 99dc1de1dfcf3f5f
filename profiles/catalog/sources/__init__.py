"""Per-provider readers of the reference sources, used by `profiles.catalog.build`.

Each builder takes the source folder and the row date and returns clean `Offering`s. A cloud
takes part by having a module here named after it (`clouds.registry.NAMES`) with `BUILD` and
either `SKYPILOT_FILES` + `SNAPSHOT_FOLDER` (it reads the SkyPilot extract) or `META` (it reads
its own source); the tables below are derived from those modules.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from types import ModuleType
from typing import Any

from clouds.registry import NAMES


def _modules() -> dict[str, ModuleType]:
    found = {}
    for name in NAMES:
        module = f"{__name__}.{name}"
        if importlib.util.find_spec(module) is not None:
            found[name] = importlib.import_module(module)
    return found


_MODULES = _modules()
# provider -> (builder, SkyPilot extract files it reads, sub-folder of the reference catalog).
# AWS and GCP read the schema-v8 snapshot (`v8/`); Azure has no newer file than the v6
# extract in the parent folder (`v8/README.md`).
SOURCE_BUILDERS: dict[str, tuple[Callable[..., list[Any]], tuple[str, ...], str]] = {
    name: (m.BUILD, m.SKYPILOT_FILES, m.SNAPSHOT_FOLDER) for name, m in _MODULES.items() if hasattr(m, "SKYPILOT_FILES")
}
# provider -> (builder, metadata) for sources other than the SkyPilot extract.
OTHER_BUILDERS: dict[str, tuple[Callable[..., list[Any]], dict[str, Any]]] = {
    name: (m.BUILD, m.META) for name, m in _MODULES.items() if hasattr(m, "META")
}
