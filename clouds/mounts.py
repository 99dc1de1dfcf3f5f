"""Where the shared file system is mounted: one mount point for every cloud's nodes and every
exported mount command (`file_system_mount_command`), so a workload's `job:` paths and a
person's shell on a login host agree whichever cloud `resolve` picks.

`/fsx` is AWS's FSx mount point; the node bootstraps of AWS (`clouds.aws.cloud_init`), Azure
and GCP (`clouds.node_bootstrap`) mount there, and `Cloud.shared_mount` names it for the
benchmark kit.
"""

from __future__ import annotations

import re

SHARED_MOUNT = "/fsx"
# What a mount source may hold before it is written into a command (`IP@tcp:/fs`, `host:/share`).
_SOURCE = re.compile(r"^[A-Za-z0-9.:@/_-]+$")
_OPTIONS = re.compile(r"^[A-Za-z0-9=,_.-]+$")


def mount_command(fstype: str, source: str, options: str = "defaults") -> str:
    """The command that mounts the cluster's file system at `SHARED_MOUNT` on a host in its
    network (a login node, a replacement node), as the nodes' own bootstrap mounts it.

    Args:
        fstype: `lustre` or `nfs`.
        source: the mount source (`10.0.16.4@tcp:/lustrefs`, `10.99.0.2:/trainstack`).
        options: mount options.

    Raises:
        ValueError: when `source` or `options` hold characters a shell would misread.
    """
    if not _SOURCE.match(source):
        raise ValueError(f"file_system_dns: {source!r} is not a mount source")
    if not _OPTIONS.match(options):
        raise ValueError(f"mount options: {options!r} are not mount options")
    return f"sudo mkdir -p {SHARED_MOUNT} && sudo mount -t {fstype} -o {options} {source} {SHARED_MOUNT}"
