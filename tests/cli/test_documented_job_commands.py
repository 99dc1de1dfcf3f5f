"""Commands the docs show that need a job (`trainstack run -s NAME`, `bench run -s NAME --send`,
`bench fetch -s NAME`) must work on the stack they name (new-user pass 2, finding 11): the
committed stack has a `job:`, or the same code block first rewrites it from a workload with a
job added (`--write-stack NAME` on a line that says `job:`, after the documented edit)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
NEEDS_JOB = re.compile(r"trainstack (?:run -s ([\w-]+)|bench run -s ([\w-]+)\b.*--send|bench fetch -s ([\w-]+))")


def code_blocks(text: str) -> list[list[str]]:
    """The lines of each fenced code block of a Markdown page."""
    return [block.splitlines() for block in re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S)]


def stack_has_job(name: str) -> bool | None:
    """Whether committed stack NAME has a job; None when no such stack is committed."""
    path = ROOT / "stacks" / f"Pulumi.{name}.yaml"
    if not path.is_file():
        return None
    cluster = yaml.safe_load(path.read_text(encoding="utf-8"))["config"]["trainstack:cluster"]
    return cluster.get("job") is not None


def unrunnable(lines: list[str]) -> list[str]:
    """The lines of one code block whose command needs a job the named stack does not have."""
    bad = []
    for i, line in enumerate(lines):
        match = NEEDS_JOB.search(line.split("#", 1)[0])
        if match is None:
            continue
        name = next(g for g in match.groups() if g)
        rewritten = any(f"--write-stack {name}" in before and "job:" in before for before in lines[:i])
        if stack_has_job(name) is False and not rewritten:
            bad.append(line.strip())
    return bad


@pytest.mark.parametrize(
    ("lines", "bad"),
    [
        pytest.param(["trainstack run -s training-a100"], 1, id="vm-stack-without-job"),
        pytest.param(["trainstack bench run -s training-a100 --send --wait"], 1, id="bench-send-without-job"),
        pytest.param(["trainstack bench run -s training-a100"], 0, id="kit-needs-no-job"),
        pytest.param(["trainstack run -s training-a100-sagemaker --dry-run"], 0, id="stack-with-job"),
        pytest.param(
            [
                "trainstack resolve w.yaml --write-stack training-a100   # the stack, with its job:",
                "trainstack run -s training-a100",
            ],
            0,
            id="rewritten-with-job-first",
        ),
    ],
)
def test_unrunnable_table(lines, bad) -> None:
    assert len(unrunnable(lines)) == bad


@pytest.mark.parametrize("page", sorted(p.name for p in (ROOT / "docs").glob("*.md")) + ["../README.md"])
def test_documented_job_commands_name_a_stack_with_a_job(page) -> None:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    assert [line for block in code_blocks(text) for line in unrunnable(block)] == []
