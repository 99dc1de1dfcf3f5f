"""`trainstack up` walks the stack's fallbacks on capacity errors, replaying recorded engine
events (the Pulumi engine's event JSON, `pulumi.automation.events.EngineEvent`) with each
cloud's documented error codes in place of the Pulumi CLI."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from pulumi.automation import EngineEvent
from pulumi.automation._cmd import CommandResult
from pulumi.automation.errors import CommandError

from clouds.capacity_errors import classify
from profiles.stack.file import FALLBACKS_KEY, is_hand_edited
from tests.cli.helpers import ROOT, one_error_line, run
from trainstack.up.walk import BLOCK_MINUTES, walk

EVENTS = ROOT / "tests" / "fixtures" / "engine_events"
H100_AWS = """name: h100
accelerators: [H100:8, H200:8]
nodes: 2
interconnect: rdma
purchase: on-demand
hours: 10h
providers: [aws]
"""


class Replay:
    """An engine that replays one recording per deployment, in order, as `Stack.up` would:
    every event to the callback, then `CommandError` when an error diagnostic was among them."""

    def __init__(self, project: Path, *recordings: str) -> None:
        self.project, self.left, self.calls = project, list(recordings), []

    def __call__(self, name, folder, flags, on_event):
        cluster = yaml.safe_load((folder / "stacks" / f"Pulumi.{name}.yaml").read_text())["config"]
        self.calls.append(
            (cluster["trainstack:cluster"]["instance_type"], cluster["trainstack:cluster"]["zone"], flags)
        )
        failed = False
        for line in (EVENTS / self.left.pop(0)).read_text().splitlines():
            event = EngineEvent.from_json(json.loads(line))
            on_event(event)
            failed |= bool(event.diagnostic_event and event.diagnostic_event.severity == "error")
        if failed:
            raise CommandError(CommandResult("", "error: update failed", 255))


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    """A project with `stacks/Pulumi.train.yaml` written by resolve (H100/H200 on AWS, no file system)."""
    folder = tmp_path_factory.mktemp("written")
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, folder)
    (folder / "stacks").mkdir()
    (folder / "w.yaml").write_text(H100_AWS)
    result = run("resolve", str(folder / "w.yaml"), "--write-stack", "train", "--project-dir", str(folder))
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture()
def project(written: Path, tmp_path: Path) -> Path:
    shutil.copytree(written, tmp_path / "p")
    return tmp_path / "p"


def _stack(project: Path) -> tuple[str, dict, list]:
    text = (project / "stacks" / "Pulumi.train.yaml").read_text()
    config = yaml.safe_load(text)["config"]
    return text, config["trainstack:cluster"], config.get(FALLBACKS_KEY, [])


def test_a_capacity_error_moves_the_stack_to_the_next_fallback_and_deploys(project: Path) -> None:
    _, first, rows = _stack(project)
    engine = Replay(project, "aws-insufficient-capacity.jsonl", "ok.jsonl")
    report = walk("train", project, engine, {"parallel": 4}, clock=lambda: 1_000_000.0)
    assert report.deployed
    assert [a.outcome for a in report.attempts] == ["capacity", "moved", "deployed"]
    assert report.attempts[0].detail.startswith("InsufficientInstanceCapacity: ")
    text, now, left = _stack(project)
    assert (now["instance_type"], now["zone"]) == (rows[0]["instance_type"], rows[0]["zone"])
    assert (now["usd_per_hour"], now["hours"]) == (rows[0]["usd_per_hour"], rows[0]["hours"])
    assert left == rows[1:] and not is_hand_edited(text)  # through the writer: checksum, header
    assert f"in {rows[0]['region']} ({rows[0]['zone']})" in text.splitlines()[1]
    moved = report.attempts[1].changes
    assert f"zone: {first['zone']} -> {rows[0]['zone']}" in moved and moved[-1].startswith("cost: $")
    assert [call[2] for call in engine.calls] == [{"parallel": 4}, {"parallel": 4}]
    blocked = json.loads((project / ".trainstack" / "blocked.json").read_text())
    key = f"aws/{first['region']}/{first['zone']}/{first['instance_type']}/on-demand"
    assert blocked[key]["until"] == 1_000_000.0 + BLOCK_MINUTES * 60


def test_every_fallback_failing_ends_with_a_report_of_each(project: Path) -> None:
    _, _, rows = _stack(project)
    recordings = ["aws-insufficient-capacity.jsonl", "aws-vcpu-quota.jsonl"] * 5
    report = walk("train", project, Replay(project, *recordings), max_attempts=20, clock=lambda: 5.0)
    assert not report.deployed
    tried = [a for a in report.attempts if a.outcome in ("capacity", "quota")]
    assert len(tried) == len(rows) + 1
    assert {a.outcome for a in tried} == {"capacity", "quota"}
    assert report.stopped.startswith("no fallback left")
    lines = report.lines()
    assert lines[-1].startswith("not deployed: no fallback left") and "VcpuLimitExceeded" in "\n".join(lines)


def test_the_walk_is_bounded_in_deployments(project: Path) -> None:
    report = walk("train", project, Replay(project, *["aws-insufficient-capacity.jsonl"] * 9), max_attempts=2)
    assert sum(a.outcome == "capacity" for a in report.attempts) == 2
    assert "stopped after 2 deployments" in report.stopped


def test_the_walk_is_bounded_in_time(project: Path) -> None:
    ticks = iter([0.0, 0.0, 0.0, 7300.0, 7300.0, 7300.0])
    report = walk(
        "train", project, Replay(project, *["aws-insufficient-capacity.jsonl"] * 9), clock=lambda: next(ticks)
    )
    assert sum(a.outcome == "capacity" for a in report.attempts) == 1 and "120 minutes" in report.stopped


def test_an_error_that_is_not_capacity_stops_without_moving(project: Path) -> None:
    before, _, _ = _stack(project)
    report = walk("train", project, Replay(project, "aws-access-denied.jsonl"))
    assert [a.outcome for a in report.attempts] == ["error"] and "AccessDenied" in report.attempts[0].detail
    assert "not a capacity or quota error" in report.stopped
    assert _stack(project)[0] == before


def test_a_blocked_offering_is_passed_over_by_the_next_walk(project: Path) -> None:
    _, first, rows = _stack(project)
    walk(
        "train",
        project,
        Replay(project, "aws-insufficient-capacity.jsonl", "aws-insufficient-capacity.jsonl", "ok.jsonl"),
    )
    # the stack now sits on rows[1]; put it back on the first offering by hand and walk again
    shutil.copy(project / "stacks" / "Pulumi.train.yaml", project / "moved.yaml")
    report = walk(
        "train",
        project,
        Replay(project, "aws-insufficient-capacity.jsonl", "ok.jsonl"),
        clock=lambda: __import__("time").time(),
    )
    outcomes = [a.outcome for a in report.attempts]
    assert outcomes[0] == "capacity" and "moved" in outcomes and report.deployed
    assert first["zone"] != _stack(project)[1]["zone"]


def test_a_move_that_would_replace_the_file_system_is_never_automatic(project: Path) -> None:
    path = project / "stacks" / "Pulumi.train.yaml"
    document = yaml.safe_load(path.read_text())
    document["config"]["trainstack:cluster"]["file_system"] = {"capacity_gib": 1200}
    from clouds.config import parse_cluster_config
    from profiles.stack.writer import render_stack

    config = parse_cluster_config(document["config"]["trainstack:cluster"])
    rows = document["config"][FALLBACKS_KEY]
    assert all(row["zone"] != config.zone for row in rows)  # written without a file system: other zones
    path.write_text(render_stack(config, "w.yaml", "2026-12-01", kept={"config": {}}, fallbacks=rows))
    report = walk("train", project, Replay(project, "aws-insufficient-capacity.jsonl"))
    assert not report.deployed
    assert [a.outcome for a in report.attempts] == ["capacity"] + ["skipped"] * len(rows)
    assert "would replace the file system" in report.attempts[1].detail
    assert yaml.safe_load(path.read_text())["config"]["trainstack:cluster"]["zone"] == config.zone


def test_a_row_past_the_deadline_the_stack_meets_is_passed_over(project: Path) -> None:
    """A stack written before resolve kept its rows to the deadline (or edited): up skips a row
    whose run misses the deadline the stack's own run meets, and moves to the next."""
    path = project / "stacks" / "Pulumi.train.yaml"
    document = yaml.safe_load(path.read_text())
    cluster = {**document["config"]["trainstack:cluster"], "deadline_hours": 12.0}
    from clouds.config import parse_cluster_config
    from profiles.stack.writer import render_stack

    config = parse_cluster_config(cluster)
    rows = [dict(row) for row in document["config"][FALLBACKS_KEY]]
    assert len(rows) >= 2 and config.hours == 10
    rows[0]["hours"] = 12.5
    path.write_text(render_stack(config, "w.yaml", "2026-12-01", kept={"config": {}}, fallbacks=rows))
    report = walk("train", project, Replay(project, "aws-insufficient-capacity.jsonl", "ok.jsonl"))
    assert [a.outcome for a in report.attempts] == ["capacity", "skipped", "moved", "deployed"]
    assert report.attempts[1].detail.startswith("it takes 12.5 h, past the 12 h deadline this stack meets (10.0 h)")
    now = yaml.safe_load(path.read_text())["config"]["trainstack:cluster"]
    assert (now["instance_type"], now["zone"], now["hours"]) == (rows[1]["instance_type"], rows[1]["zone"], 10)


