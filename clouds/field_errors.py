"""pydantic's validation errors in words a user can act on: what the field means, what was
wrong with the value written, and a value that would be accepted.

pydantic says "Input should be greater than or equal to 1" or "String should match pattern
'^[a-z0-9][a-z0-9-]*$'"; a user needs "nodes: 0 is too few: the number of nodes must be at
least 1; write e.g. nodes: 1". Shared by the workload spec (`profiles.spec.errors`) and the
stack's cluster config (`clouds.config`); imports pydantic only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

# Regular expressions the models use, in words.
PATTERNS = {
    r"^[a-z0-9][a-z0-9-]*$": "lowercase letters, digits and '-', starting with a letter or digit (e.g. training-a100)",
    r"^\S+$": "one word with no spaces",
}
_BOUND_WORDS = {"ge": "at least", "gt": "more than", "le": "at most", "lt": "less than"}
_NUMBER_KINDS = ("int_parsing", "int_type", "float_parsing", "float_type", "int_from_float", "decimal_parsing")


class NotANumber(ValueError):
    """A yes/no value where a number belongs (YAML reads `true` as a bool, and Python counts it
    as 1); `describe` adds a value the field accepts (`example_wanted`, the attribute it reads:
    `profiles.spec.units.NotANumber` has it too, without importing pydantic)."""

    example_wanted = True


def refuse_bool(value: object) -> object:
    """`value` unchanged unless it is a yes/no value.

    Raises:
        NotANumber: `value` is a bool.
    """
    if isinstance(value, bool):
        raise NotANumber(f"expected a number, got {str(value).lower()} (a yes/no value)")
    return value


def field_of(model: type[BaseModel] | None, key: str) -> Any:
    """The pydantic FieldInfo of `model` written as `key` (its name or alias), or None."""
    if model is None:
        return None
    return next((f for n, f in model.model_fields.items() if key in (n, f.alias)), None)


def meaning(model: type[BaseModel] | None, key: str) -> str:
    """The field's description without its unit suffix, lowercased: `number of nodes`."""
    info = field_of(model, key)
    text = (getattr(info, "description", None) or key.replace("_", " ")).rstrip(".")
    head, _, _unit = text.partition(", ")
    return head if head[1:2].isupper() else head[:1].lower() + head[1:]  # keep acronyms: KMS


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else f"{value}"


def describe(error: Mapping[str, Any], model: type[BaseModel] | None, key: str) -> str | None:
    """One phrase for a pydantic error on field `key` of `model`: the value, what the field
    takes, and an example; None for error kinds without generic wording (the caller words them).

    Args:
        error: one entry of `ValidationError.errors()`.
        model: the model holding the field (for its description).
        key: the field as the user writes it (alias where it has one).
    """
    kind, ctx, value = error["type"], error.get("ctx") or {}, error.get("input")
    what, info = meaning(model, key), field_of(model, key)
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound_name = next(b for b in _BOUND_WORDS if b in ctx)
        bound = ctx[bound_name]
        example = bound if bound_name in ("ge", "le") else (bound + 1 if bound_name == "gt" else bound - 1)
        if isinstance(bound, float) and bound_name in ("gt", "lt"):  # a value strictly past the bound
            example = {"gt": bound * 2 if bound > 0 else bound + 1, "lt": bound / 2 if bound > 0 else bound - 1}[
                bound_name
            ]
        low = bound_name in ("ge", "gt")
        return (
            f"{_shown(value)} is too {'small' if low else 'large'}: the {what} must be "
            f"{_BOUND_WORDS[bound_name]} {bound:g}; write e.g. {key}: {_near(example, info)}"
        )
    if kind == "string_pattern_mismatch":
        rule = PATTERNS.get(ctx.get("pattern", ""), f"text matching {ctx.get('pattern')}")
        return f"{_shown(value)} cannot be used as the {what}: write {rule}"
    if kind in ("literal_error", "enum"):
        expected = ctx.get("expected", "")
        options = [o.strip(" '") for o in expected.replace(" or ", ", ").split(",") if o.strip(" '")]
        near = _close(str(value), options)
        hint = f" (did you mean {near[0]}?)" if near else ""
        return f"{_shown(value)} is not a valid {what}{hint}; write one of {', '.join(options)}"
    if kind in _NUMBER_KINDS:
        whole = kind.startswith("int")
        return (
            f"{_shown(value)} is not {'a whole number' if whole else 'a number'}; the {what} is one, "
            f"e.g. {key}: {_number_in_keys_unit(value, key) or example_of(info)}"
        )
    if kind == "value_error" and getattr(ctx.get("error"), "example_wanted", False):
        return f"{error['msg'].removeprefix('Value error, ')}; write e.g. {key}: {example_of(info)}"
    if kind in ("string_type", "string_too_short"):
        return _not_text(kind, value, what, key, info)
    if kind == "extra_forbidden" and model is not None:
        keys = sorted(f.alias or n for n, f in model.model_fields.items())
        stems = {_UNIT_SUFFIX.sub("", k): k for k in keys}  # `size` is close to `size_gib`
        near = [stems[s] for s in _close(key, stems)]
        return f"unknown key; valid keys: {', '.join(keys)}" + (f" (did you mean {near[0]}?)" if near else "")
    if kind == "missing":
        return f"required: the {what}; add {key}: ..."
    if kind == "timezone_aware" or kind.startswith(("datetime_", "date_")):
        return _moment(kind, value, what, key)
    return _shape(kind, value, key)


