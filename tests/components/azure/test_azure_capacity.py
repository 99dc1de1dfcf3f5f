"""Azure when there is no capacity: no several-size scale set for GPU sizes (instance mix takes
only A, B, D, E and F families), and Spot Priority Mix (a Flexible set keeping
`on_demand_nodes` regular VMs beside spot ones) for clusters without InfiniBand."""

from __future__ import annotations

import pytest

from tests.clusters import example_config

VMSS = "azure-native:compute:VirtualMachineScaleSet"
NO_FABRIC = {"instance_type": "Standard_NC96ads_A100_v4", "accelerator_count": 4, "interconnect": "none"}


def test_a_spot_cluster_without_infiniband_keeps_its_on_demand_nodes_in_a_flexible_set(azure_records):
    records = azure_records(example_config("azure", **NO_FABRIC, nodes=4, on_demand_nodes=1))
    (vmss,) = [r["inputs"] for r in records if r["type"] == VMSS]
    assert vmss["orchestrationMode"] == "Flexible" and vmss["platformFaultDomainCount"] == 1
    assert vmss["priorityMixPolicy"] == {"baseRegularPriorityCount": 1, "regularPriorityPercentageAboveBase": 0}
    assert "singlePlacementGroup" not in vmss and "overprovision" not in vmss  # a Flexible set takes neither
    assert vmss["virtualMachineProfile"]["priority"] == "Spot"
    assert vmss["virtualMachineProfile"]["networkProfile"]["networkApiVersion"] == "2020-11-01"
    assert vmss["sku"]["capacity"] == 4 and "proximityPlacementGroup" in vmss


def test_without_on_demand_nodes_the_set_stays_uniform_in_one_placement_group(azure_records):
    (vmss,) = [r["inputs"] for r in azure_records(example_config("azure")) if r["type"] == VMSS]
    assert (vmss["orchestrationMode"], vmss["singlePlacementGroup"], vmss["overprovision"]) == ("Uniform", True, False)
    assert "priorityMixPolicy" not in vmss


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        pytest.param({"on_demand_nodes": 1}, "InfiniBand cluster stays one Uniform scale set", id="infiniband"),
        pytest.param({**NO_FABRIC, "on_demand_nodes": 2}, "every node; set purchase: on-demand", id="all"),
        pytest.param({**NO_FABRIC, "purchase": "on-demand", "on_demand_nodes": 1}, "only a spot cluster", id="od"),
        pytest.param(
            {"fallback_types": ["Standard_ND96amsr_A100_v4"]},
            "instance mix takes only A, B, D, E and F family sizes",
            id="several-sizes",
        ),
    ],
)
def test_what_the_scale_set_cannot_do_is_refused_in_one_line(changes: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        example_config("azure", **changes)


def test_a_cloud_without_a_mix_refuses_on_demand_nodes() -> None:
    with pytest.raises(ValueError, match="node group holds one purchase option"):
        example_config("tencentcloud", purchase="spot", on_demand_nodes=1)
