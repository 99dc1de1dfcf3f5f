"""The `purchase:` option as users write it: aliases read, and the words of other ways to pay
answered with the key that expresses them (`profiles.spec.rules.purchase` applies it).

A reserved term (AWS Reserved Instances and Savings Plans, Azure reservations, GCP committed
use) is `commitment:`; capacity already held (an On-Demand Capacity Reservation, a Capacity
Block for ML, a GCP reservation) is `reservations:`; "reservation" can mean either and is
answered with both; the clouds' other names for spot (GCP's preemptible VMs, Azure's
low-priority nodes) with `spot`; dstack's `spot_policy: auto` with `any`. No pydantic here.
"""

from __future__ import annotations

import re

OPTIONS = ("any", "spot", "on-demand", "flex-start")
ALIASES = {
    "spot-allowed": "any",
    "ondemand": "on-demand",
    "flex": "flex-start",
    "flexstart": "flex-start",
    "dws": "flex-start",
}
_NOT_AN_OPTION = f"is not a purchase option ({', '.join(OPTIONS)})"
_TERM = "a reserved term is priced with `commitment: 1y` (or 3y) beside `purchase: on-demand`"
_HELD = "capacity you already hold (an On-Demand Capacity Reservation, a Capacity Block, a GCP reservation) is listed under `reservations:`"
_TERM_WORDS = ("reserved", "savings-plan", "committed", "commitment", "ri", "cud")
_HELD_WORDS = ("capacity-block", "capacity-reservation", "odcr", "reserved-capacity")
_SPOT_WORDS = ("preemptible", "low-priority", "lowpriority", "interruptible")


def read(value: str) -> str:
    """`value` as the option it spells (`ondemand` -> `on-demand`), or `value` unchanged for the
    type check to refuse.

    Raises:
        ValueError: a word of another way to pay, with the key that expresses it (module docstring).
    """
    word = value.strip().lower().replace("_", "-").replace(" ", "-")
    years = re.search(r"(?:^|-)([13])-?y(?:ears?|rs?)?(?:-|$)", word)
    term = _TERM.replace("1y` (or 3y)", f"{years.group(1)}y`") if years else _TERM
    if word.startswith("reservation"):
        raise ValueError(f"'{value}' {_NOT_AN_OPTION}: {_HELD}; {term}; see docs/workloads.md")
    if word.startswith(_HELD_WORDS):
        raise ValueError(f"'{value}' {_NOT_AN_OPTION}: {_HELD}; see docs/workloads.md")
    if years and years.start() == 0 or word.startswith(_TERM_WORDS[:4]) or word in _TERM_WORDS:
        raise ValueError(f"'{value}' {_NOT_AN_OPTION}: {term}; see docs/workloads.md")
    if word.startswith(_SPOT_WORDS):
        raise ValueError(
            f"'{value}' {_NOT_AN_OPTION}: the clouds' interruptible VMs (GCP Spot VMs, which replace preemptible "
            "ones; Azure Spot and low-priority) are `purchase: spot`, or `any` to allow on-demand too"
        )
    if word == "auto":
        raise ValueError(
            f"'{value}' {_NOT_AN_OPTION}: spot when it is cheaper, else on-demand, is `purchase: any` (dstack's spot_policy: auto)"
        )
    return ALIASES.get(word, word if word in OPTIONS else value)


_TERMS = {"1": "1y", "12": "1y", "3": "3y", "36": "3y"}


def term(value: object) -> object:
    """A commitment's term as the clouds sell it, `1y` or `3y`, from the ways it is written:
    `1Y`, `1yr`, `1 year`, `3-year`, `12mo`, `36 months`; anything else (`2y`) unchanged for
    the type check to refuse with the valid terms."""
    if not isinstance(value, str):
        return value
    word = value.strip().lower().replace(" ", "").replace("-", "")
    years = re.fullmatch(r"(\d+)(?:y|yr|yrs|year|years)", word)
    months = re.fullmatch(r"(\d+)(?:mo|mos|month|months)", word)
    if years and years.group(1) in ("1", "3"):
        return _TERMS[years.group(1)]
    if months and months.group(1) in ("12", "36"):
        return _TERMS[months.group(1)]
    return value
