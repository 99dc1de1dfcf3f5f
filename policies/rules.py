"""Resource rules: each takes one recorded resource and returns one-line violation messages.

A record is `{"type", "name", "parent", "protect", "inputs"}` with the provider's camelCase
inputs. A value a real preview cannot know yet arrives as `UNKNOWN`; rules never flag it.

Encryption rules and their sources: `policies.encryption`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from clouds.policy import UNKNOWN, Opening
from clouds.registry import CLOUDS
from policies.encryption import disks_checked, disks_encrypted, encryption_gaps
from policies.readers import METADATA, PERMISSIONS, SOURCELESS_INGRESS, WORLD_INGRESS

# Remote-administration ports: SSH, Telnet, RDP, VNC, WinRM (HTTP and HTTPS).
ADMIN_PORTS = (22, 23, 3389, 5900, 5985, 5986)
TAG_KEYS = (("trainstack:cluster", "trainstack-cluster"), ("trainstack:provider", "trainstack-provider"))
# Stateful resources: data that must outlive the nodes (protect=True in the component).
STATEFUL = frozenset().union(*(c.stateful for c in CLOUDS.values()))
# Resource types whose API takes no tags or labels.
UNTAGGABLE = frozenset().union(*(c.untaggable for c in CLOUDS.values()))


@dataclass(frozen=True)
class Violation:
    """One broken rule.

    Attributes:
        rule: the rule id, e.g. `imdsv2-required`.
        resource: the offending resource's logical name, or None for the whole stack.
        message: one line saying what is wrong and what to change.
    """

    rule: str
    resource: str | None
    message: str


def admin_ports_open(record: dict[str, Any]) -> list[str]:
    """SSH, RDP and other admin ports must not be reachable from 0.0.0.0/0 or ::/0."""
    found = []
    for source, ports in _world_ingress(record["type"], record["inputs"]):
        exposed = [p for p in ADMIN_PORTS if any(lo <= p <= hi for lo, hi in ports)]
        if exposed:
            found.append(
                f"admin port(s) {', '.join(map(str, exposed))} open to {source}; "
                "allow only office or bastion CIDRs (or use SSM / IAP / Bastion)"
            )
    return found


def imdsv2_required(record: dict[str, Any]) -> list[str]:
    """EC2 launch templates and instances must require IMDSv2 session tokens (the types and
    their readers: `PolicyReaders.metadata`)."""
    check = METADATA.get(record["type"])
    return [] if check is None else check(record["inputs"])


def stateful_protected(record: dict[str, Any]) -> list[str]:
    """File systems, volumes and buckets must be created with protect=True."""
    if record["type"] in STATEFUL and not record.get("protect"):
        return ["stateful resource not protected; create it with ResourceOptions(protect=True)"]
    return []


def cost_tags(record: dict[str, Any]) -> list[str]:
    """Every taggable resource carries the trainstack cluster and provider cost tags/labels."""
    kind = record["type"]
    if kind in UNTAGGABLE or kind.startswith(("pulumi:", "trainstack:")):
        return []
    tags = record["inputs"].get("tags") or record["inputs"].get("labels")
    if tags == UNKNOWN:
        return []
    if isinstance(tags, list):  # Volcengine: [{"key": ..., "value": ...}]
        tags = {t.get("key"): t.get("value") for t in tags if isinstance(t, dict)}
    tags = tags if isinstance(tags, dict) else {}
    missing = [keys[0] for keys in TAG_KEYS if not any(tags.get(k) for k in keys)]
    if missing:
        return [f"cost tag(s) {', '.join(missing)} missing; pass the cluster tags to every resource"]
    return []


# Actions that name no resource type, so IAM accepts them only on `Resource: "*"` (AWS Service
# Authorization Reference: Amazon ECR `GetAuthorizationToken`, CloudWatch `PutMetricData`, whose
# only narrowing is the `cloudwatch:namespace` condition key). A statement of these alone on `*`
# is as narrow as IAM allows; any other action beside them still needs its resource named. The
# EC2 Describe actions a HyperPod execution role needs for its VPC (`clouds.aws.hyperpod_role`)
# take no resource type either (Service Authorization Reference, Amazon EC2).
NO_RESOURCE_TYPE = frozenset(
    {
        "ecr:GetAuthorizationToken",
        "cloudwatch:PutMetricData",
        "ec2:DescribeNetworkInterfaces",
        "ec2:DescribeVpcs",
        "ec2:DescribeDhcpOptions",
        "ec2:DescribeSubnets",
        "ec2:DescribeSecurityGroups",
    }
)


def wildcard_permissions(record: dict[str, Any]) -> list[str]:
    """No IAM statement or role binding allows every action (`*`, `s3:*`, an owner or editor
    role) or acts on every resource (`*`, `arn:aws:s3:::*`): a node that is broken into can do
    only what the cluster needs. A trailing `*` after a key prefix (`bucket/prefix/*`) names
    that prefix's objects and passes, and so does a statement on `*` whose actions all name no
    resource type (`NO_RESOURCE_TYPE`: IAM accepts them only on `*`)."""
    reader = PERMISSIONS.get(record["type"])
    found = []
    for actions, resources in [] if reader is None else reader(record["inputs"]):
        wild = [a for a in actions if "*" in a and a != UNKNOWN]
        if wild:
            found.append(f"allows action {wild[0]!r}; list each action the cluster needs (e.g. s3:GetObject)")
        everything = [r for r in resources if r == "*" or r.endswith(":*")]
        if everything and not (actions and set(actions) <= NO_RESOURCE_TYPE):
            found.append(
                f"allows {actions[0] if actions else 'its actions'} on every resource ({everything[0]!r}); name the resource"
            )
    return found


def ingress_has_source(record: dict[str, Any]) -> list[str]:
    """Every inbound allow rule names its source (a CIDR, a group, a tag): on GCP a firewall
    rule without `sourceRanges`, `sourceTags` or `sourceServiceAccounts` admits 0.0.0.0/0."""
    reader = SOURCELESS_INGRESS.get(record["type"])
    return [] if reader is None else reader(record["inputs"])


RESOURCE_RULES: dict[str, tuple[str, Callable[[dict[str, Any]], list[str]]]] = {
    "no-admin-port-from-internet": ("no SSH/RDP or other admin port open to 0.0.0.0/0 or ::/0", admin_ports_open),
    "imdsv2-required": ("EC2 instance metadata requires IMDSv2 tokens", imdsv2_required),
    "disks-encrypted": ("root disks and file systems encrypted at rest", disks_encrypted),
    "stateful-protected": ("file systems, volumes and buckets are protected", stateful_protected),
    "cost-tags": ("cost tags/labels on every taggable resource", cost_tags),
    "no-wildcard-permissions": (
        "no IAM statement allows `*` actions or every resource, except actions that name no resource type "
        f"(IAM grants them only on `*`: {', '.join(sorted(NO_RESOURCE_TYPE))})",
        wildcard_permissions,
    ),
    "ingress-has-source": ("every inbound rule names its source", ingress_has_source),
}


@dataclass(frozen=True)
class Scope:
    """What a resource rule can check, so a result can say "n/a" instead of passing vacuously.

    Attributes:
        checks: True for a record the rule verifies; with none in a stack the rule is n/a.
        absent: why the rule is n/a when no record is checked and none has a gap.
        gaps: one-line reasons a record is beyond the rule (no input can satisfy it); shown as
            n/a lines, never as violations.
    """

    checks: Callable[[dict[str, Any]], bool]
    absent: str
    gaps: Callable[[dict[str, Any]], list[str]] = lambda record: []


RULE_SCOPES: dict[str, Scope] = {
    "imdsv2-required": Scope(
        lambda record: record["type"] in METADATA,
        "no EC2 instance, launch template or launch configuration (IMDSv2 is an EC2 setting)",
    ),
    "no-wildcard-permissions": Scope(
        lambda record: record["type"] in PERMISSIONS, "no IAM policy, role binding or role assignment in this stack"
    ),
    "ingress-has-source": Scope(
        lambda record: record["type"] in SOURCELESS_INGRESS, "no security group, firewall or inbound rule in this stack"
    ),
    "disks-encrypted": Scope(disks_checked, "no disk or file system whose encryption can be checked", encryption_gaps),
}


def check_resource(record: dict[str, Any]) -> list[Violation]:
    """All resource rules over one record."""
    return [
        Violation(rule, record.get("name"), message)
        for rule, (_, check) in RESOURCE_RULES.items()
        for message in check(record)
    ]


def _world_ingress(kind: str, inputs: dict[str, Any]) -> Iterable[Opening]:
    """(world source, port ranges) of every inbound allow rule open to the internet
    (`PolicyReaders.world_ingress`)."""
    reader = WORLD_INGRESS.get(kind)
    return [] if reader is None else reader(inputs)
