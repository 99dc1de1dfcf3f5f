"""What the policy rules read off Tencent Cloud resources (`clouds.policy.PolicyReaders`).

Encryption inputs, from tencentcloud-iac-pulumi 0.2.3: CVM `dataDisks[].encrypt` and CBS
`encrypt` (the default cloud-disk key when no `kmsKeyId`); the CVM system disk and CFS have no
encryption input (n/a gaps), and neither have the disks of an Auto Scaling launch configuration
(`As.ScalingConfig` data disks take no `encrypt`; the component gives the group's nodes no data
disk). Security groups: a `GroupRuleSet`'s `ingresses` with action `ACCEPT`, `port` as
`low-high` or a list. Spot: `instanceChargeType: SPOTPAID`, on instances and launch
configurations alike.
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
# The Auto Scaling launch configuration: the disks and purchase of every node its group creates.
CONFIGURATION = "tencentcloud:As/scalingConfig:ScalingConfig"


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
        CONFIGURATION: no_encryption_input(
            "system disk not encrypted: tencentcloud-iac-pulumi 0.2.3 `As.ScalingConfig` has no disk encryption input"
        ),
        "tencentcloud:Cfs/fileSystem:FileSystem": no_encryption_input(
            "CFS file system not encrypted: tencentcloud-iac-pulumi 0.2.3 `cfs.FileSystem` has no encryption input"
        ),
    },
    spot={kind: lambda inputs: inputs.get("instanceChargeType") == "SPOTPAID" for kind in (INSTANCE, CONFIGURATION)},
)
