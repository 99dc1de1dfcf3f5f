"""Plan a stack as it was at another git revision, for `trainstack plan --against REF`.

The stack file, `__main__.py`, `Pulumi.yaml` and every package the revision's program imports
(derived from its own imports: `trainstack.review.ref_program`; the catalog data excepted) are
written at REF into a temporary directory by git itself (`git checkout-index` from a temporary
index of those files; a symbolic link that resolves outside that directory is refused before
anything runs), and the plan runs there in a fresh Python process: the old program's code must be imported, and the current process has
already imported today's. trainstack itself (plan runner, mocks, recorder) is today's, so
both sides are measured with the same instrument; so is the cost: the old stack's cluster is
priced here, with today's catalog and pricing code (the old revision's catalog data is not
extracted, and its pricing code may predate today's interface).

Run as `python -m trainstack.review.gitref STACK PROJECT_DIR [PACKAGE ...]` it prints that plan as JSON.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from clouds.config import CONFIG_KEY, ConfigError, parse_cluster_config
from trainstack.plan.cluster_lines import job_summary, requested_outside, requested_spec
from trainstack.plan.runner import STACKS_DIR, PlanError, PlanResult, read_stack_config, run_plan, with_price
from trainstack.review.ref_program import old_program_first, program_roots

TODAY = Path(__file__).resolve().parents[2]  # the tree this trainstack runs from

# Extracted besides the program's packages; the catalog data is today's (see above).
PROJECT_FILES = ("__main__.py", "Pulumi.yaml")
EXCLUDED = ("profiles/catalog/data/",)
LINK_MODE = "120000"  # a symbolic link in a git tree


def plan_at_ref(stack: str, project_dir: Path, ref: str) -> PlanResult | None:
    """Plan `stack` with the program and stack file of git revision `ref`.

    Args:
        stack: the stack name.
        project_dir: the Pulumi project directory inside a git work tree.
        ref: any git revision (`main`, `origin/main`, `HEAD~1`, a commit id).

    Returns:
        The plan at `ref`, or None when the stack file did not exist there (a new stack).

    Raises:
        PlanError: git is missing, `ref` is unknown, or the old program fails to plan.
    """
    error = f"--against {ref}: not a git revision in {project_dir}; try main or HEAD~1"
    commit = _git(project_dir, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", error=error)
    tree = f"{commit.decode().strip()}:{_git(project_dir, 'rev-parse', '--show-prefix').decode().strip()}"
    root = Path(_git(project_dir, "rev-parse", "--show-toplevel").decode().strip())  # ls-tree is cwd-relative
    entries = _tree_entries(root, tree)
    stack_file = f"{STACKS_DIR}/Pulumi.{stack}.yaml"
    if stack_file not in entries:
        return None
    packages = program_roots(list(entries), lambda paths: _read_blobs(root, tree, paths))
    wanted = (stack_file, *PROJECT_FILES, *packages)
    taken = {
        path: entry
        for path, entry in entries.items()
        if any(path == w or path.startswith(f"{w}/") for w in wanted) and not path.startswith(EXCLUDED)
    }
    with tempfile.TemporaryDirectory(prefix="trainstack-ref-") as tmp:
        program = Path(tmp) / "program"  # not the process's working directory: see _plan_in_subprocess
        _check_out(root, taken, program, ref)
        return _plan_in_subprocess(stack, program, ref, packages)


def committed_at_head(stack: str, project_dir: Path) -> bool:
    """True when `stacks/Pulumi.<stack>.yaml` exists in the commit HEAD of the project's git
    repository; False outside git, without git, or for a stack not committed yet."""
    try:
        prefix = _git(project_dir, "rev-parse", "--show-prefix").decode().strip()
        _git(project_dir, "cat-file", "-e", f"HEAD:{prefix}{STACKS_DIR}/Pulumi.{stack}.yaml")
    except PlanError:
        return False
    return True


def _tree_entries(root: Path, tree: str) -> dict[str, bytes]:
    """Every file of `tree` (recursively): its path -> its `git ls-tree -z` record (mode, type,
    object id, tab, path), which `git update-index --index-info` reads back; none when `tree`
    does not exist (the project's folder was not there at that revision)."""
    try:
        records = _git(root, "ls-tree", "-r", "-z", tree).split(b"\0")
    except PlanError:
        return {}
    return {os.fsdecode(record.split(b"\t", 1)[1]): record for record in records if record}


def _check_out(root: Path, entries: dict[str, bytes], into: Path, ref: str) -> None:
    """Write the files of `entries` (path -> `_tree_entries` record) under `into` with git
    itself: a temporary index of just those files, then `git checkout-index` (git never writes
    outside its prefix, nor through a symbolic link). Then refuse, as tarfile's "data" filter
    does, a symbolic link that resolves outside `into` (followed to the end, through the others;
    a link that loops resolves to itself, as `os.path.realpath` has it).

    Raises:
        PlanError: git failed, or a symbolic link leads out of the revision's files.
    """
    into.mkdir(parents=True)
    env = {**os.environ, "GIT_INDEX_FILE": str(into.parent / "index")}  # beside `into`, removed with it
    _git(root, "update-index", "-z", "--index-info", input=b"".join(e + b"\0" for e in entries.values()), env=env)
    _git(root, "checkout-index", "--all", "--force", f"--prefix={into}{os.sep}", env=env)
    inside = into.resolve()
    for path, entry in entries.items():
        if entry.startswith(LINK_MODE.encode()) and not Path(os.path.realpath(into / path)).is_relative_to(inside):
            target = os.readlink(into / path)
            raise PlanError(
                f"--against {ref}: {path} at {ref} is a symbolic link out of the revision ({target}); not planned"
            )


def _read_blobs(root: Path, tree: str, paths: list[str]) -> list[str]:
    """The text of each of `paths` in `tree`, read with one `git cat-file --batch`."""
    if not paths:
        return []
    done = subprocess.run(
        ["git", "cat-file", "--batch"],
        cwd=root,
        input="".join(f"{tree}{path}\n" for path in paths).encode(),
        capture_output=True,
        check=False,
    )
    out, texts, at = done.stdout, [], 0
    for _ in paths:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        size = int(header[2]) if len(header) == 3 else 0  # "<name> missing": no text
        texts.append(out[end + 1 : end + 1 + size].decode(errors="replace"))
        at = end + 1 + size + (1 if size or len(header) == 3 else 0)
    return texts


def _plan_in_subprocess(stack: str, old_dir: Path, ref: str, packages: list[str]) -> PlanResult:
    """Run `python -m trainstack.review.gitref` on the extracted revision in a fresh process.

    It starts in the (otherwise empty) folder above `old_dir`: `python -m` puts its working
    directory first on the import path, and today's instrument must import today's modules."""
    done = run_ref_process(stack, old_dir, packages)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines() or ["no output"]
        # the revision's own file, as the project names it (never the temporary copy's path)
        last = lines[-1].removeprefix("error: ").replace(f"{old_dir}/", "")
        raise PlanError(f"--against {ref}: the stack at {ref} does not plan: {last}")
    return ref_result(json.loads(done.stdout), stack, ref)


def ref_result(data: dict[str, Any], stack: str, ref: str) -> PlanResult:
    """The revision's plan from its child's JSON (`_main`): its resources and outputs, and what
    today's code reads from its stack's cluster (place, purchase, job, price), as `run_plan`
    gives the other side, so the review compares like with like."""
    result = PlanResult(data["resources"], None, None, data["outputs"], hours=data.get("hours"))
    try:
        cluster = parse_cluster_config(data.get("cluster"))
    except ConfigError as exc:
        return dataclasses.replace(result, price_note=f"the stack at {ref} cannot be priced today ({exc})")
    outside = requested_outside(cluster, stack)  # what that revision's controller kept requested
    located = dataclasses.replace(
        result,
        region=cluster.region,
        zone=cluster.zone,
        provider=cluster.provider,
        purchase=cluster.purchase,
        instance_type=cluster.instance_type,
        requested_outside=outside,
        requested_spec=requested_spec(cluster, stack),
        job=job_summary(cluster),  # the review's head / job / node-count lines compare it
    )
    return with_price(located, cluster)


def run_ref_process(stack: str, old_dir: Path, packages: list[str]) -> subprocess.CompletedProcess[str]:
    """`python -m trainstack.review.gitref STACK OLD_DIR PACKAGE...`: the plan of the extracted
    revision in `old_dir`, as JSON on stdout (one line on stderr and exit 2 when it does not plan).

    Its answer depends only on the files in `old_dir`, the arguments, the environment and
    today's installed code (the test suite shares the answers of identical runs on that basis:
    `tests/shared_runs.py`)."""
    argv, cwd, env = ref_command(stack, old_dir, packages)
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False, env=env)


