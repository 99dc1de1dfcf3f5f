"""A real elastic run: torchrun (gloo, CPU) on namespace hosts through a worker's preemption,
an interruption notice, the loss of the head node, a rebalance recommendation and a job edit
published on the shared directory (`elastic_cases.story`).

The job runs once per test session, in the background from the end of collection (shared by
pytest-xdist's workers through a lock in the session's temporary directory:
`elastic_story.py`); each test checks one event in what it wrote. Bounded: every wait has a
deadline, and the namespaces are deleted whatever happens.
"""

from __future__ import annotations

from importlib.util import find_spec

import pytest

from nodeagent.launcher import NOTICE_EXIT_STATUS
from tests.nodeagent import elastic_story, netns
from tests.nodeagent.elastic_cases import (
    EDITED_AT,
    EDITED_JOB_ID,
    EVERY,
    JOB_ID,
    KILLED_AT,
    NOTICED_AT,
    REBALANCED_AT,
    TOTAL,
    Outcome,
    steps,
)
from tests.nodeagent.metadata_server import AZURE_EVENT_ID

# find_spec, not importorskip: the run imports torch in its own processes, never in this one
NO_TORCH = "the elastic run needs the [torch] extra: pip install -e '.[torch]'"
UNAVAILABLE = NO_TORCH if find_spec("torch") is None else netns.unavailable()
pytestmark = pytest.mark.skipif(UNAVAILABLE is not None, reason=str(UNAVAILABLE))


