"""User data: Lustre mount at /fsx and NCCL/EFA environment (pure)."""

import pytest

from clouds.aws.cloud_init import ENV_FILE, user_data

DNS = "fs-0abc.fsx.us-east-1.amazonaws.com"


def test_mounts_lustre_at_fsx_with_dns_and_mount_name():
    script = user_data(DNS, "abcdefgh", efa=True, gpudirect=True)

    assert script.startswith("#!/bin/bash\n")
    assert f"{DNS}@tcp:/abcdefgh /fsx lustre defaults,relatime,flock,_netdev" in script
    assert "mount /fsx" in script
    assert 'apt-get install -y "lustre-client-modules-$(uname -r)"' in script


def test_efa_env_in_profile_d():
    script = user_data(DNS, "abcdefgh", efa=True, gpudirect=True)

    assert f"cat > {ENV_FILE} <<'TRAINSTACK_ENV'" in script
    assert "export FI_PROVIDER=efa\n" in script
    assert "export FI_EFA_USE_DEVICE_RDMA=1\n" in script
    assert "export NCCL_SOCKET_IFNAME='^lo,docker'\n" in script


def test_no_device_rdma_without_gpudirect():
    script = user_data(None, None, efa=True, gpudirect=False)

    assert "FI_PROVIDER=efa" in script
    assert "FI_EFA_USE_DEVICE_RDMA" not in script


def test_no_efa_no_libfabric_env_and_no_mount_without_file_system():
    script = user_data(None, None, efa=False, gpudirect=False)

    assert "FI_" not in script
    assert "lustre" not in script
    assert "NCCL_SOCKET_IFNAME" in script


@pytest.mark.parametrize(
    ("dns", "mount"),
    [
        pytest.param("x; rm -rf /", "abc", id="dns-injection"),
        pytest.param(DNS, "a b", id="mount-space"),
        pytest.param(DNS, "", id="mount-missing"),
    ],
)
def test_rejects_unsafe_names(dns, mount):
    with pytest.raises(ValueError):
        user_data(dns, mount, efa=True, gpudirect=True)
