"""Read a workload mapping into the plain spec values without pydantic, or say "not sure".

`trainstack resolve` should answer in well under 0.2 s, and importing pydantic and building
its validators costs about half of that. Most workloads are plain: known keys, values of the
type they should have. This reader reads those, strictly: every key of the plain value
classes (`profiles.spec_values`) carries its `Key` (YAML name, kind, bounds, and the same
rule functions the pydantic models call, `profiles.spec_rules`). Anything it does not accept
outright (an unknown key, a value of another type, a bound or rule broken, a section it
leaves to pydantic: `job`, `data`, `reservations`) raises `Unsure`, and the caller validates
with the pydantic models (`profiles.spec_model`), whose errors users see. So this reader
never words an error and never accepts what pydantic would refuse; a test reads every
spec both ways and compares (`tests/profiles/test_spec_reader.py`).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from typing import Any, NamedTuple


class Unsure(Exception):
    """This reader does not accept the mapping outright; validate it with pydantic."""


class Key(NamedTuple):
    """How one field of a plain spec value is written and checked (the field's `metadata["key"]`).

    Attributes:
        kind: `str`, `int`, `float`, `bool`, `strs` (a list of names), a tuple of the allowed
            words (a Literal), a plain value class (a nested section), or `pydantic` (a
            section only the pydantic models read).
        alias: the YAML key when it differs from the field name (`capacity`).
        by_name: the field name is accepted too (pydantic's `populate_by_name`).
        optional: None is a valid value.
        gt, ge, le: bounds on a number.
        pattern: a regular expression a `str` must match.
        before: the rule applied to the raw value first (`profiles.spec_rules`).
        after: the rule applied to the checked value.
    """

    kind: Any
    alias: str | None = None
    by_name: bool = True
    optional: bool = False
    gt: float | None = None
    ge: float | None = None
    le: float | None = None
    pattern: str | None = None
    before: Callable[[Any], Any] | None = None
    after: Callable[[Any], Any] | None = None


def key(kind: Any, **options: Any) -> dict[str, Key]:
    """`dataclasses.field(metadata=key(...))`: the field's `Key`."""
    return {"key": Key(kind, **options)}


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


def _read(cls: type, data: object) -> Any:
    if not isinstance(data, dict):
        raise Unsure("not a mapping")
    for rule in getattr(cls, "BEFORE", ()):
        data = rule(data)
    assert isinstance(data, dict)
    fields = _fields(cls)
    values: dict[str, Any] = {}
    for written, raw in data.items():
        found = fields.get(written)
        if found is None or found[0] in values:
            raise Unsure(f"key {written!r}")  # unknown, or given by alias and by name
        name, spec = found
        values[name] = _value(spec, raw)
    if "given" in {f.name for f in dataclasses.fields(cls)}:
        values["given"] = frozenset(values)
    value = cls(**values)  # a missing required field: TypeError, reported by pydantic
    for rule in getattr(cls, "AFTER", ()):
        rule(value)
    return value


def _fields(cls: type) -> dict[str, tuple[str, Key]]:
    """YAML key -> (field name, Key), aliases and (where allowed) names."""
    found: dict[str, tuple[str, Key]] = {}
    for item in dataclasses.fields(cls):
        spec = item.metadata.get("key")
        if spec is None:
            continue
        if spec.alias is not None:
            found[spec.alias] = (item.name, spec)
        if spec.alias is None or spec.by_name:
            found[item.name] = (item.name, spec)
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


def _typed(spec: Key, value: object) -> Any:
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
        if type(value) not in (int, float) or not math.isfinite(value):  # type: ignore[arg-type]
            raise Unsure("not a finite number")
        value = float(value)  # type: ignore[arg-type]
    _bounded(spec, value)  # type: ignore[arg-type]
    return value


def _bounded(spec: Key, number: float) -> None:
    if (
        (spec.gt is not None and not number > spec.gt)
        or (spec.ge is not None and not number >= spec.ge)
        or (spec.le is not None and not number <= spec.le)
    ):
        raise Unsure("out of bounds")
