"""Shared fixtures: the committed catalog for every test, one Pulumi mocks fixture (the same
mocks `trainstack plan` uses) and a cluster-config factory."""

from __future__ import annotations

import functools
import gc
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import typer.main
import typer.testing

from profiles.catalog import loader

if TYPE_CHECKING:
    from clouds.contract import ClusterConfig
    from trainstack.plan.mocks import TrainstackMocks

# Pulumi, pydantic and the cluster models are imported by the fixtures that use them (and by the
# test modules at collection), not here: the xdist controller, which runs no test, imports this
# file and its plugins too (Pulumi and pydantic: about 0.25 s of CPU there).

# moto_session / fresh_moto_session (moto's in-process AWS) for every test module that asks;
# one plan per distinct stack in a session (tests.shared_runs)
pytest_plugins = ("tests.aws_live", "tests.shared_runs")

ROOT = Path(__file__).resolve().parents[1]
CATALOG = Path("profiles", "catalog", "data")
# One OpenMP thread per test process (read when torch is first imported, so set before any test
# module imports it): the suite runs one process per core (`pytest -n 2`), and torch's default of
# one thread per core then oversubscribes them; its spinning threads made a tiny CPU training
# step up to 30x slower on 2 shared cores (tests/bench/test_train.py). Children inherit it.
os.environ.setdefault("OMP_NUM_THREADS", "1")
# The suite's clock (`clouds.clock.now`): a fixed moment, so a dated input (a Capacity Block's
# `ends`) means the same whatever day the suite runs. Children inherit it.
os.environ.setdefault("TRAINSTACK_NOW", "2026-12-04T12:00:00Z")
# Bytecode caches (the git-ignored __pycache__/) are written even where PYTHONDONTWRITEBYTECODE is
# set (as in many containers): without them each xdist worker compiles and assertion-rewrites
# every test module again (about 9 s of CPU a worker, 3.5 s with them) and every child
# interpreter a test starts compiles the project's modules anew. Children inherit it.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# The cycle collector, from here on (collection imports every test module and cloud SDK: with
# CPython's default first threshold of 700 it ran about 1,000 young collections a worker there)
# and during the tests: see `pytest_collection_finish`.
COLLECTOR_THRESHOLDS = (50_000, 20, 1_000_000)
gc.set_threshold(*COLLECTOR_THRESHOLDS)
# typer's CliRunner builds the click command from the typer app on every in-process run (every
# command's signature, types and help: ~10 ms of CPU, ~500 runs). The console script builds it
# once per process (one command per process), so the suite keeps each app's one build too.
typer.testing._get_command = functools.cache(typer.main.get_command)