def ref_command(stack: str, old_dir: Path, packages: list[str]) -> tuple[list[str], Path, dict[str, str]]:
    """The command line, working directory and environment of `run_ref_process`'s child."""
    # Today's instrument is this process's own tree, whichever is installed (a checkout run
    # beside another install, such as a worktree sharing a venv, must not plan with the other).
    path = os.pathsep.join(p for p in (str(TODAY), os.environ.get("PYTHONPATH", "")) if p)
    argv = [sys.executable, "-m", "trainstack.review.gitref", stack, str(old_dir), *packages]
    return argv, old_dir.parent, {**os.environ, "PYTHONPATH": path}


def _git(
    cwd: Path,
    *args: str,
    error: str | None = None,
    input: bytes | None = None,  # noqa: A002 - subprocess.run's own name
    env: dict[str, str] | None = None,
) -> bytes:
    """Run git in `cwd` (with `input` on stdin, in `env`) and return stdout; a failure is a one-line PlanError."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, input=input, env=env, capture_output=True, check=False)
    except FileNotFoundError:
        raise PlanError("--against needs git on PATH; install git or drop --against") from None
    if done.returncode != 0:
        detail = done.stderr.decode(errors="replace").strip().splitlines()
        raise PlanError(error or f"git {args[0]}: {detail[-1] if detail else 'failed'} (in {cwd})")
    return done.stdout


def _main(argv: list[str]) -> int:
    stack, project, *packages = argv
    old_program_first(Path(project).resolve(), packages)  # today's instrument is imported above
    os.chdir(project)  # the program runs in its project folder, as under the Pulumi CLI
    try:
        result = run_plan(stack, Path(project), priced=False)
    except PlanError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    cluster = read_stack_config(Path(project) / STACKS_DIR / f"Pulumi.{stack}.yaml").get(CONFIG_KEY)
    data: dict[str, Any] = {
        "resources": result.resources,
        "outputs": result.outputs,
        "hours": result.hours,
        "cluster": cluster,
    }
    print(json.dumps(data, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
