"""The modules `tests/conftest.py` keeps on one xdist worker exist under those names (a rename
would silently spread them again), and the scheduler's units are those groups and single tests."""

from pathlib import Path
from types import SimpleNamespace

from xdist.remote import Producer

from tests.conftest import _GROUP_OF, LAST, ONE_WORKER, pytest_xdist_make_scheduler

ROOT = Path(__file__).resolve().parents[1]


def test_every_grouped_module_exists_and_is_in_one_group():
    paths = [path for group in ONE_WORKER.values() for path in group]
    assert [p for p in paths if not (ROOT / p).is_file()] == []
    assert len(paths) == len(set(paths)) == len(_GROUP_OF)


class _Config:
    """What xdist's scope scheduler reads of the config under `-n 2`."""

    option = SimpleNamespace(loadscopereorder=True)

    def getvalue(self, name: str) -> object:
        return {"dist": "load", "tx": ["2*popen"]}[name]


class _Worker:
    """A worker as the scheduler sees it: the messages it was sent."""

    def __init__(self) -> None:
        self.sent: list[list[int]] = []
        self.shutting_down = False
        self.gateway = SimpleNamespace(id=f"gw{id(self)}")

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.sent.append(indexes)

    def shutdown(self) -> None:
        self.shutting_down = True


def test_scheduler_sends_every_test_once_in_batches_and_keeps_groups_on_one_worker():
    singles = [f"tests/test_{n // 10}.py::test_{n}" for n in range(300)]
    groups = {
        name: [f"{path}::test_{n}" for path in ONE_WORKER[name] for n in range(size)]
        for name, size in (("moto", 3), ("torch", 6), (LAST, 4))
    }
    collection = singles + [test for tests in groups.values() for test in tests]
    scheduler = pytest_xdist_make_scheduler(_Config(), Producer("dsession", enabled=False))
    workers = [_Worker(), _Worker()]
    for worker in workers:
        scheduler.add_node(worker)
    for worker in workers:
        scheduler.add_node_collection(worker, collection)
    scheduler.schedule()
    done = {id(w): 0 for w in workers}
    while not scheduler.tests_finished:  # the worker behind finishes its next test
        worker = min((w for w in workers if _count(w) > done[id(w)]), key=lambda w: done[id(w)])
        index = [i for batch in worker.sent for i in batch][done[id(worker)]]
        done[id(worker)] += 1
        scheduler.mark_test_complete(worker, index)
    runs = [[collection[i] for batch in w.sent for i in batch] for w in workers]
    assert sorted(runs[0] + runs[1]) == sorted(collection)
    assert all(set(tests) <= set(run) or not set(tests) & set(run) for tests in groups.values() for run in runs)
    assert any(run[-len(groups[LAST]) :] == groups[LAST] for run in runs)  # after all others
    assert sum(len(w.sent) for w in workers) < len(collection) / 4  # not one message a test
    batches = [len(batch) for w in workers for batch in w.sent]
    assert batches[0] == len(groups["moto"])  # the largest unit first, alone: more than 16 tests
    assert sorted(batches)[-3:-1] == [16, 16]  # otherwise units up to 16 tests a message
    assert batches.count(1) >= 16  # the queue's last single tests go one at a time


def _count(worker: _Worker) -> int:
    return sum(len(batch) for batch in worker.sent)