# Test modules that one xdist worker runs together, group by group (`pytest_xdist_make_scheduler`),
# so that the other worker never pays what they share:
LAST = "elastic"  # the group handed out after every other unit
ONE_WORKER = {
    # torch imported in process (about 1.7 s of CPU)
    "torch": (
        "tests/bench/test_remote.py",
        "tests/bench/test_train.py",
    ),
    # the elastic run's checks, handed out last: its story runs in the background from the first
    # test (tests/nodeagent/elastic_story.py), so by then it has ended and they only read it;
    # the netns tests after them, never in parallel with the story (a new network reaps killed
    # owners' networks, which test_netns checks)
    LAST: (
        "tests/nodeagent/test_elastic_run.py",
        "tests/nodeagent/test_netns.py",
    ),
    # moto's EC2: its first call in a process loads its instance data (about 1.4 s of CPU), and
    # each region's zone offerings ~0.4 s; importing moto ~0.4 s, its SageMaker ~0.3 s
    "moto": (
        "tests/bench/test_remote_aws.py",
        "tests/cli/test_live_cli.py",
        "tests/components/aws/test_hyperpod_provider.py",
        "tests/nodeagent/test_fill.py",
        "tests/nodeagent/test_node_secrets.py",
        "tests/profiles/test_fetch_aws.py",
        "tests/profiles/test_preflight.py",
        "tests/profiles/test_preflight_reservation.py",
        "tests/profiles/test_refresh.py",
        "tests/trainstack/run/test_sagemaker_run.py",
        "tests/trainstack/run/test_vm_run.py",
        "tests/trainstack/status/test_hyperpod_status.py",
        "tests/trainstack/status/test_status.py",
    ),
    # `plan --against`: its children are forked from one pre-imported interpreter per test process
    # (tests/ref_zygote.py; about 0.5 s of CPU to start, then each stack's SDK loaded once)
    "against": (
        "tests/cli/test_china_examples.py",
        "tests/cli/test_group_migration.py",
        "tests/cli/test_review_cli.py",
        "tests/test_ref_zygote.py",
        "tests/trainstack/test_ref_program.py",
    ),
    # matplotlib imported and its first chart drawn (about 0.6 s of CPU); the tests that draw
    # one live in these modules (`--plot` refusals elsewhere never import it)
    "matplotlib": (
        "tests/bench/test_report.py",
        "tests/cli/test_resolve_cli.py",
        "tests/profiles/test_plot_rows.py",
    ),
    # hypothesis imported and its first test run (tests/fuzz/contract.py: about 0.5 s of CPU)
    "hypothesis": ("tests/fuzz/test_contract.py",),
    # the Alibaba Cloud ECS SDK, imported by the fetcher's first call (about 0.45 s of CPU)
    "alibaba-sdk": ("tests/profiles/fetchers/test_alicloud_fetcher.py",),
    # every project source file scanned once for its imports and literals (tests/source_scan.py)
    "sources": (
        "tests/clouds/test_cloud_names.py",
        "tests/policies/test_pack_dependencies.py",
        "tests/test_layers.py",
        "tests/test_layout.py",
    ),
    # every committed stack's rendered bootstraps (tests/clouds/rendered.py: 24 plans, cached per process)
    "rendered": (
        "tests/clouds/test_bootstrap_limits.py",
        "tests/clouds/test_bootstrap_tools.py",
        "tests/clouds/test_job_runtime.py",
        "tests/clouds/test_job_secrets.py",
    ),
}
_GROUP_OF = {path: group for group, paths in ONE_WORKER.items() for path in paths}


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: unknown when xdist is off (`make mutate`)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`-n N` (xdist's `load`): every test is its own unit, spread over the workers as they
    ask, except the modules of a `ONE_WORKER` group, which are one unit; xdist sends the
    largest units first, and the `LAST` group after all others (checked at each hand-out, the
    first ones included). Test ids are unchanged (xdist's
    own `loadgroup` appends `@group` to them, which `pytest ID` cannot run again). A finished
    unit is dropped from its worker's books: xdist's scope scheduler recounts them all after
    each test, seconds of the controller's CPU over ~4,000 units. Any other `--dist`: xdist's.

    A worker left with at most 2 pending tests gets the queue's next units in one message, up
    to `_batch` tests (xdist's scope scheduler sends one unit a message: with single-test units
    that was one message, and one wake-up of the worker's receiving thread, per test), fewer as
    the queue empties so that the workers still end together; each test's index in a worker's
    collection is looked up in a dict (xdist searched the list of ~4,600 ids per test)."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        def __init__(self, config: pytest.Config, log: Any = None) -> None:
            super().__init__(config, log)
            self._positions: dict[Any, dict[str, int]] = {}  # per worker: test id -> its index

        def _split_scope(self, nodeid: str) -> str:
            return _GROUP_OF.get(nodeid.split("::", 1)[0], nodeid)

        def _batch(self) -> int:
            """Tests to send at once: an eighth of the units left per worker, 1 to 16."""
            return max(1, min(16, len(self.workqueue) // (8 * max(1, len(self.nodes)))))

        def _assign_work_unit(self, node: Any) -> None:
            positions = self._positions.get(node)
            if positions is None:
                positions = {nodeid: i for i, nodeid in enumerate(self.registered_collections[node])}
                self._positions[node] = positions
            assigned = self.assigned_work.setdefault(node, {})
            indexes: list[int] = []
            wanted = self._batch()
            while self.workqueue and len(indexes) < wanted:
                if LAST in self.workqueue and len(self.workqueue) > 1:
                    self.workqueue.move_to_end(LAST)
                scope, unit = self.workqueue.popitem(last=False)
                assigned[scope] = unit
                indexes.extend(positions[nodeid] for nodeid, completed in unit.items() if not completed)
            node.send_runtest_some(indexes)

        def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
            super().mark_test_complete(node, item_index, duration)
            scope = self._split_scope(self.registered_collections[node][item_index])
            work = self.assigned_work.get(node, {})
            if scope in work and all(work[scope].values()):
                del work[scope]

    return ByGroup(config, log)


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> None:
    """On a first run the xdist workers share the rewriting of the test modules' asserts
    (`tests.rewrite_cache`), then collect as usual."""
    from tests.rewrite_cache import warm_this_worker

    warm_this_worker(session.config)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Keep the cycle collector off the modules and fixtures loaded so far, and let it run less often.

    After collection a worker holds every cloud SDK and Pulumi: millions of long-lived objects
    that each full collection walked again (a mock plan's many short-lived Outputs trigger
    one every few hundred ms). `gc.freeze` moves them out of the collector's generations.
    `COLLECTOR_THRESHOLDS`: young collections every 50,000 net new objects instead of 700, and
    no automatic full collections (their third threshold is never reached): the cyclic garbage
    of a test (Pulumi's futures and tasks, exceptions and their frames) is freed by the young
    and middle collections it lives through, while a full one walked everything a session
    loaded after this point (SDK modules imported lazily, shared plans, caches), about 0.3 s
    each. What becomes garbage only after two collections waits for the one at the end of the
    session (`pytest_sessionfinish`); a worker's peak memory did not grow (tests/components,
    tests/profiles and two CLI files: 831 MiB before, 815 MiB after). Collector time there
    fell from 13.3 s to 6.2 s of CPU, measured with `gc.callbacks`. No collection before the
    freeze: it walked the whole heap (about 1 s of CPU a worker) for the little cyclic garbage
    that importing leaves, which stays frozen instead.
    """
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """One full collection at the end, then none: pytest's unraisable-exception check collects
    twice more (at cleanup and unconfigure) over every object the session still holds (about a
    million once the cloud SDKs are imported; ~0.9 s of CPU each). Collecting here, after the
    session fixtures' teardown and with pytest's hook still installed, reports the same
    exceptions; freezing the survivors leaves the later passes nothing to walk.

    Also: hypothesis's pytest plugin imports the whole of hypothesis in its terminal summary
    (about 1 s of CPU, at the very end of the run) even in the xdist controller, which never
    ran a test; when hypothesis was not imported here and no report carries its statistics or
    failing examples, there is nothing for it to print, and it is left out of the summary."""
    gc.collect()
    gc.freeze()
    _skip_empty_hypothesis_summary(session.config)


def _skip_empty_hypothesis_summary(config: pytest.Config) -> None:
    plugin = config.pluginmanager.get_plugin("hypothesispytest")
    if plugin is None or "hypothesis" in sys.modules or config.getoption("hypothesis_show_statistics", False):
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    keys = (
        getattr(plugin, "STATS_KEY", "_hypothesis_stats"),
        getattr(plugin, "FAILING_EXAMPLES_KEY", "_hypothesis_failing_examples"),
    )
    reports = [r for found in getattr(reporter, "stats", {}).values() for r in found]
    if not any(key in getattr(r, "__dict__", {}) for r in reports for key in keys):
        config.pluginmanager.unregister(plugin)


@pytest.fixture(scope="session", autouse=True)
def _no_source_positions() -> Iterator[None]:
    """Component tests register resources under mocks too, as `trainstack plan` does: skip the
    Pulumi SDK's stack trace per resource there as well (`no_source_positions`; under pytest's
    deep stack it was about a fifth of a component build's CPU; no mock reads it), and the
    alias URNs it derives for a monitor without alias specs (`no_alias_urns`; about four
    fifths of an Azure build's; the mocks take alias specs)."""
    from trainstack.plan.recording import no_alias_urns, no_source_positions

    with no_source_positions(), no_alias_urns():
        yield


@pytest.fixture(scope="session", autouse=True)
def committed_catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point every test at a copy of the catalog as committed at HEAD, not the working one.

    A user's recorded rate or `catalog refresh` changes `profiles/catalog/data`; the suite
    must not depend on it. The copy sits at the same depth under its own root
    (`<root>/profiles/catalog/data`, with `<root>/stacks` linked to the project's), since
    tests find the project root as `DATA_DIR.parents[2]`. Every module-level `DATA_DIR`
    (`loader`, `build`, `refresh`, test modules that imported it) is redirected for the
    session; the code reads its default folder at call time. Runs once per xdist worker.
    """
    original = loader.DATA_DIR
    root = tmp_path_factory.mktemp("committed")
    copy = root / CATALOG
    _write_committed_catalog(original, copy)
    try:
        (root / "stacks").symlink_to(ROOT / "stacks", target_is_directory=True)
    except OSError:  # no symlinks (Windows without the privilege)
        shutil.copytree(ROOT / "stacks", root / "stacks")
    with pytest.MonkeyPatch.context() as patch:
        for module in _project_modules_with("DATA_DIR"):
            if module.DATA_DIR == original:
                patch.setattr(module, "DATA_DIR", copy)
        yield copy


def _write_committed_catalog(working: Path, into: Path) -> None:
    """Write HEAD's tracked catalog files into `into`; copy the `working` ones when git or
    a commit is not there (an installed tarball)."""
    names = _git("ls-tree", "-r", "-z", "--name-only", "HEAD", "--", CATALOG.as_posix())
    files = {name: _git("cat-file", "blob", f"HEAD:./{name}") for name in (names or b"").decode().split("\0") if name}
    if not files or None in files.values():
        shutil.copytree(working, into, ignore=shutil.ignore_patterns("snapshots"))
        return
    for name, content in files.items():
        target = into / Path(name).relative_to(CATALOG)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    # The working catalog's compact copies (`profiles.catalog.compact`), so a worker's first load
    # reads them instead of parsing every CSV: each is keyed by its CSV's content and rates, so one
    # that does not match HEAD's file is ignored and rewritten, as for any edited file.
    if (working / "__pycache__").is_dir():
        shutil.copytree(working / "__pycache__", into / "__pycache__", dirs_exist_ok=True)


def _git(*args: str) -> bytes | None:
    """stdout of `git ARGS` run in the project root; None when git is missing or fails."""
    if shutil.which("git") is None:
        return None
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, check=False)
    return done.stdout if done.returncode == 0 else None


def _project_modules_with(attribute: str) -> list:
    """Imported modules from this project's files (packages and test modules) that define
    `attribute`. The attribute is checked before the path: resolving the path of every loaded
    module took about 0.5 s CPU per session, which `make mutate` paid once per mutant."""
    venv = Path(sys.prefix).resolve()
    modules = []
    for module in list(sys.modules.values()):
        if attribute not in getattr(module, "__dict__", {}):
            continue
        path = Path(getattr(module, "__file__", None) or "/").resolve()
        if path.is_relative_to(ROOT) and not path.is_relative_to(venv):
            modules.append(module)
    return modules


@pytest.fixture(autouse=True)
def fresh_test_state() -> Iterator[None]:
    """Each test starts with:

    - the cost model as the code defines it: its memo caches empty (a mutation run, `make
      mutate`, forks each mutant from a process whose earlier test run filled them, and a cached
      answer would hide the mutant) and no measurement lookup left registered by an earlier test
      (an in-process `trainstack resolve` registers the published ones);
    - output widths as a pipe without `COLUMNS` gives them: the CLI honours `COLUMNS`
      (`trainstack.render.console`), and pytest-xdist workers run with `COLUMNS=80`; it is put
      back after the test. A test of a width sets it itself (with `monkeypatch`, undone before
      this fixture's end). Not the `monkeypatch` fixture, which would be set up for every test:
      `tests.shared_runs.sharing_now` reads that one.

    One fixture, not two: each function-scoped fixture costs pytest ~30 us a test to set up and
    tear down (about 4,600 tests)."""
    from profiles import matching
    from profiles.cost import inputs, storage
    from profiles.data_path import terms as data_terms

    for cached in (
        storage.storage_cost,
        matching._fs_problem,
        matching._link_problem,
        data_terms._storage,
        data_terms.throughput_notes,
        data_terms._rates,
    ):
        cached.cache_clear()
    inputs.clear_measurements()
    columns = os.environ.pop("COLUMNS", None)
    try:
        yield
    finally:
        if columns is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = columns


@pytest.fixture
def mocks() -> TrainstackMocks:
    """Install `TrainstackMocks` as the Pulumi engine for one test."""
    import pulumi

    from trainstack.plan.mocks import TrainstackMocks

    mocks = TrainstackMocks(region="us-east-1")
    pulumi.runtime.set_mocks(mocks, project="trainstack", stack="test", preview=False)
    return mocks


@pytest.fixture
def make_config() -> Callable[..., ClusterConfig]:
    """Factory: `make_config(nodes=4, purchase="on-demand")` -> a validated ClusterConfig."""

    from clouds.contract import ClusterConfig
    from tests.clusters import BASE_CLUSTER

    def make(**overrides: Any) -> ClusterConfig:
        return ClusterConfig.model_validate({**BASE_CLUSTER, **overrides})

    return make
