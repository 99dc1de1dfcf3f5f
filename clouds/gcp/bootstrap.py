"""The GCP node bootstrap (`metadata.startup-script`, run as root at every boot): NCCL
environment, Filestore (NFS) or Managed Lustre at `/fsx`, `/scratch`, and the job's unit.

Sources (not in shared/reference-facts, so treat as unsourced there):
- Managed Lustre client on Ubuntu: Google's Artifact Registry apt repository
  `https://us-apt.pkg.dev/projects/lustre-client-binaries lustre-client-ubuntu-<codename>`,
  signed by `https://us-apt.pkg.dev/doc/repo-signing-key.gpg`, packages
  `lustre-client-modules-$(uname -r)` and `lustre-client-utils` (as GoogleCloudPlatform's
  Managed Lustre client install script does; the modules exist for a limited set of kernels).
- Filestore: an NFS export `<ip>:/<share>` mounted with `nfs-common`.

NCCL: `NCCL_SOCKET_IFNAME` (not loopback or container bridges) everywhere; with the GPUDirect
NIC layout, workers also install the machine type's NCCL plugin (GPUDirect-TCPX on A3 High,
TCPXO on A3 Mega, gIB for GPUDirect RDMA on A3 Ultra and A4), start the receive-datapath
manager (TCPX, TCPXO) and add the plugin's NCCL variables (`gpudirect_lines`; images, flags and
variables as data in `clouds.gcp.gpudirect`). A failed setup is logged and leaves NCCL on
sockets rather than stopping the node's job.

Size: Compute Engine API reference, Metadata `items[].value`: "The only restriction placed on
values is that their size must be less than or equal to 262144 bytes (256 KiB)"
(`METADATA_VALUE_LIMIT_BYTES`); all keys and values together "must be less than 512 KB",
which a startup script within its own limit and the one OS Login flag cannot reach. The stack
check (`startup_script_problem`, `Cloud.bootstrap_check`) renders `startup_script` with the
longest values the engine can hand it, so `plan`, `check`, `pulumi up` and `resolve` refuse a
job Compute Engine would refuse, before anything is written or created.
"""

from __future__ import annotations

import shlex

from clouds.contract import ClusterConfig
from clouds.gcp.filesystems import FILESTORE, LUSTRE, LUSTRE_FILESYSTEM, SHARE_NAME, choose_file_system
from clouds.gcp.gpudirect import GpuDirect, gpudirect_for
from clouds.gcp.nics import nic_layout
from clouds.gcp.tpu import is_tpu
from clouds.node_bootstrap import ENV_FILE, ROLES, bootstrap, mount_lines, over_limit

METADATA_VALUE_LIMIT_BYTES = 262_144
# The longest values the engine hands the script: file-system and head addresses are IPv4.
_ADDRESS = "255.255.255.255"
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


# Prints the current NCCL_* variables as `export K=V` lines (after sourcing a plugin's profile).
_EXPORT_NCCL = (
    "import os, shlex; "
    "print(''.join(f'export {k}={shlex.quote(v)}\\n' for k, v in sorted(os.environ.items()) if k.startswith('NCCL_')), end='')"
)


def gpudirect_lines(gd: GpuDirect | None) -> list[str]:
    """Bash that installs `gd`'s NCCL plugin, (re)starts its receive-datapath manager (if the
    flavour has one) and, only when all of it worked, appends its NCCL variables to
    `ENV_FILE`; [] for None.

    Idempotent (GCP runs the startup script at every boot): the plugin is installed again and
    the RxDM container replaced. Every step checks itself (`|| return 1`): bash ignores
    `set -e` inside a function called from `||`.
    """
    if gd is None:
        return []
    install = ["docker", "run", "--rm", "--volume", ":".join(gd.plugin_volume)]
    install += [f"--entrypoint={gd.plugin_entrypoint}"] if gd.plugin_entrypoint else []
    install += [gd.plugin_image, "install", "--install-nccl"]
    profile = []
    if gd.env_profile:  # the plugin's own NCCL variables, as `export K=V` lines the agent reads
        profile = [
            f"  ( set +u; NCCL_LIB_DIR={gd.plugin_dir}; . {gd.env_profile}; python3 -c {shlex.quote(_EXPORT_NCCL)} )"
            f" >> {ENV_FILE} || return 1"
        ]
    fail = f"trainstack: {gd.name} setup failed; NCCL uses the GPU NICs over sockets"
    return [
        f"# trainstack {gd.name}: NCCL net plugin" + (" and receive-datapath manager" if gd.rxdm_image else ""),
        "trainstack_gpudirect() {",
        "  command -v docker >/dev/null 2>&1 || { apt-get update; DEBIAN_FRONTEND=noninteractive apt-get install -y docker.io; }",
        *_rxdm_check(gd),
        *(f"  {{ {command}; }} || return 1" for command in gd.prepare),
        f"  {shlex.join(install)} || return 1",
        *_rxdm_start(gd),
        *profile,
        f"  cat >> {ENV_FILE} <<'TRAINSTACK_GPUDIRECT'",
        *(f"export {key}={shlex.quote(value)}" for key, value in gd.env.items()),
        "TRAINSTACK_GPUDIRECT",
        "}",
        f"trainstack_gpudirect || echo '{fail}' >&2",
    ]


