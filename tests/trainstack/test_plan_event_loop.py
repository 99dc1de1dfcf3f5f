"""`plan_event_loop`: a failed plan leaves no unread futures for asyncio to report later."""

import asyncio
import gc
import logging
import threading

import pytest

from tests.components.test_plan import write_stack
from trainstack.plan.event_loop import plan_event_loop
from trainstack.plan.mocks import TrainstackMocks
from trainstack.plan.runner import PlanError, run_plan


def failed_plan(stack, project):
    """The `PlanError` message, with nothing of the failed run kept (its traceback included)."""
    try:
        run_plan(stack, project)
    except PlanError as exc:
        return str(exc)
    raise AssertionError(f"{stack} planned")


def asyncio_reports(caplog):
    return [r.getMessage().splitlines()[0] for r in caplog.records if r.name == "asyncio"]


def unread_failures_of(stack):
    """Futures still alive whose exception, about one of `stack`'s resources, nobody read
    (survivors of a collection of the young generations are in the oldest)."""
    unread = [
        o for o in gc.get_objects(generation=2) if issubclass(type(o), asyncio.Future) and o.done() and o._log_traceback
    ]
    return [o for o in unread if f"'{stack}-" in str(o.exception())]


def moved_to_another_zone(monkeypatch):
    """The mocks answer the subnet lookup from another zone than the cluster's."""
    original = TrainstackMocks.call

    def elsewhere(self, args):
        answer, failures = original(self, args)
        return ({**answer, "availabilityZoneId": "use1-az1"} if args.token.endswith("getSubnet") else answer), failures

    monkeypatch.setattr(TrainstackMocks, "call", elsewhere)


# Both checks run on the looked-up subnet, inside an apply: every Output downstream of it fails
# too. On a loop that lived on, with its thread pool, about 400 of those failed futures stayed
# alive, and were reported whenever they were freed.
@pytest.mark.parametrize(
    ("overrides", "elsewhere", "expected"),
    [
        pytest.param({"nodes": 63}, False, "subnet_id: the subnet 10.20.0.0/24 has 251 usable", id="too-small"),
        pytest.param({}, True, "subnet_id: subnet-0abc is in zone use1-az1, not the cluster's", id="other-zone"),
    ],
)
def test_a_plan_failing_inside_an_apply_leaves_nothing_behind(
    tmp_path, caplog, monkeypatch, overrides, elsewhere, expected
):
    write_stack(tmp_path, "bad", subnet_id="subnet-0abc", **overrides)
    write_stack(tmp_path, "good")
    if elsewhere:
        moved_to_another_zone(monkeypatch)
    caplog.set_level(logging.ERROR, logger="asyncio")
    before = asyncio.get_event_loop()

    message = failed_plan("bad", tmp_path)
    gc.collect(1)  # the plan ran with the collector paused: what it made is young

    assert expected in message
    assert unread_failures_of("bad") == []
    assert asyncio_reports(caplog) == []
    assert asyncio.get_event_loop() is before
    plan = run_plan("good", tmp_path)  # on a fresh loop: the failed plan's one is closed
    assert [r["name"] for r in plan.resources if r["parent"] is None] == ["good"]


def test_a_block_that_raises_drops_its_unread_futures_and_closes_the_loop(caplog):
    caplog.set_level(logging.ERROR, logger="asyncio")
    with pytest.raises(ValueError, match="the plan's own error"), plan_event_loop() as loop:
        unread = loop.create_future()
        unread.set_exception(ValueError("downstream"))
        del unread
        raise ValueError("the plan's own error")

    assert asyncio_reports(caplog) == []
    assert loop.is_closed()


def test_a_block_that_succeeds_still_reports_an_unread_future(caplog):
    caplog.set_level(logging.ERROR, logger="asyncio")
    with plan_event_loop() as loop:
        unread = loop.create_future()
        unread.set_exception(ValueError("nobody read me"))
        del unread
        assert asyncio_reports(caplog) == []  # held while the plan runs

    assert asyncio_reports(caplog) == ["Future exception was never retrieved"]
    assert not loop.is_closed()
    with plan_event_loop() as again:
        assert again is loop  # reused by the next plan


def test_inside_a_running_loop_the_block_runs_on_it():
    async def main():
        with plan_event_loop() as loop:
            return loop is asyncio.get_running_loop()

    assert asyncio.run(main())


def test_in_a_thread_without_a_loop_the_block_runs_on_its_own_and_leaves_none():
    seen = {}

    def plan() -> None:
        with plan_event_loop() as loop:
            seen["current"] = asyncio.get_event_loop() is loop
        try:
            asyncio.get_event_loop()
        except RuntimeError:
            seen["after"] = None
        else:
            seen["after"] = "a loop"

    thread = threading.Thread(target=plan)
    thread.start()
    thread.join(timeout=10)

    assert seen == {"current": True, "after": None}
