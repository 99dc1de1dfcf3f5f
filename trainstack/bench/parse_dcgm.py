"""Read `dcgmi diag -r LEVEL --json` output.

DCGM 3.x nests results as `{"DCGM GPU Diagnostic": {"test_categories": [{"category",
"tests": [{"name", "results": [{"gpu_ids", "status", "warnings", "info"}]}]}],
"version"}}` (the JSON layout documented in DCGM's nvvs JsonOutput). DCGM 4.x puts
`"tests"` at the top with one result per entity (`entity_group`, `entity_id`). Status
words are `Pass`, `Fail`, `Warn`, `Skip` (any case; `Not Run` counts as skip).
Text before the first `{` (dcgmi warnings) is ignored.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from profiles.measurements.schema import DcgmDiag, DiagTest
from trainstack.bench.parse_nccl import ParseError

_RANK = {"pass": 0, "skip": 1, "warn": 2, "fail": 3}


Status = Literal["pass", "fail", "warn", "skip"]
_WORDS: dict[str, Status] = {
    "pass": "pass",
    "passed": "pass",
    "ok": "pass",
    "fail": "fail",
    "failed": "fail",
    "error": "fail",
    "warn": "warn",
    "warning": "warn",
}


def _status(raw: object) -> Status:
    return _WORDS.get(str(raw).strip().lower(), "skip")


def _messages(result: dict[str, Any]) -> list[str]:
    found = []
    for item in result.get("warnings") or []:
        found.append(str(item.get("warning", item)) if isinstance(item, dict) else str(item))
    return found


def _test(category: str, test: dict[str, Any]) -> DiagTest | None:
    results = [r for r in test.get("results") or [] if isinstance(r, dict)]
    if not results:
        return None
    worst: Status = "pass"
    failed: list[str] = []
    messages: list[str] = []
    for result in results:
        status = _status(result.get("status"))
        worst = status if _RANK[status] > _RANK[worst] else worst
        gpu = str(result.get("gpu_ids", result.get("entity_id", "")))
        if status in ("fail", "warn"):
            failed.append(gpu)
            messages += _messages(result)
    return DiagTest(
        category=category,
        name=str(test.get("name", "?")),
        status=worst,
        failed_gpus=tuple(failed),
        messages=tuple(messages),
    )


def parse_dcgm(text: str, host: str = "", level: int | None = None) -> DcgmDiag:
    """Parse one `dcgmi diag --json` document into its tests and worst statuses.

    Raises:
        ParseError: no JSON object, or no test with a result in it.
    """
    start = text.find("{")
    try:
        data = json.loads(text[start:]) if start >= 0 else None
    except json.JSONDecodeError as exc:
        raise ParseError(f"not valid JSON at line {exc.lineno}; give the output of `dcgmi diag -r 2 --json`") from None
    if not isinstance(data, dict):
        raise ParseError("no JSON object; give the output of `dcgmi diag -r 2 --json`")
    root = data.get("DCGM GPU Diagnostic", data.get("DCGM Diagnostic", data))
    if not isinstance(root, dict):
        raise ParseError("no diagnostic object in the JSON; give the output of `dcgmi diag -r 2 --json`")
    tests: list[DiagTest] = []
    for category in root.get("test_categories") or []:
        if isinstance(category, dict):
            name = str(category.get("category", ""))
            tests += [t for t in (_test(name, x) for x in category.get("tests") or [] if isinstance(x, dict)) if t]
    for test in root.get("tests") or []:
        if isinstance(test, dict):
            found = _test(str(test.get("category", "")), test)
            tests += [found] if found else []
    if not tests:
        error = root.get("runtime_error") or root.get("error") or "no test results"
        raise ParseError(f"dcgmi diag reported {error}; rerun `dcgmi diag -r 2 --json` on the node")
    return DcgmDiag(level=level, host=host, version=str(root.get("version", "")), tests=tuple(tests))
