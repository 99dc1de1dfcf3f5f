"""Azure capacity signals for `trainstack check` (`profiles.preflight.signals`): the Spot
Placement Score of a spot stack, through ARM REST (`profiles.preflight.azure_api`).

`POST /subscriptions/{id}/providers/Microsoft.Compute/locations/{region}/placementScores/spot/generate`
(api-version 2025-06-05; the `Invoke-AzSpotPlacementScore` contract) takes up to 8 regions and
5 VM sizes, a count and whether to score zones, and answers a score per size, region (and
zone): `High` ("highly likely to succeed"), `Medium`, `Low` ("a low chance"), or
`DataNotFoundOrStale` / `RestrictedSkuNotAvailable`, with `isQuotaAvailable` (Microsoft Learn,
"Spot Placement Score"). It is a recommendation valid when asked, needs the Compute
Recommendations Role, and is free. On-demand stacks get no signal (the score is for Spot).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timezone
from typing import Any

from clouds.azure.zones import ZONE_NAMES
from clouds.clock import now as clock_now
from clouds.contract import ClusterConfig
from profiles.choice.live import LiveScore
from profiles.preflight.finding import Finding, PreflightError

API_VERSION = "2025-06-05"
MAX_SIZES = 5  # sizes one request scores (Microsoft Learn, "Spot Placement Score")
CHECK = "spot-score"


def request_body(cluster: ClusterConfig) -> dict[str, Any]:
    """The generate request for the stack's sizes (its type first, then `fallback_types`)."""
    sizes = (cluster.instance_type, *cluster.fallback_types)[:MAX_SIZES]
    return {
        "desiredLocations": [cluster.region],
        "desiredSizes": [{"sku": size} for size in sizes],
        "desiredCount": cluster.nodes,
        "availabilityZones": cluster.zone in ZONE_NAMES,
    }


def score_finding(cluster: ClusterConfig, answer: dict[str, Any]) -> Finding:
    """The generate answer read for the stack's size and zone (or region)."""
    zonal = cluster.zone in ZONE_NAMES
    rows = [r for r in answer.get("placementScores", []) if r.get("region") == cluster.region]
    if zonal:
        rows = [r for r in rows if str(r.get("availabilityZone")) == cluster.zone]
    scores = {r.get("sku"): r for r in rows}
    where = f"zone {cluster.zone} of {cluster.region}" if zonal else cluster.region
    ask = f"{cluster.nodes} x Spot {cluster.instance_type} in {where}"
    others = ", ".join(f"{sku} {r.get('score')}" for sku, r in scores.items() if sku != cluster.instance_type)
    also = f"; fallback sizes: {others}" if others else ""
    own = scores.get(cluster.instance_type)
    if own is None:
        return Finding(CHECK, "unknown", f"{ask}: Azure returned no placement score for it{also}")
    score = str(own.get("score"))
    quota = "" if own.get("isQuotaAvailable", True) else "; the subscription's Spot vCPU quota does not cover it"
    detail = f"{ask}: Azure spot placement score {score}{quota}{also}"
    if score == "High" and not quota:
        return Finding(CHECK, "ok", detail)
    if score == "Medium" and not quota:
        return Finding(
            CHECK, "info", detail, "a recommendation only; `trainstack status` shows what the scale set gets"
        )
    return Finding(
        CHECK,
        "unknown",
        detail,
        "expect to wait for Spot capacity: raise the Spot vCPU quota if short, or rerun `trainstack resolve` "
        "for another region or size",
    )


def reads(cluster: ClusterConfig) -> bool:
    """Whether `signals` calls Azure for `cluster`: the score is for Spot only."""
    return cluster.purchase == "spot"


def signals(cluster: ClusterConfig, settings: Mapping[str, Any], session: Any = None) -> list[Finding]:
    """The stack's spot placement score, with the default Azure credentials (`azure_api`).

    Raises:
        PreflightError: no Azure credentials (the live check cannot run: `check` exits 1); a
            call Azure refuses is an `unknown` finding instead.
    """
    if not reads(cluster):
        return []
    from profiles.preflight import azure_api

    token, subscription = azure_api.credentials()
    try:
        path = (
            f"/subscriptions/{subscription}/providers/Microsoft.Compute/locations/{cluster.region}"
            "/placementScores/spot/generate"
        )
        answer = azure_api.call("POST", path, token, API_VERSION, request_body(cluster))
    except PreflightError as exc:
        return [Finding(CHECK, "unknown", f"not read: {exc}")]
    return [score_finding(cluster, answer)]


def live_scores(asks: list[tuple[str, str, str, int]], session: Any = None) -> dict[tuple[str, str], LiveScore]:
    """`resolve --live`: the spot placement score of each ask (region, zone, size, nodes): one
    request per (region, nodes) for up to `MAX_SIZES` sizes, zonal where the zone is one.

    Returns:
        (zone, size) -> its score (`Low`, `DataNotFoundOrStale`, `RestrictedSkuNotAvailable`
        and a Spot quota that does not cover it are low).

    Raises:
        PreflightError: no Azure credentials, or a refused call (one line).
    """
    from profiles.preflight import azure_api

    token, subscription = azure_api.credentials()
    asked = f"placementScores/spot/generate, {clock_now().astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC"
    found: dict[tuple[str, str], LiveScore] = {}
    groups: dict[tuple[str, int, bool], list[tuple[str, str]]] = {}
    for region, zone, size, nodes in asks:
        groups.setdefault((region, nodes, zone in ZONE_NAMES), []).append((zone, size))
    for (region, nodes, zonal), wanted in sorted(groups.items()):
        sizes = list(dict.fromkeys(size for _, size in wanted))
        for start in range(0, len(sizes), MAX_SIZES):
            body = {
                "desiredLocations": [region],
                "desiredSizes": [{"sku": s} for s in sizes[start : start + MAX_SIZES]],
                "desiredCount": nodes,
                "availabilityZones": zonal,
            }
            path = f"/subscriptions/{subscription}/providers/Microsoft.Compute/locations/{region}/placementScores/spot/generate"
            for row in azure_api.call("POST", path, token, API_VERSION, body).get("placementScores", []):
                zone = str(row.get("availabilityZone")) if zonal else region
                if row.get("region") != region or (zone, row.get("sku")) not in wanted:
                    continue
                score, quota = str(row.get("score")), row.get("isQuotaAvailable", True)
                short = "" if quota else "; the Spot vCPU quota does not cover it"
                text = f"Azure spot placement score {score} for {nodes} node(s){short} ({asked})"
                found[(zone, str(row.get("sku")))] = LiveScore(text, score not in ("High", "Medium") or not quota)
    return found
