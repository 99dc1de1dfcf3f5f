"""The scale set heals itself: spot restore for spot, automatic repairs behind a health probe."""

from __future__ import annotations

import pytest

from tests.components.azure.test_azure_cluster import VMSS


@pytest.mark.parametrize(
    ("purchase", "restore"),
    [
        pytest.param("spot", {"enabled": True, "restoreTimeout": "PT1H"}, id="spot"),
        pytest.param("on-demand", None, id="on-demand"),
    ],
)
def test_repairs_always_and_spot_restore_for_spot(azure_records, azure_config, purchase, restore):
    scale_set = next(r for r in azure_records(azure_config(purchase=purchase)) if r["type"] == VMSS)["inputs"]
    assert scale_set["automaticRepairsPolicy"] == {"enabled": True, "gracePeriod": "PT30M", "repairAction": "Replace"}
    assert scale_set.get("spotRestorePolicy") == restore
    if restore:  # spot restore needs the Delete eviction policy
        assert scale_set["virtualMachineProfile"]["evictionPolicy"] == "Delete"


def test_repairs_have_the_application_health_extension(azure_records, azure_config):
    scale_set = next(r for r in azure_records(azure_config()) if r["type"] == VMSS)["inputs"]
    (extension,) = scale_set["virtualMachineProfile"]["extensionProfile"]["extensions"]
    assert (extension["publisher"], extension["type"]) == ("Microsoft.ManagedServices", "ApplicationHealthLinux")
    assert extension["settings"] == {"protocol": "tcp", "port": 22}
    assert scale_set["upgradePolicy"] == {"mode": "Manual"}  # the model change restarts no node
