"""Parse the unit shorthands users type in workload specs: sizes, durations and counts.

Every parser returns a finite float: infinity and NaN (YAML `.inf`, `.nan`) and yes/no
values (YAML `true`) are refused with a message naming the value and an example.
"""

from __future__ import annotations

import math
import re

from facts.limits import MAX_FILE_SYSTEM_GIB, MAX_HOURS  # the sourced ceilings
from facts.storage_prices import HOURS_PER_MONTH  # 730 h, the clouds' billing month

# Size units -> GiB. Decimal units (GB, TB) are converted exactly: 1 GB = 10^9 / 2^30 GiB.
_SIZE_UNITS = {
    "kib": 1 / 1024**2,
    "mib": 1 / 1024,
    "gib": 1.0,
    "tib": 1024.0,
    "pib": 1024.0**2,
    "kb": 1e3 / 2**30,
    "mb": 1e6 / 2**30,
    "gb": 1e9 / 2**30,
    "tb": 1e12 / 2**30,
    "pb": 1e15 / 2**30,
}
_SIZE_UNIT_NAMES = "KiB, MiB, GiB, TiB or PiB (or KB, MB, GB, TB, PB)"
# Duration units -> hours; singular and plural words, and their usual abbreviations.
_DURATION_UNITS = {
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), 1 / 60),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 1.0),
    **dict.fromkeys(("d", "day", "days"), 24.0),
    **dict.fromkeys(("w", "wk", "wks", "week", "weeks"), 168.0),
    # a month is 730 h, a twelfth of a 365-day year (365 * 24 / 12), as AWS and Azure bill
    # "per month"; `m` stays minutes
    **dict.fromkeys(("mo", "mos", "month", "months"), HOURS_PER_MONTH),
}
_YEAR_WORDS = frozenset({"y", "yr", "yrs", "year", "years"})
_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)"  # 12, 1.5, 2., .5
_NUMBER_UNIT = re.compile(rf"\s*({_NUMBER})\s*([A-Za-z]*)\s*")


class NotANumber(ValueError):
    """A yes/no value where a number belongs. The field's wording (`clouds.field_errors`,
    which reads `example_wanted`) adds a value that field accepts: `mfu: 0.4`, not a 2 it refuses."""

    example_wanted = True


def not_bool(value: object) -> object:
    """Refuse a yes/no value where a number belongs (YAML reads `true` as a bool, and
    Python would count it as 1); return any other value unchanged.

    Raises:
        NotANumber: `value` is a bool.
    """
    if isinstance(value, bool):
        raise NotANumber(f"expected a number, got {str(value).lower()} (a yes/no value)")
    return value


def finite(number: float, value: object, example: str) -> float:
    """`number` when it is finite.

    Raises:
        ValueError: `number` is infinite or NaN (message names `value` and an example).
    """
    if not math.isfinite(number):
        raise ValueError(f"{value!r} is not a finite number; write it like {example}")
    return number


def _split(value: object, kind: str, example: str) -> tuple[float, str]:
    if isinstance(value, bool):
        raise ValueError(f"expected a {kind} such as {example}, got {str(value).lower()}")
    if isinstance(value, (int, float)):
        return finite(float(value), value, example), ""
    match = _NUMBER_UNIT.fullmatch(str(value))
    if not match:
        raise ValueError(f"cannot read {value!r} as a {kind}; write it like {example}")
    return float(match.group(1)), match.group(2).lower()


def _no_unit(value: object, number: float, suggestions: str) -> ValueError:
    """The error for a bare number where the unit is not implied: `4800 has no unit; write ...`."""
    return ValueError(f"{str(value).strip()} has no unit; write {suggestions.format(n=f'{number:g}')}")


def parse_size_gib(value: object, suggest: str = "{n}GiB (or TiB, GB, TB)") -> float:
    """`4800GiB`, `4.8 TiB`, `80GB`, `110KiB` -> GiB.

    A size needs its unit: a bare `4800` could be GiB (FSx's `storage_capacity`) or GB
    (SkyPilot's `disk_size`), 7 % apart, so it is refused rather than guessed (0 needs none).
    Marketed accelerator memory (`80GB`) is GiB-sized, so GB is read as GiB when the value
    is 256 or less; larger GB/TB values are decimal (1 GB = 0.931 GiB).

    Args:
        value: what the user wrote.
        suggest: the fix offered for a bare number, `{n}` standing for it (`{n}GB` for GPU memory).

    Raises:
        ValueError: no unit, unknown unit, not a number, or not finite (message names the
            value and an example).
    """
    example = "4800GiB or 80GB"
    number, unit = _split(value, "size", example)
    if not unit and number != 0:
        raise _no_unit(value, number, suggest)
    if unit == "gb" and number <= 256:
        return number
    if unit not in _SIZE_UNITS and unit:
        raise ValueError(f"unknown size unit in {value!r}; use {_SIZE_UNIT_NAMES}")
    return finite(number * _SIZE_UNITS.get(unit, 1.0), value, example)


