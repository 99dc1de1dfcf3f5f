"""The suite's forked `plan --against` children (`tests/ref_zygote.py`) answer as the real child
process does, and run the revision's own code, not the code the zygote or the suite imported."""

import importlib.util
import json
import py_compile
import shutil
import subprocess
from importlib.machinery import SourceFileLoader
from pathlib import Path

import pytest
import yaml

from tests import ref_zygote
from tests.shared_runs import ZYGOTE
from trainstack.review import gitref

ROOT = Path(__file__).resolve().parents[1]
STACK = "training-a100"


PACKAGES = ["clouds", "components", "facts", "nodeagent", "profiles"]


@pytest.fixture(scope="module")
def program_code(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The code of an extracted revision, copied once for the module (some 470 files; only the
    stack file differs between tests): today's program with a smaller root volume (100 GiB
    instead of 200)."""
    program = tmp_path_factory.mktemp("revision") / "program"
    for package in PACKAGES:
        shutil.copytree(ROOT / package, program / package, ignore=shutil.ignore_patterns("__pycache__", "data"))
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, program / name)
    compute = program / "components" / "aws" / "compute.py"
    compute.write_text(compute.read_text().replace("ROOT_VOLUME_GIB = 200", "ROOT_VOLUME_GIB = 100"))
    return program


@pytest.fixture()
def revision(program_code: Path) -> tuple[Path, list[str]]:
    """An extracted revision, as `plan_at_ref` writes it: `program_code` with the stack file
    (written afresh for each test) at a second node."""
    program, packages = program_code, list(PACKAGES)
    document = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{STACK}.yaml").read_text())
    document["config"]["trainstack:cluster"]["nodes"] = 2
    (program / "stacks").mkdir(exist_ok=True)
    (program / "stacks" / f"Pulumi.{STACK}.yaml").write_text(yaml.safe_dump(document))
    return program, packages


def _volume_sizes(plan: dict) -> list[int]:
    return [
        mapping["ebs"]["volumeSize"]
        for resource in plan["resources"]
        for mapping in resource["inputs"].get("blockDeviceMappings", [])
    ]


def test_a_forked_child_answers_as_the_real_process_does(revision):
    """Starts the real child once (about 1.5 s of CPU): the comparison needs it."""
    program, packages = revision
    argv, cwd, env = gitref.ref_command(STACK, program, packages)
    real = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    forked = ZYGOTE.run(STACK, program, packages)
    assert forked is not None, "the zygote could not answer"
    assert (forked.returncode, real.returncode) == (0, 0), forked.stderr + real.stderr
    assert json.loads(forked.stdout) == json.loads(real.stdout)
    assert _volume_sizes(json.loads(forked.stdout)) == [100]  # the revision's code, not today's 200


def test_a_forked_child_that_fails_says_so_as_the_real_one_does(revision):
    program, packages = revision
    stack_file = program / "stacks" / f"Pulumi.{STACK}.yaml"
    stack_file.write_text(stack_file.read_text().replace("provider: aws", "provider: nowhere"))
    forked = ZYGOTE.run(STACK, program, packages)
    assert forked is not None and forked.returncode == 2 and forked.stdout == ""
    assert forked.stderr.strip().splitlines()[-1].startswith("error: ") and "nowhere" in forked.stderr


def test_a_child_reuses_bytecode_only_for_a_source_of_the_same_content(tmp_path, monkeypatch):
    """The zygote keeps what a child compiled (its timestamp `.pyc`) by the source's content; a
    later child reads it for a source of that content only (as a checked hash-based `.pyc`,
    writing none), and compiles a source that differs."""
    monkeypatch.setattr(ref_zygote, "COMPILED", {})
    monkeypatch.setattr(SourceFileLoader, "get_data", SourceFileLoader.get_data)  # restored afterwards
    trees = {name: tmp_path / name for name in ("first", "same", "other")}
    for name, text in (("first", "X = 1\n"), ("same", "X = 1\n"), ("other", "X = 2\n")):
        (trees[name] / "pkg").mkdir(parents=True)
        (trees[name] / "pkg" / "mod.py").write_text(text)
    first = trees["first"] / "pkg" / "mod.py"
    py_compile.compile(str(first), doraise=True, invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
    ref_zygote._keep_bytecode(str(trees["first"]))
    assert list(ref_zygote.COMPILED) == [importlib.util.source_hash(b"X = 1\n")]

    ref_zygote._serve_kept_bytecode(str(tmp_path))
    values = {}
    for name in ("same", "other"):
        source = trees[name] / "pkg" / "mod.py"
        spec = importlib.util.spec_from_file_location(f"kept_{name}", source)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        values[name] = (module.X, Path(importlib.util.cache_from_source(str(source))).exists())
    assert values == {"same": (1, False), "other": (2, True)}  # read as kept; compiled and written
    kept = SourceFileLoader("m", str(trees["same"] / "pkg" / "mod.py"))
    header = kept.get_data(importlib.util.cache_from_source(kept.path))[:8]
    assert header == importlib.util.MAGIC_NUMBER + ref_zygote.CHECKED_HASH


def test_the_zygote_fills_pulumi_s_type_caches_for_the_sdk_classes_a_plan_registered(monkeypatch):
    """Before a stack's second child the zygote computes `pulumi._types.resource_types` (cached
    per class) for the SDK classes of its first child's resources: a loaded SDK module's class
    only, never a component's token."""
    import pulumi._types
    import pulumi_aws.ec2

    answer = json.dumps(
        {"resources": [{"type": t} for t in ("trainstack:aws:GpuCluster", "aws:ec2/launchTemplate:LaunchTemplate")]}
    )
    assert ref_zygote._resource_types(answer) == ["aws:ec2/launchTemplate:LaunchTemplate", "trainstack:aws:GpuCluster"]
    assert ref_zygote._resource_types("error: no plan") == []
    seen: list[type] = []
    monkeypatch.setattr(pulumi._types, "resource_types", seen.append)
    ref_zygote._fill_type_caches([*ref_zygote._resource_types(answer), "nowhere:x/y:Z"])
    assert seen == [pulumi_aws.ec2.LaunchTemplate]
