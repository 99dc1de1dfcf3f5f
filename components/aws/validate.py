"""Checks on a `ClusterConfig` before the AWS component creates anything."""

from __future__ import annotations

from components.aws.efa import efa_interface_count
from components.aws.fsx import fsx_sizing
from components.common import check_provider, check_ssh_cidrs
from components.contract import ClusterConfig


def validate_args(args: ClusterConfig) -> None:
    """Reject configs the AWS component cannot build, with a message saying what to change.

    Args:
        args: the cluster config.

    Raises:
        ValueError: one line naming the field and the fix.
    """
    check_provider(args, "aws", "AWS")
    check_ssh_cidrs(args.ssh_cidrs)
    if args.interconnect == "rdma" and efa_interface_count(args.instance_type) == 0:
        raise ValueError(
            f"interconnect: rdma needs EFA and {args.instance_type} has none (K1); "
            "choose an EFA type (e.g. p4d.24xlarge, p5.48xlarge) or set interconnect: none"
        )
    if args.purchase == "spot" and args.capacity_reservation_id:
        raise ValueError(
            "capacity_reservation_id: a capacity reservation holds on-demand capacity; "
            "set purchase: on-demand or remove capacity_reservation_id"
        )
    if args.file_system is not None:
        fs = args.file_system
        fsx_sizing(fs.capacity_gib, fs.throughput_mbps_per_tib, fs.deployment_type)
