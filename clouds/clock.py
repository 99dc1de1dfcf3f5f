"""The current time, read in one place so that what depends on it can be tested.

`now()` is the system clock in UTC, or the moment `TRAINSTACK_NOW` gives (ISO 8601 with a
zone, e.g. `2026-12-04T13:40:00Z`): tests and reproducible runs fix the clock with it. Used
where a date decides what is valid, such as a Capacity Block that has ended
(`clouds.block_end.block_end_problem`).
"""

from __future__ import annotations

import os
from datetime import datetime, timezone

NOW_VARIABLE = "TRAINSTACK_NOW"


class ClockError(ValueError):
    """`TRAINSTACK_NOW` is set but not an ISO 8601 date-time with a zone; one line."""


def now() -> datetime:
    """The current time, timezone-aware (UTC unless `TRAINSTACK_NOW` gives another zone).

    Raises:
        ClockError: `TRAINSTACK_NOW` is set but not an ISO 8601 date-time with a zone.
    """
    fixed = os.environ.get(NOW_VARIABLE, "").strip()
    if not fixed:
        return datetime.now(timezone.utc)
    try:
        value = datetime.fromisoformat(fixed.replace("Z", "+00:00"))
    except ValueError:
        value = None
    if value is None or value.tzinfo is None:
        raise ClockError(
            f"{NOW_VARIABLE}: '{fixed}' is not an ISO 8601 date-time with a zone; write e.g. 2026-12-04T13:40:00Z "
            "or unset it to use the system clock"
        )
    return value
