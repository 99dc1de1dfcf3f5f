"""What the policy rules read off trainstack's Baidu AI Cloud dynamic resources
(`clouds.policy.PolicyReaders`).

BCC `create_instance_by_spec` (bce-python-sdk 0.9.79) takes no root-disk encryption: an n/a
gap. The dynamic `SecurityGroup` holds its `rules` with `sourceIp`; a BCC instance bids for
spot capacity when it has a `bid_model`. An ingress rule without `sourceIp` is open to
0.0.0.0/0 (the SDK's default, `components.baiducloud.security`): it counts as open to the
internet, and `ingress-has-source` flags a rule naming neither `sourceIp` nor `sourceGroupId`.
Baidu clusters create no IAM policy (nodes hold no cloud credential), so no permission reader.
"""

from __future__ import annotations

from clouds.policy import Inputs, Opening, PolicyReaders, is_world, no_encryption_input, sourceless_line, text_ports

INSTANCE = "pulumi-python:dynamic/baiducloud:BccInstance"


_SOURCES = ("sourceIp", "sourceGroupId")


def _ingress(inputs: Inputs) -> list[dict]:
    return [r for r in inputs.get("rules") or [] if isinstance(r, dict) and r.get("direction") == "ingress"]


def _rules(inputs: Inputs) -> list[Opening]:
    return [
        ("0.0.0.0/0", text_ports(rule.get("portRange")))
        for rule in _ingress(inputs)
        if is_world(rule.get("sourceIp")) or not any(rule.get(k) for k in _SOURCES)
    ]


def _sourceless(inputs: Inputs) -> list[str]:
    return [
        line
        for rule in _ingress(inputs)
        if not any(rule.get(k) for k in _SOURCES)
        for line in sourceless_line(
            f"ingress rule for ports {rule.get('portRange') or 'all'} (0.0.0.0/0 when none is set)", _SOURCES
        )
    ]


POLICY = PolicyReaders(
    world_ingress={"pulumi-python:dynamic/baiducloud:SecurityGroup": _rules},
    sourceless_ingress={"pulumi-python:dynamic/baiducloud:SecurityGroup": _sourceless},
    encryption={
        INSTANCE: no_encryption_input(
            "root disk not encrypted: BCC `create_instance_by_spec` (bce-python-sdk 0.9.79) takes no root-disk encryption"
        )
    },
    spot={INSTANCE: lambda inputs: inputs.get("bid_model") not in (None, "")},
)
