"""The fuzz suite's strategies and properties (`tests/fuzz/test_contract.py` runs them): hypothesis
is imported here, by the tests that run, not at collection by every xdist worker (its import
and its pytest plugin's scan of the project's constants were about 2 s of CPU per worker).
Assertions here are rewritten by pytest like a test module's (`tests/fuzz/conftest.py`).
"""

from __future__ import annotations

import gc
import json
import math
import os
import resource
import time
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from typer.testing import CliRunner

from profiles.stack.file import StackFileError, read_cluster
from trainstack.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
# hypothesis's first test in a thread registers its own global Random
# (`hypothesis.internal.entropy.register_random`), whose check that the Random is referenced runs a
# full collection and `gc.get_referrers`: in an xdist worker that has imported the cloud SDKs since
# `tests/conftest.py` froze the heap at collection, that walked ~1 million objects (0.7-0.9 s of
# CPU) to find ~7,000 unreachable ones. Freezing what this worker holds now leaves it nothing to walk
# (those few thousand stay until the worker exits; the examples and assertions are unchanged).
gc.freeze()
if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
    # hypothesis keeps its cache (the project's constants, one file per module) under the working
    # directory it was first imported in; imported here, inside a test that moved into a temporary
    # project, that would be a cold cache in every run: keep it at the project root, as before
    set_hypothesis_home_dir(ROOT / ".hypothesis")

WORKLOAD = yaml.safe_load((ROOT / "profiles" / "workloads" / "training-a100.yaml").read_text())
STACK = yaml.safe_load((ROOT / "stacks" / "Pulumi.training-a100.yaml").read_text())
SECONDS = 3.0  # per command; resolve over the whole catalog takes ~0.1 s
MEGABYTES = 300  # growth of the process's peak memory over one command
FUZZ = settings(
    max_examples=15,
    deadline=None,
    derandomize=True,  # the same cases every run: a failure is reproducible, the suite stable
    database=None,  # and no .hypothesis folder written into the checkout
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Values that have broken parsers before: control characters, paths, quotes, huge and
# non-finite numbers, wrong types, deep nesting.
HOSTILE_TEXT = st.sampled_from(
    [
        "",
        " ",
        "../../etc/passwd",
        "a\nb",
        "x\x00y",
        "'unterminated",
        '"',
        "${HOME}",
        "$(rm -rf /)",
        "A100:8",
        "72h",
        "-1",
        "1e309",
        "NaN",
        "é" * 300,
        "a" * 5000,
        "s3://team-datasets/*",
        "gs://b/../x",
    ]
) | st.text(max_size=40)
SCALARS = (
    HOSTILE_TEXT
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.booleans()
    | st.none()
)
VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(HOSTILE_TEXT, inner, max_size=3), max_leaves=8
)
WORKLOAD_KEYS = [*WORKLOAD, "job", "data", "hours", "deadline", "regions", "reservations", "work", "model", "max_nodes"]


def _dump(document: Any) -> str:
    return yaml.safe_dump(document, allow_unicode=True, sort_keys=False)


def _contract(result: Any, seconds: float, grew_mb: float) -> None:
    assert "Traceback" not in result.output and "╭" not in result.output, result.output
    assert result.exit_code in (0, 2), (result.exit_code, result.output[-2000:])
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr[-2000:]
    assert seconds < SECONDS, seconds
    assert grew_mb < MEGABYTES, grew_mb


def _invoke(*args: str) -> tuple[Any, float, float]:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    result = CliRunner().invoke(app, list(args))
    seconds = time.perf_counter() - start
    return result, seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - before


def _files(folder: Path) -> set[Path]:
    return {p.relative_to(folder) for p in folder.rglob("*")}


@FUZZ
@given(changes=st.dictionaries(st.sampled_from(WORKLOAD_KEYS), VALUES, min_size=1, max_size=3))
def resolve_any_workload(project: Path, changes: dict) -> None:
    path = project / "w.yaml"
    path.write_text(_dump({**WORKLOAD, **changes}))
    before = _files(project)
    _contract(*_invoke("resolve", str(path), "--top", "1"))
    assert _files(project) == before  # resolve without --write-stack writes nothing


@FUZZ
@given(text=st.text(max_size=300) | st.binary(max_size=300).map(lambda b: b.decode("latin-1")))
def resolve_any_text(project: Path, text: str) -> None:
    path = project / "w.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    _contract(*_invoke("resolve", str(path)))


@FUZZ
@given(
    changes=st.dictionaries(
        st.sampled_from(
            [*STACK["config"]["trainstack:cluster"], "subnet_id", "ssh_public_key", "job", "data", "reservation"]
        ),
        VALUES,
        min_size=1,
        max_size=2,
    )
)
def read_any_stack(project: Path, changes: dict) -> None:
    document = json.loads(json.dumps(STACK))
    document["config"]["trainstack:cluster"].update(changes)
    path = project / "stacks" / "Pulumi.fuzz.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(_dump(document))
    start = time.perf_counter()
    try:
        read_cluster(path)
    except StackFileError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(path)), str(exc)
    assert time.perf_counter() - start < SECONDS


def _finite(value: Any) -> bool:
    return not (isinstance(value, float) and not math.isfinite(value))


@FUZZ
@given(
    provider=st.sampled_from(["aws", "lambda", "../x", "a/b", "gcp\n"]) | HOSTILE_TEXT,
    instance_type=st.sampled_from(["p4de.24xlarge", "../../escaped", "gpu\nx", "..", "a" * 300]) | HOSTILE_TEXT,
    nodes=SCALARS,
    extra=st.dictionaries(st.sampled_from(["busbw", "throughput", "notes", "stack", "started"]), VALUES, max_size=2),
)
def bench_import_anything(project: Path, provider: Any, instance_type: Any, nodes: Any, extra: dict) -> None:
    run = {"provider": provider, "instance_type": instance_type, "nodes": nodes, **extra}
    source = project / "run.json"
    source.write_text(json.dumps(run, allow_nan=True))
    before = _files(project)
    _contract(*_invoke("bench", "import", str(source)))
    new = _files(project) - before
    assert all(p.parts[0] == "measurements" and len(p.parts) <= 2 for p in new), new