@pytest.fixture(scope="session")
def story(tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    """The story's outcome: run in the background since collection ended
    (`tests/nodeagent/elastic_story.py`), or by the first test that needs it."""
    outcome = elastic_story.outcome(tmp_path_factory)
    if outcome.error:
        pytest.fail(f"the elastic run stopped: {outcome.error}\n{outcome.logs}")
    return outcome


def _after(outcome: Outcome, mark: str, until: str | None = None) -> list[dict]:
    """The events between two marks."""
    end = outcome.marks[until]["at"] if until else len(outcome.events)
    return outcome.events[outcome.marks[mark]["at"] : end]


def _starts(events: list[dict], host: str) -> list[int]:
    return [e["resume_from"] for e in events if e["event"] == "start" and e["host"] == host]


def test_a_killed_worker_is_replaced_and_training_resumes_from_the_last_checkpoint(story):
    killed = story.marks["killed"]
    assert (killed["step"], killed["checkpoint"]) == (KILLED_AT, 6)  # the newest checkpoint: 6 (every 3)
    assert story.first_exits["b"] == -9 and story.restarts["b"] == 0  # SIGKILL: the host is gone
    phase = _after(story, "killed", until="noticed")
    # the survivor restarts its worker and the replacement joins, both from the last checkpoint
    assert _starts(phase, "a") == _starts(phase, "c") == [killed["checkpoint"]]
    assert {e["world"] for e in phase if e["event"] == "start"} == {2}
    assert killed["step"] - killed["checkpoint"] <= EVERY  # lost: at most one checkpoint interval
    assert steps(phase, "c") == list(range(killed["checkpoint"] + 1, NOTICED_AT + 1))


def test_an_interruption_notice_writes_a_checkpoint_before_the_host_goes(story):
    noticed, gone = story.marks["noticed"], story.marks["c gone"]
    saved = [e for e in _after(story, "noticed") if e["event"] == "checkpoint" and e["host"] == "c"]
    assert [(e["step"], e["reason"]) for e in saved] == [(NOTICED_AT, "sigterm")]  # the step it was at
    assert noticed["time"] < saved[0]["time"] < gone["time"]
    # the node leaves for good: its unit does not start the job again on it
    assert story.first_exits["c"] == NOTICE_EXIT_STATUS and story.restarts["c"] == 0
    # Scheduled Events: the Preempt event is acknowledged once, after the checkpoint
    assert [a["body"] for a in story.acks] == [{"StartRequests": [{"EventId": AZURE_EVENT_ID}]}]
    assert saved[0]["time"] < story.acks[0]["time"] < gone["time"]
    # its replacement resumes from the notice's checkpoint: nothing lost
    assert _starts(_after(story, "c gone", until="edited"), "d") == [NOTICED_AT]


def test_a_replaced_head_keeps_its_address_and_the_job_resumes(story):
    lost, failed = story.marks["head lost"], story.marks["launcher failed"]
    # without the rendezvous store a's torchrun stops (its worker checkpoints) and the launcher fails
    assert story.first_exits["a"] == 1 and story.restarts["a"] == 1
    assert failed["checkpoint"] == NOTICED_AT and lost["step"] - failed["checkpoint"] <= EVERY
    # the new head took the old address and announced it after the loss, on the shared directory
    assert story.announced["text"] == story.head_address + "\n" and story.announced["time"] > failed["time"]
    after = _after(story, "launcher failed")
    assert _starts(after, "a")[:1] == _starts(after, "d")[:1] == [failed["checkpoint"]]  # then the job edit's
    for host in ("a", "d"):
        assert steps(after, host) == list(range(failed["checkpoint"] + 1, TOTAL + 1))
    assert story.last_exits == {"a": 0, "b": -9, "c": NOTICE_EXIT_STATUS, "d": 0}


def test_a_rebalance_recommendation_checkpoints_early_and_no_node_leaves(story):
    after = _after(story, "rebalance", until="edited")
    saved = [(e["step"], e["reason"]) for e in after if e["event"] == "checkpoint"]
    # the early checkpoint of the last finished step, before the next step trains; then the end
    assert saved[0] == (REBALANCED_AT, "requested") and saved.count((REBALANCED_AT, "requested")) == 1
    first_after = next(i for i, e in enumerate(after) if e["event"] == "step")
    assert after.index(next(e for e in after if e.get("reason") == "requested")) < first_after
    # training went on: no worker restarted, both nodes trained every step to the end
    assert [e for e in after if e["event"] == "start"] == []
    for host in ("a", "d"):
        assert steps(after, host) == list(range(REBALANCED_AT + 1, EDITED_AT + 1))
    # a's launcher was not stopped by the advice: it ran to the job's end (its one restart was the head's loss)
    assert story.restarts["a"] == 1 and story.last_exits["a"] == 0


def test_the_job_trains_every_step_and_ends_with_the_last_checkpoint(story):
    assert sorted(set(steps(story.events))) == list(range(1, TOTAL + 1))
    done = [e for e in story.events if e.get("reason") == "done"]
    assert [e["step"] for e in done] == [TOTAL] and story.checkpoint_step == TOTAL


def test_a_published_job_edit_restarts_every_worker_together_on_the_new_id(story):
    before, after = _after(story, "rebalance", until="edited"), _after(story, "edited")
    assert {e["run_id"] for e in story.events if e["event"] == "start" and e["host"] in "ab"} >= {JOB_ID}
    # both workers' scripts were stopped (SIGTERM) at the step they were at and checkpointed it
    saved = sorted((e["host"], e["step"]) for e in after if e["event"] == "checkpoint" and e["reason"] == "sigterm")
    assert saved == [("a", EDITED_AT), ("d", EDITED_AT)]
    # then both started the edited job together, under its new rendezvous id, from that checkpoint
    starts = [e for e in after if e["event"] == "start"]
    assert sorted((e["host"], e["run_id"], e["resume_from"], e["world"]) for e in starts) == [
        ("a", EDITED_JOB_ID, EDITED_AT, 2),
        ("d", EDITED_JOB_ID, EDITED_AT, 2),
    ]
    assert not [e for e in before if e["event"] == "start"]  # nothing restarted before the edit
    for host in ("a", "d"):
        assert steps(after, host) == list(range(EDITED_AT + 1, TOTAL + 1))  # the edit's extra steps
    # the launchers restarted torchrun themselves: no unit restart, no node left
    assert story.restarts["a"] == 1 and story.restarts["d"] == 0 and story.last_exits["d"] == 0
