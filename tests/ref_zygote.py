"""A pre-imported interpreter that forks the child processes of `plan --against` for the suite.

`trainstack plan --against REF` plans the old revision in a fresh interpreter
(`trainstack.review.gitref.run_ref_process`: `python -m trainstack.review.gitref STACK DIR
PACKAGE...`), about 1.5 s of CPU each, most of it importing Pulumi, gRPC, pydantic and the
cloud SDK again; the suite starts about 25 of them. This process (one per test process,
started on first use by `tests/shared_runs.py`) imports today's instrument once, exactly as
that child does, and forks a child per request that runs the same module as `__main__` with
the request's arguments, working directory, import path and environment. Each child is a
new process: the revision's own packages are imported in it afresh, as in the real child
(`old_program_first` drops today's; none are loaded here beyond the instrument's). What the
zygote keeps between requests is third-party code only: after each child it imports the
third-party modules that child imported (never a module of the project or of the revision),
so later children find them loaded, and fills Pulumi's per-class type caches (`pulumi._types`:
the type hints of each resource class, which every plan reads) for the SDK classes of the
resources that child's plan registered. It also keeps the bytecode the children compiled from the
revisions' sources (the `.pyc` files they write), keyed by each source's content: a later
child that imports a source file with the same content, and finds no `.pyc` beside it, reads
that bytecode as if a checked hash-based `.pyc` were there (PEP 552: Python itself compares it
with the source's hash, and compiles the source when they differ), as a second run in the same
folder would find its first run's `.pyc` (each extracted tree is new, so nothing else reuses them).
It starts with the `.pyc` files of today's packages (a revision shares most of their sources).
`tests/test_ref_zygote.py` checks that a forked child answers byte for byte as the real
process does.

Protocol: one JSON request per line on stdin (`argv`, `cwd`, `env`), one JSON answer per line
on the file descriptor given as the only argument (`returncode`, `stdout`, `stderr`). It ends
when stdin closes.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import runpy
import struct
import subprocess
import sys
import sysconfig
import tempfile
import traceback
from importlib.machinery import SourceFileLoader
from pathlib import Path

MODULE = "trainstack.review.gitref"
COMPILED: dict[bytes, bytes] = {}  # a source's hash -> the marshalled code a child compiled from it
CHECKED_HASH = struct.pack("<I", 0b11)  # a `.pyc`'s flags (PEP 552): hash-based, checked against the source
# where third-party code lives: the environment's packages and the standard library
INSTALLED = tuple(dict.fromkeys(os.path.join(sysconfig.get_path(k), "") for k in ("purelib", "platlib", "stdlib")))


def _third_party(module: object) -> bool:
    """True for a module of the installed packages or the standard library (never the
    project's or the revision's)."""
    where = getattr(module, "__file__", None) or ""
    return bool(where) and where.startswith(INSTALLED)


def exit_status(done: SystemExit) -> int:
    """The status the interpreter ends with on an uncaught `done`, printing its message to
    stderr as the interpreter does when it is neither an int nor None."""
    if isinstance(done.code, int):
        return done.code
    if done.code is not None:
        print(done.code, file=sys.stderr)
        return 1
    return 0


def flush_streams() -> None:
    """Flush stdout and stderr before `os._exit`, ignoring a stream that cannot be."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: S110 - the status is what matters now
            pass


