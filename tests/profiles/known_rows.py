"""Hardware of catalog rows that several tests check, written down once from the source."""

from operator import attrgetter

from profiles.catalog.offering import Offering

# GT4.41XLARGE948: 8 x A100 NVLink 40 GB, 164 vCPUs, 948 GiB, up to 50 Gbps
# (reference-facts/china-clouds.md, Tencent Cloud GPU families table).
GT4_41XLARGE948 = ("A100", 8, 40.0, 164.0, 948.0, 50.0)


def hardware(row: Offering) -> tuple:
    """(accelerator, count, GiB per accelerator, vCPUs, host GiB, Gbps) of `row`."""
    return attrgetter(
        "accelerator", "accelerator_count", "accelerator_memory_gib", "vcpus", "memory_gib", "network_gbps"
    )(row)
