"""AWS capacity signals for `trainstack check` (`profiles.preflight.signals`), through boto3
(imported lazily, as `profiles.preflight.aws_api` does):

- EC2 GetSpotPlacementScores (spot stacks): how likely AWS rates a request for `nodes`
  instances of the group's types (the stack's type and its `fallback_types`, as the group
  launches them; with fallback types, each type alone too, in rank order) in one zone, from 1 ("not likely to succeed") to 10 ("highly likely"); the
  answer lists the top zones of the region (API reference, SpotPlacementScore). A
  recommendation only: "No score guarantees that your Spot request will be fully or partially
  fulfilled".
- EC2 DescribeCapacityBlockOfferings (stacks without a reservation): the Capacity Blocks AWS
  would sell for `nodes` instances over the job's hours, rounded up to a duration AWS sells
  (1-day steps up to 14 days, then 7-day steps up to 182 days; pricing-models.md A5, A6), with
  the upfront fee (the whole price, paid up front: A5) and its USD/hour for the cluster.

A refused or failed call is an `unknown` finding with its one line: the signals never stop the
other checks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any

from clouds.clock import now as clock_now
from clouds.contract import ClusterConfig
from profiles.choice.live import LiveScore
from profiles.preflight.aws_api import CREDENTIALS_FIX, aws_errors, client, new_session
from profiles.preflight.finding import RETRY_HINT, Finding, PreflightError

# Scores at or above this are `ok`, at or below `LOW_SCORE` a warning with the best zones
# (a choice on AWS's 1-10 scale, not a sourced threshold).
GOOD_SCORE, LOW_SCORE = 7, 3
DAY, WEEK = 24, 168
LONGEST_BLOCK_HOURS = 182 * DAY  # 182 days (A5)
LATEST = datetime.max.replace(tzinfo=timezone.utc)  # an offering without a start date sorts last


def block_hours(hours: float) -> int:
    """The shortest Capacity Block duration AWS sells (hours) that covers `hours`: whole days up
    to 14 days, then whole weeks up to 182 days (A5, A6); longer jobs get the longest block."""
    if hours <= 14 * DAY:
        return max(1, math.ceil(hours / DAY)) * DAY
    return min(math.ceil(hours / WEEK) * WEEK, LONGEST_BLOCK_HOURS)


def zone_scores(answer: dict[str, Any]) -> dict[str, int]:
    """A GetSpotPlacementScores answer (SingleAvailabilityZone) as zone id -> score."""
    return {s["AvailabilityZoneId"]: int(s["Score"]) for s in answer.get("SpotPlacementScores", [])}


def placement_finding(
    cluster: ClusterConfig, answer: dict[str, Any], per_type: dict[str, dict[str, int]] | None = None
) -> Finding:
    """The GetSpotPlacementScores answer for the group's types together, read for the stack's
    zone; with `per_type` (type -> zone scores, each type asked alone) each type's own score
    there, in rank order."""
    scores = zone_scores(answer)
    types = ", ".join((cluster.instance_type, *cluster.fallback_types))
    ask = f"{cluster.nodes} x spot {types} in one zone of {cluster.region}"
    best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:3]
    others = ", ".join(f"{zone} {score}" for zone, score in best if zone != cluster.zone)
    elsewhere = f"; best zones: {others}" if others else ""
    if per_type:
        alone = ", ".join(f"{t} {found.get(cluster.zone, 'unscored')}" for t, found in per_type.items())
        elsewhere += f"; each type alone in {cluster.zone}: {alone}"
    score = scores.get(cluster.zone)
    if score is None:
        return Finding(
            "spot-score",
            "unknown",
            f"{ask}: AWS scores {len(scores)} zones and {cluster.zone} is not among them{elsewhere} (1-10, 10 likely)",
            "expect to wait for spot capacity; consider a zone AWS scores higher (rerun `trainstack resolve`)",
        )
    detail = f"{ask}: AWS spot placement score {score} of 10 in {cluster.zone}{elsewhere}"
    if score >= GOOD_SCORE:
        return Finding("spot-score", "ok", detail)
    if score > LOW_SCORE:
        return Finding(
            "spot-score", "info", detail, "a recommendation only; `trainstack status` shows what the group gets"
        )
    return Finding(
        "spot-score",
        "unknown",
        detail + " (not likely to succeed)",
        "expect to wait for spot capacity: move to a higher-scoring zone, add fallback_types, or "
        "set spot: {fallback: on-demand after 30m} in the workload",
    )


def block_finding(cluster: ClusterConfig, answer: dict[str, Any], hours: int) -> Finding:
    """The DescribeCapacityBlockOfferings answer: the earliest offering and its price."""
    offerings = [o for o in answer.get("CapacityBlockOfferings", []) if o.get("UpfrontFee")]
    ask = f"{cluster.nodes} x {cluster.instance_type} for {hours} h"
    if not offerings:
        return Finding("capacity-block", "info", f"{ask}: AWS offers no Capacity Block in {cluster.region} now")
    first = min(offerings, key=lambda o: _when(o.get("StartDate")))
    fee = float(first["UpfrontFee"])
    per_hour = fee / max(int(first.get("CapacityBlockDurationHours") or hours), 1)
    compared = f" (the stack records ${cluster.usd_per_hour:,.2f}/hour)" if cluster.usd_per_hour else ""
    return Finding(
        "capacity-block",
        "info",
        f"{ask}: {len(offerings)} Capacity Block offering(s); earliest from {_when(first.get('StartDate')):%Y-%m-%d %H:%M} "
        f"UTC in {first.get('AvailabilityZone', '?')}: {first.get('CurrencyCode', 'USD')} {fee:,.2f} up front, "
        f"${per_hour:,.2f}/hour for the cluster{compared}",
        f"to hold capacity, buy it (aws ec2 purchase-capacity-block --capacity-block-offering-id "
        f"{first.get('CapacityBlockOfferingId', '?')} --instance-platform Linux/UNIX) and set reservation: in the workload",
    )


def _when(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    return datetime.fromisoformat(str(value).replace("Z", "+00:00")) if value else LATEST


def signals(cluster: ClusterConfig, settings: Mapping[str, Any], session: Any = None) -> list[Finding]:
    """The stack's capacity signals with `session` (default: the usual credential chain);
    `settings`, the stack's `config:`, is not needed (the region is the cluster's)."""
    return read_signals(cluster, client(new_session(session), "ec2", cluster.region))


def read_signals(cluster: ClusterConfig, ec2: Any) -> list[Finding]:
    """The stack's capacity signals from an `ec2` client in its region (module docstring)."""
    found = []
    if cluster.purchase == "spot":
        found.append(
            _read(
                "spot-score",
                "ec2:GetSpotPlacementScores",
                cluster,
                lambda: placement_finding(
                    cluster,
                    _scores(ec2, cluster, [cluster.instance_type, *cluster.fallback_types]),
                    {
                        t: zone_scores(_scores(ec2, cluster, [t]))
                        for t in (cluster.instance_type, *cluster.fallback_types)
                    }
                    if cluster.fallback_types
                    else None,
                ),
            )
        )
    if cluster.reservation is None:
        hours = block_hours(cluster.hours)
        found.append(
            _read(
                "capacity-block",
                "ec2:DescribeCapacityBlockOfferings",
                cluster,
                lambda: block_finding(
                    cluster,
                    ec2.describe_capacity_block_offerings(
                        InstanceType=cluster.instance_type, InstanceCount=cluster.nodes, CapacityDurationHours=hours
                    ),
                    hours,
                ),
            )
        )
    return found


