"""The command line's conventions: `--version`, `-h` everywhere, `-` for standard input,
help that wraps where the terminal does with values (not Python types) and the exit statuses."""

import json
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from tests.cli.helpers import WORKLOAD, run
from trainstack.cli.app import app
from trainstack.cli.help_style import EXIT_STATUS, tidy, unwrap


def _command_paths() -> list[list[str]]:
    group = typer.main.get_command(app)
    paths: list[list[str]] = [[]]

    def walk(command, path):
        for name, sub in getattr(command, "commands", {}).items():
            paths.append([*path, name])
            walk(sub, [*path, name])

    walk(group, [])
    return paths


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and result.stdout.startswith("trainstack ") and result.stdout.split()[1][0].isdigit()


@pytest.mark.parametrize("path", _command_paths(), ids=lambda p: " ".join(p) or "trainstack")
def test_every_help_takes_h_shows_values_and_the_exit_statuses(path):
    result = CliRunner().invoke(app, [*path, "-h"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert EXIT_STATUS in text
    assert "<bool>" not in text and "<str>" not in text and "<int>" not in text and "<path>" not in text
    assert "<list" not in text
    usage = next(line for line in result.stdout.splitlines() if "Usage:" in line)
    assert "...}" not in usage and "...]" not in usage  # `{RUNS}...`, not `{RUNS...}...`


def test_later_paragraphs_wrap_where_the_terminal_does():
    result = CliRunner().invoke(app, ["check", "--help"], env={"COLUMNS": "400"})
    # the docstring breaks this sentence after "then"; a 400-column help keeps it on one line
    line = next(ln for ln in result.stdout.splitlines() if "The stack is validated" in ln)
    assert "then the live checks run" in line


def test_unwrap_keeps_lists_and_marked_paragraphs():
    assert unwrap("One\n    two.\n\nThree\nfour.") == "One two.\n\nThree four."
    assert unwrap("Steps:\n\n- a\n- b") == "Steps:\n\n- a\n- b"
    assert unwrap("\bkept\nas is") == "\bkept\nas is"


def test_tidy_gives_values_not_types():
    group = typer.main.get_command(app)
    tidy(group)
    resolve = group.commands["resolve"]
    shown = {p.name: p.metavar for p in resolve.params}
    assert shown["top"] == "N" and shown["plot"] == "PATH" and shown["write_stack"] == "NAME" and shown["as_json"] == ""


def test_plot_help_names_every_format_the_docs_give():
    text = " ".join(CliRunner().invoke(app, ["resolve", "--help"], env={"COLUMNS": "400"}).stdout.split())
    assert ".png, .svg or .pdf" in text


def test_resolve_reads_standard_input():
    piped = CliRunner().invoke(app, ["resolve", "-", "--json", "--top", "1"], input=WORKLOAD.read_text())
    named = run("resolve", str(WORKLOAD), "--json", "--top", "1")
    assert piped.exit_code == 0, piped.output
    assert json.loads(piped.stdout)["choice"] == json.loads(named.stdout)["choice"]


def test_standard_input_errors_name_it():
    result = CliRunner().invoke(app, ["resolve", "-"], input="accelerators: [A100:8]\nhours: 3 fortnights\n")
    assert result.exit_code == 2 and result.stderr.startswith("error: <stdin>: hours: unknown duration unit")


@pytest.mark.parametrize(
    ("args", "named"),
    [
        pytest.param(["bench", "report", "-", "-"], "RUNS (2 times)", id="report-runs"),
        pytest.param(["bench", "report", "-", "--workload", "-"], "RUNS and --workload", id="report-workload"),
        pytest.param(["bench", "import", "-", "-"], "RESULTS (2 times)", id="import"),
        pytest.param(["bench", "parse", "-", "-"], "FILES (2 times)", id="parse"),
    ],
)
def test_standard_input_given_twice_is_refused_naming_the_arguments(args, named):
    # the second reader would find standard input empty and blame the input ("not JSON")
    result = CliRunner().invoke(app, args, input="{}\n")
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: {named}: `-` (standard input) can be read once; give the others as files\n"


@pytest.mark.parametrize(
    "args",
    [
        ["plan", "-s", "-"],
        ["check", "-s", "-"],
        ["run", "-s", "-"],
        ["status", "-s", "-"],
        ["resolve", str(WORKLOAD), "--write-stack", "-"],
    ],
    ids=lambda args: args[0],
)
def test_a_stack_is_named_not_standard_input_or_output(args):
    # `-` reads standard input where a file is read; `-s` and `--write-stack` take a stack's name
    result = CliRunner().invoke(app, args, input="config: {}\n")
    assert result.exit_code == 2, result.output
    assert "a stack is a name (stacks/Pulumi.NAME.yaml; cloud resource names derive from it), not standard input" in (
        result.stderr
    )


def _file_inputs() -> list:
    """(command path, parameter) of every argument or option that reads a file: a `Path` the
    command reads (not a folder it is told about, nor one it writes)."""
    written = {"plot", "output", "out", "project", "data_dir"}
    found = []
    for path in _command_paths():
        command = typer.main.get_command(app)
        for name in path:
            command = command.commands[name]
        for param in getattr(command, "params", ()):
            kind = getattr(param, "type_descriptor", None)
            paths = kind is not None and (kind.is_path or Path in getattr(kind.annotation, "__args__", ()))
            if paths and param.name not in written:
                found.append(pytest.param(command, param, id=f"{' '.join(path)} {param.name}"))
    return found


@pytest.mark.parametrize(("command", "param"), _file_inputs())
def test_every_file_a_command_reads_says_that_dash_reads_standard_input(command, param):
    assert "- reads standard input" in (param.help or ""), f"{command.name} {param.name}: {param.help}"
