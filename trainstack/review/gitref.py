"""Plan a stack as it was at another git revision, for `trainstack plan --against REF`.

The stack file, `__main__.py`, `Pulumi.yaml` and every package the revision's program imports
(derived from its own imports: `trainstack.review.ref_program`; the catalog data excepted) are
extracted at REF into a temporary directory with `git archive`, and the plan runs there in a
fresh Python process: the old program's code must be imported, and the current process has
already imported today's. trainstack itself (plan runner, mocks, recorder) is today's, so
both sides are measured with the same instrument; so is the cost: the old stack's cluster is
priced here, with today's catalog and pricing code (the old revision's catalog data is not
extracted, and its pricing code may predate today's interface).

Run as `python -m trainstack.review.gitref STACK PROJECT_DIR [PACKAGE ...]` it prints that plan as JSON.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from clouds.config import CONFIG_KEY, ConfigError, parse_cluster_config
from trainstack.plan.runner import STACKS_DIR, PlanError, PlanResult, read_stack_config, run_plan, with_price
from trainstack.review.ref_program import old_program_first, program_roots

TODAY = Path(__file__).resolve().parents[2]  # the tree this trainstack runs from

# Extracted besides the program's packages; the catalog data is today's (see above).
PROJECT_FILES = ("__main__.py", "Pulumi.yaml")
EXCLUDED = (":(exclude)profiles/catalog/data",)


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
    stacks = _git(root, "ls-tree", "--name-only", f"{tree}{STACKS_DIR}", allow_fail=True)
    if f"Pulumi.{stack}.yaml" not in stacks.decode().splitlines():
        return None
    files = _git(root, "ls-tree", "-r", "--name-only", tree).decode().splitlines()
    packages = program_roots(files, lambda paths: _read_blobs(root, tree, paths))
    present = [p for p in PROJECT_FILES if p in files]
    excluded = [e for e in EXCLUDED if e.split(")", 1)[1].split("/")[0] in packages]
    archive = _git(
        root, "archive", "--format=tar", tree, "--", f"{STACKS_DIR}/Pulumi.{stack}.yaml", *present, *packages, *excluded
    )
    with tempfile.TemporaryDirectory(prefix="trainstack-ref-") as tmp:
        program = Path(tmp) / "program"  # not the process's working directory: see _plan_in_subprocess
        _extract(archive, program)
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


def _extract(archive: bytes, into: Path) -> None:
    """Unpack a tar archive, refusing links and paths outside `into` where Python can."""
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(into, filter="data")
        else:  # pragma: no cover - Python without PEP 706 filters
            tar.extractall(into)  # noqa: S202 - our own repository's objects


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
    data = json.loads(done.stdout)
    result = PlanResult(data["resources"], None, None, data["outputs"], hours=data.get("hours"))
    try:
        cluster = parse_cluster_config(data.get("cluster"))
    except ConfigError as exc:
        return dataclasses.replace(result, price_note=f"the stack at {ref} cannot be priced today ({exc})")
    return with_price(dataclasses.replace(result, region=cluster.region, purchase=cluster.purchase), cluster)


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


def _git(cwd: Path, *args: str, error: str | None = None, allow_fail: bool = False) -> bytes:
    """Run git in `cwd` and return stdout; a failure is a one-line PlanError."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError:
        raise PlanError("--against needs git on PATH; install git or drop --against") from None
    if done.returncode != 0 and not allow_fail:
        detail = done.stderr.decode(errors="replace").strip().splitlines()
        raise PlanError(error or f"git {args[0]}: {detail[-1] if detail else 'failed'} (in {cwd})")
    return done.stdout if done.returncode == 0 else b""


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
