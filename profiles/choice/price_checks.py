"""The catalog's price checks applied to resolve rows (`profiles.catalog.sanity`).

A spot row whose price is not believable gets a caveat (`Candidate.caveats`: it ranks after
every row without one, with its capacity risk stated); a row whose on-demand price disagrees
with its siblings gets a note naming them, with the source row.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from profiles.candidate import Candidate
from profiles.catalog.offering import Offering
from profiles.catalog.sanity import findings_by_row, spot_risk, spot_zones


def with_spot_risks(found: list[Candidate], offerings: Sequence[Offering]) -> list[Candidate]:
    """`found` with a caveat on each spot row whose price is far below its region's other
    zones or at the cloud's deepest discount (`profiles.catalog.sanity.spot_risk`)."""
    spot = [c for c in found if c.purchase == "spot"]
    if not spot:
        return found
    zones = spot_zones(offerings, {(c.offering.provider, c.offering.instance_type) for c in spot})
    risks: dict[Offering, str | None] = {}
    kept = []
    for c in found:
        if c.purchase == "spot":
            if c.offering not in risks:
                risks[c.offering] = spot_risk(c.offering, zones)
            risk = risks[c.offering]
            if risk is not None:
                c = dataclasses.replace(c, caveats=(*c.caveats, risk))
        kept.append(c)
    return kept


def with_price_findings(rows: Sequence[Candidate], offerings: Sequence[Offering]) -> list[Candidate]:
    """`rows` with a note on each whose on-demand price disagrees with its siblings'."""
    found = findings_by_row(offerings, {(c.offering.provider, c.offering.accelerator) for c in rows})
    return [
        dataclasses.replace(c, notes=(*c.notes, *notes))
        if (
            notes := found.get(
                (c.offering.provider, c.offering.region, c.offering.instance_type, c.offering.accelerator)
            )
        )
        else c
        for c in rows
    ]
