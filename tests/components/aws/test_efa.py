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
    assert [(n["network_card_index"], n["device_index"]) for n in nics] == [(0, 0)] + [(k, 1) for k in range(1, count)]
    for nic in nics:
        assert nic["interface_type"] == (
            "efa" if nic["network_card_index"] == 0 or instance_type == "p4d.24xlarge" else "efa-only"
        )
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


@pytest.mark.parametrize(
    ("instance_type", "layout_tail", "ips"),
    [
        pytest.param("p5.48xlarge", (1, "efa-only"), 1, id="p5-2-per-card-efa-only"),
        pytest.param("p5en.48xlarge", (1, "efa-only"), 1, id="p5en-4-per-card"),
        pytest.param("p4d.24xlarge", (1, "efa"), 4, id="p4d-no-efa-only-recorded"),
    ],
)
def test_secondary_interfaces_follow_each_card(instance_type, layout_tail, ips):
    from clouds.aws.efa import interface_layout, ip_interfaces

    layout = interface_layout(instance_type)
    assert layout[0] == (0, 0, "efa")  # the primary is never EFA-only (D2)
    assert {(device, kind) for _, device, kind in layout[1:]} == {layout_tail}
    assert [card for card, _, _ in layout] == list(range(len(layout)))
    assert ip_interfaces(instance_type) == ips


def test_a_card_taking_one_interface_gets_device_index_0(monkeypatch):
    from clouds.aws import efa
    from facts.aws import AwsNetwork

    monkeypatch.setattr(
        efa, "aws_network", lambda _t: AwsNetwork(4, 4, 400, True, interfaces_per_card=1, efa_only=True)
    )
    monkeypatch.setattr(efa, "max_efa_interfaces", lambda _t: 4)
    assert efa.interface_layout("x") == [(0, 0, "efa"), (1, 0, "efa-only"), (2, 0, "efa-only"), (3, 0, "efa-only")]


@pytest.mark.parametrize(
    ("cidr", "nodes", "instance_type", "fits"),
    [
        pytest.param("10.0.0.0/24", 62, "p4d.24xlarge", True, id="p4d-248-of-251"),
        pytest.param("10.0.0.0/24", 63, "p4d.24xlarge", False, id="p4d-252-of-251"),
        pytest.param("10.0.0.0/28", 11, "p5.48xlarge", True, id="p5-efa-only-11-of-11"),
        pytest.param("10.0.0.0/28", 12, "p5.48xlarge", False, id="p5-12-of-11"),
    ],
)
def test_subnet_size_counts_only_ip_using_interfaces(cidr, nodes, instance_type, fits):
    from clouds.aws.efa import check_subnet_size

    if fits:
        check_subnet_size(cidr, nodes, instance_type, "rdma", "subnet_id")
        return
    with pytest.raises(ValueError, match=r"^subnet_id: the subnet .* usable addresses.*need \d+"):
        check_subnet_size(cidr, nodes, instance_type, "rdma", "subnet_id")


@pytest.mark.parametrize(
    ("cidr", "nodes", "field", "fix"),
    [
        pytest.param(
            "10.0.0.0/17",
            10_000,
            "nodes",
            "set nodes: 8190 or fewer, or subnet_id: an existing subnet with 40000 or more free addresses",
            id="own-17-subnet-10000-p4d",
        ),
        pytest.param(
            "10.0.0.0/24",
            63,
            "subnet_id",
            "set nodes: 62 or fewer, or subnet_id: a subnet with 252 or more free addresses",
            id="existing-24-subnet-63-p4d",
        ),
    ],
)
def test_a_subnet_too_small_names_the_node_count_that_fits(cidr, nodes, field, fix):
    """The fix is input that is accepted: "use a larger subnet" named no field (trainstack makes the
    /17 itself); the node count named fits (8,190 x 4 = 32,760 of 32,763; 62 x 4 = 248 of 251)."""
    from clouds.aws.efa import check_subnet_size

    with pytest.raises(ValueError) as refused:
        check_subnet_size(cidr, nodes, "p4d.24xlarge", "rdma", field)
    assert str(refused.value).endswith(fix)
    fitting = int(fix.split("set nodes: ")[1].split(" ")[0])
    check_subnet_size(cidr, fitting, "p4d.24xlarge", "rdma", field)
