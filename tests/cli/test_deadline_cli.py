"""A stack that misses its workload's deadline: refused by --write-stack unless --force, and
`plan` / the review say it misses."""

import json
import shutil

import pytest

from tests.cli.helpers import ROOT, run

# 1,200 A100-80GB hours on one 8-GPU node: 150 h on p4de, about 47 h on p5; a 10 h deadline
# is missed by every single-node offering.
LATE = """name: late
accelerators: [A100-80GB:8, H100:8]
nodes: 1
providers: [aws]
work: {gpu_hours: 1200, reference: A100-80GB}
deadline: 10h
"""


@pytest.fixture()
def project(tmp_path, monkeypatch):
    for name in ("Pulumi.yaml", "__main__.py"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "late.yaml").write_text(LATE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_write_stack_refuses_a_missed_deadline_and_writes_nothing(project):
    result = run("resolve", "late.yaml", "--write-stack", "late")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: --write-stack: no offering meets the 10 h deadline (the choice takes ")
    assert "to meet it: " in result.stderr and "pass --force to write it anyway" in result.stderr
    assert result.stderr.count("\n") == 1
    assert not (project / "stacks").exists()


def test_forced_stack_carries_the_deadline_and_plan_says_it_misses(project):
    assert run("resolve", "late.yaml", "--write-stack", "late", "--force").exit_code == 0
    text = (project / "stacks" / "Pulumi.late.yaml").read_text()
    assert "deadline_hours: 10.0" in text
    plan = run("plan", "-s", "late")
    assert plan.exit_code == 0, plan.output
    assert "deadline: the planned " in plan.stdout and "miss the 10 h deadline by" in plan.stdout
    data = json.loads(run("plan", "-s", "late", "--json").stdout)
    assert data["deadline_hours"] == 10.0 and data["deadline_note"].startswith("the planned ")
    review = run("plan", "-s", "late", "--markdown")
    assert "❌ Deadline: the planned " in review.stdout
