"""The stack-file module: one reader (repeated keys refused), one validation for plan, check
and the Pulumi program, and fields checked against the catalog with the valid values named."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from clouds.input_file import DuplicateKeyError
from clouds.input_file import parse_yaml as load
from profiles.spec import SpecError, load_spec
from profiles.stack.file import StackFileError, read_cluster, read_config, read_document, stack_path
from tests.cases import cases
from trainstack.cli.app import app
from trainstack.plan.runner import PlanError, run_plan

ROOT = Path(__file__).resolve().parents[2]
SOURCE_ID = re.compile(r"\((?:[A-Z]{1,2}\d{1,2})(?:, [A-Z]{1,2}\d{1,2})*\)")


@pytest.mark.parametrize(
    ("text", "key", "line", "first"),
    [
        pytest.param("a: 1\nb: 2\na: 3\n", "a", 3, 1, id="top-level"),
        pytest.param("x:\n  hours: 1\n  y: 2\n  hours: 2\n", "hours", 4, 2, id="nested"),
        pytest.param("x: {capacity: 1, capacity: 2}\n", "capacity", 1, 1, id="flow-mapping"),
        pytest.param("- {a: 1}\n- {b: 1, b: 2}\n", "b", 2, 2, id="in-a-list"),
    ],
)
def test_a_repeated_key_is_named_with_its_lines(text, key, line, first):
    with pytest.raises(DuplicateKeyError) as err:
        load(text)
    assert (err.value.key, err.value.line, err.value.first_line) == (key, line, first)
    assert f"'{key}'" in str(err.value) and f"line {line}" in str(err.value)


def test_equal_looking_keys_of_different_types_and_merges_are_kept():
    assert load("1: a\n'1': b\n") == {1: "a", "1": "b"}
    assert load("base: &b {x: 1}\nuse:\n  <<: *b\n  y: 2\n") == {"base": {"x": 1}, "use": {"x": 1, "y": 2}}


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("hours: 72h\nnodes: 2\nhours: 720h\n", id="hours-twice"),
        pytest.param("hours: 72h\nfile_system: {capacity: 4800GiB, capacity: 9600GiB}\n", id="nested-capacity"),
    ],
)
def test_workload_with_a_repeated_key_is_refused(tmp_path, body):
    path = tmp_path / "w.yaml"
    path.write_text("name: w\naccelerators: [A100:8]\n" + body)
    with pytest.raises(SpecError, match=r"duplicate key '(hours|capacity)' \(line \d"):
        load_spec(path)


def project(tmp_path: Path, stack: str = "training-a100") -> Path:
    """A copy of the project's program and one committed stack, to edit by hand."""
    shutil.copy(ROOT / "__main__.py", tmp_path / "__main__.py")
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    shutil.copy(ROOT / "stacks" / f"Pulumi.{stack}.yaml", tmp_path / "stacks" / f"Pulumi.{stack}.yaml")
    return tmp_path / "stacks" / f"Pulumi.{stack}.yaml"


def edit(path: Path, region_key: str | None = None, **cluster) -> None:
    document = yaml.safe_load(path.read_text())
    document["config"]["trainstack:cluster"].update(cluster)
    if region_key:
        document["config"][region_key] = cluster["region"]
    path.write_text(yaml.safe_dump(document))


def test_stack_with_a_repeated_key_is_refused_by_every_reader(tmp_path):
    path = project(tmp_path)
    text = path.read_text().replace("    nodes: 2\n", "    nodes: 2\n    hours: 1\n", 1)
    path.write_text(text)
    for read in (read_config, read_cluster):
        with pytest.raises(StackFileError, match=r"duplicate key 'hours' \(line \d+; first on line \d+\)"):
            read(path)
    with pytest.raises(PlanError, match="duplicate key 'hours'"):
        run_plan("training-a100", tmp_path)
    result = CliRunner().invoke(app, ["check", "-s", "training-a100", "--project-dir", str(tmp_path)])
    assert result.exit_code == 2 and "duplicate key 'hours'" in result.output


# (stack, cluster edit, region key to move, words the error must contain, words it must not)
STACK_CASES = cases("stack_checks.yaml", "stack", "change", "region_key", "says", "never")


@pytest.mark.parametrize(("stack", "change", "region_key", "says", "never"), STACK_CASES)
def test_plan_and_check_name_the_real_problem_with_the_valid_values(tmp_path, stack, change, region_key, says, never):
    path = project(tmp_path, stack)
    edit(path, region_key, **change)
    with pytest.raises(PlanError) as err:
        run_plan(stack, tmp_path)
    result = CliRunner().invoke(app, ["check", "-s", stack, "--project-dir", str(tmp_path)])
    for message in (str(err.value), result.output):
        for words in says:
            assert words in message
        for words in never:
            assert words not in message
        assert not SOURCE_ID.search(message)
    assert result.exit_code != 0


