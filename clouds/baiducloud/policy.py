"""What the policy rules read off trainstack's Baidu AI Cloud dynamic resources
(`clouds.policy.PolicyReaders`).

BCC `create_instance_by_spec` (bce-python-sdk 0.9.79) takes no root-disk encryption: an n/a
gap. The dynamic `SecurityGroup` holds its `rules` with `sourceIp`; a BCC instance bids for
spot capacity when it has a `bid_model`.
"""

from __future__ import annotations

from clouds.policy import Inputs, Opening, PolicyReaders, is_world, no_encryption_input, text_ports

INSTANCE = "pulumi-python:dynamic/baiducloud:BccInstance"


def _rules(inputs: Inputs) -> list[Opening]:
    return [
        ("0.0.0.0/0", text_ports(rule.get("portRange")))
        for rule in inputs.get("rules") or []
        if rule.get("direction") == "ingress" and is_world(rule.get("sourceIp"))
    ]


POLICY = PolicyReaders(
    world_ingress={"pulumi-python:dynamic/baiducloud:SecurityGroup": _rules},
    encryption={
        INSTANCE: no_encryption_input(
            "root disk not encrypted: BCC `create_instance_by_spec` (bce-python-sdk 0.9.79) takes no root-disk encryption"
        )
    },
    spot={INSTANCE: lambda inputs: inputs.get("bid_model") not in (None, "")},
)
