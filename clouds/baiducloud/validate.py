"""Checks on a `ClusterConfig` before the Baidu component creates anything.

Sources: china-clouds.md §1.5 (spec names, `IB` = InfiniBand), §3 (deploy sets, EHC), §4
(Baidu PFS has no API resource; CFS is not in bce-python-sdk either); zone names
"country-region-zone", lowercase, e.g. `cn-bj-a` (generated BCC SDK,
`CreateInstanceBySpecRequest.zoneName`); key types (official BCC API "Import a key pair").
"""

from __future__ import annotations

import re

from clouds.baiducloud.layout import KEY_TYPES, has_infiniband, spec_gpu_count
from clouds.common import check_provider, check_ssh_cidrs, reject_unsupported
from clouds.contract import ClusterConfig

_REGION = re.compile(r"^[a-z]+$")


def validate_args(args: ClusterConfig, name: str = "cluster") -> None:
    """Reject configs the Baidu component cannot build (the contract: `clouds.base.Cloud.validator`); Baidu has no
    name rule of its own, so `name` is unused."""
    check_provider(args, "baiducloud", "Baidu AI Cloud")
    reject_unsupported(args, ("kms_key_id",), "Baidu AI Cloud", "BCC takes no root-disk encryption key")
    _check_place(args)
    _check_spec(args)
    check_ssh_cidrs(args.ssh_cidrs)
    if args.ssh_public_key is not None and not args.ssh_public_key.strip().startswith(KEY_TYPES):
        raise ValueError(
            "ssh_public_key: Baidu imports only RSA, DSA or ECDSA keys (not ed25519); give an "
            "ssh-rsa key, or remove ssh_public_key to let the component generate one"
        )
    if args.file_system is not None:
        raise ValueError(
            "file_system: this component cannot create a Baidu parallel file system (PFS has no "
            "API resource here); remove file_system and mount an existing "
            "PFS on the nodes"
        )
    reject_unsupported(
        args, ("capacity_reservation_id",), "Baidu AI Cloud", "it cannot launch into a capacity reservation"
    )


def _check_place(args: ClusterConfig) -> None:
    if not _REGION.match(args.region):
        raise ValueError(f"region: '{args.region}' is not a Baidu region id; write it like bj, gz or su")
    if not args.zone.startswith(f"cn-{args.region}-"):
        raise ValueError(
            f"zone: '{args.zone}' is not a zone of region {args.region}; Baidu zones are named "
            f"cn-{args.region}-<letter>, e.g. cn-{args.region}-a"
        )


def _check_spec(args: ClusterConfig) -> None:
    spec = args.instance_type
    if not spec.startswith("bcc."):
        raise ValueError(
            f"instance_type: '{spec}' is not a BCC spec; use a spec name such as "
            "bcc.hgn5IB.c116m978.8A100-80g (list them with BccClient.list_flavor_spec)"
        )
    gpus = spec_gpu_count(spec)
    if gpus is not None and gpus != args.accelerator_count:
        raise ValueError(
            f"accelerator_count: {args.accelerator_count} but spec {spec} carries {gpus} GPUs; "
            f"set accelerator_count: {gpus} or pick a spec with {args.accelerator_count}"
        )
    if args.interconnect == "rdma" and not has_infiniband(spec):
        raise ValueError(
            f"interconnect: rdma needs an InfiniBand spec (family with 'IB', e.g. "
            f"bcc.hgn5IB.c116m978.8A100-80g) and {spec} has none; "
            "choose one or set interconnect: none"
        )
