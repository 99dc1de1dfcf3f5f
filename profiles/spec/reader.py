"""Read a workload mapping into the plain spec values without pydantic, or say "not sure".

`trainstack resolve` should answer in well under 0.2 s, and importing pydantic and building
its validators costs about half of that. Most workloads are plain: known keys, values of the
type they should have. This reader reads those, strictly: every field of the plain value
classes has its `Key` (`profiles.spec.values.KEYS`: YAML name, kind, bounds, and the same
rule functions the pydantic models call, `profiles.spec.rules`). Anything it does not accept
outright (an unknown key, a value of another type, a bound or rule broken, a section it
leaves to pydantic: `job`, `data`, `reservations`) raises `Unsure`, and the caller validates
with the pydantic models (`profiles.spec.model`), whose errors users see. So this reader
never words an error and never accepts what pydantic would refuse; a test reads every
spec both ways and compares (`tests/profiles/test_spec_reader.py`).
"""

from __future__ import annotations

import math
import re
from typing import Any

from profiles.spec.values import AFTER, BEFORE, KEYS, Key


class Unsure(Exception):
    """This reader does not accept the mapping outright; validate it with pydantic."""


def read(cls: type, data: object) -> Any:
    """`data` (a mapping as read from YAML) as an instance of the plain value class `cls`.

    Raises:
        Unsure: anything this reader does not accept outright (see the module docstring),
            including any error of a rule.
    """
    try:
        return _read(cls, data)
    except Unsure:
        raise
    except Exception as exc:  # a rule's error: pydantic words it
        raise Unsure(str(exc)) from None


def _read(cls: Any, data: object) -> Any:
    if not isinstance(data, dict):
        raise Unsure("not a mapping")
    for rule in BEFORE.get(cls, ()):
        data = rule(data)
    assert isinstance(data, dict)
    fields = _written(cls)
    values: dict[str, Any] = {}
    for written, raw in data.items():
        found = fields.get(written)
        if found is None or found[0] in values:
            raise Unsure(f"key {written!r}")  # unknown, or given by alias and by name
        name, spec = found
        values[name] = _value(spec, raw)
    if "given" in cls._fields:
        values["given"] = frozenset(values)
    value = cls(**values)  # a missing required field: TypeError, reported by pydantic
    for rule in AFTER.get(cls, ()):
        rule(value)
    return value


def _written(cls: type) -> dict[str, tuple[str, Key]]:
    """YAML key -> (field name, Key), aliases and (where allowed) names."""
    found: dict[str, tuple[str, Key]] = {}
    for name, spec in KEYS[cls].items():
        if spec.alias is not None:
            found[spec.alias] = (name, spec)
        if spec.alias is None or spec.by_name:
            found[name] = (name, spec)
    return found


def _value(spec: Key, raw: object) -> Any:
    value = spec.before(raw) if spec.before is not None else raw
    if value is None:
        if not spec.optional:
            raise Unsure("None")
        return None
    value = _typed(spec, value)
    if spec.after is not None:
        value = spec.after(value)
    return value


def _typed(spec: Key, value: Any) -> Any:
    kind = spec.kind
    if kind == "pydantic":
        raise Unsure("left to pydantic")
    if isinstance(kind, tuple):
        if type(value) is not str or value not in kind:
            raise Unsure("not one of the words")
        return value
    if isinstance(kind, type):
        return _read(kind, value)
    if kind == "strs":
        if not isinstance(value, (list, tuple)) or any(type(item) is not str for item in value):
            raise Unsure("not a list of names")
        return tuple(value)
    if kind == "str":
        if type(value) is not str or "\n" in value or (spec.pattern and not re.search(spec.pattern, value)):
            raise Unsure("not that text")
        return value
    if kind == "bool":
        if type(value) is not bool:
            raise Unsure("not a bool")
        return value
    if kind == "int" and type(value) is not int:
        raise Unsure("not an int")
    if kind == "float":
        if type(value) not in (int, float) or not math.isfinite(value):
            raise Unsure("not a finite number")
        value = float(value)
    _bounded(spec, value)
    return value


def _bounded(spec: Key, number: float) -> None:
    if (
        (spec.gt is not None and not number > spec.gt)
        or (spec.ge is not None and not number >= spec.ge)
        or (spec.le is not None and not number <= spec.le)
    ):
        raise Unsure("out of bounds")