def test_a_hand_edited_stack_is_not_rewritten_without_force(project: Path) -> None:
    path = project / "stacks" / "Pulumi.train.yaml"
    path.write_text(path.read_text().replace("tags: {}", "tags: {team: ml}"))
    before = path.read_text()
    report = walk("train", project, Replay(project, "aws-insufficient-capacity.jsonl"))
    assert "edited by hand" in report.stopped and path.read_text() == before
    forced = walk("train", project, Replay(project, "aws-insufficient-capacity.jsonl", "ok.jsonl"), force=True)
    assert forced.deployed and "team: ml" in path.read_text()  # the stack's own settings stay


@pytest.mark.parametrize(
    ("provider", "recording", "kind", "code"),
    [
        pytest.param(
            "aws", "aws-insufficient-capacity.jsonl", "capacity", "InsufficientInstanceCapacity", id="aws-ice"
        ),
        pytest.param("aws", "aws-vcpu-quota.jsonl", "quota", "VcpuLimitExceeded", id="aws-quota"),
        pytest.param(
            "gcp",
            "gcp-zone-exhausted.jsonl",
            "capacity",
            "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS",
            id="gcp-stockout",
        ),
        pytest.param("gcp", "gcp-quota.jsonl", "quota", "quotaExceeded", id="gcp-quota"),
        pytest.param("azure", "azure-allocation-failed.jsonl", "capacity", "AllocationFailed", id="azure-allocation"),
        pytest.param("azure", "azure-sku-not-available.jsonl", "capacity", "SkuNotAvailable", id="azure-sku"),
        pytest.param("aws", "aws-access-denied.jsonl", None, None, id="aws-not-capacity"),
    ],
)
def test_each_clouds_recorded_error_is_read_with_its_own_codes(provider, recording, kind, code) -> None:
    messages = [
        event["diagnosticEvent"]["message"]
        for event in map(json.loads, (EVENTS / recording).read_text().splitlines())
        if event.get("diagnosticEvent", {}).get("severity") == "error"
    ]
    found = next((f for f in (classify(provider, m) for m in messages) if f), None)
    assert (found.kind, found.code) == (kind, code) if kind else found is None
    assert classify("aws", messages[0]) is None or provider == "aws"  # codes are per cloud


