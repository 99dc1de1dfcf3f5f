"""The recorded-resource shape every rule reads: `{"type", "name", "parent", "protect", "inputs"}`.

A value a real preview cannot know yet arrives as `UNKNOWN`; rules never flag it.
"""

from __future__ import annotations

from typing import Any

UNKNOWN = "<unknown>"
LAUNCH_TEMPLATE = "aws:ec2/launchTemplate:LaunchTemplate"
INSTANCE = "aws:ec2/instance:Instance"


def is_true(value: Any) -> bool:
    """True for a set flag, or one a preview cannot know yet (`UNKNOWN`)."""
    return value is True or value in ("true", "True", UNKNOWN)
