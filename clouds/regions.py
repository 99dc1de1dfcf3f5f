"""Which regions keep data in mainland China, for the spec's `jurisdiction` constraint.

A rule over each cloud's region names, not a figure: mainland-China regions are the ones
the provider names for mainland cities (each cloud's `Cloud.mainland` pattern). Hong Kong, Macau and Taiwan regions are outside
mainland China's data-residency rules and are excluded (Alibaba and Volcengine `cn-hongkong`, Tencent
`ap-hongkong`, Huawei `ap-southeast-1`, Baidu `hkg`). AWS (`cn-north-1`, `cn-northwest-1`)
and Azure (`chinanorth*`, `chinaeast*`) mainland regions are run by local operators and
are not in the price catalog.
"""

from __future__ import annotations

from clouds.registry import CLOUDS

JURISDICTIONS = ("any", "cn-mainland")


def in_mainland_china(provider: str, region: str) -> bool:
    """True when `region` of `provider` is a mainland-China region (data stays in China)."""
    found = CLOUDS.get(provider)
    return bool(found and found.in_mainland_china(region))