def test_up_passes_pulumi_flags_and_refuses_unknown_ones(project: Path, monkeypatch) -> None:
    from trainstack.cli import up_cmd

    engine = Replay(project, "ok.jsonl")
    original = up_cmd.run  # with a replaying engine: the real one needs the Pulumi CLI
    monkeypatch.setattr(up_cmd, "run", lambda *a, **k: original(*a, **k, engine=engine))
    result = run("up", "-s", "train", "--project-dir", str(project), "--", "--parallel", "3", "-t", "urn:a", "--yes")
    assert result.exit_code == 0, result.output
    assert engine.calls[0][2] == {"parallel": 3, "target": ["urn:a"]}
    assert result.output.splitlines()[-1] == "deployed"
    one_error_line(run("up", "-s", "train", "--project-dir", str(project), "--", "--bogus"), "--bogus cannot be passed")


def test_up_without_the_pulumi_cli_says_so_in_one_line(project: Path, monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    one_error_line(run("up", "-s", "train", "--project-dir", str(project)), "Pulumi CLI", code=1)


@pytest.mark.parametrize(
    ("stack", "field"),
    [
        pytest.param("nosuch", "Pulumi.nosuch.yaml: no such stack file", id="no-stack-file"),
        pytest.param("bad", "trainstack:cluster.nodes: -1 is too small", id="bad-field"),
    ],
)
def test_up_refuses_a_bad_stack_before_looking_for_the_pulumi_cli(project: Path, monkeypatch, stack, field) -> None:
    """Bad input is exit 2 naming the field, as `run` and `status` (new-user pass 2, finding 9)."""
    monkeypatch.setattr(shutil, "which", lambda name: None)
    good = (project / "stacks" / "Pulumi.train.yaml").read_text()
    (project / "stacks" / "Pulumi.bad.yaml").write_text(re.sub(r"(?m)^    nodes: \d+$", "    nodes: -1", good))
    one_error_line(run("up", "-s", stack, "--project-dir", str(project)), field, code=2)
