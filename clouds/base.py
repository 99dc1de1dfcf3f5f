"""What trainstack knows about one cloud, behind one typed interface (`Cloud`).

Each cloud's object is `CLOUD` in its package `clouds/<name>/__init__.py`, read from the data
file `clouds/<name>/cloud.yaml` (`clouds.cloud_file`) and registered by one line in
`clouds.registry`; every cross-cutting table (component registry, region keys, file-system
rules, mainland-China regions, policy token sets, plan mocks, replace-on-change inputs,
preflight guidance, price fetchers) is derived from these objects. The objects are plain
data: code they point at (the component class, the validator, the mocks) is named by a
`"module:attribute"` target and imported only when asked for, so loading the registry stays
cheap and pulls in no Pulumi or cloud SDK.
"""

from __future__ import annotations

import enum
import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from clouds.access import NodeAccess
from clouds.cloud_mock import Mock
from clouds.file_system_rule import FileSystemRule
from clouds.lost_node import Healing, manual_healing
from clouds.platforms import Platform

# A Cloud's file-system rule (`clouds.file_system_rule`) and the `Mock` its `mock` target names
# (`clouds.cloud_mock`) live in their own modules; still importable from here.
__all__ = ["Cloud", "Feature", "FileSystemRule", "Mock", "load"]


class Feature(enum.Enum):
    """Things a cloud's component may be unable to do; `Cloud.missing` says why."""

    SPOT_FROM_STACK = "spot purchase from a stack file"
    SPOT_PLACEMENT = "placement (deployment set) for spot nodes"
    ZONE_PRICES = "catalog prices per zone"
    BUCKET_LINK = "linking the team's bucket to the file system (`data`)"


def load(target: str) -> Any:
    """The attribute a `"package.module:attribute"` target names, importing its module.

    Raises:
        ValueError: the target has no `:`.
    """
    module, sep, attribute = target.partition(":")
    if not sep:
        raise ValueError(f"target '{target}' is not 'module:attribute'")
    return getattr(importlib.import_module(module), attribute)


def _conventional_targets(name: str) -> dict[str, str]:
    """Where a cloud's code sits when its `Cloud` does not say otherwise."""
    return {
        "component": f"components.{name}.cluster:{name.capitalize()}GpuCluster",
        "validator": f"clouds.{name}.validate:validate_args",
        "fetcher": f"profiles.catalog.fetchers.{name}:fetch",
        "mock": f"clouds.{name}.mock:MOCK",
        "replacements": f"clouds.{name}.replacements:REPLACEMENTS",
        "policy": f"clouds.{name}.policy:POLICY",
    }


