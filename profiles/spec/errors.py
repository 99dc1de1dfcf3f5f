"""Turn pydantic's validation errors on a workload spec into one line naming the key and the fix.

pydantic reports every problem it finds; a user needs the one that explains the rest. An
unknown key comes first (a misspelt `capacty` also makes `capacity` "missing"), and the
wording for unknown keys, missing keys and wrong shapes is taken from the model at the
error's location, so `spot.restrat` lists the keys of `spot`, not the top-level ones.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pydantic import BaseModel, ValidationError

if TYPE_CHECKING:  # pydantic-core is pydantic's; the policy pack lists only pydantic
    from pydantic_core import ErrorDetails

from clouds.field_errors import documented, example_of, field_of, worded
from clouds.field_errors import model_at as _model_at
from clouds.registry import NAMES
from profiles.cost.work import ReservationSpec

# Error types in the order a user should see them; other types rank after these.
_FIRST = ("extra_forbidden",)
# Examples for list-valued keys, shown when the value is not a list.
_LIST_EXAMPLES = {
    "accelerators": "[A100:8, A100-80GB:8]",
    "providers": f"[{', '.join(NAMES[:2])}]",
    "regions": "[us-east-1, us-west-2]",
    "reservations": f"[{ReservationSpec.EXAMPLE}]",
}


def one_line(error: ValidationError, root: type[BaseModel], written: dict[str, str] | None = None) -> str:
    """The most useful of `error`'s problems as `KEY.PATH: what is wrong and how to fix it`.

    Args:
        error: pydantic's error from validating `root`.
        root: the model validated (e.g. `WorkloadSpec`); nested models are found through
            its field annotations.
        written: field -> the whole message to give when that field fails although the user
            never wrote it (the `:80` of `accelerators: [A100:80]` sets `gpus_per_node`).
    """
    errors = error.errors()
    first = min(errors, key=lambda e: _FIRST.index(e["type"]) if e["type"] in _FIRST else len(_FIRST))
    loc = first["loc"]
    where = ".".join(str(p) for p in loc) or "spec"
    message = _message(first, loc, root)
    if written and loc and str(loc[0]) in written:
        return written[str(loc[0])]
    if where == "spec" or re.match(rf"{re.escape(where)}[.:]", message):
        return message  # the validator already named the key
    return f"{where}: {message}"


def _message(error: ErrorDetails, loc: tuple, root: type[BaseModel]) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        keys = _keys(_model_at(root, loc[:-1]))
        import difflib  # only on the error path (its import costs several ms on every resolve)

        near = difflib.get_close_matches(str(loc[-1]), keys, n=1)
        return f"unknown key; valid keys: {', '.join(keys)}" + (f" (did you mean {near[0]}?)" if near else "")
    if kind in ("model_type", "dict_type"):
        model = _model_at(root, loc)
        return f"expected a mapping such as {getattr(model, 'EXAMPLE', '{key: value}')}"
    if kind == "missing":
        section = _model_at(root, loc[:-1])
        own = documented(field_of(section, str(loc[-1]))) if loc else None
        example = f"{loc[-1]}: {own}" if own else getattr(section, "EXAMPLE", None)
        return "required; add it" + (f", e.g. {example}" if example else "")
    if kind == "finite_number":
        example = example_of(field_of(_model_at(root, loc[:-1]), str(loc[-1]))) if loc else "2"
        return f"{error['input']!r} is not a finite number; write e.g. {loc[-1] if loc else 'a number'}: {example}"
    if kind in ("tuple_type", "list_type"):
        example = _LIST_EXAMPLES.get(str(loc[-1]) if loc else "")
        return "expected a list" + (f" such as {example}" if example else "")
    return worded(error, root)


def _keys(model: type[BaseModel] | None) -> list[str]:
    """The keys a spec writes for `model`'s fields (aliases where they have one), sorted."""
    return sorted(f.alias or n for n, f in model.model_fields.items()) if model else []
