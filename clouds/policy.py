"""What the policy rules (`policies/`) read off one cloud's resources, by type token.

Each cloud declares `POLICY = PolicyReaders(...)` in `clouds/<cloud>/policy.py` (its
`Cloud.policy`); `policies.readers` merges them, so the rules themselves name no cloud and no
type token. A reader takes a resource's recorded camelCase `inputs` (the record shape
`{"type", "name", "parent", "protect", "inputs"}` of `policies.rules`): values a real preview cannot know yet arrive as `UNKNOWN`, and a
reader never flags one. The small parsers shared by several clouds' readers sit here too.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

UNKNOWN = "<unknown>"

# (world source as written, [(low port, high port)]) of one inbound rule open to the internet.
Opening = tuple[str, list[tuple[int, int]]]
# (actions, resources) of one Allow statement or role binding (`PolicyReaders.permissions`).
Grant = tuple[list[str], list[str]]
Inputs = dict[str, Any]

# When does a rule's source mean "the internet"? Not only `0.0.0.0/0`: `1.2.3.4/0` is
# `0.0.0.0/0` written differently, and `0.0.0.0/1` plus `128.0.0.0/1` cover the whole internet
# in two halves. Any IPv4 source shorter than /8 (more than 16.7 million addresses) or IPv6
# source shorter than /16 counts as open to the internet here; that threshold is a policy
# choice, not a sourced figure.
NAMED_WORLD = {"*", "Internet", "Any", "any"}
MIN_PREFIX = {4: 8, 6: 16}


def is_world(source: Any) -> bool:
    """True when `source` (a CIDR, or a provider keyword such as Azure's `Internet`) is
    the whole internet or a block wide enough to count as it."""
    if not isinstance(source, str) or not source.strip():
        return False
    if source in NAMED_WORLD:
        return True
    try:
        network = ipaddress.ip_network(source.strip(), strict=False)
    except ValueError:
        return False
    return network.prefixlen < MIN_PREFIX[network.version]


def is_true(value: Any) -> bool:
    """True for a set flag, or one a preview cannot know yet (`UNKNOWN`)."""
    return value is True or value in ("true", "True", UNKNOWN)


def port_range(text: Any) -> tuple[int, int]:
    """`"22"`, `"1000-2000"` or `"*"` (every port) as (low, high)."""
    text = str(text)
    if text in ("*", "", UNKNOWN):
        return (0, 65535)
    low, _, high = text.partition("-")
    return (int(low), int(high or low))


def ports(low: Any, high: Any = None) -> list[tuple[int, int]]:
    """A numeric port range; a missing or negative low port means every port."""
    try:
        low_port = int(low)
    except (TypeError, ValueError):
        return [(0, 65535)]
    if low_port < 0:
        return [(0, 65535)]
    return [(low_port, int(high) if high not in (None, "", -1) else low_port)]


def text_ports(text: Any, separators: str = "-/,") -> list[tuple[int, int]]:
    """A port range written as text (`22/22`, `1-65535`, `ALL`, `-1/-1`): `all` and the
    like mean every port; the first of `separators` found splits low from high."""
    text = str(text or "").strip().lower()
    if text in ("", "all", "-1", "-1/-1", "*"):
        return [(0, 65535)]
    for separator in separators:
        if separator in text:
            low, _, high = text.partition(separator)
            return ports(low, high)
    return ports(text)


def flag_set(flag: str) -> Callable[[Inputs], list[str]]:
    """An `Encryption.check` for a disk whose input `flag` encrypts it with no customer key."""
    return lambda inputs: [] if is_true(inputs.get(flag)) else [f"not encrypted; set {flag}: true"]


def data_disks_encrypted(inputs: Inputs, flag: str) -> list[str]:
    """One violation when any `dataDisks[]` entry lacks its encryption `flag`."""
    disks = [d for d in inputs.get("dataDisks") or [] if isinstance(d, dict)]
    return (
        [] if all(is_true(d.get(flag)) for d in disks) else [f"data disk not encrypted; set dataDisks[].{flag}: true"]
    )


@dataclass(frozen=True)
class Encryption:
    """How the `disks-encrypted` rule reads one resource type.

    Attributes:
        check: inputs -> one-line violations (an input could encrypt it and does not).
        checked: inputs -> True when `check` verifies at least one disk or file system
            (the rule is n/a on a stack where nothing is checked).
        gaps: inputs -> one line per disk or file system no input can encrypt without a
            customer key, if at all; shown as n/a, never as a violation.
    The defaults describe a type the platform always encrypts at rest: nothing to flag.
    """

    check: Callable[[Inputs], list[str]] = lambda inputs: []
    checked: Callable[[Inputs], bool] = lambda inputs: True
    gaps: Callable[[Inputs], list[str]] = lambda inputs: []


PLATFORM_ENCRYPTED = Encryption()


def no_encryption_input(why: str) -> Encryption:
    """A type no SDK input can encrypt: never checked, one gap line saying `why`."""
    return Encryption(checked=lambda inputs: False, gaps=lambda inputs: [why])


def document_grants(document: Any) -> list[Grant]:
    """(actions, resources) of each Allow statement of a JSON policy document, as AWS IAM,
    Alibaba RAM and Tencent CAM write them (`Statement`/`statement`, `Action`/`action`,
    `Resource`/`resource`; a string or a list; the document as a dict or its JSON text).
    A document a preview cannot know yet, or one that is not JSON, gives none."""
    if isinstance(document, str):
        try:
            document = json.loads(document)
        except ValueError:
            return []
    if not isinstance(document, dict):
        return []
    statements = document.get("Statement", document.get("statement")) or []
    statements = [statements] if isinstance(statements, dict) else statements
    grants = []
    for statement in statements:
        if (
            not isinstance(statement, dict)
            or str(statement.get("Effect", statement.get("effect", ""))).lower() != "allow"
        ):
            continue
        grants.append((_listed(statement, "Action"), _listed(statement, "Resource")))
    return grants


def whole_account_grants(grants: list[Grant]) -> list[Grant]:
    """`grants` with a statement that names no resource read as one on every resource (`*`):
    in Huawei IAM's custom-policy syntax (Version 1.1) `Resource` is optional, and a statement
    without it acts on every resource its actions reach (read so here, an assumption on the
    safe side: a rule that flags it is never wrong about a statement that does name one)."""
    return [(actions, resources or ["*"]) for actions, resources in grants]


def sourceless_line(what: str, keys: tuple[str, ...]) -> list[str]:
    """The one-line `ingress-has-source` violation of an inbound rule naming none of `keys`."""
    return [f"{what} names no source; set one of {', '.join(keys)}"]


def _listed(statement: dict, key: str) -> list[str]:
    value = statement.get(key, statement.get(key.lower()))
    return [str(v) for v in (value if isinstance(value, list) else [] if value is None else [value])]


@dataclass(frozen=True)
class PolicyReaders:
    """One cloud's resource readers for the policy rules, each keyed by Pulumi type token.

    Attributes:
        world_ingress: inputs -> every `Opening` of an inbound allow rule open to the internet
            (`no-admin-port-from-internet`).
        metadata: inputs -> violations of the instance-metadata rule (`imdsv2-required`);
            the types listed are the ones that rule checks.
        encryption: how `disks-encrypted` reads each disk, instance or file-system type.
        spot: inputs -> True when the resource buys spot capacity
            (`spot-needs-checkpoint-storage`).
        efa_interfaces: inputs -> the security-group ids of each EFA interface the resource
            declares (`efa-security-group-self-rule`; ids as given, unknown ones included).
        self_rules: record -> (direction, security-group id) of each all-traffic rule whose
            peer is its own group (the whole record: a group's own id is `<name>-id`).
        permissions: inputs -> (actions, resources) of each Allow statement or role binding
            (`no-wildcard-permissions`).
        sourceless_ingress: inputs -> one line per inbound allow rule that names no source
            (`ingress-has-source`; GCP, for one, admits 0.0.0.0/0 then).
    """

    world_ingress: Mapping[str, Callable[[Inputs], Iterable[Opening]]] = field(default_factory=dict)
    metadata: Mapping[str, Callable[[Inputs], list[str]]] = field(default_factory=dict)
    encryption: Mapping[str, Encryption] = field(default_factory=dict)
    spot: Mapping[str, Callable[[Inputs], bool]] = field(default_factory=dict)
    efa_interfaces: Mapping[str, Callable[[Inputs], list[list[Any]]]] = field(default_factory=dict)
    self_rules: Mapping[str, Callable[[dict[str, Any]], list[tuple[Any, Any]]]] = field(default_factory=dict)
    permissions: Mapping[str, Callable[[Inputs], list[Grant]]] = field(default_factory=dict)
    sourceless_ingress: Mapping[str, Callable[[Inputs], list[str]]] = field(default_factory=dict)
