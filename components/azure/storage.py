"""The shared Azure Managed Lustre file system of the cluster (a stateful, protected child)."""

from __future__ import annotations

from collections.abc import Sequence

import pulumi
import pulumi_azure_native as azure_native

from clouds.azure.amlfs import MAINTENANCE_DAY, MAINTENANCE_TIME_UTC, amlfs_sizing
from clouds.contract import FileSystemConfig
from components.azure.place import Place


def create_file_system(
    place: Place,
    config: FileSystemConfig,
    subnet_id: pulumi.Input[str],
    hsm: dict | None = None,
    depends_on: Sequence[pulumi.Resource] = (),
) -> azure_native.storagecache.AmlFilesystem:
    """Create an Azure Managed Lustre file system in its own subnet, protected from deletion.

    Its name and inputs depend only on the cluster name, region, zone, network and whether
    there is a file system at all, never on node count, instance type or purchase option, so changing
    those never replaces it. Data is encrypted at rest with Microsoft-managed keys (the
    service default without `encryption_settings`, AMLFS Resource Manager template docs).

    Args:
        place: the cluster's place; the file system is `{name}-lustre`, in the place's zone
            (`layout.placement_zones`: the explicit zone, else zone "1" in regions with zones,
            since AMLFS asks for one there, else None); `protect=True` is added to its options.
        config: requested capacity (GiB, rounded up per M1) and throughput tier (MB/s per
            TiB, picks the SKU per M1).
        subnet_id: the file system's own subnet.
        hsm: the blob link's `hsm` settings (`data_link.create_blob_link`), or None. Azure reads
            them at creation: the import prefix "is only used during initial creation".
        depends_on: resources the file system must wait for (the resource provider's roles on
            the storage account: creation fails without them, amlfs-prerequisites.md).

    Raises:
        ValueError: for a throughput tier without an AMLFS SKU.
    """
    sizing = amlfs_sizing(config.capacity_gib, config.throughput_mbps_per_tib)
    return azure_native.storagecache.AmlFilesystem(
        f"{place.name}-lustre",
        **place.located(),
        sku={"name": sizing.sku},
        storage_capacity_ti_b=float(sizing.capacity_tib),
        filesystem_subnet=subnet_id,
        maintenance_window={
            "day_of_week": MAINTENANCE_DAY,
            "time_of_day_utc": MAINTENANCE_TIME_UTC,
        },
        zones=place.zones,
        hsm=hsm,
        opts=place.options(protect=True, depends_on=list(depends_on)),
    )
