"""The Azure node bootstrap (custom data, run once by cloud-init on each VM's first boot): the
NCCL / InfiniBand environment, Azure Managed Lustre at `/fsx`, `/scratch`, and the job's unit.

Sources (not in shared/reference-facts, so treat as unsourced there):
- NCCL on ND sizes: `NCCL_IB_PCI_RELAXED_ORDERING=1`, `NCCL_SOCKET_IFNAME=eth0`,
  `CUDA_DEVICE_ORDER=PCI_BUS_ID` and the topology file the Ubuntu HPC image ships
  (`/opt/microsoft/ndv4-topo.xml` on ND A100 v4, `ndv5-topo.xml` on ND H100 v5), as
  Microsoft's ND examples set them (Azure/azhpc-images tests, Azure MS-AMP README).
- Lustre client: the Ubuntu HPC image ships the AMLFS client; where `modinfo lustre` finds
  none, the bootstrap installs the newest `amlfs-lustre-client-*` package for the running
  kernel from `https://packages.microsoft.com/repos/amlfs-<codename>/` (Azure Managed Lustre
  "Install client software" page); mount options `noatime,flock` as AMLFS recommends, plus
  `_netdev` and a systemd automount.
- Custom data: Azure compute REST reference, `osProfile.customData`: "The base-64 encoded
  string is decoded to a binary array that is saved as a file on the Virtual Machine. The
  maximum length of the binary array is 65535 bytes." (`CUSTOM_DATA_LIMIT_BYTES`). The stack
  check (`custom_data_problem`, `Cloud.bootstrap_check`) renders `custom_data_text` with the
  longest values the engine can hand it, so `plan`, `check`, `pulumi up` and `resolve`
  refuse a job Azure would refuse, before anything is written or created.
"""

from __future__ import annotations

import base64

from clouds.azure.amlfs import LUSTRE_FS_NAME
from clouds.contract import ClusterConfig
from clouds.node_bootstrap import ROLES, bootstrap, mount_lines, over_limit

CUSTOM_DATA_LIMIT_BYTES = 65_535
LUSTRE_OPTIONS = "noatime,flock,_netdev,x-systemd.automount,x-systemd.requires=network-online.target"
# The longest values the engine hands the custom data: the AMLFS MGS address and the head
# node's private address are IPv4 addresses.
_ADDRESS = "255.255.255.255"
# VM-size suffix -> the HPC image's NCCL topology file (see module docstring).
TOPOLOGY_FILES = {"_v4": "/opt/microsoft/ndv4-topo.xml", "_v5": "/opt/microsoft/ndv5-topo.xml"}

_LUSTRE_CLIENT = """\
if ! modinfo lustre >/dev/null 2>&1; then
  . /etc/lsb-release
  curl -sL https://packages.microsoft.com/keys/microsoft.asc | gpg --dearmor --yes -o /etc/apt/trusted.gpg.d/microsoft-amlfs.gpg
  echo "deb [arch=amd64] https://packages.microsoft.com/repos/amlfs-${DISTRIB_CODENAME}/ ${DISTRIB_CODENAME} main" \\
    > /etc/apt/sources.list.d/amlfs.list
  apt-get update
  pkg=$(apt-cache search --names-only '^amlfs-lustre-client-' | cut -d' ' -f1 | sort -V | tail -1)
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${pkg}=$(uname -r)"
fi"""


def nccl_env(vm_size: str, infiniband: bool) -> dict[str, str]:
    """NCCL variables for one node of `vm_size` (see module docstring).

    Args:
        vm_size: e.g. `Standard_ND96asr_v4`.
        infiniband: the cluster uses the InfiniBand fabric (`interconnect: rdma`).

    Returns:
        Variable name -> value, in a stable order.
    """
    env = {"NCCL_SOCKET_IFNAME": "eth0", "CUDA_DEVICE_ORDER": "PCI_BUS_ID"}
    if infiniband:
        env["NCCL_IB_PCI_RELAXED_ORDERING"] = "1"
        topology = next((path for suffix, path in TOPOLOGY_FILES.items() if vm_size.endswith(suffix)), None)
        if topology:
            env["NCCL_TOPO_FILE"] = topology
    return env


def file_system_mount(mgs_address: str | None) -> list[str]:
    """The client install and `/fsx` mount of the AMLFS file system; [] without one."""
    if not mgs_address:
        return []
    return [_LUSTRE_CLIENT, *mount_lines(f"{mgs_address}@tcp:/{LUSTRE_FS_NAME}", "lustre", LUSTRE_OPTIONS)]


def custom_data_text(
    name: str, cluster: ClusterConfig, role: str, mgs_address: str | None, rdzv_host: str | None
) -> bytes:
    """One node's custom data before base64: `clouds.node_bootstrap.bootstrap` with Azure's parts.

    Args:
        name: the cluster name.
        cluster: the cluster config.
        role: `worker` or `head`.
        mgs_address: the AMLFS MGS address, or None without a file system.
        rdzv_host: the head node's private IP with a job, else None.
    """
    env = nccl_env(cluster.instance_type, cluster.interconnect == "rdma")
    return bootstrap(name, cluster, role, env, file_system_mount(mgs_address), rdzv_host).encode()


def custom_data(name: str, cluster: ClusterConfig, role: str, mgs_address: str | None, rdzv_host: str | None) -> str:
    """`custom_data_text`, base64, as the scale set and the head VM take it.

    Raises:
        ValueError: when the text exceeds `CUSTOM_DATA_LIMIT_BYTES` (the stack check refuses
            it first, with the longest values: `custom_data_problem`).
    """
    text = custom_data_text(name, cluster, role, mgs_address, rdzv_host)
    if len(text) > CUSTOM_DATA_LIMIT_BYTES:
        raise ValueError(over_limit(cluster, len(text), _LIMIT))
    return base64.b64encode(text).decode()


_LIMIT = f"Azure's {CUSTOM_DATA_LIMIT_BYTES:,}-byte custom-data limit"


def custom_data_problem(args: ClusterConfig, name: str = "cluster") -> str | None:
    """Why Azure would refuse a node's custom data (`over_limit`), or None when the worker's
    and the head's fit, rendered with the longest addresses the engine can give."""
    mgs = _ADDRESS if args.file_system is not None else None
    rdzv = _ADDRESS if args.job is not None else None
    roles = ROLES if args.job is not None else ("worker",)
    size = max(len(custom_data_text(name, args, role, mgs, rdzv)) for role in roles)
    return over_limit(args, size, _LIMIT) if size > CUSTOM_DATA_LIMIT_BYTES else None
