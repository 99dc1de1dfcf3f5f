"""EFA network-interface layout (pure, no engine)."""

import pytest

from clouds.aws.efa import efa_interface_count, network_interfaces


@pytest.mark.parametrize(
    ("instance_type", "count"),
    [
        pytest.param("p4d.24xlarge", 4, id="p4d-4"),
        pytest.param("p5.48xlarge", 32, id="p5-32"),
        pytest.param("p5en.48xlarge", 16, id="p5en-16"),
        pytest.param("g5.xlarge", 0, id="no-efa-type"),
    ],
)
def test_efa_interface_count_follows_k1(instance_type, count):
    assert efa_interface_count(instance_type) == count


def test_interconnect_none_means_no_efa():
    assert efa_interface_count("p5.48xlarge", "none") == 0


@pytest.mark.parametrize(
    ("instance_type", "count"),
    [pytest.param("p4d.24xlarge", 4, id="p4d"), pytest.param("p5.48xlarge", 32, id="p5")],
)
def test_efa_layout_card_k_device_1(instance_type, count):
    nics = network_interfaces(instance_type, "subnet-1", "sg-1")

    assert len(nics) == count
    assert [(n["network_card_index"], n["device_index"]) for n in nics] == [(0, 0)] + [
        (k, 1) for k in range(1, count)
    ]
    for nic in nics:
        assert nic["interface_type"] == "efa"
        assert nic["security_groups"] == ["sg-1"]
        assert nic["subnet_id"] == "subnet-1"
        assert nic["delete_on_termination"] == "true"


@pytest.mark.parametrize(
    ("instance_type", "interconnect"),
    [pytest.param("g5.xlarge", "rdma", id="no-efa-type"), pytest.param("p4d.24xlarge", "none", id="none")],
)
def test_without_efa_one_ordinary_interface(instance_type, interconnect):
    nics = network_interfaces(instance_type, "subnet-1", "sg-1", interconnect)

    assert nics == [
        {
            "network_card_index": 0,
            "device_index": 0,
            "subnet_id": "subnet-1",
            "security_groups": ["sg-1"],
            "delete_on_termination": "true",
        }
    ]
