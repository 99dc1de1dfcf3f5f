"""GPUDirect on the GCP nodes, as data per machine type: the NCCL network plugin, the
receive-datapath manager (RxDM, TCPX and TCPXO only) and the NCCL environment.

- A3 High (`a3-highgpu-8g`): GPUDirect-TCPX; A3 Mega (`a3-megagpu-8g`): GPUDirect-TCPXO;
- A3 Ultra (`a3-ultragpu-8g`) and A4 (`a4-highgpu-8g`): GPUDirect RDMA over the MRDMA NICs with
  Google's gIB NCCL plugin (no RxDM); one entry each, as their tuner configurations differ.

Without the plugin NCCL runs over the GPU NICs with plain sockets, far below their bandwidth
(NVIDIA's GKE TCPXO guide: "NCCL falls back to TCP"). Which flavour a machine type uses and
its NIC count come from `clouds.gcp.nics` (shared/reference-facts/interconnect.md G1-G5);
only the GPUDirect NIC layout (`interconnect: rdma`) gets them.

Versions (none in shared/reference-facts; each from Google's release notes, observed 2026-12-04):
- TCPX: `nccl-plugin-gpudirecttcpx-dev:v3.1.12` with `tcpgpudmarxd-dev:v2.0.15`, the "Jun 22,
  2026" release of GoogleCloudPlatform/container-engine-accelerators `gpudirect-tcpx/README.md`
  (GPUDirect-TCPX Release Notes, @98c85a6; the RxDM version is coupled with the plugin's), which
  also gives `NCCL_ALGO=Ring,Tree`.
- TCPXO: `nccl-plugin-gpudirecttcpx-dev:v1.0.15` with `tcpgpudmarxd-dev:v1.0.21`, the "Jan 9,
  2026" release of `gpudirect-tcpxo/README.md` (@0a2b482); its Aug 21, 2025 entry drops the RxDM
  flags `--uid= --alsologtostderr` (now `--num_hops=2 --num_nics=8`).
- gIB: `gpudirect-gib/nccl-plugin-gib:v1.1.2`, "NCCL/gIB v1.1.2, Release date: May 14, 2026",
  Google Cloud "NCCL/gIB release notes (x86 64-bit)",
  https://docs.cloud.google.com/ai-hypercomputer/docs/nccl/release-notes-x86.
Setup (public setup code, not checked against a registry or a VM here):
- RxDM flags and the `install --install-nccl` installers: the repository's
  `gpudirect-tcpx/nccl-test.yaml` and `gpudirect-tcpxo/nccl-test.yaml`, cluster-toolkit's A3 VM
  examples (into `/var/lib/tcpx/lib64` / `/var/lib/tcpxo/lib64`); gIB: the repository's
  `gpudirect-rdma/nccl-rdma-installer.yaml` runs `/scripts/container_entry.sh install
  --install-nccl`, which writes `/var/lib/gib` (mounted here at the host's `/usr/local/gib`,
  the path Google's `.deb` and examples use), and `gpudirect-rdma/nccl-test.yaml` sources
  `/usr/local/gib/scripts/set_nccl_env.sh`.
- TCPXO host preparation: `modprobe import-helper` and one `/dev/aperture_devices/<BDF>` bind
  mount per GPU NIC PCI function (vendor:device `1ae0:0084`), as the `nccl-tcpxo-installer`
  DaemonSet's pre-installation step does.
- NCCL variables with Ubuntu's interface names (this bootstrap boots Ubuntu 22.04, where the
  primary gVNIC is `enp0s12`): the A3 High Slurm examples (`NCCL_NET=GPUDirectTCPX_v7`,
  bindings, chunk sizes) and, for A3 Mega, `nccl-env-profile.sh` plus `NCCL_FASTRAK_*`
  (cluster-toolkit a3-megagpu, PerfKitBenchmarker, dstack's a3mega example); for gIB,
  `NCCL_NET=gIB` and the tuning Google's GKE Ray/verl tutorial and PerfKitBenchmarker's
  `nvidia_hpl/a4.dockerfile` set (`NCCL_IB_TC=52`, `NCCL_IB_FIFO_TC=84`, tuner configs
  `tuner_config_a3u.txtpb` for H200 / `tuner_config_a4.txtpb` for B200).
Unverified here: the `a3vm` RxDM preset was documented with COS/GKE interface names; the
RxDM runs with `--gpus all`, which needs the NVIDIA container toolkit (the bootstrap checks
and says so in the journal when it is missing, then NCCL uses sockets); `set_nccl_env.sh`'s
own contents.
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
        name: `GPUDirect-TCPX`, `GPUDirect-TCPXO` or `GPUDirect-RDMA (gIB)`.
        plugin_image: the NCCL net plugin installer image.
        plugin_dir: where the installer puts `libnccl*.so` (host path).
        plugin_volume: (host, container) mount the installer writes through.
        plugin_entrypoint: the installer's `--entrypoint`, or "" for the image's own.
        rxdm_image: the receive-datapath manager image, or "" when the flavour has none.
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
    plugin_volume: tuple[str, str] = ("/var/lib", "/var/lib")
    plugin_entrypoint: str = ""
    rxdm_image: str = ""
    rxdm_args: tuple[str, ...] = ()
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
    plugin_image=f"{REGISTRY}/gpudirect-tcpx/nccl-plugin-gpudirecttcpx-dev:v3.1.12",
    plugin_dir="/var/lib/tcpx/lib64",
    rxdm_image=f"{REGISTRY}/gpudirect-tcpx/tcpgpudmarxd-dev:v2.0.15",
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
            "NCCL_ALGO": "Ring,Tree",
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
    rxdm_args=("--num_hops=2", "--num_nics=8"),
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

_GIB_DIR = "/usr/local/gib"
# NCCL variables of the gIB plugin on both machine types (sources above); NCCL_SOCKET_IFNAME
# stays the bootstrap's `^lo,docker`: the examples' interface names are unverified on this image.
_GIB_ENV = {
    "NCCL_NET": "gIB",
    "NCCL_CROSS_NIC": "0",
    "NCCL_NET_GDR_LEVEL": "PIX",
    "NCCL_P2P_NET_CHUNKSIZE": "131072",
    "NCCL_NVLS_CHUNKSIZE": "524288",
    "NCCL_IB_ADAPTIVE_ROUTING": "1",
    "NCCL_IB_QPS_PER_CONNECTION": "4",
    "NCCL_IB_TC": "52",
    "NCCL_IB_FIFO_TC": "84",
    "LD_LIBRARY_PATH": f"{_GIB_DIR}/lib64",
}


def _gib(tuner_config: str) -> GpuDirect:
    """GPUDirect RDMA with the gIB plugin, with the machine type's NCCL tuner configuration."""
    return GpuDirect(
        name="GPUDirect-RDMA (gIB)",
        plugin_image=f"{REGISTRY}/gpudirect-gib/nccl-plugin-gib:v1.1.2",
        plugin_dir=f"{_GIB_DIR}/lib64",
        plugin_volume=(_GIB_DIR, "/var/lib/gib"),
        plugin_entrypoint="/scripts/container_entry.sh",
        env=MappingProxyType({**_GIB_ENV, "NCCL_TUNER_CONFIG_PATH": f"{_GIB_DIR}/configs/{tuner_config}"}),
        env_profile=f"{_GIB_DIR}/scripts/set_nccl_env.sh",
    )


GIB_A3_ULTRA = _gib("tuner_config_a3u.txtpb")  # H200
GIB_A4 = _gib("tuner_config_a4.txtpb")  # B200

# Machine type -> what its nodes install with the GPUDirect NIC layout (`clouds.gcp.nics.GPUDIRECT`).
BY_MACHINE_TYPE: Mapping[str, GpuDirect] = MappingProxyType(
    {"a3-highgpu-8g": TCPX, "a3-megagpu-8g": TCPXO, "a3-ultragpu-8g": GIB_A3_ULTRA, "a4-highgpu-8g": GIB_A4}
)


def gpudirect_for(machine_type: str, flavour: str | None) -> GpuDirect | None:
    """What a node of `machine_type` installs when its NIC layout has the GPUDirect `flavour`
    (`clouds.gcp.nics.NicLayout.gpudirect`); None without GPU NICs or for other types."""
    return BY_MACHINE_TYPE.get(machine_type) if flavour else None
