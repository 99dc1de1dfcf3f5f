"""Every command that prints JSON has its keys documented (issue #28, item 3: "document every
key"): the commands with a `--json` option are found in the CLI itself, so a new one fails
`test_every_json_command_is_checked` until its keys are checked here or in its own test."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer.main

from tests.cli.helpers import ROOT, documented_keys, run
from trainstack.cli.app import app

# Where each JSON-printing command's keys are compared with the docs.
CHECKED = {
    "resolve": "here (nested) and tests/cli/test_resolve_cli.py::test_resolve_json_shape_and_choice",
    "plan": "tests/cli/test_plan_cli.py::test_plan_json_matches_the_stack_price (and the review "
    "JSON of --against in tests/cli/test_review_cli.py)",
    "offers": "here",
    "catalog info": "here",
    "bench report": "here",
    "bench parse": "here (the results file: docs/bench-results.md)",
    "run": "here (a submitted job; --dry-run prints the platform API's own request)",
}
# Objects keyed by data, not by documented names: a cloud, a currency, an accelerator, a
# constraint, a resource's cloud inputs.
DATA_KEYED = {"providers", "accelerators", "left_out", "exchange_rates", "unusable_rates", "clouds", "inputs"}


def _json_commands() -> set[str]:
    found: set[str] = set()

    def walk(command, path: tuple[str, ...]) -> None:
        if any("--json" in getattr(p, "opts", ()) for p in getattr(command, "params", ())):
            found.add(" ".join(path))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return found


def keys_of(value: object) -> set[str]:
    """Every key in `value`, at any depth, except the keys of data-keyed objects (their values' are kept)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, inner in value.items():
            found.add(key)
            if key in DATA_KEYED and isinstance(inner, dict):
                for item in inner.values():
                    found |= keys_of(item)
            else:
                found |= keys_of(inner)
    elif isinstance(value, list):
        for item in value:
            found |= keys_of(item)
    return found


def test_every_json_command_is_checked():
    assert _json_commands() == set(CHECKED)


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["offers", "H100:8", "--spot", "--provider", "aws", "--provider", "volcengine"], id="offers"),
        pytest.param(["catalog", "info"], id="catalog-info"),
        pytest.param(["bench", "report", str(ROOT / "examples" / "bench")], id="bench-report"),
        # every nested key too (rows, file systems, rejections, the clouds without a row)
        pytest.param(["resolve", str(ROOT / "profiles" / "workloads" / "llm-13b-pretrain.yaml")], id="resolve"),
    ],
)
def test_json_keys_are_in_docs_cli(args, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["warnings"], "each carries the warnings it prints on stderr"
    assert keys_of(data) - documented_keys() == set()


def test_results_file_keys_are_in_docs_bench_results():
    words = set(re.findall(r"`([a-z_0-9]+)", (ROOT / "docs" / "bench-results.md").read_text(encoding="utf-8")))
    for path in sorted(Path(ROOT / "examples" / "bench").glob("*.json")):
        assert keys_of(json.loads(path.read_text())) - words == set(), path.name


def test_a_submitted_jobs_keys_are_in_docs_cli():
    from tests.clusters import example_config
    from trainstack.run import Submitted
    from trainstack.run.command import submitted_json

    done = Submitted(job_id="j", logs="l", checkpoints="c", request={})
    assert set(submitted_json(example_config("aws"), done, [])) <= documented_keys()


def test_every_purchase_value_resolve_gives_is_documented():
    # a script switching on `purchase` meets these (profiles/candidate.py); docs/cli.md said
    # `spot` or `on-demand` only
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    paragraph = text[text.index("`resolve --json` keys: `choice`") :]
    paragraph = paragraph[: paragraph.index("`hours` (the run")]
    for value in ("spot", "on-demand", "flex-start", "reserved-1y", "reserved-3y", "reservation", "capacity-block"):
        assert f"`{value}`" in paragraph, value
