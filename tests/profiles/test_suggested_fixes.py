"""Every value a workload error proposes is one the same field accepts (issue #28: "suggestions
are always valid input").

Each refusal case of the spec tables (tests/cases/spec_errors.yaml, spec_nested_errors.yaml,
bad_spec_values.yaml, suggested_fixes.yaml) and one broken bound of every bounded number in the
workload's models is read; the value its one-line error proposes (`write e.g. KEY: VALUE`,
`write it like VALUE`, `write one of A, B`, `such as VALUE` ...) is written back at the field
the error names (or the key it names), and the workload read again: it must be accepted or
fail on another field. A message that proposes something the reader below cannot pick out
fails too, so a new wording cannot slip past the check.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from clouds.field_errors import field_of, model_at
from profiles.spec import SpecError, parse_spec
from profiles.spec.model import WorkloadModel
from tests.cases import cases

BASE = {"accelerators": "A100:8", "hours": "1h"}
# A workload with every section, each field inside its bounds.
FULL: dict[str, Any] = {
    "accelerators": "A100:8",
    "nodes": 1,  # max_nodes' own bound (1) then fits; below `nodes` it proposes `nodes` (a case of its own)
    "purchase": "any",
    "work": {"params": "7B", "tokens": "300B", "mfu": 0.4},
    "model": {"params": "7B", "layers": 32, "hidden": 4096, "heads": 32, "seq_len": 4096},
    "deadline": "7d",
    "node_margin": "5%",
    "spot": {"checkpoint_interval": "1h", "restart": "20m", "interruptions_per_node_month": 1},
    "file_system": {"capacity": "4800GiB", "throughput": 250},
    "commitment": {"term": "1y", "reuse": 0.5},
    "job": {"command": "/fsx/train.py", "nproc_per_node": 8, "max_restarts": 3},
    "data": {"source": "s3://team/set", "size": "1TiB", "files": 1000, "mean_file_size": "1MiB", "write_back": True},
}
# Fields another field of FULL bounds (`hours` or `work`; model.params = work.params): read without `work`.
WITHOUT_WORK = {("hours",), ("model", "params")}
_MARKERS = ("e.g.", "write ", "such as")


def _bounded_fields(model: Any, prefix: tuple = ()) -> list[tuple[tuple, Any]]:
    """(path, field info) of every number with bounds under `model`, as the YAML writes them."""
    found = []
    for name, info in model.model_fields.items():
        key = info.alias or name
        inner = model_at(model, (key,))
        if inner is not None and (prefix + (key,))[0] in FULL:
            found += _bounded_fields(inner, prefix + (key,))
        elif any(hasattr(m, b) for m in info.metadata for b in ("ge", "gt", "le", "lt")):
            found.append((prefix + (key,), info))
    return found


def _broken(info: Any) -> list[Any]:
    """Values just past each of the field's bounds, written in its documented example's form."""
    example = str(info.examples[0]) if info.examples else None  # the form the field is written in
    values = []
    for m in info.metadata:
        for bound, past in (("gt", 0), ("ge", -1), ("le", 1), ("lt", 0)):
            if hasattr(m, bound):
                number = getattr(m, bound) + past
                shown = f"{number * 100:g}" if example and example.endswith("%") else f"{number:g}"
                values.append(re.sub(r"\d+(\.\d+)?", shown, example, count=1) if example else number)
    return values


def _generated() -> list[Any]:
    params = []
    for path, info in _bounded_fields(WorkloadModel):
        base = {k: v for k, v in FULL.items() if k != "work" or path not in WITHOUT_WORK}
        for value in (*_broken(info), True):
            params.append(pytest.param(_with(base, path, value), id=f"{'.'.join(path)}={value}"))
    return params


def _with(data: Any, path: tuple, value: Any) -> Any:
    """A copy of `data` with `value` at `path` (list indices as ints)."""
    copied = yaml.safe_load(yaml.safe_dump(data))
    here = copied
    for part in path[:-1]:
        here = here[part] if isinstance(here, list) else here.setdefault(part, {})
    here[path[-1]] = value
    return copied


def _error(data: Any) -> tuple[tuple, str] | None:
    """(the path the error names, its text), or None when `data` is accepted."""
    try:
        parse_spec(data, "w.yaml")
    except SpecError as error:
        text = str(error).removeprefix("w.yaml: ")
        where = re.match(r"([\w.]+): ", text)
        path = tuple(int(p) if p.isdigit() else p for p in where.group(1).split(".")) if where else ()
        return path, text
    return None


def _value(text: str) -> str:
    """The value at the start of `text`: a bracketed mapping or list whole, else up to `,`, `;`,
    ` (`, `)`, ` or ` or the end."""
    if text[:1] in "{[":
        depth = 0
        for i, char in enumerate(text):
            depth += {"{": 1, "[": 1, "}": -1, "]": -1}.get(char, 0)
            if depth == 0:
                return text[: i + 1]
    return re.split(r",|;| \(|\)| or |`", text, maxsplit=1)[0].strip()


def proposal(path: tuple, text: str) -> tuple[tuple, Any] | None:
    """(where, value) the message proposes, or None when it proposes nothing."""
    after_path = text.split(": ", 1)[1] if path else text
    patterns = (r"e\.g\. `?(?:([\w.]+): )?(.+)", r"write one of (.+)", r"write it like (.+)", r"such as (.+)")
    for pattern in (*patterns, r"write (?:([\w.]+): )?(.+)"):
        found = re.search(pattern, after_path)
        if not found:
            continue
        key, raw = (found.group(1), found.group(2)) if found.re.groups == 2 else (None, found.group(1))
        value = yaml.safe_load(_value(raw))
        if key is None:
            return path, value
        if "." in key:
            return tuple(int(p) if p.isdigit() else p for p in key.split(".")), value
        return path[:-1] + (key,), value
    return None


REFUSED = [
    *(pytest.param(p.values[0], id=p.id) for p in cases("spec_errors.yaml", "data", "message")),
    *(pytest.param({**BASE, **p.values[0]}, id=p.id) for p in cases("spec_nested_errors.yaml", "extra", "message")),
    *(pytest.param(yaml.safe_load(p.values[0]), id=p.id) for p in cases("bad_spec_values.yaml", "text", "message")),
]
NEW = cases("suggested_fixes.yaml", "data")


def _check(data: Any, must_propose: bool) -> None:
    data = {k: v for k, v in data.items() if v is not None} if isinstance(data, dict) else data
    refused = _error(data)
    assert refused is not None, "the case is accepted: it checks nothing"
    path, text = refused
    proposed = proposal(path, text)
    if proposed is None:
        assert not must_propose and not any(m in text for m in _MARKERS), f"proposes what the test cannot read: {text}"
        return
    where, value = proposed
    again = _error(_with(data, where, value) if where else value)
    assert again is None or again[0] != path, f"{text}\n  -> {'.'.join(map(str, where))}: {value!r}\n  -> {again}"


@pytest.mark.parametrize("data", [*REFUSED, *_generated()])
def test_a_proposed_value_is_accepted_by_its_field(data):
    _check(data, must_propose=False)


@pytest.mark.parametrize("data", NEW)
def test_the_new_user_refusals_propose_a_value_their_field_accepts(data):
    _check(data, must_propose=True)


def test_the_generated_cases_cover_the_fields_with_units_and_shares():
    written = {".".join(path) for path, _ in _bounded_fields(WorkloadModel)}
    assert {"spot.checkpoint_interval", "file_system.capacity", "commitment.reuse", "node_margin"} <= written
    assert field_of(WorkloadModel, "nodes") is not None


@pytest.mark.parametrize("key", ["nodes", "accelerator_count", "hours", "usd_per_hour", "commitment_reuse"])
def test_a_stacks_number_refusal_proposes_a_value_its_field_accepts(key):
    from clouds.contract import ClusterConfig
    from tests.clusters import BASE_CLUSTER

    stack = {**BASE_CLUSTER, "purchase": "on-demand", "commitment": "1y"}
    with pytest.raises(ValueError) as refused:
        ClusterConfig.model_validate({**stack, key: True})
    found = re.search(rf"write e\.g\. {key}: (\S+)", str(refused.value))
    assert found, str(refused.value)
    assert getattr(ClusterConfig.model_validate({**stack, key: yaml.safe_load(found.group(1))}), key) is not True


def test_the_throughput_proposed_is_the_default_every_cloud_is_resolved_with():
    from profiles.spec.model import FileSystemModel

    info = FileSystemModel.model_fields["throughput_mbps_per_tib"]
    assert info.examples == [info.default] == [250]


@pytest.mark.parametrize(
    ("work_hours", "interval"),
    [(72.0, "1h"), (1.5, "1h"), (1.0, "15m"), (0.8, "12m"), (0.05, "1m")],
)
def test_the_checkpoint_interval_proposed_is_shorter_than_the_job(work_hours, interval):
    # `checkpoint_warning` fires when the interval is not shorter than the job: its fix must be.
    from profiles.explain import shorter_interval
    from profiles.spec.units import parse_duration_hours

    assert shorter_interval(work_hours) == interval
    assert parse_duration_hours(interval) < work_hours
