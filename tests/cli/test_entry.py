"""The console script: `resolve` runs without typer; everything else goes through typer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from trainstack.entry import parse_resolve

ROOT = Path(__file__).resolve().parents[2]
WORKLOAD = ROOT / "profiles" / "workloads" / "training-a100.yaml"


@pytest.mark.parametrize(
    ("args", "parsed"),
    [
        pytest.param(["w.yaml"], {"workload": Path("w.yaml")}, id="plain"),
        pytest.param(
            ["w.yaml", "--json", "--top", "3"], {"workload": Path("w.yaml"), "as_json": True, "top": 3}, id="json-top"
        ),
        pytest.param(
            ["--top=2", "w.yaml", "--write-stack", "x", "--force"],
            {"workload": Path("w.yaml"), "top": 2, "write_stack": "x", "force": True},
            id="equals-and-write",
        ),
        pytest.param(
            ["w.yaml", "--plot", "c.png", "--project-dir", "infra"],
            {"workload": Path("w.yaml"), "plot": Path("c.png"), "project": Path("infra")},
            id="paths",
        ),
        pytest.param(["w.yaml", "--live"], {"workload": Path("w.yaml"), "live": True}, id="live"),
    ],
)
def test_plain_resolve_command_lines_are_parsed_here(args, parsed):
    assert parse_resolve(args) == parsed


@pytest.mark.parametrize(
    "args",
    [
        pytest.param([], id="no-workload"),
        pytest.param(["a.yaml", "b.yaml"], id="two-workloads"),
        pytest.param(["w.yaml", "--help"], id="help"),
        pytest.param(["w.yaml", "--top", "0"], id="top-0"),
        pytest.param(["w.yaml", "--top", "x"], id="top-text"),
        pytest.param(["w.yaml", "--bogus"], id="unknown"),
        pytest.param(["w.yaml", "--top"], id="missing-value"),
        pytest.param(["w.yaml", "--json=1"], id="flag-value"),
        pytest.param(["w.yaml", "--top", "1", "--top", "2"], id="repeated"),
    ],
)
def test_anything_else_is_left_to_typer(args):
    assert parse_resolve(args) is None


# What `resolve` must not import (each costs tens of ms): the CLI framework, the engine and cloud
# SDKs, and pydantic (plain workloads are read by `profiles.spec.reader`).
HEAVY = ("typer", "click", "pulumi", "boto3", "botocore", "rich", "pydantic", "pydantic_core", "annotated_types")
# The stand-in `trainstack.entry._skip_plugin_scan` registers (no pydantic code is loaded with it).
STUB = "pydantic.plugin._loader"
# The bench's workload (`bench/resolve.py`): every cloud's catalog, a file system priced on each.
WHOLE_CATALOG = (ROOT / "tests" / "fixtures" / "workloads" / "wide.yaml").read_text()


def run(*args: str) -> subprocess.CompletedProcess:
    code = (
        "import sys, json; from trainstack.entry import main; rc = main(sys.argv[1:]); "
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r} and m != {STUB!r})), "
        "file=sys.stderr); sys.exit(rc)"
    )
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, check=False)


def test_resolve_json_loads_neither_typer_nor_rich_nor_pulumi_nor_pydantic():
    done = run("resolve", str(WORKLOAD), "--json", "--top", "2")
    assert done.returncode == 0, done.stderr
    assert '"choice"' in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "[]"


def test_resolving_the_whole_catalog_as_a_table_loads_rich_but_no_pydantic(tmp_path):
    """The table needs rich; the spec (spot, a file system sized on every cloud) needs no pydantic."""
    path = tmp_path / "w.yaml"
    path.write_text(WHOLE_CATALOG)
    done = run("resolve", str(path))
    assert done.returncode == 0, done.stderr
    assert "cheapest job of" in done.stdout
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    assert loaded and [m for m in loaded if m.split(".")[0] != "rich"] == []


# The tests below call `main` with argv in this process (the checks of what a fresh process
# imports, and of the console script's own ending, start one above and below).
def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`main(args)` here: its status (a SystemExit's code too), stdout and stderr."""
    from trainstack.entry import main

    try:
        status = main(list(args))
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err


def test_the_fast_path_answers_like_the_typer_command(capsys):
    from typer.testing import CliRunner

    from trainstack.cli.app import app

    status, fast, _ = _main(capsys, "resolve", str(WORKLOAD), "--json", "--top", "3")
    typed = CliRunner().invoke(app, ["resolve", str(WORKLOAD), "--json", "--top", "3"]).stdout
    assert status == 0 and '"choice"' in fast and fast == typed


def test_errors_on_the_fast_path_are_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "w.yaml"
    bad.write_text("accelerators: [A100:8]\nhours: 72h\nnodes: 0\n")
    status, _, err = _main(capsys, "resolve", str(bad))
    assert status == 2
    assert err.splitlines()[0].startswith("error: ") and "nodes: 0 is too small" in err


def test_help_and_usage_errors_still_come_from_typer(capsys):
    status, out, _ = _main(capsys, "resolve", "--help")
    assert status == 0 and "Pick the cheapest offering" in out
    status, _, err = _main(capsys, "resolve", str(WORKLOAD), "--top", "0")
    assert status == 2 and err.startswith("error: Invalid value for '--top'")
    assert _main(capsys, "plan", "--help")[0] == 0


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path):
    wide = tmp_path / "wide.yaml"  # hundreds of rows: more JSON than a pipe buffers
    wide.write_text("accelerators: [A100:8, A100-80GB:8, H100:8]\nhours: 72h\n")
    code = "from trainstack.entry import main; import sys; sys.exit(main(sys.argv[1:]))"
    reader = subprocess.Popen(
        [sys.executable, "-c", code, "resolve", str(wide), "--json", "--top", "1000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    reader.stdout.read(10)
    reader.stdout.close()  # like `| head -c 10`
    stderr = reader.stderr.read().decode()
    reader.wait(timeout=60)
    assert "Traceback" not in stderr


@pytest.mark.parametrize("enabled", [True, False], ids=["collector-on", "collector-off"])
def test_a_caller_passing_argv_gets_the_cycle_collector_back_as_it_was(enabled, capsys):
    import gc

    from trainstack.entry import main

    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        assert main(["resolve", str(WORKLOAD), "--json", "--top", "1"]) == 0
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert '"choice"' in capsys.readouterr().out


def test_the_console_script_ends_at_once_with_all_its_output(tmp_path):
    """As the console script (no argv), a successful `resolve` ends without the interpreter's
    teardown (`entry._end_now`): every byte of a long answer reaches the pipe, the stack file
    is whole, the warnings are on stderr, the status is 0."""
    wide = tmp_path / "wide.yaml"  # hundreds of rows: more JSON than a pipe buffers
    wide.write_text("accelerators: [A100:8, A100-80GB:8, H100:8]\nhours: 72h\n")
    (tmp_path / "stacks").mkdir()
    (tmp_path / "Pulumi.yaml").write_text((ROOT / "Pulumi.yaml").read_text())
    code = "import sys; from trainstack.entry import main; sys.exit(main())"
    args = ["resolve", str(wide), "--json", "--top", "1000", "--write-stack", "wide", "--project-dir", str(tmp_path)]
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert len(answer["alternatives"]) > 100
    assert "warning: aws prices are of unknown date" in done.stderr
    stack = (tmp_path / "stacks" / "Pulumi.wide.yaml").read_text()
    assert stack.endswith("\n") and f"instance_type: {answer['choice']['instance_type']}" in stack
