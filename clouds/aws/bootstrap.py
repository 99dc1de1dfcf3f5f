"""The whole user data of an AWS node, and EC2's limit on it, as pure functions.

The component encodes what `node_user_data` renders (`components.aws.compute`); the stack
check (`clouds.aws.validate`) renders it with the longest values the engine can hand it, so
`plan`, `check`, `pulumi up` and `resolve --write-stack` refuse a bootstrap EC2 would
refuse, before anything is written or created.

Source: EC2 user guide, "Run commands when you launch an EC2 instance with user data input":
"User data is limited to 16 KB, in raw form, before it is base64-encoded."
"""

from __future__ import annotations

from clouds.aws.cloud_init import ENV_FILE, MOUNT_POINT, user_data
from clouds.aws.efa import efa_interface_count
from clouds.aws.runtime import unsupported
from clouds.contract import ClusterConfig
from clouds.fill_bootstrap import fill_config, fill_script
from clouds.job_bootstrap import job_script
from clouds.node_bootstrap import over_limit as bootstrap_over_limit
from facts.aws import aws_network
from nodeagent.clouds.aws import JOB_TAG_PREFIX
from nodeagent.publisher import chunks
from nodeagent.scratch_unit import install_script as scratch_install_script

USER_DATA_LIMIT_BYTES = 16 * 1024
# The longest values the engine hands the bootstrap: an FSx DNS name (fs- and 17 hex digits),
# a Lustre mount name (8 characters) and a private IPv4 address.
_DNS = "fs-0123456789abcdef0.fsx.{region}.amazonaws.com"
_MOUNT = "abcdefgh"
_ADDRESS = "255.255.255.255"


def node_user_data(
    name: str, args: ClusterConfig, dns_name: str | None, mount_name: str | None, rdzv_host: str | None, role: str
) -> str:
    """The user data of a `worker` (NCCL environment, mount, `/scratch`, job unit) or the
    `head` node (mount, rendezvous unit), not base64-encoded.

    Args:
        name: the cluster name (the job's rendezvous id).
        args: the cluster config.
        dns_name, mount_name: the file system's DNS and mount names, or None.
        rdzv_host: the head node's private address when the cluster has a job, else None.
        role: `worker` or `head`.
    """
    efa = role == "worker" and efa_interface_count(args.instance_type, args.interconnect) > 0
    facts = aws_network(args.instance_type)
    text = user_data(dns_name, mount_name, efa, bool(efa and facts and facts.gpudirect_rdma))
    if role == "worker":
        text += scratch_install_script()
    if rdzv_host is not None:
        text += job_script(role, name, args, rdzv_host, MOUNT_POINT, ENV_FILE)
        if role == "head" and args.on_demand_after_minutes is not None:
            where = {"region": args.region}
            text += fill_script(fill_config(name, args.nodes, args.on_demand_after_minutes, "aws", **where))
    return text


def over_limit(args: ClusterConfig, size: int) -> str:
    """The one-line refusal of user data of `size` bytes (over `USER_DATA_LIMIT_BYTES`)."""
    return bootstrap_over_limit(args, size, f"EC2's {USER_DATA_LIMIT_BYTES:,}-byte user-data limit")


def user_data_problem(args: ClusterConfig, name: str = "cluster") -> str | None:
    """Why EC2 would refuse the cluster's user data (`over_limit`), or why the node image would
    not run its job (`clouds.aws.runtime.unsupported`), or None when both the worker's and the
    head's fit, rendered with the longest names the engine can give."""
    if args.job is not None and (problem := unsupported(args.instance_type)):
        return problem
    dns, mount = (_DNS.format(region=args.region), _MOUNT) if args.file_system is not None else (None, None)
    rdzv = _ADDRESS if args.job is not None else None
    roles = ("worker", "head") if args.job is not None else ("worker",)
    size = max(len(node_user_data(name, args, dns, mount, rdzv, role).encode()) for role in roles)
    if size <= USER_DATA_LIMIT_BYTES:
        return None
    return over_limit(args, size)


def channel_tags(channel: str) -> dict[str, str]:
    """The job channel as the head's tags `trainstack:job:00`, `:01`, ... (256 characters each,
    EC2's longest tag value), which `nodeagent.clouds.aws.published_job` joins in key order."""
    if not channel:
        return {}
    return {f"{JOB_TAG_PREFIX}{i:02d}": piece for i, piece in enumerate(chunks(channel))}