def documented(info: Any) -> str | None:
    """The field's documented example (`Field(examples=[...])`), as the user writes it (`1h`,
    `4800GiB`, `80%`: the form its validator accepts), or None. Fields that need a unit or
    whose bounds make a small number wrong document one, so a suggestion is valid input."""
    examples = getattr(info, "examples", None)
    return None if not examples else str(examples[0]).lower() if isinstance(examples[0], bool) else str(examples[0])


def example_of(info: Any) -> str:
    """A value the field accepts, as a user writes it: its documented example, else a number
    within its bounds (2 or 1 where allowed, else a bound itself or a value between them)."""
    if (text := documented(info)) is not None:
        return text
    bounds = _bounds(info)
    low = bounds.get("ge", bounds.get("gt"))
    high = bounds.get("le", bounds.get("lt"))
    tried = [2, 1, bounds.get("ge"), bounds.get("le"), *(b + 1 for b in [bounds.get("gt")] if b is not None)]
    if low is not None and high is not None:
        tried.append((low + high) / 2)
    fits = (n for n in tried if n is not None and _within(n, bounds))
    return f"{next(fits, 2):g}"


def _near(example: float, info: Any) -> str:
    """`example` (next to the bound broken) when the field's other bounds allow it and it
    needs no unit, else `example_of`."""
    return example_of(info) if documented(info) or not _within(example, _bounds(info)) else f"{example:g}"


def _bounds(info: Any) -> dict[str, float]:
    """The field's numeric bounds (`ge`, `gt`, `le`, `lt`) from its pydantic metadata."""
    return {name: getattr(m, name) for m in getattr(info, "metadata", ()) for name in _BOUND_WORDS if hasattr(m, name)}


def _within(number: float, bounds: Mapping[str, float]) -> bool:
    checks = {"ge": number.__ge__, "gt": number.__gt__, "le": number.__le__, "lt": number.__lt__}
    return all(checks[name](bound) for name, bound in bounds.items())


# The unit a key's name ends in (`size_gib`, `hours`), dropped to find the key a user meant.
_UNIT_SUFFIX = re.compile(r"_(gib|mib|tib|gb|hours|mbps_per_tib|usd_per_hour)$")


def _shape(kind: str, value: Any, key: str) -> str | None:
    """A value of the wrong shape (a mapping, a list, a yes/no) in words."""
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"{_shown(value)} is not a mapping: write e.g. {key}: {{name: value}}"
    if kind in ("list_type", "tuple_type", "set_type"):
        return f"{_shown(value)} is not a list: write e.g. {key}: [a, b]"
    if kind in ("bool_type", "bool_parsing"):
        return f"{_shown(value)} is not true or false: write {key}: true or {key}: false"
    return None


