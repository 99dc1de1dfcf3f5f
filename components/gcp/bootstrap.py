"""The GCP node bootstrap (`metadata.startup-script`, run as root at every boot): NCCL
environment, Filestore (NFS) or Managed Lustre at `/fsx`, `/scratch`, and the job's unit.

Sources (not in shared/reference-facts, so treat as unsourced there):
- Managed Lustre client on Ubuntu: Google's Artifact Registry apt repository
  `https://us-apt.pkg.dev/projects/lustre-client-binaries lustre-client-ubuntu-<codename>`,
  signed by `https://us-apt.pkg.dev/doc/repo-signing-key.gpg`, packages
  `lustre-client-modules-$(uname -r)` and `lustre-client-utils` (as GoogleCloudPlatform's
  Managed Lustre client install script does; the modules exist for a limited set of kernels).
- Filestore: an NFS export `<ip>:/<share>` mounted with `nfs-common`.

NCCL: only `NCCL_SOCKET_IFNAME` (not loopback or container bridges). The GPUDirect-TCPX /
TCPXO NCCL plugins of A3 High / Mega are not installed by this bootstrap: NCCL uses the GPU
NICs over plain sockets there (see the README).
"""

from __future__ import annotations

from clouds.contract import ClusterConfig
from clouds.gcp.filesystems import LUSTRE
from components.node_bootstrap import bootstrap, mount_lines

NCCL_ENV = {"NCCL_SOCKET_IFNAME": "^lo,docker"}
LUSTRE_OPTIONS = "defaults,_netdev,x-systemd.automount,x-systemd.requires=network-online.target"
NFS_OPTIONS = "defaults,_netdev,hard,x-systemd.automount"

_LUSTRE_CLIENT = """\
if ! modinfo lustre >/dev/null 2>&1; then
  . /etc/os-release
  mkdir -p /etc/apt/keyrings
  wget -qO - https://us-apt.pkg.dev/doc/repo-signing-key.gpg | gpg --dearmor --yes -o /etc/apt/keyrings/gcp-ar-repo.gpg
  echo "deb [signed-by=/etc/apt/keyrings/gcp-ar-repo.gpg] https://us-apt.pkg.dev/projects/lustre-client-binaries \\
lustre-client-ubuntu-${VERSION_CODENAME} main" > /etc/apt/sources.list.d/lustre-client.list
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y "lustre-client-modules-$(uname -r)" lustre-client-utils
fi"""
_NFS_CLIENT = """\
if ! command -v mount.nfs >/dev/null 2>&1; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y nfs-common
fi"""


def file_system_mount(kind: str | None, address: str | None, share: str | None) -> list[str]:
    """The client install and `/fsx` mount of the cluster's file system.

    Args:
        kind: `lustre`, `filestore`, or None without a file system.
        address: the `file_system_dns` output: the Lustre mount point `IP@tcp:/trainfs`, or
            the Filestore IP address.
        share: the Filestore share name (unused for Lustre).

    Returns:
        Bash lines; [] without a file system.
    """
    if kind is None or not address:
        return []
    if kind == LUSTRE:
        return [_LUSTRE_CLIENT, *mount_lines(address, "lustre", LUSTRE_OPTIONS)]
    return [_NFS_CLIENT, *mount_lines(f"{address}:/{share}", "nfs", NFS_OPTIONS)]


def startup_script(
    name: str,
    cluster: ClusterConfig,
    role: str,
    kind: str | None,
    address: str | None,
    share: str | None,
    rdzv_host: str | None,
) -> str:
    """One node's `startup-script`: `components.node_bootstrap.bootstrap` with GCP's parts.

    Args:
        name: the cluster name.
        cluster: the cluster config.
        role: `worker` or `head`.
        kind, address, share: as for `file_system_mount`.
        rdzv_host: the head node's private IP with a job, else None.
    """
    return bootstrap(name, cluster, role, dict(NCCL_ENV), file_system_mount(kind, address, share), rdzv_host)
