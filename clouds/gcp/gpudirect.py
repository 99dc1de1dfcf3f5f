"""GPUDirect-TCPX (A3 High) and GPUDirect-TCPXO (A3 Mega) on the GCP nodes, as data: the NCCL
network plugin, the receive-datapath manager (RxDM) and the NCCL environment per flavour.

Without the plugin NCCL runs over the GPU NICs with plain sockets, far below their bandwidth
(NVIDIA's GKE TCPXO guide: "NCCL falls back to TCP"). Which flavour a machine type uses and
its NIC count come from `clouds.gcp.nics` (shared/reference-facts/interconnect.md G1-G3);
only the GPUDirect NIC layout (`interconnect: rdma`) gets them.

Sources (public setup code found through the code index, none in shared/reference-facts, so
the versions and flags are as those sources pin them, not checked against a registry):
- Images and RxDM flags: GoogleCloudPlatform/container-engine-accelerators
  `gpudirect-tcpx/nccl-test.yaml` (`tcpgpudmarxd-dev:v2.0.9`, `--gpu_nic_preset a3vm
  --gpu_shmem_type fd --uds_path /run/tcpx --setup_param "--verbose 128 2 0"`,
  `nccl-plugin-gpudirecttcpx-dev:v3.1.9`) and `gpudirect-tcpxo/nccl-test.yaml`
  (`tcpgpudmarxd-dev:v1.0.21`, `/fts/entrypoint_rxdm_container.sh --num_hops=2 --num_nics=8`,
  `nccl-plugin-gpudirecttcpx-dev:v1.0.15`); the plugin installs with `install --install-nccl`
  into `/var/lib/tcpx/lib64` / `/var/lib/tcpxo/lib64` (cluster-toolkit's A3 VM examples).
- TCPXO host preparation: `modprobe import-helper` and one `/dev/aperture_devices/<BDF>` bind
  mount per GPU NIC PCI function (vendor:device `1ae0:0084`), as the `nccl-tcpxo-installer`
  DaemonSet's pre-installation step does.
- NCCL variables with Ubuntu's interface names (this bootstrap boots Ubuntu 22.04, where the
  primary gVNIC is `enp0s12`): the A3 High Slurm examples (`NCCL_NET=GPUDirectTCPX_v7`,
  `NCCL_GPUDIRECTTCPX_SOCKET_IFNAME=enp6s0,enp12s0,enp134s0,enp140s0`, bindings, chunk sizes)
  and, for A3 Mega, `nccl-env-profile.sh` plus `NCCL_FASTRAK_*` (cluster-toolkit a3-megagpu,
  PerfKitBenchmarker, dstack's a3mega example).
Unverified here: the `a3vm` RxDM preset was documented with COS/GKE interface names; the
RxDM runs with `--gpus all`, which needs the NVIDIA container toolkit (the bootstrap checks
and says so in the journal when it is missing, then NCCL uses sockets).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

REGISTRY = "us-docker.pkg.dev/gce-ai-infra"
_ENV_PROFILE = "nccl-env-profile.sh"


@dataclass(frozen=True)
class GpuDirect:
    """What one GPUDirect flavour installs and runs on a node.

    Attributes:
        name: `GPUDirect-TCPX` or `GPUDirect-TCPXO`.
        plugin_image: the NCCL net plugin installer image.
        plugin_dir: where the installer puts `libnccl*.so` (host path).
        rxdm_image: the receive-datapath manager image.
        rxdm_args: the RxDM container's command line after the image.
        rxdm_entrypoint: its `--entrypoint`, or "" for the image's own.
        rxdm_devices: host device paths the RxDM needs besides the GPUs.
        rxdm_volumes: (host, container) bind mounts.
        prepare: host commands before the RxDM starts.
        env: NCCL variables every process of the job gets.
        env_profile: the plugin's profile script whose variables are added too, or "".
    """

    name: str
    plugin_image: str
    plugin_dir: str
    rxdm_image: str
    rxdm_args: tuple[str, ...]
    rxdm_entrypoint: str = ""
    rxdm_devices: tuple[str, ...] = ()
    rxdm_volumes: tuple[tuple[str, str], ...] = ()
    prepare: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    env_profile: str = ""


_TCPX_NICS = "enp6s0,enp12s0,enp134s0,enp140s0"
_TCPXO_NICS = "enp6s0,enp7s0,enp13s0,enp14s0,enp134s0,enp135s0,enp141s0,enp142s0"
_APERTURE = (
    "mkdir -p /dev/aperture_devices; "
    "for bdf in $(lspci -nn -D | awk '/1ae0:0084/ {print $1}'); do "
    'mkdir -p "/dev/aperture_devices/$bdf"; '
    'mountpoint -q "/dev/aperture_devices/$bdf" || '
    'mount --bind "$(readlink -f /sys/bus/pci/devices/$bdf)" "/dev/aperture_devices/$bdf"; '
    "done; chmod -R a+r /dev/aperture_devices"
)

TCPX = GpuDirect(
    name="GPUDirect-TCPX",
    plugin_image=f"{REGISTRY}/gpudirect-tcpx/nccl-plugin-gpudirecttcpx-dev:v3.1.9",
    plugin_dir="/var/lib/tcpx/lib64",
    rxdm_image=f"{REGISTRY}/gpudirect-tcpx/tcpgpudmarxd-dev:v2.0.9",
    rxdm_entrypoint="/tcpgpudmarxd/build/app/tcpgpudmarxd",
    rxdm_args=("--gpu_nic_preset", "a3vm", "--gpu_shmem_type", "fd", "--uds_path", "/run/tcpx"),
    rxdm_volumes=(("/run/tcpx", "/run/tcpx"),),
    env=MappingProxyType(
        {
            "NCCL_NET": "GPUDirectTCPX_v7",
            "NCCL_SOCKET_IFNAME": "enp0s12",
            "NCCL_GPUDIRECTTCPX_CTRL_DEV": "enp0s12",
            "NCCL_GPUDIRECTTCPX_SOCKET_IFNAME": _TCPX_NICS,
            "NCCL_GPUDIRECTTCPX_TX_BINDINGS": (
                "enp6s0:8-21,112-125;enp12s0:8-21,112-125;enp134s0:60-73,164-177;enp140s0:60-73,164-177"
            ),
            "NCCL_GPUDIRECTTCPX_RX_BINDINGS": (
                "enp6s0:22-35,126-139;enp12s0:22-35,126-139;enp134s0:74-87,178-191;enp140s0:74-87,178-191"
            ),
            "NCCL_GPUDIRECTTCPX_UNIX_CLIENT_PREFIX": "/run/tcpx",
            "NCCL_GPUDIRECTTCPX_PROGRAM_FLOW_STEERING_WAIT_MICROS": "500000",
            "NCCL_CROSS_NIC": "0",
            "NCCL_ALGO": "Ring",
            "NCCL_PROTO": "Simple",
            "NCCL_NSOCKS_PERTHREAD": "4",
            "NCCL_SOCKET_NTHREADS": "1",
            "NCCL_DYNAMIC_CHUNK_SIZE": "524288",
            "NCCL_P2P_NET_CHUNKSIZE": "524288",
            "NCCL_P2P_PCI_CHUNKSIZE": "524288",
            "NCCL_P2P_NVL_CHUNKSIZE": "1048576",
            "NCCL_BUFFSIZE": "4194304",
            "NCCL_NET_GDR_LEVEL": "PIX",
            "NCCL_P2P_PXN_LEVEL": "0",
            "LD_LIBRARY_PATH": "/var/lib/tcpx/lib64",
        }
    ),
)

TCPXO = GpuDirect(
    name="GPUDirect-TCPXO",
    plugin_image=f"{REGISTRY}/gpudirect-tcpxo/nccl-plugin-gpudirecttcpx-dev:v1.0.15",
    plugin_dir="/var/lib/tcpxo/lib64",
    rxdm_image=f"{REGISTRY}/gpudirect-tcpxo/tcpgpudmarxd-dev:v1.0.21",
    rxdm_entrypoint="/fts/entrypoint_rxdm_container.sh",
    rxdm_args=("--num_hops=2", "--num_nics=8", "--uid=", "--alsologtostderr"),
    rxdm_devices=("/dev/dmabuf_import_helper",),
    prepare=("modprobe import-helper", _APERTURE),
    env=MappingProxyType(
        {
            "NCCL_NET": "FasTrak",
            "NCCL_SOCKET_IFNAME": "enp0s12",
            "NCCL_FASTRAK_CTRL_DEV": "enp0s12",
            "NCCL_FASTRAK_IFNAME": _TCPXO_NICS,
            "NCCL_FASTRAK_USE_SNAP": "1",
            "NCCL_FASTRAK_USE_LLCM": "1",
            "NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY": "/dev/aperture_devices",
            "LD_LIBRARY_PATH": "/var/lib/tcpxo/lib64",
        }
    ),
    env_profile=f"/var/lib/tcpxo/lib64/{_ENV_PROFILE}",
)

# GPUDirect flavour (`clouds.gcp.nics.NicLayout.gpudirect`) -> what its nodes install.
BY_FLAVOUR: Mapping[str, GpuDirect] = MappingProxyType({"tcpx": TCPX, "tcpxo": TCPXO})


def gpudirect_for(flavour: str | None) -> GpuDirect | None:
    """What a node with this NIC layout's flavour installs: TCPX, TCPXO, or None (no GPU NICs,
    or GPUDirect-RDMA on A3 Ultra / A4, whose plugin this bootstrap does not install)."""
    return BY_FLAVOUR.get(flavour or "")
