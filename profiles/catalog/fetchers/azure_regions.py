"""Azure Retail Prices `location` display names -> ARM region names (`armRegionName`).

The Retail Prices API names each item's region twice: `armRegionName` ("eastus2", what ARM,
the Azure CLI and Pulumi take) and `location`, a billing display name ("US East 2") that is
neither the ARM name nor the portal's "East US 2". The fetcher uses `armRegionName` and
falls back to this table only for an item that lacks it.

Sources: recorded Retail Prices answers pair "US East" with eastus and "EU West" with
westeurope; the rest follow Azure/BatchExplorer `src/app/services/pricing.service.ts`
(`regionMapping`, the same meter-region names from the RateCard API), plus "US West 3"
(westus3, a region of the offline catalog) as other public Retail Prices clients map it.
"""

from __future__ import annotations

LOCATION_TO_REGION: dict[str, str] = {
    "US East": "eastus",
    "US East 2": "eastus2",
    "US Central": "centralus",
    "US North Central": "northcentralus",
    "US South Central": "southcentralus",
    "US West Central": "westcentralus",
    "US West": "westus",
    "US West 2": "westus2",
    "US West 3": "westus3",
    "CA Central": "canadacentral",
    "CA East": "canadaeast",
    "BR South": "brazilsouth",
    "EU North": "northeurope",
    "EU West": "westeurope",
    "UK South": "uksouth",
    "UK West": "ukwest",
    "FR Central": "francecentral",
    "FR South": "francesouth",
    "AP East": "eastasia",
    "AP Southeast": "southeastasia",
    "AU East": "australiaeast",
    "AU Southeast": "australiasoutheast",
    "JA East": "japaneast",
    "JA West": "japanwest",
    "KR Central": "koreacentral",
    "KR South": "koreasouth",
    "IN Central": "centralindia",
    "IN South": "southindia",
    "IN West": "westindia",
}


def region_of(item: dict) -> str | None:
    """The ARM region name of a Retail Prices item: `armRegionName`, else its mapped
    `location`; None when neither gives one (the caller skips the item)."""
    arm = item.get("armRegionName")
    if isinstance(arm, str) and arm:
        return arm
    return LOCATION_TO_REGION.get(str(item.get("location", "")))