def parse_duration_hours(value: object, bare_hours: bool = False) -> float:
    """`72h`, `3d`, `90m`, `1 hour`, `30 minutes`, `2 days`, `1 week`, `6 months` -> hours
    (`m` is minutes; a month is `HOURS_PER_MONTH`, 730 h).

    A duration needs its unit (`30` could be minutes, hours or days; SkyPilot's autostop
    counts minutes), unless the key names it: `bare_hours` reads a bare number as hours
    (`hours: 72`). 0 needs no unit.

    Raises:
        ValueError: no unit, unknown unit, not a number, or not finite.
    """
    example = "72h or 3d"
    number, unit = _split(value, "duration", example)
    if not unit and not bare_hours and number != 0:
        raise _no_unit(value, number, "{n}h, {n}d or {n}m")
    written = _NUMBER_UNIT.fullmatch(str(value))
    if written and written.group(2) == "M":  # months in ISO 8601 and moment.js, minutes to others
        raise ValueError(f"{value!r} could be minutes or months; write {number:g}m (minutes) or {number:g}mo (months)")
    if unit in _YEAR_WORDS:  # not a unit: years are months' business (a year of 8,760 h is 12mo)
        raise ValueError(f"{value!r}: years are written in months; write {number * 12:g}mo ({number * 8760:,.0f} h)")
    if unit and unit not in _DURATION_UNITS:
        raise ValueError(
            f"unknown duration unit in {value!r}; use m, h, d, w or mo "
            "(or minutes, hours, days, weeks, months of 730 h)"
        )
    return finite(number * _DURATION_UNITS.get(unit, 1.0), value, example)


def at_most_hours(hours: float, value: object) -> float:
    """`hours` when it is at most `MAX_HOURS`.

    Raises:
        ValueError: a longer run, naming `value` in years and the limit.
    """
    if hours > MAX_HOURS:
        raise ValueError(f"{value!r} is {hours / 8760:,.0f} years; {RUN_LIMIT}; check the unit (72h, 3d)")
    return hours


# The run-time limit in words, the same for `hours:` and for hours derived from `work:`.
RUN_LIMIT = f"trainstack plans runs up to {MAX_HOURS:,} h (3 years, the longest term the clouds price)"


# The largest node count a workload may ask for (`WorkloadSpec.nodes`, `max_nodes`).
MAX_NODES = 10_000


def too_long_work(hours: float, where: str, nodes: int | None = None, auto_max: int = 0) -> str:
    """`work: the job takes N h (Y years) even on WHERE, the fastest; <RUN_LIMIT>; check ...`.

    Args:
        hours: the fastest row's run time, hours.
        where: that row (`2 x p5.48xlarge`).
        nodes: the workload's fixed node count, or None for a range or `auto`: a fixed count
            is also told the fewest nodes that could end within the limit at linear scaling
            (a lower bound: more nodes never speed a job up more than in proportion), and
            `nodes: auto` (which tries 1 to `auto_max` nodes) when that count is within it.
        auto_max: the largest count `nodes: auto` tries.
    """
    fix = "check the units of work (tokens: 300B, images: 1.28M)"
    if nodes is not None:
        fewest = math.ceil(nodes * hours / MAX_HOURS)
        if fewest <= auto_max:
            fix += f" or run on more nodes: at least {fewest} at linear scaling (`nodes: auto` picks the fewest that meet the deadline)"
        elif fewest <= MAX_NODES:
            fix += f" or run on more nodes: at least {fewest} at linear scaling (`nodes: {fewest}`)"
    return (
        f"work: the job takes {hours:,.0f} h ({hours / 8760:,.0f} years) even on {where}, the fastest; "
        f"{RUN_LIMIT}; {fix}"
    )


def at_most_gib(gib: float, value: object) -> float:
    """`gib` when it is at most `MAX_FILE_SYSTEM_GIB`.

    Raises:
        ValueError: a larger size, naming `value` and the largest any cloud provides.
    """
    if gib > MAX_FILE_SYSTEM_GIB:
        raise ValueError(
            f"{value!r} is {gib / 1024**2:,.0f} PiB, more than any cloud's largest file system "
            f"({MAX_FILE_SYSTEM_GIB:,} GiB = 100 PiB); check the unit (4800GiB, 4.8TiB)"
        )
    return gib


_COUNT_SUFFIXES = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}
_COUNT = re.compile(rf"\s*({_NUMBER}(?:e\d+)?)\s*([kKmMbBgGtT]?)\s*(?:flops?|FLOPs?)?\s*")


def parse_count(value: object) -> float:
    """`7B`, `300B`, `1.2T`, `1.28M`, `12.3G`, `12.3 GFLOPs`, `7e9` or a number -> float.

    Raises:
        ValueError: not a count, or not finite (message names the value and an example).
    """
    example = "7B, 300B or 1.28M"
    if isinstance(value, bool):
        raise ValueError(f"expected a count such as 7B, got {str(value).lower()}")
    if isinstance(value, (int, float)):
        return finite(float(value), value, example)
    match = _COUNT.fullmatch(str(value))
    if not match:
        raise ValueError(f"cannot read {value!r} as a count; write it like {example}")
    return finite(float(match.group(1)) * _COUNT_SUFFIXES[match.group(2).lower()], value, example)


def on_demand_after(value: object) -> float | None:
    """`spot.fallback`: `on-demand after 30m` -> 0.5 (hours the spot group may stay below size
    before on-demand fills the gap), or None."""
    if value is None:
        return None
    text = str(value).strip().lower()
    if not text.startswith("on-demand after "):
        raise ValueError(f"'{value}' is not a fallback; write e.g. on-demand after 30m")
    try:
        return parse_duration_hours(text.removeprefix("on-demand after ").strip())
    except ValueError as error:  # the fix is the whole fallback, not a bare duration
        raise ValueError(f"'{value}' is not a fallback ({error}); write e.g. on-demand after 30m") from None
