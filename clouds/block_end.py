"""A Capacity Block's end against the clock (standard library only, so `resolve` stays light).

EC2 terminates a Capacity Block's instances 30 minutes before the block ends; the cluster
scales its node group to zero before that (`BLOCK_SCALE_IN_MINUTES`), with a scheduled
action that AWS refuses when its start time has passed. So a block is usable from now until
its scale-in: a block past that is refused (`block_end_problem`), and a job longer than what
is left cannot finish on it (`block_short_note`). The start of a block is not modelled.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

# Minutes before a Capacity Block's end the node group scales to zero. AWS (EC2 Auto Scaling
# user guide, "Use Capacity Blocks for machine learning workloads"): "Scale in your Auto
# Scaling group to zero more than 30 minutes before the Capacity Block reservation end time"
# (EC2 terminates the instances at 30); the extra 10 minutes are a choice (unsourced).
BLOCK_SCALE_IN_MINUTES = 40


def _utc(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def block_scale_in(ends: datetime) -> datetime:
    """When the nodes on a Capacity Block ending at `ends` scale to zero (UTC)."""
    return ends.astimezone(timezone.utc) - timedelta(minutes=BLOCK_SCALE_IN_MINUTES)


def block_hours_left(ends: datetime, now: datetime) -> float:
    """Hours the nodes can run on a Capacity Block ending at `ends`, from `now` to its
    scale-in (`BLOCK_SCALE_IN_MINUTES` before the end); 0 when that has passed. The block's
    start is not modelled: a block that starts later leaves fewer."""
    return max(0.0, (block_scale_in(ends) - now).total_seconds() / 3600)


def block_end_problem(ends: datetime, now: datetime, field: str) -> str | None:
    """Why nothing can run on a Capacity Block ending at `ends`, as `now`: it has ended, or
    its scale-in (a scheduled action, which AWS refuses in the past) has passed. One line
    naming `field` and the fix, or None when the block still has time.

    Args:
        ends: the block's end time (timezone-aware).
        now: the current time (`clouds.clock.now`).
        field: the field as the file names it (`reservations.0.ends`, `reservation.ends`).
    """
    if block_hours_left(ends, now) > 0:
        return None
    fix = "remove the reservation, or give the id and end of a block that has not ended"
    if ends <= now:
        return f"{field}: {_utc(ends)} has passed (now {_utc(now)}): the Capacity Block has ended; {fix}"
    return (
        f"{field}: {_utc(ends)} is {(ends - now).total_seconds() / 60:.0f} minutes away (now {_utc(now)}), inside the "
        f"{BLOCK_SCALE_IN_MINUTES} minutes before its end when the nodes scale to zero, so nothing can run on it; {fix}"
    )


def block_short_note(ends: datetime, now: datetime, hours: float, label: str) -> str | None:
    """A line saying the job cannot finish on a Capacity Block, or None when it can: the
    nodes scale to zero `block_hours_left` hours from `now`, before the job's `hours`."""
    left = block_hours_left(ends, now)
    if left >= hours:
        return None
    return (
        f"{label} ends {_utc(ends)}: its nodes scale to zero {left:,.1f} h from now, before the job's "
        f"{hours:,.1f} h are done; the rest ({hours - left:,.1f} h) must run elsewhere"
    )