def _scores(ec2: Any, cluster: ClusterConfig, types: list[str]) -> dict[str, Any]:
    """GetSpotPlacementScores for `nodes` instances of `types` in one zone of the stack's region."""
    return ec2.get_spot_placement_scores(  # type: ignore[no-any-return]
        InstanceTypes=types,
        TargetCapacity=cluster.nodes,
        TargetCapacityUnitType="units",
        SingleAvailabilityZone=True,
        RegionNames=[cluster.region],
    )


def _read(check: str, call: str, cluster: ClusterConfig, read: Any) -> Finding:
    try:
        with aws_errors(call, cluster.region, PreflightError, RETRY_HINT):
            return read()  # type: ignore[no-any-return]
    except PreflightError as exc:
        return Finding(check, "unknown", f"not read: {exc}", "")


def live_scores(asks: list[tuple[str, str, str, int]], session: Any = None) -> dict[tuple[str, str], LiveScore]:
    """`resolve --live`: GetSpotPlacementScores per (region, type, nodes) of `asks` (region,
    zone id, instance type, nodes), read for each ask's zone.

    Returns:
        (zone id, instance type) -> its score (a zone AWS leaves out of its top zones is low).

    Raises:
        PreflightError: no AWS credentials, or a refused call (one line).
    """
    session = new_session(session)
    if session.get_credentials() is None:
        raise PreflightError(f"no AWS credentials; {CREDENTIALS_FIX}")
    asked = f"GetSpotPlacementScores, {clock_now().astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC"
    found: dict[tuple[str, str], LiveScore] = {}
    for region, instance_type, nodes in sorted({(r, t, n) for r, _, t, n in asks}):
        with aws_errors("ec2:GetSpotPlacementScores", region, PreflightError, "rerun without --live"):
            answer = client(session, "ec2", region).get_spot_placement_scores(
                InstanceTypes=[instance_type],
                TargetCapacity=nodes,
                TargetCapacityUnitType="units",
                SingleAvailabilityZone=True,
                RegionNames=[region],
            )
        scores = {s["AvailabilityZoneId"]: int(s["Score"]) for s in answer.get("SpotPlacementScores", [])}
        for r, zone, t, n in asks:
            if (r, t, n) == (region, instance_type, nodes):
                score = scores.get(zone)
                text = (
                    f"AWS spot placement score {score} of 10 for {nodes} node(s) ({asked})"
                    if score is not None
                    else f"AWS leaves {zone} out of its top-scored zones for {nodes} node(s) ({asked})"
                )
                found[(zone, instance_type)] = LiveScore(text, score is None or score <= LOW_SCORE)
    return found
