"""The suite's forked `plan --against` children (`tests/ref_zygote.py`) answer as the real child
process does, and run the revision's own code, not the code the zygote or the suite imported."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.shared_runs import ZYGOTE
from trainstack.review import gitref

ROOT = Path(__file__).resolve().parents[1]
STACK = "training-a100"


@pytest.fixture()
def revision(tmp_path: Path) -> tuple[Path, list[str]]:
    """An extracted revision, as `plan_at_ref` writes it: today's program with a smaller root
    volume (100 GiB instead of 200) and a second node."""
    program = tmp_path / "program"
    packages = ["clouds", "components", "facts", "nodeagent", "profiles"]
    for package in packages:
        shutil.copytree(ROOT / package, program / package, ignore=shutil.ignore_patterns("__pycache__", "data"))
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, program / name)
    compute = program / "components" / "aws" / "compute.py"
    compute.write_text(compute.read_text().replace("ROOT_VOLUME_GIB = 200", "ROOT_VOLUME_GIB = 100"))
    document = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{STACK}.yaml").read_text())
    document["config"]["trainstack:cluster"]["nodes"] = 2
    (program / "stacks").mkdir()
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
