"""Data safety and determinism, proven on two mock runs of the real program.

Changing node count, instance type, purchase option or image never replaces or deletes the
file system: same URN before and after, and no replace-on-change input of it differs.
A renamed cluster with `trainstack:previous_names` aliases every old URN, and two plans of
one stack give identical inputs.
"""

import shutil
from pathlib import Path

import pytest
import yaml

from policies.rules import STATEFUL
from tests.shared_runs import afresh
from trainstack.plan.runner import run_plan
from trainstack.review.diff import changed_paths, diff_plans, urns
from trainstack.review.replacements import replace_keys

ROOT = Path(__file__).resolve().parents[2]
VARIATIONS = {
    "training-a100": [
        {"nodes": 3},
        {"nodes": 1},
        {"instance_type": "p5.48xlarge", "accelerator": "H100"},
        {"purchase": "on-demand"},
    ],
    "training-h100-azure": [
        {"nodes": 3},
        {"instance_type": "Standard_ND96asr_v4", "accelerator": "A100"},
        {"purchase": "spot"},
    ],
    # europe-north1 (the v8 pick) sells a3-highgpu only: the other type is the 4-GPU size.
    "training-a3-gcp": [
        {"nodes": 3},
        {"instance_type": "a3-highgpu-4g", "accelerator_count": 4, "interconnect": "none"},
        {"purchase": "on-demand"},
    ],
    "training-tpu-v5p": [{"nodes": 2}, {"purchase": "on-demand"}],
}
CASES = [
    pytest.param(s, v, id=f"{s}-{'-'.join(f'{k}={x}' for k, x in v.items())}")
    for s, vs in VARIATIONS.items()
    for v in vs
]


def write_stack(project: Path, stack: str, base: str = "", config: dict | None = None, **cluster) -> None:
    """Copy the program and write `stacks/Pulumi.<stack>.yaml` from committed stack `base`."""
    for name in ("__main__.py", "Pulumi.yaml"):
        if not (project / name).exists():
            shutil.copy(ROOT / name, project / name)
    document = yaml.load((ROOT / "stacks" / f"Pulumi.{base or stack}.yaml").read_text(), Loader=_LOADER)
    document["config"]["trainstack:cluster"].update(cluster)
    document["config"].update(config or {})
    (project / "stacks").mkdir(exist_ok=True)
    (project / "stacks" / f"Pulumi.{stack}.yaml").write_text(yaml.dump(document, Dumper=_DUMPER))


# PyYAML's safe loader and dumper, on libyaml where PyYAML has it (the same documents and text as
# `safe_load` / `safe_dump`, about 5x faster: `write_stack` runs ~80 times a session)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def assert_file_system_kept(before, after, stack):
    old, new = urns(before.resources, stack), urns(after.resources, stack)
    stateful = [urn for urn, r in old.items() if r["type"] in STATEFUL]
    assert stateful, "the stack has a file system"
    for urn in stateful:
        assert urn in new, f"{urn} would be deleted"
        paths = changed_paths(old[urn]["inputs"], new[urn]["inputs"])
        assert replace_keys(old[urn]["type"], paths, old[urn]["inputs"], new[urn]["inputs"]) == []
        assert new[urn]["protect"]
    actions = {c.urn: c.action for c in diff_plans(before.resources, after.resources, stack)}
    assert {actions[urn] for urn in stateful} <= {"same", "update"}


@pytest.mark.parametrize(("stack", "change"), CASES)
def test_cluster_changes_never_replace_the_file_system(tmp_path, stack, change):
    write_stack(tmp_path, stack)
    before = run_plan(stack, tmp_path)
    write_stack(tmp_path, stack, **change)
    after = run_plan(stack, tmp_path)
    assert before.resources != after.resources, "the change must change something"
    assert_file_system_kept(before, after, stack)


