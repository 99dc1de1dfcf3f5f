"""Which regions keep data in mainland China, for the spec's `jurisdiction` constraint.

A rule over each cloud's region names, not a figure: mainland-China regions are the ones
the provider names for mainland cities. Hong Kong, Macau and Taiwan regions are outside
mainland China's data-residency rules and are excluded (Alibaba and Volcengine `cn-hongkong`, Tencent
`ap-hongkong`, Huawei `ap-southeast-1`, Baidu `hkg`). AWS (`cn-north-1`, `cn-northwest-1`)
and Azure (`chinanorth*`, `chinaeast*`) mainland regions are run by local operators and
are not in the price catalog.
"""

from __future__ import annotations

import re

_MAINLAND: dict[str, re.Pattern[str]] = {
    "alicloud": re.compile(r"^cn-(?!hongkong)[a-z]+\d*$"),
    "tencentcloud": re.compile(r"^ap-(beijing|shanghai|guangzhou|shenzhen|chengdu|chongqing|nanjing)(-[a-z]+)?$"),
    "huaweicloud": re.compile(r"^cn-(north|east|south|southwest|northeast)-\d+$"),
    "volcengine": re.compile(r"^cn-(?!hongkong)[a-z]+(-[a-z]+)?$"),
    "baiducloud": re.compile(r"^(bj|gz|su|bd|fwh|yq|cd|fsh)$"),
    "aws": re.compile(r"^cn-(north|northwest)-\d$"),
    "azure": re.compile(r"^china(north|east)\d?$"),
}

JURISDICTIONS = ("any", "cn-mainland")


def in_mainland_china(provider: str, region: str) -> bool:
    """True when `region` of `provider` is a mainland-China region (data stays in China)."""
    pattern = _MAINLAND.get(provider)
    return bool(pattern and pattern.match(region))
