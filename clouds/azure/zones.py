"""Azure availability zones: which regions have them and what a stack's `zone` may be.

A stack's `zone` on Azure is the region name (a regional cluster, as the catalog's
region-priced rows give it) or a logical availability zone, "1", "2" or "3", in a region
that has zones (`components.azure.layout.placement_zones` places the cluster by it).
Anything else (another region, a typo such as `eastus-2`) is refused, never read as a
regional cluster that is then pinned to zone 1.
"""

from __future__ import annotations

# Availability-zone names Azure uses within a region.
ZONE_NAMES = ("1", "2", "3")

# Public-cloud regions with availability zones, as programmatic names. Source: Microsoft
# Learn "Azure regions list" (MicrosoftDocs/azure-docs articles/reliability/regions-list.md,
# ms.date 03/21/2025, rows with the availability-zone checkmark), plus Austria East and
# Belgium Central, which the newer learn.microsoft.com regions-list page lists with 3 zones.
# A region that gained zones since is missing here, so an explicit zone there is refused
# (`zone_problem`); add the region here with its source.
REGIONS_WITH_ZONES = frozenset(
    {
        "australiaeast",
        "austriaeast",
        "belgiumcentral",
        "brazilsouth",
        "canadacentral",
        "centralindia",
        "centralus",
        "eastasia",
        "eastus",
        "eastus2",
        "francecentral",
        "germanywestcentral",
        "indonesiacentral",
        "israelcentral",
        "italynorth",
        "japaneast",
        "japanwest",
        "koreacentral",
        "mexicocentral",
        "newzealandnorth",
        "northeurope",
        "norwayeast",
        "polandcentral",
        "qatarcentral",
        "southafricanorth",
        "southcentralus",
        "southeastasia",
        "spaincentral",
        "swedencentral",
        "switzerlandnorth",
        "uaenorth",
        "uksouth",
        "westeurope",
        "westus2",
        "westus3",
    }
)


def zone_problem(region: str, zone: str) -> str | None:
    """Why `zone` cannot place a cluster in Azure region `region`, as one line naming
    `zone` and the valid values; None when it can.

    Args:
        region: `ClusterConfig.region`, e.g. `eastus`.
        zone: `ClusterConfig.zone`, e.g. `eastus` or `2`.
    """
    zone, region = zone.strip(), region.strip().lower()
    zoned = region in REGIONS_WITH_ZONES
    if zone == region or (zoned and zone in ZONE_NAMES):
        return None
    valid = f"{region} (regional) or {', '.join(ZONE_NAMES[:-1])} or {ZONE_NAMES[-1]} (an availability zone)"
    if zone in ZONE_NAMES:
        return (
            f"zone: '{zone}' but {region} has no availability zones (Microsoft Learn regions list); set zone: {region}"
        )
    return f"zone: '{zone}' is not a zone of Azure region {region}; valid: {valid if zoned else region}"
