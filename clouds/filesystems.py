"""Can a cloud provide the spec's parallel file system? Asked of each component's own
sizing rule, so the resolver never picks an offering whose stack the component would refuse.

Each rule is a pure function in the cloud's own rules (`Cloud.file_system`, no Pulumi
import), called with the requested capacity and throughput; a `ValueError` means that cloud cannot provide it, and
its one-line message says why. Baidu AI Cloud has no API-creatable parallel file system
here (china-clouds.md section 4), so any file system rules it out.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from clouds.base import load
from clouds.registry import CLOUDS


class FileSystemRequest(Protocol):
    """What the sizing rules read of a requested file system: a stack's
    `clouds.contract.FileSystemConfig`, or a `FileSystemAsk` (the resolver's, which loads no pydantic)."""

    @property
    def capacity_gib(self) -> int:
        """Requested capacity, GiB."""
        ...

    @property
    def throughput_mbps_per_tib(self) -> int:
        """Requested throughput, MB/s per TiB of capacity."""
        ...

    @property
    def deployment_type(self) -> str | None:
        """The service's deployment type, or None to let the rule choose."""
        ...


class FileSystemAsk(NamedTuple):
    """A requested file system as the resolver asks the rules about it (the fields of
    `FileSystemConfig`: capacity, GiB; throughput, MB/s per TiB; deployment type or None)."""

    capacity_gib: int
    throughput_mbps_per_tib: int = 250
    deployment_type: str | None = None


def _rule(provider: str) -> Callable[[FileSystemRequest], Any] | None:
    """The cloud's sizing rule (`Cloud.file_system`) taking a `FileSystemRequest`; None without one."""
    found = CLOUDS.get(provider)
    rule = None if found is None else found.file_system
    if rule is None:
        return None
    sizing = load(rule.target)
    if rule.by_numbers:
        return lambda fs: sizing(fs.capacity_gib, fs.throughput_mbps_per_tib)
    return sizing


def _sized(provider: str, fs: FileSystemRequest) -> Any:
    """What `provider`'s sizing rule makes of `fs` (a NamedTuple), or None when the cloud has
    no rule or the rule refuses `fs`."""
    rule = _rule(provider)
    if rule is None:
        return None
    try:
        return rule(fs)
    except ValueError:
        return None


def provisioned_gib(provider: str, fs: FileSystemRequest) -> float | None:
    """The capacity `provider`'s component creates for `fs`, GiB (its sizing rule rounds up
    to a size the service accepts); None when the cloud cannot provide `fs` at all.

    The rule's result names its capacity `*_gib` or `*_tib` (FsxSizing.storage_capacity_gib,
    AmlfsSizing.capacity_tib, ...); a TiB figure is converted at 1 TiB = 1024 GiB.
    """
    sized = _sized(provider, fs)
    if sized is None:
        return None
    for name, value in zip(getattr(sized, "_fields", ()), sized, strict=False):
        if isinstance(value, (int, float)) and name.endswith(("_gib", "_tib")) and "mbps" not in name:
            return float(value) * (1024 if name.endswith("_tib") else 1)
    return None


def rounding_note(provider: str, fs: FileSystemRequest) -> str:
    """`file_system: 1 GiB asked; aws creates 1,200 GiB, the next size it accepts` when the
    component rounds the capacity up, else ""."""
    made = provisioned_gib(provider, fs)
    if made is None or made <= fs.capacity_gib:
        return ""
    return (
        f"file_system: {fs.capacity_gib:,} GiB asked; {provider} creates {made:,.0f} GiB, the next size its "
        "file system accepts (priced and provisioned at that size)"
    )


def file_system_problem(provider: str, fs: FileSystemRequest) -> str | None:
    """Why `provider` cannot provide `fs` (one line), or None when it can."""
    rule = _rule(provider)
    if rule is None:
        return f"{provider} has no parallel file system trainstack can create; drop `file_system` or mount your own"
    try:
        rule(fs)
    except ValueError as exc:
        return str(exc).splitlines()[0]
    return None


class Delivery(NamedTuple):
    """What a created file system delivers, whole file system, MB/s (10^6 bytes per second).

    Attributes:
        read_mbps: read rate (what the data loaders can get).
        write_mbps: write rate (what a copy onto it can reach).
        basis: where the rates come from, for notes (`the tier sold`, or the cloud's source id).
        service: the service created, for notes (`Filestore ZONAL`).
    """

    read_mbps: float
    write_mbps: float
    basis: str = "the tier sold"
    service: str = ""

    def per_tib(self, capacity_gib: float) -> tuple[float, float]:
        """(read, write) per TiB of `capacity_gib`, MB/s per TiB."""
        return self.read_mbps / (capacity_gib / 1024), self.write_mbps / (capacity_gib / 1024)


def delivered(provider: str, fs: FileSystemRequest) -> Delivery | None:
    """What `provider`'s file system for `fs` delivers: the cloud's own rule where it has one
    (`FileSystemRule.delivers`: a service that sells no throughput tiers), else the created
    capacity x the tier asked (a service that sells per-TiB tiers delivers the tier it sold);
    None when the cloud cannot create `fs`."""
    made = provisioned_gib(provider, fs)
    if made is None:
        return None
    found = CLOUDS.get(provider)
    rule = None if found is None else found.file_system
    if rule is not None and rule.delivers is not None:
        return load(rule.delivers)(fs)
    rate = made / 1024 * fs.throughput_mbps_per_tib
    return Delivery(rate, rate, "the tier sold", rule.service if rule is not None else provider)


class CreatedFileSystem(NamedTuple):
    """What a cloud's component will actually create for a requested file system.

    Attributes:
        service: the service and its tier or SKU, e.g. `AMLFS-Durable-Premium-250`.
        capacity_gib: the capacity created, GiB (the request rounded up to a valid size).
    """

    service: str
    capacity_gib: float


def explicit_deployment_type(provider: str, fs: FileSystemRequest) -> str | None:
    """The `deployment_type` a stack must state to get `fs` on `provider`, where the cloud's
    rule would otherwise refuse it rather than give less throughput (`FileSystemRule.
    explicit_choice`; GCP: Filestore ZONAL below the asked MB/s per TiB); None when none is
    needed."""
    found = CLOUDS.get(provider)
    rule = None if found is None else found.file_system
    if rule is None or rule.explicit_choice is None:
        return None
    return load(rule.explicit_choice)(fs)


def created_file_system(provider: str, fs: FileSystemRequest) -> CreatedFileSystem | None:
    """The service and rounded-up capacity `provider`'s component creates for `fs`, or None
    when it cannot create it (see `file_system_problem` for why)."""
    made = _sized(provider, fs)
    if made is None:
        return None
    fields = made._asdict()
    described = CLOUDS[provider].file_system
    service = described.service if described is not None else provider
    for key, scale in (("storage_capacity_gib", 1), ("capacity_gib", 1), ("size_gib", 1), ("capacity_tib", 1024)):
        if key in fields:
            words = [service, *(v for v in fields.values() if isinstance(v, str))]
            label = " ".join(w for i, w in enumerate(words) if w.casefold() not in map(str.casefold, words[:i]))
            return CreatedFileSystem(label, float(fields[key] * scale))
    return None


@functools.lru_cache(maxsize=1024)
def shortfall(provider: str, capacity_gib: float, tier: int, asked: int) -> str | None:
    """`file system writes 92 of the 250 MB/s per TiB asked (Filestore ZONAL, ...)` when what
    `provider` creates for `capacity_gib` GiB at `tier` reads or writes less than `asked` MB/s
    per TiB (a tier sold per TiB, FSx's or AMLFS's, does both at its figure), else None."""
    ask = FileSystemAsk(math.ceil(capacity_gib), tier)
    chosen = ask._replace(deployment_type=explicit_deployment_type(provider, ask))
    rates, made = delivered(provider, chosen), provisioned_gib(provider, chosen)
    if rates is None or made is None:
        return None
    read, write = rates.per_tib(made)
    how, rate = ("writes", write) if write < read else ("reads", read)
    if rate >= asked * (1 - 1e-9):
        return None
    return (
        f"file system {how} {rate:,.0f} of the {asked} MB/s per TiB asked ({rates.service or provider}, {rates.basis})"
    )


@functools.lru_cache(maxsize=1024)
def throughput_notes(
    provider: str, capacity_gib: float, mbps_per_tib: int, label: str, row: bool = True
) -> tuple[str, ...]:
    """Where `provider`'s file system for `capacity_gib` (GiB) gives less than `mbps_per_tib`
    (MB/s per TiB), which a stack then states as an explicit choice (`explicit_deployment_type`):
    one note with what it delivers (`delivered`), or none. `label` says how the tier was asked
    (`asked`, `the stack states`); `row` (a resolve row) adds what its stack will say. Shared by
    resolve's rows and plan's caveats."""
    ask = FileSystemAsk(math.ceil(capacity_gib), mbps_per_tib)
    explicit = explicit_deployment_type(provider, ask)
    if explicit is None:
        return ()
    chosen = FileSystemAsk(ask.capacity_gib, mbps_per_tib, explicit)
    rates, made = delivered(provider, chosen), provisioned_gib(provider, chosen)
    if rates is None or made is None:
        return ()
    read, write = rates.per_tib(made)
    written = f"; a stack written from this row says deployment_type: {explicit}" if row else ""
    return (
        f"file system below the {mbps_per_tib} MB/s per TiB {label}: {rates.service} reads {read:,.0f} and writes "
        f"{write:,.0f} MB/s per TiB ({rates.basis}){written}",
    )
