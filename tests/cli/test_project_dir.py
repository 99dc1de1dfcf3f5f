"""Outside the project: commands find it like git finds a repository, or take --project-dir,
and never create a stray `stacks/` folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli.helpers import run

ROOT = Path(__file__).resolve().parents[2]
WORKLOAD = ROOT / "profiles" / "workloads" / "training-a100.yaml"


@pytest.fixture()
def elsewhere(tmp_path, monkeypatch):
    """A working directory outside any project."""
    folder = tmp_path / "somewhere"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture()
def project(tmp_path):
    folder = tmp_path / "infra"
    (folder / "stacks").mkdir(parents=True)
    shutil.copy(ROOT / "Pulumi.yaml", folder / "Pulumi.yaml")
    shutil.copy(ROOT / "__main__.py", folder / "__main__.py")
    shutil.copy(ROOT / "stacks" / "Pulumi.training-a100.yaml", folder / "stacks")
    return folder


def test_write_stack_outside_a_project_is_refused_and_creates_nothing(elsewhere):
    result = run("resolve", str(WORKLOAD), "--write-stack", "x")
    assert result.exit_code == 2
    assert "not inside a trainstack project" in result.output and "--project-dir" in result.output
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize(
    "command",
    [["plan", "-s", "training-a100"], ["check", "-s", "training-a100"], ["plan", "-s", "training-a100", "--markdown"]],
)
def test_stack_commands_outside_a_project_say_how_to_name_it(elsewhere, command):
    result = run(*command)
    assert result.exit_code == 2 and "--project-dir" in result.output
    assert list(elsewhere.iterdir()) == []


def test_project_dir_option_writes_into_that_project(elsewhere, project):
    result = run("resolve", str(WORKLOAD), "--write-stack", "from-outside", "--project-dir", str(project))
    assert result.exit_code == 0, result.output
    assert (project / "stacks" / "Pulumi.from-outside.yaml").is_file()
    assert list(elsewhere.iterdir()) == []


def test_a_subfolder_of_the_project_finds_it_upwards(project, monkeypatch):
    deeper = project / "notes" / "today"
    deeper.mkdir(parents=True)
    monkeypatch.chdir(deeper)
    result = run("plan", "-s", "training-a100", "--json")
    assert result.exit_code == 0, result.output
    assert not (deeper / "stacks").exists()


def test_a_folder_with_pulumi_yaml_but_no_stacks_is_not_taken_for_the_project(tmp_path, monkeypatch):
    (tmp_path / "Pulumi.yaml").write_text("name: other\nruntime: python\n")
    monkeypatch.chdir(tmp_path)
    result = run("resolve", str(WORKLOAD), "--write-stack", "x")
    assert result.exit_code == 2 and not (tmp_path / "stacks").exists()


def test_project_dir_that_is_not_a_project_is_one_line(elsewhere):
    result = run("plan", "-s", "training-a100", "--project-dir", str(elsewhere))
    assert result.exit_code == 2
    assert "not a trainstack project (no Pulumi.yaml there)" in result.output


def test_plan_states_a_rounded_up_file_system(project, monkeypatch):
    import yaml

    path = project / "stacks" / "Pulumi.training-a100.yaml"
    document = yaml.safe_load(path.read_text())
    document["config"]["trainstack:cluster"]["file_system"]["capacity_gib"] = 1
    path.write_text(yaml.safe_dump(document))
    monkeypatch.chdir(project)
    result = run("plan", "-s", "training-a100")
    assert result.exit_code == 0, result.output
    assert "file_system: 1 GiB asked; aws creates 1,200 GiB" in result.stdout


def test_resolve_states_a_rounded_up_file_system(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "w.yaml"
    spec.write_text(
        "accelerators: [A100:8]\nnodes: 2\ninterconnect: rdma\nhours: 72h\nproviders: [aws]\n"
        "file_system: {capacity: 1GiB}\n"
    )
    result = run("resolve", str(spec), "--json")
    assert result.exit_code == 0, result.output
    assert "file_system: 1 GiB asked; aws creates 1,200 GiB" in result.stderr


@pytest.mark.parametrize(
    ("typed", "cwd", "named"),
    [
        pytest.param("w/a.yaml", ".", "w/a.yaml", id="in-the-project"),
        pytest.param("../w/a.yaml", "sub", "w/a.yaml", id="from-a-subfolder-with-dotdot"),
        pytest.param("w/../w/a.yaml", ".", "w/a.yaml", id="dotdot-inside"),
        pytest.param("w/link-out.yaml", ".", "w/link-out.yaml", id="link-in-the-project-to-outside"),
        pytest.param("w/link-in.yaml", ".", "w/link-in.yaml", id="link-in-the-project-to-inside"),
        pytest.param("../shared/team.yaml", ".", "../shared/team.yaml", id="outside-the-project"),
        pytest.param("../shared/link-in.yaml", ".", "w/a.yaml", id="link-outside-to-inside"),
        pytest.param("-", ".", "-", id="stdin"),
    ],
)
def test_the_header_names_the_workload_relative_to_the_project(tmp_path, monkeypatch, typed, cwd, named):
    """What a teammate's clone has: a link committed in the project keeps its own name (following
    it named `../shared/team.yaml`, a file outside the repository); `..` is folded; a path outside
    the project is named by the file it leads to."""
    from trainstack.cli.resolve_cmd import _relative

    project, shared = tmp_path / "proj", tmp_path / "shared"
    for folder in (project / "w", project / "sub", shared):
        folder.mkdir(parents=True)
    (project / "w" / "a.yaml").write_text("name: a\n")
    (shared / "team.yaml").write_text("name: t\n")
    (project / "w" / "link-out.yaml").symlink_to(shared / "team.yaml")
    (project / "w" / "link-in.yaml").symlink_to(project / "w" / "a.yaml")
    (shared / "link-in.yaml").symlink_to(project / "w" / "a.yaml")
    monkeypatch.chdir(project / cwd)
    assert _relative(Path(typed), project) == named
