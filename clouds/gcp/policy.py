"""What the policy rules read off GCP resources (`clouds.policy.PolicyReaders`).

Persistent disks, instances and instance templates, Filestore, Managed Lustre and TPU VMs are
encrypted at rest by Google with no switch to turn it off. A firewall opens a port to the
internet with an INGRESS rule whose `sourceRanges` hold a wide CIDR. Spot capacity:
`scheduling.provisioningModel: SPOT` or `preemptible` on VMs, `schedulingConfig.spot` or
`preemptible` on TPU VMs.
"""

from __future__ import annotations

from clouds.policy import PLATFORM_ENCRYPTED, Grant, Inputs, Opening, PolicyReaders, is_world, port_range

INSTANCE = "gcp:compute/instance:Instance"
TEMPLATE = "gcp:compute/instanceTemplate:InstanceTemplate"
TPU = "gcp:tpu/v2Vm:V2Vm"


_SOURCES = ("sourceRanges", "sourceTags", "sourceServiceAccounts")
# Basic roles: every action on the project's resources (Google's "Basic roles").
_BASIC_ROLES = ("roles/owner", "roles/editor")


def _no_source(inputs: Inputs) -> bool:
    """An INGRESS firewall naming no source: GCP then admits 0.0.0.0/0 ("VPC firewall rules",
    sources for ingress rules)."""
    return inputs.get("direction", "INGRESS") == "INGRESS" and not any(inputs.get(k) for k in _SOURCES)


def _sourceless(inputs: Inputs) -> list[str]:
    if not _no_source(inputs) or not inputs.get("allows"):
        return []
    return [
        "ingress firewall names no sourceRanges, sourceTags or sourceServiceAccounts, so GCP admits 0.0.0.0/0; set sourceRanges"
    ]


def _binding(inputs: Inputs) -> list[Grant]:
    role = str(inputs.get("role", ""))
    where = str(inputs.get("project") or inputs.get("bucket") or inputs.get("serviceAccountId") or "")
    return [(["*"], [where])] if role in _BASIC_ROLES else []


def _firewall(inputs: Inputs) -> list[Opening]:
    if inputs.get("direction", "INGRESS") != "INGRESS":
        return []
    ranges = ["0.0.0.0/0"] if _no_source(inputs) else inputs.get("sourceRanges") or []
    sources = [s for s in ranges if is_world(s)]
    allows = (inputs.get("allows") or []) if sources else []
    return [
        (sources[0], [port_range(p) for p in allow.get("ports") or ["0-65535"]])
        for allow in allows
        if allow.get("protocol") in ("all", "tcp", "udp", "6", "17")
    ]


def _vm_spot(inputs: Inputs) -> bool:
    scheduling = inputs.get("scheduling") or {}
    return scheduling.get("provisioningModel") == "SPOT" or scheduling.get("preemptible") is True


def _tpu_spot(inputs: Inputs) -> bool:
    scheduling = inputs.get("schedulingConfig") or {}
    return scheduling.get("spot") is True or scheduling.get("preemptible") is True


POLICY = PolicyReaders(
    world_ingress={"gcp:compute/firewall:Firewall": _firewall},
    sourceless_ingress={"gcp:compute/firewall:Firewall": _sourceless},
    permissions={
        "gcp:projects/iAMMember:IAMMember": _binding,
        "gcp:projects/iAMBinding:IAMBinding": _binding,
        "gcp:storage/bucketIAMMember:BucketIAMMember": _binding,
        "gcp:serviceaccount/iAMMember:IAMMember": _binding,
    },
    encryption={
        INSTANCE: PLATFORM_ENCRYPTED,
        TEMPLATE: PLATFORM_ENCRYPTED,
        "gcp:compute/disk:Disk": PLATFORM_ENCRYPTED,
        "gcp:filestore/instance:Instance": PLATFORM_ENCRYPTED,
        "gcp:lustre/instance:Instance": PLATFORM_ENCRYPTED,
        TPU: PLATFORM_ENCRYPTED,
    },
    spot={INSTANCE: _vm_spot, TEMPLATE: _vm_spot, TPU: _tpu_spot},
)
