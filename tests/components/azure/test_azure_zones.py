"""One zone for the scale set, the file system and the NAT gateway
(`layout.placement_zones`): explicit zones, the AMLFS default zone, and no zone."""

from __future__ import annotations

import pytest

from clouds.azure.zones import zone_problem
from components.azure.layout import REGIONS_WITH_ZONES, placement_zones
from tests.components.azure.test_azure_cluster import AMLFS, VMSS, by_type, one

PPG = "azure-native:compute:ProximityPlacementGroup"
ZONED = (VMSS, AMLFS, "azure-native:network:NatGateway", "azure-native:network:PublicIPAddress")
NO_FS = {"file_system": None}


@pytest.mark.parametrize(
    ("overrides", "zones"),
    [
        pytest.param({}, ["1"], id="regional-eastus-with-fs-gets-zone-1"),
        pytest.param({"zone": "2"}, ["2"], id="explicit-zone-2"),
        pytest.param({"zone": "3", **NO_FS}, ["3"], id="explicit-zone-without-fs"),
        pytest.param(NO_FS, None, id="regional-without-fs-no-zone"),
        pytest.param({"region": "westus", "zone": "westus"}, None, id="region-without-zones"),
    ],
)
def test_placement_group_file_system_and_nat_share_one_zone(azure_records, azure_config, overrides, zones):
    records = azure_records(azure_config(**overrides))
    found = {r["type"]: r["inputs"].get("zones") for r in records if r["type"] in ZONED}
    expected = {kind: zones for kind in ZONED}
    if "file_system" in overrides:
        del expected[AMLFS]
    assert found == expected
    # the scale set carries the zone; the placement group names none (Azure refuses a group's
    # zone without an intent, co-location.md), and the scale set, its first member, pins it
    assert one(records, VMSS)["inputs"].get("zones") == zones
    assert "zones" not in one(records, PPG)["inputs"] and "intent" not in one(records, PPG)["inputs"]


def test_zone_rule_does_not_depend_on_nodes_type_or_purchase(azure_records, azure_config):
    changed = azure_records(azure_config(nodes=16, instance_type="Standard_ND96isr_H100_v5", purchase="on-demand"))
    assert one(changed, AMLFS)["inputs"]["zones"] == ["1"]
    assert [r["inputs"]["zones"] for r in by_type(changed, VMSS)] == [["1"]]


@pytest.mark.parametrize(
    ("region", "zone", "has_fs", "zones"),
    [
        pytest.param("eastus", "eastus", True, ["1"], id="zonal-region-fs"),
        pytest.param("EastUS2", "eastus2", True, ["1"], id="case-insensitive-region"),
        pytest.param("eastus", "eastus", False, None, id="no-fs"),
        pytest.param("westus", "westus", True, None, id="region-without-zones"),
        pytest.param("northcentralus", "northcentralus", True, None, id="ncus-without-zones"),
        pytest.param("westus", "1", False, ["1"], id="explicit-wins"),
        pytest.param("eastus", " 3 ", True, ["3"], id="explicit-trimmed"),
        pytest.param("eastus", "4", True, ["1"], id="not-a-zone-name"),
    ],
)
def test_placement_zones(region, zone, has_fs, zones):
    assert placement_zones(region, zone, has_fs) == zones


def test_catalog_regions_with_nd_sizes_are_classified():
    # eastus, eastus2, southcentralus and westus2 list zones in Microsoft's regions list;
    # westus does not (Azure regions list, regions-list.md).
    assert {"eastus", "eastus2", "southcentralus", "westus2"} <= REGIONS_WITH_ZONES
    assert "westus" not in REGIONS_WITH_ZONES


# id: (region, zone, the refusal or None)
ZONE_CASES = {
    "regional": ("eastus", "eastus", None),
    "zone-3": ("eastus", "3", None),
    "zone-2-spaced": ("eastus", " 2 ", None),
    "regional-no-zones": ("westus", "westus", None),
    "zone-in-region-without": (
        "westus",
        "2",
        "zone: '2' but westus has no availability zones (Microsoft Learn regions list); set zone: westus",
    ),
    "other-no-zones": ("westus", "westus2", "zone: 'westus2' is not a zone of Azure region westus; valid: westus"),
    "aws-zone": (
        "eastus",
        "us-east-1a",
        "zone: 'us-east-1a' is not a zone of Azure region eastus; valid: eastus (regional) or 1, 2 or 3 "
        "(an availability zone)",
    ),
}


@pytest.mark.parametrize(("region", "zone", "problem"), [pytest.param(*c, id=i) for i, c in ZONE_CASES.items()])
def test_zone_problem(region, zone, problem):
    assert zone_problem(region, zone) == problem
