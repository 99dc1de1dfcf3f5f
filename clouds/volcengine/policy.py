"""What the policy rules read off Volcengine resources (`clouds.policy.PolicyReaders`).

Neither pulumi_volcengine 0.0.47 nor pulumi_volcenginecc 0.0.64 has a volume encryption input,
and `vepfs.FileSystem` has none either: n/a gaps. Security-group rules: `direction: ingress`,
`policy: accept`; a rule with no source at all means "from anywhere" (the source CIDR is
optional and defaults to all addresses). Spot: `spotStrategy` other than `NoSpot`.
"""

from __future__ import annotations

from clouds.policy import Inputs, Opening, PolicyReaders, is_world, no_encryption_input, ports

INSTANCE = "volcengine:ecs/instance:Instance"
# The Auto Scaling group's configuration: the volumes and purchase of every node it creates.
CONFIGURATION = "volcengine:autoscaling/scalingConfiguration:ScalingConfiguration"


def _spot(inputs: Inputs) -> bool:
    return inputs.get("spotStrategy") not in (None, "", "NoSpot")


def _rule(inputs: Inputs) -> list[Opening]:
    if inputs.get("direction") != "ingress" or inputs.get("policy", "accept") != "accept":
        return []
    sources = [inputs.get(k) for k in ("cidrIp", "sourceGroupId", "prefixListId")]
    if is_world(inputs.get("cidrIp")) or not any(sources):
        return [("0.0.0.0/0", ports(inputs.get("portStart"), inputs.get("portEnd")))]
    return []


POLICY = PolicyReaders(
    world_ingress={"volcengine:vpc/securityGroupRule:SecurityGroupRule": _rule},
    encryption={
        INSTANCE: no_encryption_input(
            "system volume not encrypted: neither pulumi_volcengine 0.0.47 nor "
            "pulumi_volcenginecc 0.0.64 has a volume encryption input"
        ),
        CONFIGURATION: no_encryption_input(
            "system volume not encrypted: pulumi_volcengine 0.0.47 `autoscaling.ScalingConfiguration` "
            "volumes take no encryption input"
        ),
        "volcengine:vepfs/fileSystem:FileSystem": no_encryption_input(
            "vePFS file system not encrypted: pulumi_volcengine 0.0.47 `vepfs.FileSystem` has no encryption input"
        ),
    },
    spot={INSTANCE: _spot, CONFIGURATION: _spot},
)