def test_newer_image_changes_nothing_as_the_engine_honours_ignore_changes(tmp_path, monkeypatch):
    """The AMI lookup finds a newer DLAMI; the template ignores `imageId`, so a real preview
    shows no change, and neither may the review (no new template version, no node or group
    touched, the head node keeps its `ami`)."""
    write_stack(tmp_path, "training-a100")
    before = run_plan("training-a100", tmp_path)
    monkeypatch.setattr("clouds.aws.mock.AMI_ID", "ami-0fedcba9876543210")  # a newer DLAMI release
    after = run_plan("training-a100", tmp_path)
    assert before.resources != after.resources, "the plan sees the newer image"
    assert_file_system_kept(before, after, "training-a100")
    changes = diff_plans(before.resources, after.resources, "training-a100")
    assert {c.action for c in changes} == {"same"}


@pytest.mark.parametrize("stack", sorted(VARIATIONS))
def test_two_plans_of_one_stack_are_identical(stack):
    """A real run agrees with the session's first plan of the stack (made earlier, in another
    state of the process; run alone, this test's own first run)."""
    first = run_plan(stack, ROOT)
    with afresh():  # a real run, never one answered from the first
        second = run_plan(stack, ROOT)
    assert first.resources == second.resources
    assert first.outputs == second.outputs
    assert {c.action for c in diff_plans(first.resources, second.resources, stack)} == {"same"}


COMMITTED = sorted(
    p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml")
)
RENAMED = "renamed"  # the new name of a renamed committed stack


@pytest.mark.parametrize("base", COMMITTED)
def test_a_renamed_stack_keeps_every_input_of_every_resource(tmp_path, base):
    """`pulumi stack rename renamed -s <base>` keeps the state under the new stack name; the
    new file lists `<base>` under trainstack:previous_names. Names, tags, descriptions and every
    other input stay as they were (after alias mapping), so nothing is updated or replaced."""
    write_stack(tmp_path, base)  # the committed stack as it is (its plan is the session's)
    old = run_plan(base, tmp_path)
    write_stack(tmp_path, RENAMED, base=base, config={"trainstack:previous_names": [base]})
    new = run_plan(RENAMED, tmp_path)
    changes = diff_plans(old.resources, new.resources, RENAMED)
    assert [(c.action, c.name, c.changed) for c in changes if c.action != "same"] == []
    assert len(changes) == len(old.resources)


def test_renamed_cluster_keeps_its_name_and_every_urn(tmp_path):
    """After `pulumi stack rename renamed -s training-a100` (which rewrites the stack part of
    every URN), the cluster keeps its name `training-a100`: every URN is the old one, with no
    alias needed. A cluster renamed while its name followed the stack (its state says
    `renamed-...`) is still matched, through the alias `renamed` the component carries."""
    base = "training-a100"
    write_stack(tmp_path, base)
    old = run_plan(base, tmp_path)
    write_stack(tmp_path, RENAMED, base=base, config={"trainstack:previous_names": [base]})
    new = run_plan(RENAMED, tmp_path)
    assert set(urns(new.resources, RENAMED)) == set(urns(old.resources, RENAMED))
    (cluster,) = [r for r in new.resources if r["parent"] is None]
    # __main__ aliases the stack name (the alias specs the component registered)
    assert (cluster["type"], cluster["name"], cluster["aliases"]) == ("trainstack:aws:GpuCluster", base, [RENAMED])
    fsx = "trainstack:aws:GpuCluster$aws:fsx/lustreFileSystem:LustreFileSystem::training-a100-fsx"
    assert f"urn:pulumi:{RENAMED}::trainstack::{fsx}" in urns(new.resources, RENAMED)

    write_stack(tmp_path, RENAMED, base=base)  # the state of a cluster named after its new stack
    followed = run_plan(RENAMED, tmp_path)
    changes = diff_plans(followed.resources, new.resources, RENAMED)
    assert not [c for c in changes if c.action in ("create", "delete")]
    # Without previous_names the same rename would delete the old file system and create a new one.
    deleted = {c.name for c in diff_plans(old.resources, followed.resources, RENAMED) if c.action == "delete"}
    assert "training-a100-fsx" in deleted