@dataclass(frozen=True)
class Cloud:
    """Everything trainstack knows about one cloud.

    Attributes:
        name: registry name (`aws`), the stack's `provider`.
        display_name: the name users know (`Alibaba Cloud`).
        component: `"module:Class"` of its `pulumi.ComponentResource`.
        validator: `"module:function"` of its `validate_args(args, name)` (pure, no Pulumi):
            raises `ValueError` (one line naming the field and the fix) for a `ClusterConfig`
            its component cannot build under the cluster name `name`.
        fetcher: `"module:function"` of its live price fetcher (`fetch`).
        mock: `"module:attribute"` of its `Mock`.
        replacements: `"module:attribute"` of its `Replacements`.
        policy: `"module:attribute"` of its `clouds.policy.PolicyReaders` (what the policy
            rules read off its resources).
        (Each of these six left empty is the conventional place, `_conventional_targets`.)
        guidance: `"module:function"` of its offline preflight guidance (cluster ->
            findings); None gets the generic "confirm in the console" guidance.
        live_check: `"module:function"` `(cluster, session, quotas) -> findings` of its live
            preflight (cloud API calls), used instead of `guidance`; None when it has none.
        extra: the `trainstack[...]` extra that installs its SDKs (`aws`, `china`).
        sdk: the distribution of its Pulumi provider (`pulumi-aws`), named when missing.
        region_key: the stack key holding its Pulumi provider's default region.
        mainland: pattern of its mainland-China region names (data stays in China), or
            None when it has none.
        file_system: its parallel file system's sizing rule, or None when it has none
            trainstack can create.
        queued_resource: `"module:function"` `(instance type, purchase) -> bool`: whether a
            stack written for that pick requests its nodes as queued resources
            (`queued_resource: true`); None when the cloud has none.
        capacity_note: `"module:function"` `(instance type, purchase) -> note or None`: what
            `resolve` says about getting that capacity (GCP TPU slices), or None.
        bootstrap_check: `"module:function"` `(cluster config, name) -> problem or None`: why
            the cloud would refuse the nodes' bootstrap (a user-data size limit), checked
            before a stack is written as well as in its validator; None when unchecked.
        healing: what its cluster does when a node is lost; None: `manual_healing`.
        secret_store: `"module:attribute"` of the `clouds.job_secrets.SecretStore` its nodes
            read job secrets from, or None (a secret reference is refused there).
        notice_watcher: the `nodeagent.notices` watcher its nodes run to see a spot
            interruption coming, or None when the cloud gives nodes no notice trainstack reads.
        vm_run: the module of `trainstack run` on its VM stacks (`submit`, `request_preview`:
            start or restart the job its node agents run); None: refused.
        run_channel: its `vm_run` reaches the workers through the head's job channel, so they
            follow runs (`NodeJob.follow_runs`) and wait for the next one after a job ends.
        shared_mount: where its component mounts the shared file system on every node.
        nccl: `"module:function"` `(instance type, rdma) -> (variables, lines to source,
            notes) or None` the benchmark kit runs NCCL with; None (or a None answer): the
            kit's default.
        job_runtime: `"module:attribute"` of the cloud's `clouds.job_runtime.JobRuntime`: the
            interpreter with torch its node units call, its torch, NCCL and fabric plugin,
            and their source; None for a cloud whose nodes run no node agent.
        spot_bands: `"module:function"` `(region, instance type) -> facts.spot_advisor.AdvisorBand
            or None`: the recorded spot interruption band of a type (AWS Spot Advisor), or None
            when the cloud publishes none.
        deepest_spot_discount: the deepest spot discount the cloud publishes, as a fraction of
            on-demand (the cloud's file cites the source); a spot row at it is flagged as a
            capacity risk (`profiles.catalog.sanity.spot_risk`). None: none published.
        spot_rate_basis: why the cloud's spot rows use the assumed interruption rate when no
            band is recorded (what the cloud publishes, or that it publishes nothing), shown
            with the rate; "" for a generic "no published rate".
        reserved_discount: term (`1y`, `3y`) -> fraction off on-demand of a commitment, until
            live reserved prices are fetched; absent terms are unknown. reserved_discount_basis:
            where they come from, a source or `assumed: ...`, said with every figure made of them.
        commitment_purchase: what a team buys, in the cloud's billing console and outside any
            cluster, to get a 1y/3y commitment's rate (AWS: a Savings Plan or Reserved
            Instances); "" for a generic "reserved term".
        helper_vms: the small always-on VMs the component adds beside the GPU nodes, by what
            adds them (`job`: head node; `queued_resource`: controller VM; `file_system`: VMs the
            file system's service runs) -> type and disk in words. Not in the catalog, so unpriced and
            every cost says so (`clouds.helper_vms`).
        hourly_resources: the other resources its component may create that bill by the hour
            (a NAT gateway, a public address), Pulumi type token -> what it is in words. No
            sourced, dated price is recorded for them, so every cost names them as unpriced
            (`clouds.helper_vms.unpriced_hourly`).
        request_price: `"module:attribute"` of its object storage's request prices
            (`facts.request_prices.RequestPrice`), or None when none is sourced.
        reservation_kinds: the reservation kinds (`clouds.reservation.KINDS`) its component
            launches into; empty when it launches into none.
        reservation_example: one of its reservations as a workload's `reservations:` entry
            (flow YAML), the example a malformed entry's error shows; "" for none.
        access: how a user reaches a node from their machine (`clouds.access`); None: SSH
            from an address in the stack's `ssh_cidrs`.
        group_types: `"module:function"` `(instance type, other type, interconnect) -> reason
            or None`: why `other` cannot share the node group with `instance type` (None: it
            can, as a ranked fallback); None: the cloud's group takes one type (`clouds.capacity`).
        spot_fallback: how on-demand capacity fills a spot group that stays below size (the
            cloud's own feature, or the cluster's watcher); None: the component has no such fallback.
        no_capacity: what the cloud's group does when there is no capacity (docs/self-healing.md).
        on_demand_base: `"module:function"` `(instance type, interconnect) -> reason or None`:
            why its group cannot keep `on_demand_nodes` on-demand beside spot; None: no mix.
        flex_start: `"module:function"` `(cluster config) -> reason or None`: why its nodes
            cannot come from a flex-start request (`flex_start: true`); None: the cloud has none.
        group_reservations: reservation kinds its multi-type group uses first, before the
            `fallback_types` (empty: a reservation takes the group's one type).
        zone_group: its group may span `fallback_zones` (a cluster with no placement group).
        fill_on_head: its `spot_fallback` is the head node's watcher (`nodeagent.fill`), so a
            stack needs a `job` (the head) to have one.
        capacity_codes: `capacity` / `quota` -> regular expressions of the error codes its APIs
            return when there is no capacity or the quota is used up (`clouds.capacity_errors`).
        subnet_id: the form of an existing subnet's id its component takes (`subnet_id`), a
            regular expression, or None when it takes none; `subnet_id_example` shows one.
        missing: feature -> why the component cannot do it (absent: it can).
        platforms: its managed training platforms by name (`clouds.platforms.Platform`); the
            cloud's own VMs (`vm`) are not listed.
        stateful: resource types that hold data which must outlive the nodes.
        untaggable: resource types whose API takes no tags or labels.
    """

    name: str
    display_name: str
    component: str = ""
    validator: str = ""
    fetcher: str = ""
    mock: str = ""
    replacements: str = ""
    policy: str = ""
    guidance: str | None = None
    live_check: str | None = None
    extra: str = ""
    sdk: str = ""
    region_key: str = ""
    mainland: re.Pattern[str] | None = None
    file_system: FileSystemRule | None = None
    capacity_note: str | None = None
    bootstrap_check: str | None = None
    queued_resource: str | None = None
    healing: Healing | None = None
    notice_watcher: str | None = None
    secret_store: str | None = None
    vm_run: str | None = None
    run_channel: bool = False
    shared_mount: str = "/mnt/shared"
    nccl: str | None = None
    job_runtime: str | None = None
    spot_bands: str | None = None
    deepest_spot_discount: float | None = None
    spot_rate_basis: str = ""
    reserved_discount: Mapping[str, float] = field(default_factory=dict)
    reserved_discount_basis: str = ""
    commitment_purchase: str = ""
    helper_vms: Mapping[str, str] = field(default_factory=dict)
    hourly_resources: Mapping[str, str] = field(default_factory=dict)
    request_price: str | None = None
    reservation_kinds: tuple[str, ...] = ()
    reservation_example: str = ""
    access: NodeAccess | None = None
    group_types: str | None = None
    spot_fallback: str | None = None
    no_capacity: str = ""
    group_reservations: tuple[str, ...] = ()
    flex_start: str | None = None
    on_demand_base: str | None = None
    zone_group: bool = False
    fill_on_head: bool = False
    capacity_codes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    subnet_id: re.Pattern[str] | None = None
    subnet_id_example: str = ""
    missing: Mapping[Feature, str] = field(default_factory=dict)
    platforms: Mapping[str, Platform] = field(default_factory=dict)
    stateful: frozenset[str] = frozenset()
    untaggable: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        for key, target in _conventional_targets(self.name).items():
            if not getattr(self, key):
                object.__setattr__(self, key, target)
        if not self.region_key:
            object.__setattr__(self, "region_key", f"{self.name}:region")
        if self.healing is None:
            object.__setattr__(self, "healing", manual_healing(self.display_name))

    def supports(self, feature: Feature) -> bool:
        """True unless `missing` lists `feature`."""
        return feature not in self.missing

    def why_not(self, feature: Feature) -> str | None:
        """The one-line reason the cloud cannot do `feature`, or None when it can."""
        return self.missing.get(feature)

    def in_mainland_china(self, region: str) -> bool:
        """True when `region` keeps data in mainland China."""
        return bool(self.mainland and self.mainland.match(region))
