"""The node scale set's lifecycle options (recreated on Spot <-> Regular) and its
encryption-at-host switch."""

from __future__ import annotations

import pytest

import components.azure.profile as profile_module
from components.azure.compute import SCALE_SET_REPLACE_ON_CHANGES
from components.azure.profile import security_settings, vm_profile
from tests.components.azure.test_azure_cluster import VMSS, scale_set_profile
from trainstack.review.diff import changed_paths
from trainstack.review.replacements import replace_keys, replace_paths


def test_scale_set_is_recreated_when_priority_changes(azure_run, azure_config):
    monitor, _ = azure_run(azure_config())
    assert monitor.options["c-nodes"] == {
        "replaceOnChanges": [
            "virtualMachineProfile.priority",
            "virtualMachineProfile.evictionPolicy",
            "orchestrationMode",
            "zones",  # a regional set made zonal (finding 18): replaced, old nodes deleted first
        ],
        "deleteBeforeReplace": True,
    }
    # Only the scale set: the file system and the network keep the engine's defaults.
    for name in ("c-lustre", "c-ppg", "c-nat", "c-nodes-subnet"):
        assert monitor.options[name] == {"replaceOnChanges": [], "deleteBeforeReplace": False}


def test_component_and_diff_tool_agree_on_scale_set_replacements(azure_records, azure_config):
    assert set(SCALE_SET_REPLACE_ON_CHANGES) <= set(replace_paths(VMSS))
    spot = azure_records(azure_config(purchase="spot"))
    regular = azure_records(azure_config(purchase="on-demand"))
    old = [r for r in spot if r["type"] == VMSS][0]["inputs"]
    new = [r for r in regular if r["type"] == VMSS][0]["inputs"]
    assert replace_keys(VMSS, changed_paths(old, new), old, new) == [
        "virtualMachineProfile.evictionPolicy",
        "virtualMachineProfile.priority",
    ]


def test_encryption_at_host_is_off_by_default_and_sends_no_security_profile(azure_config):
    assert profile_module.ENCRYPTION_AT_HOST is False
    assert "security_profile" not in vm_profile("c", azure_config(), "subnet", "nsg", "key")
    assert security_settings(False) == {}
    assert security_settings(True) == {"security_profile": {"encryption_at_host": True}}


@pytest.mark.parametrize(("switch", "expected"), [(False, None), (True, {"encryptionAtHost": True})])
def test_encryption_at_host_switch_reaches_the_scale_set(azure_records, azure_config, monkeypatch, switch, expected):
    monkeypatch.setattr(profile_module, "ENCRYPTION_AT_HOST", switch)
    assert scale_set_profile(azure_records(azure_config())).get("securityProfile") == expected
