"""Names a workload takes from the catalog, checked against it before anything is ranked.

A misspelled name would otherwise match nothing and end in a generic "no offering matches"
(`regions: [us-east-9]`) or, worse, be ignored (a reservation in a zone the catalog does not
list is never used). Each check names the field, the value written and the closest valid
values, as unknown providers and accelerators are named:

- `accelerators`: at least one entry the catalog has for the allowed clouds, and no name
  known nowhere (a known accelerator the allowed clouds do not sell is passed over);
- `regions`: a region of an allowed cloud (a zone or another cloud's region is named as such);
- `reservations[i]`: its instance type and zone, and that the catalog lists that type there
  (a cloud without catalog rows, Huawei say, cannot be confirmed and is not checked); a
  Capacity Block's `ends` must still be ahead of the clock (`clouds.clock.now`), with time
  to run before its scale-in (`clouds.block_end.block_end_problem`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING

from clouds.block_end import block_end_problem
from clouds.clock import now
from clouds.words import article, did_you_mean, listed
from facts.accelerators import ACCELERATORS
from facts.performance import PERFORMANCE
from profiles.catalog.names import accelerator_hint, memory_by_name
from profiles.catalog.offering import Offering
from profiles.explain import WorkloadFieldError
from profiles.spec import WorkloadSpec

if TYPE_CHECKING:
    from profiles.cost.work import ReservationSpec


def checked_names(spec: WorkloadSpec, offerings: Iterable[Offering]) -> frozenset[str]:
    """Check the spec's catalog names; return its accelerators as the catalog spells them.

    Args:
        spec: the workload.
        offerings: the loaded catalog.

    Returns:
        The wanted accelerator names (empty when the spec names none).

    Raises:
        WorkloadFieldError: an allowed cloud with no priced offerings, or an unknown accelerator,
            region, reservation instance type or zone (one line: field, value, valid values).
    """
    rows = list(offerings)
    allowed = [o for o in rows if o.provider in spec.providers] if spec.providers else rows
    if not allowed and spec.providers:
        clouds = ", ".join(spec.providers)
        raise WorkloadFieldError(
            f"providers: the catalog has no priced offerings for {clouds}; fetch prices with "
            f"`trainstack catalog refresh --provider {spec.providers[0]}` or allow other clouds"
        )
    wanted = _accelerators(spec, allowed, f" on {', '.join(spec.providers)}" if spec.providers else "", rows)
    for region in spec.regions:
        problem = region_problem(region, spec.providers, allowed, rows)
        if problem:
            raise WorkloadFieldError(problem)
    moment = now() if any(r.ends is not None for r in spec.reservations) else None
    for i, reservation in enumerate(spec.reservations):
        if spec.providers and reservation.provider not in spec.providers:
            raise WorkloadFieldError(
                f"reservations.{i}.provider: {reservation.provider} is not in providers "
                f"({', '.join(spec.providers)}), so the reservation would be ignored; add {reservation.provider} "
                "to providers or remove the reservation"
            )
        problem = reservation_problem(reservation, [o for o in rows if o.provider == reservation.provider])
        if problem:
            raise WorkloadFieldError(f"reservations.{i}.{problem}")
        if reservation.ends is not None and moment is not None:
            ended = block_end_problem(reservation.ends, moment, f"reservations.{i}.ends")
            if ended:
                raise WorkloadFieldError(ended)
    return wanted


_ACCELERATOR = attrgetter("accelerator")


def _accelerators(
    spec: WorkloadSpec, allowed: Sequence[Offering], where: str, everything: Sequence[Offering]
) -> frozenset[str]:
    """The spec's accelerators as the catalog spells them. The list means "any of these": an
    entry the allowed clouds do not sell is passed over when another entry matches and the
    name is a known accelerator (`facts.accelerators`, `facts.performance`, or a loaded row;
    `[A100:8, A100-80GB:8]` on a cloud with only A100-80GB); a name known nowhere (a typo), or
    a list none of whose entries the allowed clouds sell, is refused."""
    known: dict[str, str] = {}  # casefolded -> as the last allowed row spells it
    for name in dict.fromkeys(map(_ACCELERATOR, reversed(allowed))):  # each spelling once, the last row's first
        known.setdefault(name.casefold(), name)
    anywhere = {name.casefold() for name in (*ACCELERATORS, *(a for a, _ in PERFORMANCE))} | {
        name.casefold() for name in set(map(_ACCELERATOR, everything))
    }
    sold = [n for n in spec.accelerators if n.casefold() in known]
    for name in spec.accelerators:
        if name.casefold() not in known and (not sold or name.casefold() not in anywhere):
            hint = accelerator_hint(name, memory_by_name(allowed))
            raise WorkloadFieldError(f"accelerators: the catalog has no '{name}'{where}; {hint}")
    return frozenset(known[n.casefold()] for n in sold)


def region_problem(
    region: str, providers: Sequence[str], allowed: Sequence[Offering], everything: Sequence[Offering]
) -> str:
    """Why `region` in `regions` can match nothing, or "" when an allowed cloud has it.

    Args:
        region: one entry of the spec's `regions`.
        providers: the spec's `providers` (empty: every cloud).
        allowed: the catalog rows of those clouds.
        everything: every catalog row (to name another cloud's region as such).
    """
    regions = {o.region for o in allowed}
    if region in regions:
        return ""
    zone_of = {o.zone: o.region for o in allowed if o.zone != o.region}
    if region in zone_of:
        return (
            f"regions: '{region}' is a zone of {zone_of[region]}, and `regions` takes region names; "
            f"write {zone_of[region]}"
        )
    elsewhere = sorted({o.provider for o in everything if o.region == region})
    if elsewhere:
        return (
            f"regions: '{region}' is {article(elsewhere[0])} region, and `providers` allows only "
            f"{', '.join(providers)}; add {elsewhere[0]} to `providers` or remove '{region}'"
        )
    clouds = f"{article(providers[0])}" if len(providers) == 1 else "a"
    return f"regions: '{region}' is not {clouds} region the catalog knows; {did_you_mean(region, regions, 'valid')}"


def reservation_problem(reservation: ReservationSpec, rows: Sequence[Offering]) -> str:
    """Why the resolver could never use `reservation`, as
    `field: problem; fix`, or "" when the catalog lists its type in its zone (or has no rows
    for its cloud to confirm it with)."""
    if not rows:
        return ""
    provider, kind, zone = reservation.provider, reservation.instance_type, reservation.zone
    typed = [o for o in rows if o.instance_type == kind]
    if not typed:
        hint = did_you_mean(kind, {o.instance_type for o in rows}, "valid")
        return f"instance_type: '{kind}' is not {article(provider)} instance type the catalog knows; {hint}"
    zones = {o.zone for o in rows}
    if zone not in zones:
        return f"zone: '{zone}' is not {article(provider)} zone the catalog knows; {did_you_mean(zone, zones, 'valid')}"
    if not any(o.zone == zone for o in typed):
        return (
            f"zone: the catalog lists no {kind} in {zone}, so the reservation could not be priced; "
            f"zones listing it: {listed({o.zone for o in typed}, zone)} (or refresh the catalog: "
            f"`trainstack catalog refresh --provider {provider}`)"
        )
    return ""
