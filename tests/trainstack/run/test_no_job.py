"""What `run` and `status` say on a stack without `job:` (new-user pass 2, findings 8 and 12):
advice that works on that stack. Where a job can be added, the workload the stack was written
from and the `resolve` that writes it; where none can run (no node agent on the nodes), that,
with the cloud's platform `run` does submit to: never `systemctl restart trainstack-job` on
nodes without that unit, never `trainstack run` on a stack `run` refuses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from profiles.stack.file import read_cluster
from tests.cli.helpers import one_error_line, run
from trainstack.run.no_job import no_job_line

ROOT = Path(__file__).parents[3]
STACKS = sorted(p for p in (ROOT / "stacks").glob("Pulumi.*.yaml") if not p.name.startswith("Pulumi.nu-"))


@pytest.mark.parametrize(
    ("stack", "said"),
    [
        pytest.param(
            "training-a100-alicloud",
            "the node agent ships on aws, azure, gcp); start training on them by hand, or set platform: pai (Alibaba PAI) in the workload: `run` submits its jobs",
            id="alicloud-pai",
        ),
        pytest.param(
            "training-a100-tencentcloud",
            "or set platform: ti-one (Tencent TI-ONE) in the workload",
            id="tencent-ti-one",
        ),
        pytest.param(
            "training-a10-volcengine",
            "cannot start one on its nodes: the volcengine component does not run a job yet (the node agent ships on aws, azure, gcp); start training on them by hand",
            id="volcengine-no-platform",
        ),
        pytest.param(
            "training-tpu-v5p",
            "cannot start one on its nodes: tpu-v5p-32 on gcp: TPU slices get no node bootstrap yet; start training on them by hand",
            id="tpu-slice",
        ),
        pytest.param(
            "training-ascend-modelarts",
            "add job: {command: train.py ...} (docs/platforms.md: what its job needs) to profiles/workloads/training-ascend-modelarts.yaml and rerun `trainstack resolve profiles/workloads/training-ascend-modelarts.yaml --write-stack training-ascend-modelarts`",
            id="modelarts-platform",
        ),
    ],
)
def test_run_on_a_stack_without_a_job_says_what_works_there(stack, said):
    result = run("run", "-s", stack, "--dry-run", "--project-dir", str(ROOT))
    one_error_line(result, f"job: stack {stack} has no job", code=2)
    assert said in result.stderr
    assert "systemctl" not in result.stderr and "trainstack run" not in result.stderr


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name.split(".")[1]) for p in STACKS])
def test_every_committed_stack_without_a_job_gets_advice_that_fits_it(path):
    """The class: a `resolve` only where a job can run, naming a workload file that exists."""
    _, cluster = read_cluster(path)
    if cluster.job is not None:
        pytest.skip("the stack has a job")
    line = no_job_line(cluster, path.name.split(".")[1], path.read_text())
    assert "systemctl" not in line and "trainstack run" not in line
    if "cannot start one" in line:
        assert "trainstack resolve" not in line and "add job" not in line
    else:
        found = re.search(r" to (\S+) and rerun `trainstack resolve (\S+) --write-stack ", line)
        assert found and found.group(1) == found.group(2) and (ROOT / found.group(1)).is_file(), line


def test_hand_written_stack_says_where_in_the_file():
    _, cluster = read_cluster(ROOT / "stacks" / "Pulumi.training-a100.yaml")
    line = no_job_line(cluster, "mine", "config:\n")
    assert line == "stack mine has no job to run; add job: {command: train.py ...} under trainstack:cluster"


def test_status_on_a_platform_stack_without_a_job_says_to_add_one():
    result = run("status", "-s", "training-ascend-modelarts", "--project-dir", str(ROOT))
    one_error_line(result, "status: no job started on stack training-ascend-modelarts from here; stack ", code=1)
    assert "add job: {command: train.py ...}" in result.stderr and "start one: trainstack run" not in result.stderr


@pytest.mark.parametrize(
    ("cwd", "typed"),
    [
        pytest.param(".", "w/a.yaml", id="from-the-project"),
        pytest.param("sub", "../w/a.yaml", id="from-a-subfolder"),
        pytest.param("..", "proj/w/a.yaml --project-dir proj", id="from-above-with-project-dir"),
    ],
)
def test_the_suggested_resolve_names_the_workload_from_where_it_is_typed(tmp_path, monkeypatch, cwd, typed):
    """The header names the workload relative to the project; `run` or `status` typed from a
    subfolder (the project is found upwards) or with --project-dir must name a path that exists
    from there, or the suggested `trainstack resolve` is refused (file not found)."""
    project = tmp_path / "proj"
    (project / "sub").mkdir(parents=True)
    (project / "w").mkdir()
    (project / "w" / "a.yaml").write_text("name: a\n")
    _, cluster = read_cluster(ROOT / "stacks" / "Pulumi.training-a100.yaml")
    monkeypatch.chdir(project / cwd)
    header = "# Written by `trainstack resolve w/a.yaml --write-stack`; review with `pulumi preview`.\n"
    line = no_job_line(cluster, "mine", header, project)
    workload, _, flag = typed.partition(" ")
    assert line.endswith(
        f"to {workload} and rerun `trainstack resolve {workload} --write-stack mine{' ' + flag if flag else ''}`"
    )
    assert Path(workload).is_file()


def test_a_stack_written_from_standard_input_names_no_file_called_dash():
    _, cluster = read_cluster(ROOT / "stacks" / "Pulumi.training-a100.yaml")
    header = "# Written by `trainstack resolve - --write-stack`; review with `pulumi preview`.\n"
    line = no_job_line(cluster, "mine", header, ROOT)
    assert line == (
        "stack mine has no job to run; add job: {command: train.py ...} to the workload it was written from "
        "(read from standard input) and rerun `trainstack resolve WORKLOAD --write-stack mine`"
    )


def test_a_workload_path_with_spaces_is_suggested_shell_quoted(tmp_path, monkeypatch):
    """The header writes the path shell-quoted, as `profiles.stack.writer` renders it; the suggested
    `resolve` is a command that works when pasted (unquoted, `my work/a b.yaml` is three words)."""
    from profiles.stack.document import workload_of

    project = tmp_path / "proj"
    (project / "my work").mkdir(parents=True)
    (project / "my work" / "a b.yaml").write_text("name: a\n")
    monkeypatch.chdir(project)
    header = "# Written by `trainstack resolve 'my work/a b.yaml' --write-stack`; review with `pulumi preview`.\n"
    assert workload_of(header) == "my work/a b.yaml"
    _, cluster = read_cluster(ROOT / "stacks" / "Pulumi.training-a100.yaml")
    line = no_job_line(cluster, "mine", header, project)
    assert line.endswith("to my work/a b.yaml and rerun `trainstack resolve 'my work/a b.yaml' --write-stack mine`")


def test_a_stack_up_moved_from_a_hand_written_one_is_told_to_add_the_job_in_the_file():
    """`trainstack up` rewrites a hand-written stack's header naming no workload (`NO_WORKLOAD`); it
    named "the workload", and `run` then suggested `trainstack resolve 'the workload' ...`."""
    from profiles.stack.document import NO_WORKLOAD, workload_of

    header = f"# Written by `trainstack resolve {NO_WORKLOAD} --write-stack`; review with `pulumi preview`.\n"
    assert workload_of(header) is None
    _, cluster = read_cluster(ROOT / "stacks" / "Pulumi.training-a100.yaml")
    assert no_job_line(cluster, "mine", header, ROOT).endswith(
        "add job: {command: train.py ...} under trainstack:cluster"
    )