def _child(request: dict, out: int, err: int, loaded_file: str) -> None:
    """Run the module as `python -m` would in `request["cwd"]`; never returns."""
    code = 1
    try:
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.path[0] = os.getcwd()  # `python -m` puts its working directory first
        _serve_kept_bytecode(os.path.join(request["cwd"], request["argv"][1]))  # the extracted revision
        before = set(sys.modules)
        sys.argv = [MODULE, *request["argv"]]
        try:
            runpy.run_module(MODULE, run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as done:
            code = exit_status(done)
        except BaseException:  # as the interpreter does: the traceback on stderr, status 1
            traceback.print_exc()
        new = [n for n, m in sys.modules.items() if n not in before and _third_party(m)]  # in import order
        Path(loaded_file).write_text("\n".join(new))
    finally:
        flush_streams()
        os._exit(code)


def _serve_kept_bytecode(tree: str) -> None:
    """In a child: reading a missing `.pyc` under `tree` whose source has the content of one
    in `COMPILED` gives a checked hash-based `.pyc` of it (PEP 552), as if it were written there."""
    read = SourceFileLoader.get_data
    inside = os.path.join(tree, "")

    def get_data(self: SourceFileLoader, path: str) -> bytes:
        try:
            return read(self, path)
        except OSError:
            if not (path.startswith(inside) and path.endswith(".pyc")):
                raise
            digest = importlib.util.source_hash(read(self, importlib.util.source_from_cache(path)))
            if digest not in COMPILED:
                raise
            return importlib.util.MAGIC_NUMBER + CHECKED_HASH + digest + COMPILED[digest]

    SourceFileLoader.get_data = get_data  # type: ignore[method-assign,assignment]


def _keep_bytecode(tree: str) -> None:
    """Keep in `COMPILED` the code of each timestamp `.pyc` a child wrote under `tree` that
    matches its source's time and size (so it was compiled from that very content)."""
    for folder, _, files in os.walk(tree):
        if os.path.basename(folder) != "__pycache__":
            continue
        for name in files:
            cached = os.path.join(folder, name)
            try:
                source = importlib.util.source_from_cache(cached)
                data, content, stat = Path(cached).read_bytes(), Path(source).read_bytes(), os.stat(source)
            except (OSError, ValueError):
                continue
            header = importlib.util.MAGIC_NUMBER + struct.pack("<III", 0, int(stat.st_mtime), stat.st_size)
            if data[:16] == header and len(content) == stat.st_size:
                COMPILED.setdefault(importlib.util.source_hash(content), data[16:])


def _resource_types(answer: str) -> list[str]:
    """The resource type tokens of a child's plan (its JSON answer), sorted; none if it has none."""
    try:
        return sorted({resource["type"] for resource in json.loads(answer)["resources"]})
    except (ValueError, KeyError, TypeError):
        return []


def _fill_type_caches(tokens: list[str]) -> None:
    """Compute `pulumi._types.resource_types` (cached per class) for the SDK class of each token
    (`aws:ec2/launchTemplate:LaunchTemplate` -> `pulumi_aws.ec2.LaunchTemplate`) whose module is
    already loaded from the installed packages; other tokens (a component's) are skipped."""
    from pulumi import _types

    for token in tokens:
        package, _, rest = token.partition(":")
        module_name, _, class_name = rest.partition(":")
        module_name = module_name.split("/", 1)[0]
        name = f"pulumi_{package}" + ("" if module_name == "index" else f".{module_name}")
        module = sys.modules.get(name)
        if module is None or not _third_party(module):
            continue
        try:
            _types.resource_types(getattr(module, class_name))
        except Exception:  # noqa: S112 - only a head start; the child computes what it needs
            continue


def _serve(answers: int) -> None:
    channel = os.fdopen(answers, "w")
    needed: dict[str, list[str]] = {}  # stack -> the third-party modules its first child imported
    types: dict[str, list[str]] = {}  # stack -> the resource types its first child's plan registered
    for line in sys.stdin:
        request = json.loads(line)
        stack = request["argv"][0]
        for name in needed.pop(stack, []):  # its second child: load them here, once, for every later one
            if name not in sys.modules:
                try:  # in the order the child began them, so each package imports its parts as then
                    importlib.import_module(name)
                except Exception:  # noqa: S112 - only a head start; the child imports what it needs
                    continue
        _fill_type_caches(types.pop(stack, []))
        tree = os.path.join(request["cwd"], request["argv"][1])  # the extracted revision
        with tempfile.TemporaryDirectory(prefix="ref-zygote-") as tmp:
            names = [os.path.join(tmp, n) for n in ("out", "err", "loaded")]
            out, err = (os.open(n, os.O_WRONLY | os.O_CREAT, 0o600) for n in names[:2])
            sys.stdout.flush(), sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _child(request, out, err, names[2])
            os.close(out), os.close(err)
            status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            texts = [Path(n).read_text(errors="replace") if os.path.exists(n) else "" for n in names]
        _keep_bytecode(tree)  # before answering: the caller then removes the tree
        channel.write(json.dumps({"returncode": status, "stdout": texts[0], "stderr": texts[1]}) + "\n")
        channel.flush()
        if stack not in needed:
            needed[stack], types[stack] = texts[2].split(), _resource_types(texts[0])


class Zygote:
    """The client: `run(stack, old_dir, packages)` answers as `gitref.run_ref_process` does,
    from a child forked by one zygote process started on first use."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None
        self.answers = None
        self.env: dict[str, str] | None = None
        self.broken = False
        self.empty: str | None = None

    def run(self, stack: str, old_dir: Path, packages: list[str]) -> subprocess.CompletedProcess[str] | None:
        """The child's answer; None when this zygote cannot give it exactly (it failed, or the
        environment differs from the one it was started with): run the real process then."""
        from trainstack.review.gitref import ref_command  # not with the module (the xdist controller)

        argv, cwd, env = ref_command(stack, old_dir, packages)
        env = {k: v for k, v in env.items() if k != "PYTEST_CURRENT_TEST"}
        if self.broken or argv[1:4] != ["-m", MODULE, stack] or (self.env is not None and env != self.env):
            return None
        try:
            if self.process is None:
                self._start(argv[0], env)
            assert self.process is not None and self.process.stdin is not None and self.answers is not None
            self.process.stdin.write(json.dumps({"argv": argv[3:], "cwd": str(cwd), "env": env}) + "\n")
            self.process.stdin.flush()
            answer = json.loads(self.answers.readline())
        except (OSError, ValueError, AssertionError):
            self.broken = True
            self.close()
            return None
        return subprocess.CompletedProcess(argv, answer["returncode"], answer["stdout"], answer["stderr"])

    def _start(self, python: str, env: dict[str, str]) -> None:
        read, write = os.pipe()
        self.empty = tempfile.mkdtemp(prefix="ref-zygote-")  # its working directory, first on its path
        self.process = subprocess.Popen(
            [python, "-m", "tests.ref_zygote", str(write)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,  # what its own imports print (warnings) is no test's output
            stderr=subprocess.DEVNULL,
            pass_fds=(write,),
            cwd=self.empty,
            env=env,
            text=True,
        )
        os.close(write)
        self.answers, self.env = os.fdopen(read), env

    def close(self) -> None:
        """End the zygote (it ends when its stdin closes) and wait for it."""
        if self.process is None:
            return
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        if self.answers is not None:
            self.answers.close()
        if self.empty is not None:
            os.rmdir(self.empty)
        self.process = self.answers = self.empty = None


if __name__ == "__main__":
    answer_fd = int(sys.argv[1])
    instrument = importlib.import_module(MODULE)  # today's instrument, as `python -m` imports it in the child
    for package in instrument.TODAY.iterdir():  # today's compiled packages: a revision shares most of their files
        if (package / "__init__.py").is_file():
            _keep_bytecode(str(package))
    del sys.modules[MODULE]  # the child runs it as `__main__`, as `python -m` does
    _serve(answer_fd)
