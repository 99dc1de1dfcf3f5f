"""User data for GPU nodes: NCCL/EFA environment and the shared Lustre mount at /fsx.

The Lustre client install follows the FSx for Lustre user guide, "Installing the Lustre
client" (Ubuntu: FSx apt repository, package `lustre-client-modules-$(uname -r)`); that
procedure is not in shared/reference-facts, so treat the repository URLs as unsourced there.
Whether EFA may read and write GPU memory (FI_EFA_USE_DEVICE_RDMA) is N1 (aws-ofi-nccl
gdr_required), carried by `facts.aws`.
"""

from __future__ import annotations

import re
import shlex

from clouds.aws.nccl import NCCL_SOCKET_IFNAME, nccl_env
from clouds.mounts import SHARED_MOUNT

__all__ = ["ENV_FILE", "MOUNT_POINT", "NCCL_SOCKET_IFNAME", "nccl_env", "user_data"]

MOUNT_POINT = SHARED_MOUNT  # the one mount point of every cloud (`clouds.mounts`)
ENV_FILE = "/etc/profile.d/trainstack-nccl.sh"

_DNS = re.compile(r"^[A-Za-z0-9.-]+$")
_MOUNT_NAME = re.compile(r"^[A-Za-z0-9_]+$")

_LUSTRE_INSTALL = """\
if ! modinfo lustre >/dev/null 2>&1; then
  . /etc/os-release
  wget -qO - https://fsx-lustre-client-repo-public-keys.s3.amazonaws.com/fsx-ubuntu-public-key.asc \\
    | gpg --dearmor > /usr/share/keyrings/fsx-ubuntu-public-key.gpg
  echo "deb [signed-by=/usr/share/keyrings/fsx-ubuntu-public-key.gpg] \\
https://fsx-lustre-client-repo.s3.amazonaws.com/ubuntu ${VERSION_CODENAME} main" \\
    > /etc/apt/sources.list.d/fsxlustreclientrepo.list
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y "lustre-client-modules-$(uname -r)"
fi
"""


def user_data(dns_name: str | None, mount_name: str | None, efa: bool, gpudirect: bool) -> str:
    """Bash user data that writes the NCCL environment and mounts Lustre at /fsx.

    Args:
        dns_name: the FSx for Lustre file system's DNS name; None or "" for no file system.
        mount_name: the file system's Lustre mount name (e.g. `abcdefgh`).
        efa: the node has EFA interfaces.
        gpudirect: EFA may access GPU memory directly (N1).

    Returns:
        A `#!/bin/bash` script (not base64-encoded).

    Raises:
        ValueError: when the DNS or mount name holds characters a shell or fstab would
            misread, or only one of the two is given.
    """
    lines = ["#!/bin/bash", "# trainstack node bootstrap", "set -euo pipefail", ""]
    lines += [f"cat > {ENV_FILE} <<'TRAINSTACK_ENV'"]
    lines += [f"export {k}={shlex.quote(v)}" for k, v in nccl_env(efa, gpudirect).items()]
    lines += ["TRAINSTACK_ENV", f"chmod 0644 {ENV_FILE}", ""]
    if dns_name or mount_name:
        lines.append(_lustre_mount(dns_name or "", mount_name or ""))
    return "\n".join(lines) + "\n"


def _lustre_mount(dns_name: str, mount_name: str) -> str:
    if not _DNS.match(dns_name):
        raise ValueError(f"file_system_dns: {dns_name!r} is not a DNS name")
    if not _MOUNT_NAME.match(mount_name):
        raise ValueError(f"file_system_mount_name: {mount_name!r} is not a Lustre mount name")
    source = f"{dns_name}@tcp:/{mount_name}"
    # The FSx guide's fstab line requires `network.service`, an Amazon Linux unit; the nodes run
    # the Ubuntu 24.04 DLAMI, which has none, so that mount (and every unit needing /fsx, the
    # job's included) failed to start ("Unit network.service not found"). network-online.target,
    # as on Azure and GCP, is what `_netdev` orders a network mount after (systemd.mount(5)).
    fstab = (
        f"{source} {MOUNT_POINT} lustre "
        "defaults,relatime,flock,_netdev,x-systemd.automount,x-systemd.requires=network-online.target 0 0"
    )
    return (
        _LUSTRE_INSTALL
        + f"mkdir -p {MOUNT_POINT}\n"
        + f"grep -q '{source} ' /etc/fstab || echo '{fstab}' >> /etc/fstab\n"
        + f"mountpoint -q {MOUNT_POINT} || mount {MOUNT_POINT}\n"
    )