def test_the_pulumi_program_itself_refuses_what_plan_refuses(tmp_path):
    """`pulumi up` runs `__main__.py`, which calls the same validation: no catalog-less path."""
    import contextvars
    import json
    import runpy

    import pulumi

    path = project(tmp_path)
    edit(path, accelerator="H100")
    config = yaml.safe_load(path.read_text())["config"]
    values = {k: v if isinstance(v, str) else json.dumps(v) for k, v in config.items()}

    def run_program() -> None:  # in a copied context, so the config does not leak to other tests
        pulumi.runtime.set_all_config(values)
        runpy.run_path(str(tmp_path / "__main__.py"))

    with pytest.raises(ValueError, match="accelerator: 'H100' but p4d.24xlarge carries 8 x A100"):
        contextvars.copy_context().run(run_program)


@pytest.mark.parametrize(
    "stack", sorted(p.name[len("Pulumi.") : -len(".yaml")] for p in (ROOT / "stacks").glob("Pulumi.*.yaml"))
)
def test_every_committed_stack_passes_the_catalog_check(stack):
    read_cluster(ROOT / "stacks" / f"Pulumi.{stack}.yaml")


def test_no_component_message_carries_an_internal_source_id():
    """Source ids (K1, Z10, china-clouds.md sections) belong in docstrings, not user messages."""
    strings = re.compile(r'f?"[^"\n]*"')
    offenders = []
    for module in [*(ROOT / "components").rglob("*.py"), *(ROOT / "clouds").rglob("*.py")]:
        for number, line in enumerate(module.read_text().splitlines(), start=1):
            code = line.split("#", 1)[0] if not line.lstrip().startswith(('"""', "#")) else ""
            for literal in strings.findall(code):
                if SOURCE_ID.search(literal) or "china-clouds.md" in literal:
                    offenders.append(f"{module.relative_to(ROOT)}:{number}")
    assert offenders == []


@pytest.mark.parametrize(("name", "hint"), cases("missing_stacks.yaml", "name", "hint"))
def test_a_missing_stack_names_the_stacks_there(tmp_path, name, hint):
    stacks = tmp_path / "stacks"
    stacks.mkdir()
    for existing in ("training-a100", "gpu-x"):
        (stacks / f"Pulumi.{existing}.yaml").write_text("config: {}\n")
    with pytest.raises(StackFileError) as caught:
        read_config(stacks / f"Pulumi.{name}.yaml")
    assert str(caught.value) == f"{stacks / f'Pulumi.{name}.yaml'}: stack file not found; {hint}"


@pytest.mark.parametrize(
    ("change", "problems"),
    [
        pytest.param({}, [], id="as-committed"),
        pytest.param(
            {
                "region": "asia-east1",
                "zone": "asia-east1-c",
                "instance_type": "n1-standard-8",
                "accelerator": "V100",
                "accelerator_count": 1,
            },
            [],
            id="gcp-n1-host-with-its-second-accelerator",
        ),
        pytest.param(
            {
                "region": "asia-east1",
                "zone": "asia-east1-c",
                "instance_type": "n1-standard-16",
                "accelerator": "T4",
                "accelerator_count": 2,
            },
            [],
            id="gcp-n1-host-with-two-gpus",
        ),
    ],
)
def test_a_stack_the_catalog_confirms_has_no_problems(change, problems):
    from clouds.config import parse_cluster_config
    from profiles.stack.check import catalog_problems

    raw = yaml.safe_load((ROOT / "stacks" / "Pulumi.training-a3-gcp.yaml").read_text())["config"]["trainstack:cluster"]
    assert catalog_problems(parse_cluster_config({**raw, **change})) == problems


COMMITTED = sorted(p.name[len("Pulumi.") : -len(".yaml")] for p in (ROOT / "stacks").glob("Pulumi.*.yaml"))


@pytest.mark.parametrize("stack", COMMITTED)
@pytest.mark.parametrize(
    ("cidrs", "says"),
    [
        pytest.param(["203.0.113.7"], "ssh_cidrs: '203.0.113.7' has no prefix length; write 203.0.113.7/32", id="bare"),
        pytest.param(["0.0.0.0/0"], "ssh_cidrs: 0.0.0.0/0 opens SSH to the whole internet", id="world"),
        pytest.param(["::/0"], "ssh_cidrs: ::/0 opens SSH to the whole internet", id="world-ipv6"),
    ],
)
def test_every_clouds_stack_refuses_an_ssh_cidr_naming_the_file(tmp_path, stack, cidrs, says):
    path = project(tmp_path, stack)
    edit(path, ssh_cidrs=cidrs)
    with pytest.raises(StackFileError) as err:
        read_cluster(path)
    assert str(err.value).startswith(f"{path}: ") and says in str(err.value)


