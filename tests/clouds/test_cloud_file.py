"""Each cloud's `cloud.yaml` becomes its `Cloud` (`clouds.cloud_file.read_cloud`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from clouds.base import Cloud, Feature, FileSystemRule
from clouds.cloud_file import read_cloud, read_replacements
from clouds.input_file import parse_yaml as load_unique
from clouds.lost_node import Healing, manual_healing
from clouds.registry import NAMES
from clouds.replacement_rules import NodeEffect, Replacements
from tests.cases import cases

ROOT = Path(__file__).resolve().parents[2]
FIELDS = {f.name for f in dataclasses.fields(Cloud)}


def _cloud(tmp_path: Path, text: str) -> Cloud:
    (tmp_path / "cloud.yaml").write_text("name: mars\ndisplay_name: Mars Cloud\n" + text)
    return read_cloud(tmp_path / "__init__.py")


@pytest.mark.parametrize("name", NAMES)
def test_each_cloud_file_gives_every_key_once_and_only_cloud_fields(name):
    raw = load_unique((ROOT / "clouds" / name / "cloud.yaml").read_text())
    assert raw["name"] == name
    assert set(raw) <= FIELDS


def test_group_healing_fills_the_restart_figure_into_its_summary(tmp_path):
    cloud = _cloud(
        tmp_path,
        "healing:\n  replaces_nodes: true\n  runs_job: false\n  restart_hours: group\n"
        "  summary: replaced ({restart_hours:g} h)\n  no_job_types: [[tpu-, no agent]]\n",
    )
    assert cloud.healing == Healing(True, False, 0.25, "replaced (0.25 h)", (("tpu-", "no agent"),), ())


def test_manual_healing_names_the_cloud_and_what_could_heal_it(tmp_path):
    cloud = _cloud(tmp_path, "healing: {manual: its scaling group}\n")
    assert cloud.healing == manual_healing("Mars Cloud", "its scaling group")
    assert cloud.healing.restart_hours == 2.0
    assert _cloud(tmp_path, "").healing == manual_healing("Mars Cloud")


def test_patterns_rules_features_and_token_sets_become_their_types(tmp_path):
    cloud = _cloud(
        tmp_path,
        "mainland: '^cn-\\d$'\nfile_system: {target: 'm:f', service: Lustre, by_numbers: true}\n"
        "missing: {BUCKET_LINK: no data flow}\nstateful: [mars:fs:Fs, mars:fs:Fs]\n"
        "reserved_discount: {1y: 0.3}\n",
    )
    assert cloud.in_mainland_china("cn-4") and not cloud.in_mainland_china("cn-north")
    assert cloud.file_system == FileSystemRule("m:f", "Lustre", by_numbers=True)
    assert cloud.why_not(Feature.BUCKET_LINK) == "no data flow" and cloud.supports(Feature.ZONE_PRICES)
    assert cloud.stateful == frozenset({"mars:fs:Fs"})
    assert cloud.reserved_discount == {"1y": 0.3}
    assert cloud.region_key == "mars:region"  # the Cloud's own default still applies


@pytest.mark.parametrize(("text", "message"), cases("bad_cloud_files.yaml", "text", "message"))
def test_a_bad_cloud_file_is_one_error_naming_the_file(tmp_path, text, message):
    with pytest.raises(ValueError, match=rf"cloud.yaml: .*{message}"):
        _cloud(tmp_path, text)


def test_a_cloud_file_that_is_not_a_mapping_is_refused(tmp_path):
    (tmp_path / "cloud.yaml").write_text("- aws\n")
    with pytest.raises(ValueError, match="cloud.yaml: not a mapping of Cloud fields"):
        read_cloud(tmp_path / "__init__.py")


def test_replacements_file_gives_tuples_sets_and_node_effects(tmp_path):
    (tmp_path / "replacements.yaml").write_text(
        "replace_on_change: {'mars:vm:Vm': [zone, 'nics#']}\nname_in_place: ['mars:vm:Vm']\n"
        "cascades: [[mars:vm:Vm, templateVersion, mars:vm:Template, templateId]]\n"
        "every_type: [['mars:', [location]]]\n"
        "node_effects: {'mars:vm:Group': {resizes: [size], replace_keeps_nodes: true}}\n"
    )
    found = read_replacements(tmp_path / "replacements.py")
    assert found == Replacements(
        replace_on_change={"mars:vm:Vm": ("zone", "nics#")},
        name_in_place=frozenset({"mars:vm:Vm"}),
        cascades=(("mars:vm:Vm", "templateVersion", "mars:vm:Template", "templateId"),),
        every_type=(("mars:", ("location",)),),
        node_effects={"mars:vm:Group": NodeEffect(resizes=("size",), replace_keeps_nodes=True)},
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("replace_on_chnage: {}\n", "unknown key 'replace_on_chnage'; Replacements has", id="key"),
        pytest.param("node_effects: {'mars:g:G': {rools: [x]}}\n", "unexpected keyword argument 'rools'", id="effect"),
    ],
)
def test_a_bad_replacements_file_names_the_file(tmp_path, text, message):
    (tmp_path / "replacements.yaml").write_text(text)
    with pytest.raises(ValueError, match=rf"replacements.yaml: .*{message}"):
        read_replacements(tmp_path / "replacements.py")
