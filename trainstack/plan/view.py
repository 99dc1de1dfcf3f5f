"""The `trainstack plan` resource tree for people: key inputs, spot marked on every cloud,
values cut only between items, and big trees summarized per resource type."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# Inputs worth showing in the plan tree, in this order, when a resource has them.
KEY_INPUTS = (
    "instanceType",
    "availabilityZoneId",
    "availabilityZone",
    "cidrBlock",
    "strategy",
    "deploymentType",
    "storageCapacity",
    "perUnitStorageThroughput",
    "storageType",
    "ipProtocol",
    "fromPort",
    "toPort",
    "cidrIpv4",
    "referencedSecurityGroupId",
    "instanceMarketOptions",
    "metadataOptions",
    "networkInterfaces",
    "policyArn",
    "vmSize",
    "machineType",
    "sku",
    "singlePlacementGroup",
    "overprovision",
    "acceleratorType",
    "runtimeVersion",
    "tier",
    "capacityGib",
    "storageCapacityTiB",
    "groupPlacementPolicy",
    "flavorId",
    "zoneId",
    "spec",
    "zone",
    "desiredCapacity",
    "targetSize",
    "mixedInstancesPolicy",
    "capacityRebalance",
)
VALUE_CHARS = 60  # a shown value is cut after this many characters, between items
# A tree of more than BIG_TREE resources lists at most SHOWN_PER_TYPE children of one type
# under one parent and summarizes the rest in one line (a 5,000-node stack stays readable).
BIG_TREE = 60
SHOWN_PER_TYPE = 3
# Where each cloud's node inputs say "spot", as (dotted input path, values meaning spot). The
# AWS launch template, Azure scale set, GCP instance and TPU, Alibaba / Volcengine / Tencent
# / Huawei instances (their providers' input names).
SPOT_INPUTS: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("instanceMarketOptions.marketType", ("spot",)),
    ("virtualMachineProfile.priority", ("Spot",)),
    ("priority", ("Spot",)),
    ("scheduling.provisioningModel", ("SPOT",)),
    ("scheduling.preemptible", (True,)),
    ("schedulingConfig.spot", (True,)),
    ("schedulingConfig.preemptible", (True,)),
    ("spotStrategy", ("SpotAsPriceGo", "SpotWithPriceLimit")),
    ("instanceChargeType", ("SPOTPAID",)),
    ("chargingMode", ("spot",)),
    ("mixedInstancesPolicy.instancesDistribution.onDemandPercentageAboveBaseCapacity", (0,)),  # an AWS node group
)


def _leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted path, scalar) for every leaf of nested dicts (lists are leaves)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _leaves(inner, f"{path}.{key}" if path else str(key))
    else:
        yield path, value


def is_spot(inputs: dict) -> bool:
    """True when a resource's inputs launch spot (or preemptible) capacity, on any cloud."""
    found = dict(_leaves(inputs))
    return any(found.get(path) in values for path, values in SPOT_INPUTS)


def compact(value: Any, limit: int = VALUE_CHARS) -> str:
    """A value in at most `limit` characters, cut between whole items (`, +2 more`), never
    mid-word: a dict shows as `a.b=x, c=y`, a list as its items."""
    if isinstance(value, dict):
        items = [f"{path}={leaf}" for path, leaf in _leaves(value)]
    elif isinstance(value, (list, tuple)):
        items = [compact(v, limit) if isinstance(v, dict) else str(v) for v in value]
    else:
        text = str(value)
        return text if len(text) <= limit else text[: limit - 3].rsplit(" ", 1)[0] + "..."
    shown: list[str] = []
    for index, item in enumerate(items):
        more = len(items) - index
        if shown and len(", ".join([*shown, item])) + len(f", +{more - 1} more") > limit:
            return ", ".join(shown) + f", +{more} more"
        shown.append(item)
    return ", ".join(shown)


def key_inputs(inputs: dict) -> str:
    """A short `key=value` summary of the inputs a reviewer looks at first."""
    parts = []
    for key in KEY_INPUTS:
        if key in inputs and inputs[key] not in (None, [], {}):
            value = inputs[key]
            if key == "networkInterfaces" and isinstance(value, list):
                kinds = {str(n.get("interfaceType") or n.get("nicType") or "default") for n in value}
                value = f"{len(value)} ({', '.join(sorted(kinds))})"
            if key == "mixedInstancesPolicy" and isinstance(value, dict):
                share = (value.get("instancesDistribution") or {}).get("onDemandPercentageAboveBaseCapacity")
                value = "spot" if share == 0 else "on-demand" if share == 100 else f"{share}% on-demand"
            text = compact(value)
            parts.append(f"{key}={{{text}}}" if isinstance(value, dict) else f"{key}={text}")
    return ", ".join(parts)


def _label(resource: dict) -> str:
    from rich.markup import escape

    label = f"{resource['type']} [cyan]{escape(resource['name'])}[/cyan]"
    if resource["protect"]:
        label += " [yellow](protected)[/yellow]"
    if is_spot(resource["inputs"]):
        label += " [magenta](spot)[/magenta]"
    summary = key_inputs(resource["inputs"])
    return f"{label} {escape(summary)}" if summary else label


def tree(stack: str, resources: list[dict]) -> Any:
    """The rich Tree of `resources`. Past `BIG_TREE` resources, at most `SHOWN_PER_TYPE`
    children of a type are listed under each parent and the rest summarized as
    `... and N more TYPE (first-name .. last-name)` (their own children with them)."""
    from rich.markup import escape
    from rich.tree import Tree

    root = Tree(f"[bold]stack {escape(stack)}[/bold]: {len(resources)} resources")
    nodes: dict[str, Tree] = {}
    hidden: dict[tuple[str, str], list[str]] = {}
    counts: dict[tuple[str, str], int] = {}
    folded: set[str] = set()
    for resource in resources:
        parent_name = resource["parent"] or ""
        if parent_name in folded:
            folded.add(resource["name"])
            continue
        key = (parent_name, resource["type"])
        counts[key] = counts.get(key, 0) + 1
        if len(resources) > BIG_TREE and counts[key] > SHOWN_PER_TYPE:
            hidden.setdefault(key, []).append(resource["name"])
            folded.add(resource["name"])
            continue
        nodes[resource["name"]] = nodes.get(parent_name, root).add(_label(resource))
    for (parent_name, kind), names in hidden.items():
        nodes.get(parent_name, root).add(
            f"[dim]... and {len(names)} more {kind} ({escape(names[0])} .. {escape(names[-1])})[/dim]"
        )
    return root