@pytest.mark.parametrize(
    ("given", "suggested"),
    [
        pytest.param("Training_A100", "training-a100", id="case-and-underscore"),
        pytest.param("2nd run", "stack-2nd-run", id="digit-first"),
        pytest.param("a--b", "a--b", id="valid-kept"),
        pytest.param("___", "stack", id="nothing-left"),
        pytest.param("x" * 50, "x" * 40, id="too-long"),
    ],
)
def test_a_suggested_stack_name_is_one_stack_path_accepts(given, suggested, tmp_path):
    from profiles.stack.file import valid_stack_name

    assert valid_stack_name(given) == suggested
    assert stack_path(tmp_path, suggested).name == f"Pulumi.{suggested}.yaml"


@pytest.mark.parametrize(
    "name",
    ["", "-", "9", "Ä", "a" * 41, "a-" * 30, "__x__", "X Y Z", "über-run", "1-2-3", "-a-", "a.b/c", "\t\n"],
)
def test_every_suggested_stack_name_is_accepted(name):
    from profiles.stack.file import STACK_NAME, valid_stack_name

    assert STACK_NAME.fullmatch(valid_stack_name(name))


def test_the_refusal_and_the_missing_stack_hint_suggest_a_valid_name(tmp_path):
    with pytest.raises(StackFileError, match=r"\(e\.g\. training-a100\)"):
        stack_path(tmp_path, "Training_A100")
    (tmp_path / "stacks").mkdir()
    (tmp_path / "stacks" / "Pulumi.training-a100.yaml").write_text("config: {}\n")
    with pytest.raises(StackFileError) as missing:
        read_document(tmp_path / "stacks" / "Pulumi.Training_A100.yaml")
    assert "did you mean training-a100?" in str(missing.value)
    assert "--write-stack training-a100` writes it" in str(missing.value)


@pytest.mark.parametrize(
    "before",
    [
        pytest.param("", id="empty"),
        pytest.param("\n  \n", id="blank-lines"),
        pytest.param("# a note\n", id="comment-only"),
        pytest.param("config: {}\n", id="config-without-cluster"),
        pytest.param("config:\n  aws:profile: team\n", id="other-settings"),
    ],
)
def test_a_stack_without_a_cluster_is_told_a_command_that_writes_it(tmp_path, before):
    """The refusal of a stack file with no cluster gives the `resolve --write-stack` command that
    works on it (--force only where the file holds something), and that command writes it."""
    from profiles.stack.file import write_stack

    (tmp_path / "stacks").mkdir()
    path = tmp_path / "stacks" / "Pulumi.fresh.yaml"
    path.write_text(before)
    with pytest.raises(StackFileError) as refused:
        read_config(path)
    command = re.search(r"`(trainstack resolve WORKLOAD\.yaml --write-stack fresh[^`]*)`", str(refused.value))
    assert command, str(refused.value)
    force = command.group(1).endswith(" --force")
    assert force == bool(before.strip())  # an empty file holds nothing to lose: no --force
    text = (ROOT / "stacks" / "Pulumi.training-a100.yaml").read_text()
    if force:
        with pytest.raises(
            StackFileError, match="not written by trainstack and has no cluster; pass --force to add one"
        ):
            write_stack(path, text)
    assert write_stack(path, text, force=force)
    assert read_config(path)["trainstack:cluster"]["provider"] == "aws"


def test_a_hand_edit_plan_refuses_is_told_the_rewrite_needs_force(tmp_path):
    """A refused hand edit (nodes: 0) says to fix the file or rerun resolve, with --force: resolve
    refuses to overwrite a hand-edited stack without it, so the advice names it."""
    from profiles.stack.file import write_stack

    text = (ROOT / "stacks" / "Pulumi.training-a100.yaml").read_text()
    path = tmp_path / "Pulumi.edited.yaml"
    path.write_text(text.replace("nodes: 2", "nodes: 0", 1))
    with pytest.raises(StackFileError) as refused:
        read_cluster(path)
    assert str(refused.value).endswith(
        "; fix the stack file or rerun `trainstack resolve --write-stack` (with --force over hand edits)"
    )
    with pytest.raises(StackFileError, match="edited by hand since trainstack wrote it; pass --force"):
        write_stack(path, text)
    assert write_stack(path, text, force=True) and read_cluster(path)[1].nodes == 2


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [
        pytest.param("team/x", "team-x", id="slash"),
        pytest.param("a/Pulumi.b", "a-pulumi-b", id="slash-and-pulumi"),
        pytest.param("../up", "up", id="dotdot"),
    ],
)
def test_a_missing_stack_typed_with_a_slash_suggests_the_name_it_was(tmp_path, typed, suggested):
    """`plan -s team/x` suggested `--write-stack x` (the file's own name, another stack) and looked
    for close names in a folder that does not exist; the whole typed name is read instead."""
    (tmp_path / "stacks").mkdir()
    (tmp_path / "stacks" / "Pulumi.team-x1.yaml").write_text("config: {}\n")
    with pytest.raises(StackFileError) as missing:
        read_document(tmp_path / "stacks" / f"Pulumi.{typed}.yaml")
    assert f"--write-stack {suggested}` writes it" in str(missing.value)
    assert "a stack name is 1-40 lowercase letters" in str(missing.value)
