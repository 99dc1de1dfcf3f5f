"""Parse the unit shorthands users type in workload specs: sizes and durations."""

from __future__ import annotations

import re

# Size units -> GiB. Decimal units (GB, TB) are converted exactly: 1 GB = 10^9 / 2^30 GiB.
_SIZE_UNITS = {
    "gib": 1.0, "tib": 1024.0, "mib": 1 / 1024,
    "gb": 1e9 / 2**30, "tb": 1e12 / 2**30, "mb": 1e6 / 2**30,
}
_DURATION_UNITS = {"m": 1 / 60, "min": 1 / 60, "h": 1.0, "hr": 1.0, "hours": 1.0, "d": 24.0, "days": 24.0, "w": 168.0}
_NUMBER_UNIT = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*")


def _split(value: object, kind: str, example: str) -> tuple[float, str]:
    if isinstance(value, bool):
        raise ValueError(f"expected a {kind} such as {example}, got {value!r}")
    if isinstance(value, (int, float)):
        return float(value), ""
    match = _NUMBER_UNIT.fullmatch(str(value))
    if not match:
        raise ValueError(f"cannot read {value!r} as a {kind}; write it like {example}")
    return float(match.group(1)), match.group(2).lower()


def parse_size_gib(value: object) -> float:
    """`4800GiB`, `4.8TiB`, `80GB` or a bare number (GiB) -> GiB.

    Marketed accelerator memory (`80GB`) is GiB-sized, so GB is read as GiB when the
    value is 256 or less and no explicit binary unit is given; larger GB/TB values are
    decimal (1 GB = 0.931 GiB).

    Raises:
        ValueError: unknown unit or not a number (message names the value and an example).
    """
    number, unit = _split(value, "size", "4800GiB or 80GB")
    if unit == "gb" and number <= 256:
        return number
    if unit not in _SIZE_UNITS and unit:
        raise ValueError(f"unknown size unit in {value!r}; use GiB, TiB, GB or TB")
    return number * _SIZE_UNITS.get(unit, 1.0)


def parse_duration_hours(value: object) -> float:
    """`72h`, `3d`, `90m` or a bare number (hours) -> hours.

    Raises:
        ValueError: unknown unit or not a number.
    """
    number, unit = _split(value, "duration", "72h or 3d")
    if unit and unit not in _DURATION_UNITS:
        raise ValueError(f"unknown duration unit in {value!r}; use m, h, d or w")
    return number * _DURATION_UNITS.get(unit, 1.0)


_COUNT_SUFFIXES = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}
_COUNT = re.compile(r"\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*([kKmMbBgGtT]?)\s*(?:flops?|FLOPs?)?\s*")


def parse_count(value: object) -> float:
    """`7B`, `300B`, `1.2T`, `1.28M`, `12.3G`, `12.3 GFLOPs`, `7e9` or a number -> float.

    Raises:
        ValueError: not a count (message names the value and an example).
    """
    if isinstance(value, bool):
        raise ValueError(f"expected a count such as 7B, got {value!r}")
    if isinstance(value, (int, float)):
        return float(value)
    match = _COUNT.fullmatch(str(value))
    if not match:
        raise ValueError(f"cannot read {value!r} as a count; write it like 7B, 300B or 1.28M")
    return float(match.group(1)) * _COUNT_SUFFIXES[match.group(2).lower()]
