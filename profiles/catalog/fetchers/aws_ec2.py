"""What EC2 itself says about GPU instance types in one region (boto3, paginated).

- DescribeInstanceTypes: accelerators (GpuInfo, or NeuronInfo for Trainium), vCPUs, host
  memory, max EFA interfaces (NetworkInfo.EfaInfo.MaximumEfaInterfaces) and the advertised
  network performance.
- DescribeAvailabilityZones: zone name -> zone ID (spot prices come per zone name; the
  catalog keys zones by ID, which names the same physical zone in every account).
- DescribeInstanceTypeOfferings (LocationType availability-zone-id): which zones offer a type.
- DescribeSpotPriceHistory (StartTime now, Linux/UNIX): the latest spot price per zone.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from facts.accelerators import accelerator_facts
from profiles.catalog.fetchers import FetchError
from profiles.preflight.aws_api import aws_errors

RETRY_HINT = "rerun `trainstack catalog refresh --provider aws`"
FILTER_CHUNK = 100  # instance types per filter (well under EC2's filter value limit)
_GBPS = re.compile(r"(?:(\d+)\s*x\s*)?(\d+(?:\.\d+)?)\s*Gigabit", re.I)


class TypeInfo(NamedTuple):
    """Hardware of one instance type, from DescribeInstanceTypes.

    Attributes:
        instance_type: e.g. `p4d.24xlarge`.
        accelerator: normalized accelerator name (`A100`, `A100-80GB`, `Trainium`).
        accelerator_count: accelerators per instance.
        accelerator_memory_gib: memory per accelerator, GiB (facts table, else the API's MiB).
        vcpus: default vCPUs per instance.
        memory_gib: host memory, GiB.
        max_efa_interfaces: NetworkInfo.EfaInfo.MaximumEfaInterfaces (0 without EFA).
        network_gbps: NetworkPerformance in Gbps ("4x 100 Gigabit" -> 400); None if unparsed.
    """

    instance_type: str
    accelerator: str
    accelerator_count: int
    accelerator_memory_gib: float | None
    vcpus: float
    memory_gib: float
    max_efa_interfaces: int
    network_gbps: float | None


def network_gbps(text: str | None) -> float | None:
    """Gbps of an EC2 NetworkPerformance string: `4x 100 Gigabit` -> 400, `Up to 25 Gigabit` -> 25."""
    match = _GBPS.search(text or "")
    return float(match[2]) * int(match[1] or 1) if match else None


def normalize_accelerator(name: str, memory_gib: float | None) -> str:
    """The catalog's accelerator name: a larger-memory variant gets its own name.

    `A100` with 80 GiB (p4de) -> `A100-80GB`; `V100` with 32 GiB (p3dn) -> `V100-32GB`.
    """
    facts = accelerator_facts(name)
    if facts and memory_gib and memory_gib > facts.memory_gib * 1.5:
        variant = f"{name}-{round(memory_gib)}GB"
        if accelerator_facts(variant):
            return variant
    return name


def parse_type(entry: dict) -> TypeInfo | None:
    """One DescribeInstanceTypes entry -> TypeInfo; None when it has no accelerator.

    Raises:
        KeyError, TypeError, ValueError: the entry is malformed.
    """
    devices = (entry.get("GpuInfo") or {}).get("Gpus") or (entry.get("NeuronInfo") or {}).get("NeuronDevices")
    if not devices:
        return None
    mib = (devices[0].get("MemoryInfo") or {}).get("SizeInMiB")
    api_gib = mib / 1024 if mib else None
    name = normalize_accelerator(devices[0]["Name"], api_gib)
    facts = accelerator_facts(name)
    network = entry.get("NetworkInfo") or {}
    return TypeInfo(
        entry["InstanceType"],
        name,
        sum(int(d["Count"]) for d in devices),
        facts.memory_gib if facts else api_gib,
        float(entry["VCpuInfo"]["DefaultVCpus"]),
        entry["MemoryInfo"]["SizeInMiB"] / 1024,
        int((network.get("EfaInfo") or {}).get("MaximumEfaInterfaces", 0)),
        network_gbps(network.get("NetworkPerformance")),
    )


def _pages(ec2: Any, operation: str, region: str, key: str, **params: Any) -> Iterator[dict]:
    """Items under `key` of every page of `operation`; one-line FetchError on failure."""
    call = "ec2:" + "".join(part.title() for part in operation.split("_"))
    with aws_errors(call, region, FetchError, RETRY_HINT):
        for page in ec2.get_paginator(operation).paginate(**params):
            if not isinstance(page.get(key), list):
                raise FetchError(
                    f"AWS {call} in {region} returned a page without {key}; catalog unchanged, {RETRY_HINT} later"
                )
            yield from page[key]


def _pages_for_types(
    ec2: Any, operation: str, region: str, key: str, names: list[str], params: Callable[[list[str]], dict[str, Any]]
) -> Iterator[dict]:
    """`_pages` of `operation` for the instance types `names` (sorted), asked `FILTER_CHUNK` at a
    time; `params(chunk)` gives one request's parameters."""
    ordered = sorted(names)
    for start in range(0, len(ordered), FILTER_CHUNK):
        yield from _pages(ec2, operation, region, key, **params(ordered[start : start + FILTER_CHUNK]))


def instance_types(ec2: Any, region: str, families: tuple[str, ...]) -> dict[str, TypeInfo]:
    """Accelerated instance types of `families` (`p4d`, `g5`, ...) that `region` knows."""
    patterns = [f"{family}.*" for family in families]
    found: dict[str, TypeInfo] = {}
    for entry in _pages(
        ec2, "describe_instance_types", region, "InstanceTypes", Filters=[{"Name": "instance-type", "Values": patterns}]
    ):
        try:
            info = parse_type(entry)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise FetchError(
                f"AWS ec2:DescribeInstanceTypes in {region} returned a malformed entry "
                f"(missing or bad {exc}); catalog unchanged, {RETRY_HINT} later"
            ) from None
        if info is not None:
            found[info.instance_type] = info
    return found


def zone_ids(ec2: Any, region: str) -> dict[str, str]:
    """Availability-zone name -> zone ID in `region` (`ap-southeast-2c` -> `apse2-az2`)."""
    with aws_errors("ec2:DescribeAvailabilityZones", region, FetchError, RETRY_HINT):
        zones = ec2.describe_availability_zones().get("AvailabilityZones", [])
    return {z["ZoneName"]: z["ZoneId"] for z in zones if "ZoneName" in z and "ZoneId" in z}


def offered_zones(ec2: Any, region: str, names: list[str]) -> dict[str, list[str]]:
    """Instance type -> sorted zone IDs of `region` that offer it."""
    zones: dict[str, set[str]] = {}
    for item in _pages_for_types(
        ec2,
        "describe_instance_type_offerings",
        region,
        "InstanceTypeOfferings",
        names,
        lambda chunk: {"LocationType": "availability-zone-id", "Filters": [{"Name": "instance-type", "Values": chunk}]},
    ):
        if "InstanceType" in item and "Location" in item:
            zones.setdefault(item["InstanceType"], set()).add(item["Location"])
    return {name: sorted(ids) for name, ids in zones.items()}


def latest_spot(ec2: Any, region: str, names: list[str], zone_id: dict[str, str]) -> dict[tuple[str, str], float]:
    """(instance type, zone ID) -> latest Linux spot price, USD/hour for the whole instance."""
    latest: dict[tuple[str, str], tuple[dt.datetime, float]] = {}
    now = dt.datetime.now(dt.timezone.utc)
    for item in _pages_for_types(
        ec2,
        "describe_spot_price_history",
        region,
        "SpotPriceHistory",
        names,
        lambda chunk: {"InstanceTypes": chunk, "ProductDescriptions": ["Linux/UNIX"], "StartTime": now},
    ):
        zone = zone_id.get(item.get("AvailabilityZone", ""))
        if zone is None or not item.get("ProductDescription", "").startswith("Linux/UNIX"):
            continue
        try:
            key, price, stamp = (item["InstanceType"], zone), float(item["SpotPrice"]), item["Timestamp"]
        except (KeyError, ValueError):
            raise FetchError(
                f"AWS ec2:DescribeSpotPriceHistory in {region} returned a malformed price "
                f"for {item.get('InstanceType')}; catalog unchanged, {RETRY_HINT} later"
            ) from None
        if price > 0 and (key not in latest or stamp > latest[key][0]):
            latest[key] = (stamp, price)
    return {key: price for key, (_, price) in latest.items()}