def _not_text(kind: str, value: Any, what: str, key: str, info: Any) -> str:
    """Text expected: a number or yes/no is shown quoted as the user must write it
    (`NCCL_DEBUG: "5"`); an empty or other value gets the field's documented example."""
    if kind == "string_type" and isinstance(value, bool | int | float):
        kind_word = "yes/no value" if isinstance(value, bool) else "number"
        what = what if info is not None else "value"  # a mapping's entry (job.env.NAME): no field of its own
        return f'{_shown(value)} is a {kind_word}, but the {what} is text; quote it: {key}: "{_shown(value)}"'
    examples = getattr(info, "examples", None) or ["NAME"]
    shown = "empty" if kind == "string_too_short" else f"{_shown(value)} is not text"
    return f"{shown}: the {what} must be text; write e.g. {key}: {examples[0]}"


def _moment(kind: str, value: Any, what: str, key: str) -> str:
    """A date-time without a zone, or text that is no date-time: say so and give the value
    written as ISO 8601 in UTC (`2026-12-20` -> `2026-12-20T00:00:00Z`)."""
    text = value.isoformat() if hasattr(value, "isoformat") else str(value)
    stem = text if "T" in text else f"{text}T00:00:00"
    fixed = stem + "Z" if kind == "timezone_aware" else "2026-12-20T00:00:00Z"
    problem = "has no time zone" if kind == "timezone_aware" else "is not a date and time"
    return (
        f"{text} {problem}: the {what} must be ISO 8601 with a zone (Z or +00:00 for UTC); write e.g. {key}: {fixed!r}"
    )


# Units a value may be written in, as multiples of the unit a key's name ends in (`_gib`,
# `hours`): binary GiB/TiB/MiB, decimal GB/TB (10^9 / 2^30 GiB), hours from minutes to weeks.
_IN_KEYS_UNIT = {
    "gib": {"gib": 1.0, "tib": 1024.0, "mib": 1 / 1024, "gb": 1e9 / 2**30, "tb": 1e12 / 2**30},
    "hours": {"h": 1.0, "hours": 1.0, "m": 1 / 60, "min": 1 / 60, "d": 24.0, "days": 24.0, "w": 168.0},
}


def _number_in_keys_unit(value: Any, key: str) -> str | None:
    """The value in the unit the key names: `4800` for `4800GiB` given as `capacity_gib`,
    `4471` for `4800GB` (4,470.3 GiB, rounded up), `72` for `3d` as `hours`; None otherwise."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z/]+)\s*", value) if isinstance(value, str) else None
    if not found:
        return None
    unit = found.group(2).lower().replace("/", "")
    if key.lower().endswith("_" + unit):
        return found.group(1)
    keys_unit = next((u for u in _IN_KEYS_UNIT if key.lower() == u or key.lower().endswith("_" + u)), None)
    factor = _IN_KEYS_UNIT[keys_unit].get(unit) if keys_unit else None
    if factor is None:
        return None
    converted = float(found.group(1)) * factor
    return f"{math.ceil(converted - 1e-9):d}" if keys_unit == "gib" else f"{converted:g}"


def model_at(root: type[BaseModel], loc: tuple) -> type[BaseModel] | None:
    """The model whose fields sit at `loc` (list indices skipped), or None if it is no model."""
    model: type[BaseModel] | None = root
    for part in loc:
        if isinstance(part, int):
            continue
        info = field_of(model, str(part))
        model = _model_in(info.annotation) if info else None
        if model is None:
            return None
    return model


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model inside an annotation such as `X | None` or `tuple[X, ...]`."""
    from typing import get_args

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return next((m for m in map(_model_in, get_args(annotation)) if m is not None), None)


def worded(error: Mapping[str, Any], root: type[BaseModel]) -> str:
    """`describe` for the error's own field, else pydantic's message without its prefix."""
    loc = error["loc"]
    key = str(loc[-1]) if loc else ""
    text = describe(error, model_at(root, loc[:-1]), key) if key else None
    return text or error["msg"].removeprefix("Value error, ")


def _close(word: str, options) -> list[str]:
    """The option closest to `word`, as a one-item list, or []; difflib is imported only
    here, on the error path (its import costs several ms on every `resolve`)."""
    import difflib

    return difflib.get_close_matches(word, list(options), n=1)