def _rxdm_check(gd: GpuDirect) -> list[str]:
    """The RxDM runs with `--gpus all`: without the NVIDIA container runtime, stop early."""
    if not gd.rxdm_image:
        return []
    return [
        "  docker info 2>/dev/null | grep -qi 'runtimes:.*nvidia' || "
        f"{{ echo 'trainstack: {gd.name} needs the NVIDIA container toolkit (docker --gpus)' >&2; return 1; }}"
    ]


def _rxdm_start(gd: GpuDirect) -> list[str]:
    """Replace the receive-datapath manager container; [] for a flavour without one."""
    if not gd.rxdm_image:
        return []
    run = ["docker", "run", "--detach", "--restart", "unless-stopped", "--name", "receive-datapath-manager"]
    run += ["--privileged", "--cap-add=NET_ADMIN", "--network=host", "--gpus", "all"]
    run += [f"--device={device}" for device in gd.rxdm_devices]
    run += [f"--volume={host}:{inside}" for host, inside in gd.rxdm_volumes]
    run += ["--env", "LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu"]
    run += [f"--entrypoint={gd.rxdm_entrypoint}"] if gd.rxdm_entrypoint else []
    run += [gd.rxdm_image, *gd.rxdm_args]
    return ["  docker rm -f receive-datapath-manager >/dev/null 2>&1 || true", f"  {shlex.join(run)} || return 1"]


def startup_script(
    name: str,
    cluster: ClusterConfig,
    role: str,
    kind: str | None,
    address: str | None,
    share: str | None,
    rdzv_host: str | None,
) -> str:
    """One node's `startup-script`: `clouds.node_bootstrap.bootstrap` with GCP's parts.

    Args:
        name: the cluster name.
        cluster: the cluster config.
        role: `worker` or `head`.
        kind, address, share: as for `file_system_mount`.
        rdzv_host: the head node's private IP with a job, else None.
    """
    layout = nic_layout(cluster.instance_type, cluster.interconnect)
    gpudirect = gpudirect_for(cluster.instance_type, layout.gpudirect)
    setup = gpudirect_lines(gpudirect) if role == "worker" else []
    return bootstrap(name, cluster, role, dict(NCCL_ENV), [*file_system_mount(kind, address, share), *setup], rdzv_host)


def startup_script_problem(args: ClusterConfig, name: str = "cluster") -> str | None:
    """Why Compute Engine would refuse a node's `startup-script` metadata value (`over_limit`),
    or None when the worker's and the head's fit (or the nodes are TPU VMs, which get none),
    rendered with the longest addresses the engine can give for the cluster's file system (or
    either service when its size picks none yet, as `resolve`'s sketch of a row may)."""
    if is_tpu(args.instance_type):
        return None
    rdzv = _ADDRESS if args.job is not None else None
    roles = ROLES if args.job is not None else ("worker",)
    size = max(
        len(startup_script(name, args, role, kind, address, SHARE_NAME, rdzv).encode())
        for role in roles
        for kind, address in _longest_mounts(args)
    )
    if size <= METADATA_VALUE_LIMIT_BYTES:
        return None
    return over_limit(args, size, f"Compute Engine's {METADATA_VALUE_LIMIT_BYTES:,}-byte metadata-value limit")


def _longest_mounts(args: ClusterConfig) -> list[tuple[str | None, str | None]]:
    """(kind, longest `file_system_dns`) of the file systems the cluster may mount."""
    if args.file_system is None:
        return [(None, None)]
    try:
        kinds = [choose_file_system(args.file_system).kind]
    except ValueError:  # the stack check says why; measure both services
        kinds = [LUSTRE, FILESTORE]
    return [(kind, f"{_ADDRESS}@tcp:/{LUSTRE_FILESYSTEM}" if kind == LUSTRE else _ADDRESS) for kind in kinds]
