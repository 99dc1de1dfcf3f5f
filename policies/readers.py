"""Every cloud's policy readers merged by type token (`Cloud.policy`, `clouds.policy`).

The rules read these tables only, so no rule names a cloud or a type token; a cloud's readers
sit in its own `clouds/<cloud>/policy.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from clouds.base import load
from clouds.policy import Encryption, Grant, Inputs, Opening, PolicyReaders
from clouds.registry import CLOUDS

READERS: tuple[PolicyReaders, ...] = tuple(load(c.policy) for c in CLOUDS.values())
T = TypeVar("T")


def _merged(table: Callable[[PolicyReaders], Mapping[str, T]]) -> dict[str, T]:
    merged: dict[str, T] = {}
    for readers in READERS:
        merged.update(table(readers))
    return merged


WORLD_INGRESS: dict[str, Callable[[Inputs], Iterable[Opening]]] = _merged(lambda r: r.world_ingress)
METADATA: dict[str, Callable[[Inputs], list[str]]] = _merged(lambda r: r.metadata)
ENCRYPTION: dict[str, Encryption] = _merged(lambda r: r.encryption)
SPOT: dict[str, Callable[[Inputs], bool]] = _merged(lambda r: r.spot)
EFA_INTERFACES: dict[str, Callable[[Inputs], list[list[Any]]]] = _merged(lambda r: r.efa_interfaces)
SELF_RULES: dict[str, Callable[[dict[str, Any]], list[tuple[Any, Any]]]] = _merged(lambda r: r.self_rules)
PERMISSIONS: dict[str, Callable[[Inputs], list[Grant]]] = _merged(lambda r: r.permissions)
SOURCELESS_INGRESS: dict[str, Callable[[Inputs], list[str]]] = _merged(lambda r: r.sourceless_ingress)
