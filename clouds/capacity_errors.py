"""What a cloud's error says about capacity: none left, or a quota reached.

Each cloud lists the error codes its APIs return for both (`Cloud.capacity_codes`, from its
documented error references), as regular expressions matched against the provider's error
text as the Pulumi engine reports it (`trainstack up`, `trainstack status`). A message that
matches neither is not a capacity problem, and nothing falls back on it.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from clouds.registry import CLOUDS

# What each kind means to the user (the walk's report says it).
KINDS = {
    "capacity": "the cloud has no capacity for this offering now",
    "quota": "the account's quota for this offering is used up",
}


class CapacityFailure(NamedTuple):
    """A capacity or quota error.

    Attributes:
        kind: `capacity` or `quota` (`KINDS`).
        code: the cloud's code as it appeared (`InsufficientInstanceCapacity`).
    """

    kind: str
    code: str


@functools.cache
def _patterns(provider: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    cloud = CLOUDS.get(provider)
    codes = cloud.capacity_codes if cloud else {}
    return tuple((kind, re.compile(rf"\b(?:{pattern})")) for kind in KINDS for pattern in codes.get(kind, ()))


def classify(provider: str, message: str) -> CapacityFailure | None:
    """The capacity or quota failure `message` reports on `provider`, or None (another error).

    Capacity codes are tried before quota codes, so a message naming both is a capacity one.
    """
    for kind, pattern in _patterns(provider):
        found = pattern.search(message)
        if found:
            return CapacityFailure(kind, found.group(0))
    return None
