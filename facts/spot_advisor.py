"""AWS Spot Instance Advisor bands for GPU instance types, with their source and date.

The Spot Instance Advisor publishes, per instance type, region and OS, the "frequency of
interruption": the rate at which Spot reclaimed capacity during the trailing month, in five
bands, < 5 %, 5-10 %, 10-15 %, 15-20 % and > 20 % (`ranges` index 0-4 of the public feed
spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json, field `r`; pricing-models.md A10).
The band is per instance *type*: sizes of one family differ (g6e.2xlarge 5-10 %, g6e.4xlarge
> 20 %), so no family-wide figure is derived from it.

Source SA1: the feed's us-east-1 Linux values for six GPU types, as quoted in a public
third-party design document (code corpus file id 69729964164, "From the AWS Spot Instance
Advisor feed, us-east-1 Linux, fetched 2026-09-20"). Third-party transcription of the feed,
observed 2026-09-20; no other region or type was found in a stored snapshot. A band moves
month to month: refresh from the feed before relying on it.
"""

from __future__ import annotations

from typing import NamedTuple

# Band index -> (label, upper edge as a share of capacity reclaimed per month). The top band
# has no upper edge; its floor (0.20) is the smallest rate consistent with it.
BANDS: dict[int, tuple[str, float]] = {
    0: ("< 5 %", 0.05),
    1: ("5-10 %", 0.10),
    2: ("10-15 %", 0.15),
    3: ("15-20 %", 0.20),
    4: ("> 20 %", 0.20),
}


class AdvisorBand(NamedTuple):
    """One instance type's Spot Advisor band in one region.

    Attributes:
        band: index into `BANDS` (0 = < 5 % ... 4 = > 20 %).
        source: source id, see the module docstring.
        observed: when the band was read from the feed (ISO date).
    """

    band: int
    source: str
    observed: str

    @property
    def label(self) -> str:
        """The band as the advisor shows it, e.g. `5-10 %`."""
        return BANDS[self.band][0]

    @property
    def upper_edge(self) -> float:
        """The band's upper edge (the top band's floor), share of capacity reclaimed per month."""
        return BANDS[self.band][1]


_SA1 = ("SA1 (third-party copy of the AWS Spot Advisor feed, us-east-1 Linux)", "2026-09-20")

# (region, instance_type) -> band, AWS, Linux.
AWS_SPOT_ADVISOR: dict[tuple[str, str], AdvisorBand] = {
    ("us-east-1", "p5.48xlarge"): AdvisorBand(0, *_SA1),
    ("us-east-1", "g6e.2xlarge"): AdvisorBand(1, *_SA1),
    ("us-east-1", "g6e.4xlarge"): AdvisorBand(4, *_SA1),
    ("us-east-1", "g6e.8xlarge"): AdvisorBand(3, *_SA1),
    ("us-east-1", "g6.2xlarge"): AdvisorBand(2, *_SA1),
    ("us-east-1", "g5.2xlarge"): AdvisorBand(3, *_SA1),
}


def aws_band(region: str, instance_type: str) -> AdvisorBand | None:
    """The recorded Spot Advisor band of `instance_type` in `region`, or None when none is recorded."""
    return AWS_SPOT_ADVISOR.get((region, instance_type))
