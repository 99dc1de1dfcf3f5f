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

import trainstack.plan
from policies.rules import STATEFUL
from trainstack.diff import changed_paths, diff_plans, urns
from trainstack.mocks import RecordingMonitor
from trainstack.plan import run_plan
from trainstack.replacements import replace_keys

ROOT = Path(__file__).resolve().parents[2]
VARIATIONS = {
    "training-a100": [{"nodes": 3}, {"nodes": 1}, {"instance_type": "p5.48xlarge"}, {"purchase": "on-demand"}],
    "training-h100-azure": [{"nodes": 3}, {"instance_type": "Standard_ND96asr_v4"}, {"purchase": "spot"}],
    "training-a3-gcp": [{"nodes": 3}, {"instance_type": "a3-megagpu-8g"}, {"purchase": "on-demand"}],
    "training-tpu-v5p": [{"nodes": 2}, {"purchase": "on-demand"}],
}
CASES = [pytest.param(s, v, id=f"{s}-{'-'.join(f'{k}={x}' for k, x in v.items())}")
         for s, vs in VARIATIONS.items() for v in vs]


def write_stack(project: Path, stack: str, base: str = "", config: dict | None = None, **cluster) -> None:
    """Copy the program and write `stacks/Pulumi.<stack>.yaml` from committed stack `base`."""
    for name in ("__main__.py", "Pulumi.yaml"):
        if not (project / name).exists():
            shutil.copy(ROOT / name, project / name)
    document = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{base or stack}.yaml").read_text())
    document["config"]["trainstack:cluster"].update(cluster)
    document["config"].update(config or {})
    (project / "stacks").mkdir(exist_ok=True)
    (project / "stacks" / f"Pulumi.{stack}.yaml").write_text(yaml.safe_dump(document))


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


def test_new_image_updates_the_template_and_rolls_no_node(tmp_path, monkeypatch):
    write_stack(tmp_path, "training-a100")
    before = run_plan("training-a100", tmp_path)
    monkeypatch.setattr("clouds.aws.mock.AMI_ID", "ami-0fedcba9876543210")  # a newer DLAMI release
    after = run_plan("training-a100", tmp_path)
    assert_file_system_kept(before, after, "training-a100")
    actions = {(c.type.split(":")[-1], c.action) for c in diff_plans(before.resources, after.resources, "training-a100")}
    assert ("LaunchTemplate", "update") in actions
    # The group follows the template's $Latest version and has no instance refresh: running
    # nodes stay; only replacements launch from the new version.
    assert ("Group", "same") in actions and not {a for t, a in actions if t in ("Group", "Instance")} - {"same"}


@pytest.mark.parametrize("stack", sorted(VARIATIONS))
def test_two_plans_of_one_stack_are_identical(stack):
    first, second = run_plan(stack, ROOT), run_plan(stack, ROOT)
    assert first.resources == second.resources
    assert first.outputs == second.outputs
    assert {c.action for c in diff_plans(first.resources, second.resources, stack)} == {"same"}


class AliasRecordingMonitor(RecordingMonitor):
    """Also keeps each resource's alias specs (old names) by logical name."""

    aliases: dict[str, list[str]] = {}

    def RegisterResource(self, request):  # noqa: N802 (gRPC method name)
        AliasRecordingMonitor.aliases[request.name] = [a.spec.name for a in request.aliases if a.spec.name]
        return super().RegisterResource(request)


def test_renamed_cluster_keeps_every_urn_through_aliases(tmp_path, monkeypatch):
    from pulumi.runtime.resource import inherited_child_alias
    from pulumi.runtime.sync_await import _sync_await

    write_stack(tmp_path, "old", base="training-a100")
    old = run_plan("old", tmp_path)
    monkeypatch.setattr(trainstack.plan, "RecordingMonitor", AliasRecordingMonitor)
    write_stack(tmp_path, "new", base="training-a100", config={"trainstack:previous_names": ["old"]})
    new = run_plan("new", tmp_path)
    assert AliasRecordingMonitor.aliases["new"] == ["old"]  # __main__ passes the alias to the component

    # `pulumi stack rename old new` rewrites the stack part of every URN in the state.
    old_urns = urns(old.resources, "new")
    parent_alias = "urn:pulumi:new::trainstack::trainstack:aws:GpuCluster::old"
    aliased = {parent_alias}
    for record in new.resources:
        if record["parent"] == "new":  # Pulumi's inherited child alias, as the engine applies it
            alias = inherited_child_alias(record["name"], "new", parent_alias, record["type"])
            aliased.add(_sync_await(alias.future()))
    assert aliased == set(old_urns)
    fsx = "urn:pulumi:new::trainstack::trainstack:aws:GpuCluster$aws:fsx/lustreFileSystem:LustreFileSystem::old-fsx"
    assert fsx in aliased

    # Without the alias the same rename would delete the old file system and create a new one.
    deleted = {c.name for c in diff_plans(old.resources, new.resources, "new") if c.action == "delete"}
    assert "old-fsx" in deleted
