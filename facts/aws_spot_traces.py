"""Spot interruptions counted in published GPU spot traces, with their source and dates.

Source ST1: the preemption traces of "Can't Be Late: Optimizing Spot Instance Savings under
Deadlines" (Wu et al., NSDI 2024), published in github.com/skypilot-org/spot-traces (commit
221da1a): a p3.2xlarge (1 x V100) spot node kept running and relaunched after each
preemption, one JSON file per zone with a tick every `gap_seconds` (32 s for the 1-node
traces of 2023-04-22, 7 days in us-east-1c, us-east-1f, us-west-2b, us-west-2c; 300 s for the
4-node traces of 2023-08-03, 13 days in us-east-1f, us-east-2a, us-west-2c).

Counted here (the repository has no script; reading a tick's value as the number of the
run's nodes not running then, which the 4-node files' start at 0 with every node up
supports, is this project's reading, an assumption): an interruption is a rise of the value
(nodes newly lost), a running node-hour is (nodes - value) x gap. Per trace:
(interruptions, running node-hours). The rate per node-month (730 h) of all seven pooled is
`P3_RATE`, 316; the traces range from 116 to 893. The same traces show the node waiting for
capacity 31-84 % of the time (not used: the wait for capacity is the restart model's).

These are V100 spot nodes in 2023, measured on the family's 1-GPU size: applied to the p3
family (8-GPU sizes included) as an assumption, and to no other family.
"""

from __future__ import annotations

ST1 = "ST1 (Can't Be Late, NSDI 2024: skypilot-org/spot-traces, p3.2xlarge spot, 2023-04-22 and 2023-08-03)"

# zone and trace -> (interruptions, running node-hours), counted as the module docstring says.
P3_TRACES: dict[str, tuple[int, float]] = {
    "us-east-1c 1-node 2023-04-22": (41, 121.7),
    "us-east-1f 1-node 2023-04-22": (60, 72.4),
    "us-west-2b 1-node 2023-04-22": (45, 36.8),
    "us-west-2c 1-node 2023-04-22": (58, 47.7),
    "us-east-1f 4-node 2023-08-03": (195, 801.3),
    "us-east-2a 4-node 2023-08-03": (73, 460.2),
    "us-west-2c 4-node 2023-08-03": (330, 314.5),
}

HOURS_PER_MONTH = 730.0


def pooled_rate(traces: dict[str, tuple[int, float]]) -> float:
    """Interruptions per node-month (730 h) of `traces` pooled: all interruptions over all
    running node-hours."""
    return sum(n for n, _ in traces.values()) / sum(h for _, h in traces.values()) * HOURS_PER_MONTH


P3_RATE = pooled_rate(P3_TRACES)

# (cloud, instance family) -> (interruptions per node-month, source), read by
# `profiles.cost.inputs.spot_interruptions` where no Spot Advisor band is recorded.
FAMILY_RATES: dict[tuple[str, str], tuple[float, str]] = {
    ("aws", "p3"): (
        round(P3_RATE, 1),
        f"measured: {ST1}, {len(P3_TRACES)} zone traces pooled, on p3.2xlarge (the family's other sizes assumed alike)",
    ),
}
