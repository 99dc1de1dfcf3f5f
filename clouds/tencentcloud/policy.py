"""What the policy rules read off Tencent Cloud resources (`clouds.policy.PolicyReaders`).

Encryption inputs, from tencentcloud-iac-pulumi 0.2.3: CVM `dataDisks[].encrypt` and CBS
`encrypt` (the default cloud-disk key when no `kmsKeyId`); the CVM system disk and CFS have no
encryption input (n/a gaps). Security groups: a `GroupRuleSet`'s `ingresses` with action
`ACCEPT`, `port` as `low-high` or a list. Spot: `instanceChargeType: SPOTPAID`.
"""

from __future__ import annotations

from clouds.policy import (
    Encryption,
    Inputs,
    Opening,
    PolicyReaders,
    data_disks_encrypted,
    flag_set,
    is_world,
    no_encryption_input,
    text_ports,
)

INSTANCE = "tencentcloud:Instance/instance:Instance"


def _rules(inputs: Inputs) -> list[Opening]:
    return [
        ("0.0.0.0/0", text_ports(rule.get("port"), "-,"))
        for rule in inputs.get("ingresses") or []
        if rule.get("action") == "ACCEPT" and (is_world(rule.get("cidrBlock")) or is_world(rule.get("ipv6CidrBlock")))
    ]


POLICY = PolicyReaders(
    world_ingress={"tencentcloud:Security/groupRuleSet:GroupRuleSet": _rules},
    encryption={
        "tencentcloud:Cbs/storage:Storage": Encryption(flag_set("encrypt")),
        INSTANCE: Encryption(
            lambda inputs: data_disks_encrypted(inputs, "encrypt"),
            lambda inputs: bool(inputs.get("dataDisks")),
            lambda inputs: [
                "system disk not encrypted: tencentcloud-iac-pulumi 0.2.3 `Instance` has no system-disk encryption input"
            ],
        ),
        "tencentcloud:Cfs/fileSystem:FileSystem": no_encryption_input(
            "CFS file system not encrypted: tencentcloud-iac-pulumi 0.2.3 `cfs.FileSystem` has no encryption input"
        ),
    },
    spot={INSTANCE: lambda inputs: inputs.get("instanceChargeType") == "SPOTPAID"},
)
