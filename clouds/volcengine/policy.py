"""What the policy rules read off Volcengine resources (`clouds.policy.PolicyReaders`).

Neither pulumi_volcengine 0.0.47 nor pulumi_volcenginecc 0.0.64 has a volume encryption input,
and `vepfs.FileSystem` has none either: n/a gaps. Security-group rules: `direction: ingress`,
`policy: accept`; a rule with no source at all means "from anywhere" (the source CIDR is
optional and defaults to all addresses). Spot: `spotStrategy` other than `NoSpot`.

Least privilege (`no-wildcard-permissions`): an `iam/policy`'s `policyDocument` (AWS-style
`Statement[].Effect/Action/Resource`); attaching the system policy `AdministratorAccess`
(every action on every resource) to a role or user group counts as `*`. `ingress-has-source`:
an ingress accept rule naming none of its sources.
"""

from __future__ import annotations

from clouds.policy import (
    Grant,
    Inputs,
    Opening,
    PolicyReaders,
    document_grants,
    is_world,
    no_encryption_input,
    ports,
    sourceless_line,
)

INSTANCE = "volcengine:ecs/instance:Instance"
# The Auto Scaling group's configuration: the volumes and purchase of every node it creates.
CONFIGURATION = "volcengine:autoscaling/scalingConfiguration:ScalingConfiguration"


def _spot(inputs: Inputs) -> bool:
    return inputs.get("spotStrategy") not in (None, "", "NoSpot")


_SOURCES = ("cidrIp", "sourceGroupId", "prefixListId")
_ADMIN_POLICIES = ("AdministratorAccess",)


def _accepts_in(inputs: Inputs) -> bool:
    return inputs.get("direction") == "ingress" and inputs.get("policy", "accept") == "accept"


def _sourceless(inputs: Inputs) -> list[str]:
    if not _accepts_in(inputs) or any(inputs.get(k) for k in _SOURCES):
        return []
    where = f"{inputs.get('portStart', 'all')}-{inputs.get('portEnd', 'all')}"
    return sourceless_line(f"ingress rule for ports {where} (from anywhere when none is set)", _SOURCES)


def _attached(inputs: Inputs) -> list[Grant]:
    name = str(inputs.get("policyName", ""))
    return [(["*"], ["*"])] if name in _ADMIN_POLICIES else [([name], [])]


def _rule(inputs: Inputs) -> list[Opening]:
    if not _accepts_in(inputs):
        return []
    sources = [inputs.get(k) for k in _SOURCES]
    if is_world(inputs.get("cidrIp")) or not any(sources):
        return [("0.0.0.0/0", ports(inputs.get("portStart"), inputs.get("portEnd")))]
    return []


POLICY = PolicyReaders(
    world_ingress={"volcengine:vpc/securityGroupRule:SecurityGroupRule": _rule},
    sourceless_ingress={"volcengine:vpc/securityGroupRule:SecurityGroupRule": _sourceless},
    permissions={
        "volcengine:iam/policy:Policy": lambda inputs: document_grants(inputs.get("policyDocument")),
        "volcengine:iam/rolePolicyAttachment:RolePolicyAttachment": _attached,
        "volcengine:iam/userGroupPolicyAttachment:UserGroupPolicyAttachment": _attached,
    },
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
