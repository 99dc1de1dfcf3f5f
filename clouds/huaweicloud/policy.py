"""What the policy rules read off Huawei Cloud resources (`clouds.policy.PolicyReaders`).

Huawei encrypts disks and SFS Turbo only with a KMS key id (pulumi_huaweicloud 0.0.12:
ECS `systemDiskKmsKeyId` and `dataDisks[].kmsKeyId`, SFS Turbo `cryptKeyId`, EVS `kmsId`);
without one that is an n/a gap (`kms_key_id` in the stack fixes it), never a violation. An AS
configuration cannot encrypt a system disk at all (its `kms_id` is for data disks), an n/a gap;
the component builds the AS group only without `kms_key_id` (`clouds.huaweicloud.group`).
Security-group rules: `direction: ingress`, `action: allow`; a rule with no source at all
means "from anywhere" (the remote prefix is optional and defaults to all addresses). Spot:
`chargingMode: spot`.

Least privilege (`no-wildcard-permissions`): an `Iam/role` custom policy's `policy` document
(Version 1.1, `Statement[].Action` as `service:resource:action`, e.g. `obs:*:*`); a statement
without `Resource` is read as acting on every resource (`clouds.policy.whole_account_grants`).
`ingress-has-source`: an ingress allow rule naming none of its remote sources.
"""

from __future__ import annotations

from clouds.policy import (
    Encryption,
    Grant,
    Inputs,
    Opening,
    PolicyReaders,
    document_grants,
    is_world,
    no_encryption_input,
    ports,
    sourceless_line,
    text_ports,
    whole_account_grants,
)

# Encrypted only with a KMS key id: type -> (key input, what).
KEYS = {
    "huaweicloud:Ecs/instance:Instance": ("systemDiskKmsKeyId", "disks"),
    "huaweicloud:Sfs/turbo:Turbo": ("cryptKeyId", "SFS Turbo file system"),
    "huaweicloud:Evs/volume:Volume": ("kmsId", "EVS volume"),
}
GAP = (
    "{what} not encrypted: Huawei encrypts only with a KMS key id ({key}), and none is set; "
    "set kms_key_id in the stack's trainstack:cluster"
)


_SOURCES = ("remoteIpPrefix", "remoteGroupId", "remoteAddressGroupId")


def _allows_in(inputs: Inputs) -> bool:
    return inputs.get("direction") == "ingress" and inputs.get("action", "allow") == "allow"


def _sourceless(inputs: Inputs) -> list[str]:
    if not _allows_in(inputs) or any(inputs.get(k) for k in _SOURCES):
        return []
    found = inputs.get("ports") or f"{inputs.get('portRangeMin', 'all')}-{inputs.get('portRangeMax', 'all')}"
    return sourceless_line(f"ingress rule for ports {found} (from anywhere when none is set)", _SOURCES)


def _role(inputs: Inputs) -> list[Grant]:
    return whole_account_grants(document_grants(inputs.get("policy")))


def _rule(inputs: Inputs) -> list[Opening]:
    if not _allows_in(inputs):
        return []
    sources = [inputs.get(k) for k in _SOURCES]
    if is_world(inputs.get("remoteIpPrefix")) or not any(sources):
        found = inputs.get("ports") or (inputs.get("portRangeMin"), inputs.get("portRangeMax"))
        return [("0.0.0.0/0", text_ports(found) if isinstance(found, str) else ports(*found))]
    return []


def _keyed(key: str, what: str) -> Encryption:
    def gaps(inputs: Inputs) -> list[str]:
        keys = [inputs.get(key)] + [d.get("kmsKeyId") for d in inputs.get("dataDisks") or [] if isinstance(d, dict)]
        return [] if all(keys) else [GAP.format(what=what, key=key)]

    return Encryption(checked=lambda inputs: bool(inputs.get(key)), gaps=gaps)


POLICY = PolicyReaders(
    world_ingress={"huaweicloud:Vpc/secgroupRule:SecgroupRule": _rule},
    sourceless_ingress={"huaweicloud:Vpc/secgroupRule:SecgroupRule": _sourceless},
    permissions={"huaweicloud:Iam/role:Role": _role},
    encryption={
        **{kind: _keyed(key, what) for kind, (key, what) in KEYS.items()},
        "huaweicloud:As/configuration:Configuration": no_encryption_input(
            "system disk not encrypted: a Huawei AS configuration cannot encrypt a system disk "
            "(pulumi_huaweicloud 0.0.12 disks[].kms_id is for data disks); with kms_key_id the nodes are "
            "per-node instances with encrypted system disks"
        ),
    },
    spot={"huaweicloud:Ecs/instance:Instance": lambda inputs: inputs.get("chargingMode") == "spot"},
)
