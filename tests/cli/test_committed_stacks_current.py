"""Every committed stack written by `resolve` is what `resolve` writes today.

A stack records the choice, hours and price it was resolved with. When the cost model or the
catalog changes, a stale stack would show yesterday's price (`plan` prices the recorded hours);
this test re-runs `trainstack resolve WORKLOAD --write-stack NAME --force` into a copy of the
project and compares the files byte for byte, so drift fails CI with the command that fixes it.
"""

import re
import shutil
from pathlib import Path

import pytest

from profiles.cost import inputs
from trainstack.cli import resolve_cmd

ROOT = Path(__file__).resolve().parents[2]
WRITTEN_BY = re.compile(r"^# Written by `trainstack resolve (\S+) --write-stack`")


def _resolved_stacks() -> list[tuple[str, str]]:
    found = []
    for path in sorted((ROOT / "stacks").glob("Pulumi.*.yaml")):
        match = WRITTEN_BY.match(path.read_text(encoding="utf-8"))
        if match:
            found.append((path.name.removeprefix("Pulumi.").removesuffix(".yaml"), match.group(1)))
    return found


STACKS = _resolved_stacks()


def test_the_resolved_stacks_are_found():
    names = {name for name, _ in STACKS}
    assert {"training-a100", "training-a3-gcp", "training-h100-azure", "training-tpu-v5p"} <= names


@pytest.mark.parametrize(("name", "workload"), STACKS, ids=[name for name, _ in STACKS])
def test_committed_stack_matches_todays_resolve(tmp_path, monkeypatch, capsys, name, workload):
    monkeypatch.delenv("TRAINSTACK_MEASUREMENTS", raising=False)
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    committed = (ROOT / "stacks" / f"Pulumi.{name}.yaml").read_text(encoding="utf-8")
    (tmp_path / "stacks" / f"Pulumi.{name}.yaml").write_text(committed, encoding="utf-8")
    (tmp_path / workload).parent.mkdir(parents=True)
    shutil.copy(ROOT / workload, tmp_path / workload)
    try:
        resolve_cmd.run(tmp_path / workload, write_stack=name, force=True, project=tmp_path)
    finally:
        inputs.clear_measurements()  # resolve registered the published measurements for its run
    capsys.readouterr()
    regenerated = (tmp_path / "stacks" / f"Pulumi.{name}.yaml").read_text(encoding="utf-8")
    assert regenerated == committed, (
        f"stacks/Pulumi.{name}.yaml is stale against today's cost model and catalog: run "
        f"`trainstack resolve {workload} --write-stack {name} --force` and commit the result"
    )
