"""Tables of test cases kept as data: tests/cases/<name>.yaml holds a list of cases, each a
mapping with an `id` and one key per test argument, so a table whose inputs are what a user
writes (a workload, a stack setting, a config change) reads as that YAML."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import pytest
import yaml

CASES = Path(__file__).parent / "cases"


@functools.cache
def _read(name: str) -> tuple[dict[str, Any], ...]:
    return tuple(yaml.load((CASES / name).read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))


def cases(name: str, *fields: str) -> list[Any]:
    """`pytest.param(case[field], ..., id=case["id"])` for every case of tests/cases/`name` (fresh
    copies: a test that changes its argument changes no other test's).

    Raises:
        ValueError: a case has keys other than `id` and `fields`, or lacks one (a typo in the
            file would otherwise drop or ignore an input).
    """
    params = []
    for case in _read(name):
        if set(case) != {"id", *fields}:
            raise ValueError(
                f"{name}: case {case.get('id')!r} has keys {sorted(case)}; expected id, {', '.join(fields)}"
            )
        params.append(pytest.param(*(copy.deepcopy(case[field]) for field in fields), id=case["id"]))
    return params
