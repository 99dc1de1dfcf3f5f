"""VPC, subnet, security group, deploy set, EHC cluster and key pair providers against
recorded Baidu API responses, replayed under `http.client`."""

from __future__ import annotations

import pytest
from pulumi.runtime import rpc

from components.baiducloud.api import BaiduApiError
from components.baiducloud.network_provider import (
    SecurityGroupProvider,
    SubnetProvider,
    Vpc,
    VpcProvider,
)
from components.baiducloud.placement_provider import (
    DeploySetProvider,
    EhcClusterProvider,
    KeypairProvider,
)
from components.baiducloud.security import INTRA_GROUP_REMARK, security_group_rules

VPC, SUBNET, GROUP = "vpc-9kzt5x2wq0fa", "sbn-q3rd8w1mzx6c", "g-7dyv27r6pnse"
TAGS = {"trainstack-cluster": "c", "trainstack-provider": "baiducloud"}
TAG_LIST = [
    {"tagKey": "trainstack-cluster", "tagValue": "c"},
    {"tagKey": "trainstack-provider", "tagValue": "baiducloud"},
]
VPC_PROPS = {
    "region": "bj",
    "name": "c_vpc",
    "cidr": "10.0.0.0/16",
    "description": "trainstack cluster c",
    "tags": TAGS,
}
GROUP_PROPS = {
    "region": "bj",
    "name": "c_sg",
    "vpc_id": VPC,
    "subnet_id": None,
    "description": None,
    "rules": security_group_rules(["203.0.113.0/24"]),
    "intra_group": True,
    "tags": TAGS,
}
RSA_KEY = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDmock trainstack"


def failing(provider, news):
    return [failure.property for failure in provider.check({}, news).failures]


def test_vpc_create_read_delete(credentials, replay):
    replay.expect("create_vpc", "get_vpc", "delete_vpc")
    provider = VpcProvider()

    created = provider.create(dict(VPC_PROPS))
    read = provider.read(created.id, created.outs)
    provider.delete(created.id, created.outs)

    replay.verify()
    assert created.id == VPC and created.outs["vpc_id"] == VPC
    assert replay.requests[0].body == {
        "name": "c_vpc",
        "cidr": "10.0.0.0/16",
        "description": "trainstack cluster c",
        "tags": TAG_LIST,
    }
    assert (read.id, read.outs["cidr"], read.outs["name"]) == (VPC, "10.0.0.0/16", "c_vpc")
    assert [r.method for r in replay.requests] == ["POST", "GET", "DELETE"]


def test_subnet_create_sends_zone_cidr_vpc_and_type(credentials, replay):
    replay.expect("create_subnet")
    props = {"region": "bj", "name": "c_nodes", "zone": "cn-bj-a", "cidr": "10.0.0.0/20", "vpc_id": VPC, "tags": TAGS}

    created = SubnetProvider().create(props)

    replay.verify()
    assert created.id == SUBNET
    assert replay.requests[0].body == {
        "name": "c_nodes",
        "zoneName": "cn-bj-a",
        "cidr": "10.0.0.0/20",
        "vpcId": VPC,
        "subnetType": "BCC",
        "tags": TAG_LIST,
    }


def test_network_tags_are_create_only_and_cidr_changes_replace():
    state = {**VPC_PROPS, "vpc_id": VPC}
    assert VpcProvider().diff(VPC, state, {**VPC_PROPS, "tags": {"team": "x"}}).changes is False
    assert VpcProvider().diff(VPC, state, {**VPC_PROPS, "cidr": "10.1.0.0/16"}).replaces == ["cidr"]


def test_security_group_create_adds_intra_group_rule(credentials, replay):
    replay.expect("create_security_group", "authorize_security_group_rule")

    created = SecurityGroupProvider().create(dict(GROUP_PROPS))

    replay.verify()
    create, authorize = replay.requests
    assert created.id == GROUP and created.outs["resolved_vpc_id"] == VPC
    assert (create.body["vpcId"], create.body["name"]) == (VPC, "c_sg")
    assert create.body["tags"] == TAG_LIST
    ssh, egress = create.body["rules"]
    ssh_fields = (ssh["direction"], ssh["protocol"], ssh["portRange"], ssh["sourceIp"])
    assert ssh_fields == ("ingress", "tcp", "22", "203.0.113.0/24")
    assert (egress["direction"], egress["destIp"]) == ("egress", "0.0.0.0/0")
    rule = authorize.body["rule"]
    assert "authorizeRule" in authorize.query
    assert (rule["sourceGroupId"], rule["sourceIp"]) == (GROUP, None)
    assert rule["remark"] == INTRA_GROUP_REMARK


def test_security_group_in_an_existing_subnet_uses_that_subnets_vpc(credentials, replay):
    replay.expect("get_subnet", "create_security_group", "authorize_security_group_rule")

    created = SecurityGroupProvider().create({**GROUP_PROPS, "vpc_id": None, "subnet_id": SUBNET})

    replay.verify()
    assert replay.requests[1].body["vpcId"] == "vpc-e2xq7m4n9r1b"
    assert created.outs["resolved_vpc_id"] == "vpc-e2xq7m4n9r1b"


def test_security_group_rules_change_in_place(credentials, replay):
    replay.expect("authorize_security_group_rule", "revoke_security_group_rule")
    olds = {**GROUP_PROPS, "security_group_id": GROUP, "resolved_vpc_id": VPC}
    news = {**GROUP_PROPS, "rules": security_group_rules(["198.51.100.0/24"])}

    diff = SecurityGroupProvider().diff(GROUP, olds, news)
    result = SecurityGroupProvider().update(GROUP, olds, news)

    replay.verify()
    assert (diff.changes, diff.replaces) == (True, [])
    authorize, revoke = replay.requests
    assert "revokeRule" in revoke.query
    assert revoke.body["rule"]["sourceIp"] == "203.0.113.0/24"
    assert "authorizeRule" in authorize.query
    assert authorize.body["rule"]["sourceIp"] == "198.51.100.0/24"
    assert result.outs["security_group_id"] == GROUP


def test_security_group_whose_intra_group_rule_fails_is_deleted_again(credentials, replay):
    replay.expect("create_security_group", "authorize_security_group_rule_error", "delete_security_group")

    with pytest.raises(BaiduApiError, match="^Baidu AuthorizeSecurityGroupRule failed: HTTP 400"):
        SecurityGroupProvider().create(dict(GROUP_PROPS))

    replay.verify()
    assert [r.method for r in replay.requests] == ["POST", "PUT", "DELETE"]


def test_security_group_read_and_delete(credentials, replay):
    replay.expect("get_security_group", "delete_security_group")
    state = {**GROUP_PROPS, "security_group_id": GROUP, "resolved_vpc_id": VPC}

    read = SecurityGroupProvider().read(GROUP, state)
    SecurityGroupProvider().delete(GROUP, state)

    replay.verify()
    assert (read.id, read.outs["name"], read.outs["resolved_vpc_id"]) == (GROUP, "c_sg", VPC)


SSH = {"direction": "ingress", "protocol": "tcp", "portRange": "22"}


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param({"rules": [{**SSH, "sourceIp": "0.0.0.0/0"}]}, ["rules"], id="ssh-from-world"),
        pytest.param({"rules": [SSH]}, ["rules"], id="no-source-means-world"),
        pytest.param({"subnet_id": SUBNET}, ["vpc_id"], id="both-vpc-and-subnet"),
        pytest.param({"vpc_id": rpc.UNKNOWN}, [], id="unknown-vpc-in-preview"),
        pytest.param({}, [], id="cluster-rules-pass"),
    ],
)
def test_security_group_check_refuses_world_open_ingress(change, expected):
    assert failing(SecurityGroupProvider(), {**GROUP_PROPS, **change}) == expected


def test_deploy_set_create_and_read_of_a_deleted_set(credentials, replay):
    replay.expect("create_deploy_set", "get_deploy_set_not_found")
    props = {"region": "bj", "name": "c_deployset", "strategy": "HOST_HA", "concurrency": None, "description": None}

    created = DeploySetProvider().create(dict(props))
    read = DeploySetProvider().read(created.id, created.outs)

    replay.verify()
    assert created.id == "dset-y4tumnel"
    assert replay.requests[0].body == {"name": "c_deployset", "strategy": "HOST_HA"}
    assert read.id == ""
    assert failing(DeploySetProvider(), {**props, "strategy": "POD"}) == ["strategy"]


def test_ehc_cluster_create_read_delete(credentials, replay):
    replay.expect("create_ehc_cluster", "list_ehc_clusters", "delete_ehc_cluster")
    provider = EhcClusterProvider()

    created = provider.create({"region": "bj", "name": "c_ehc", "zone": "cn-bj-a"})
    read = provider.read(created.id, created.outs)
    provider.delete(created.id, created.outs)

    replay.verify()
    assert created.id == "ehc-bk4hHtvP"
    create, listing, delete = replay.requests
    assert create.body == {"name": "c_ehc", "zoneName": "cn-bj-a"}
    assert listing.body == delete.body == {"ehcClusterIdList": ["ehc-bk4hHtvP"]}
    assert (read.id, read.outs["zone"]) == ("ehc-bk4hHtvP", "cn-bj-a")


def test_keypair_import(credentials, replay):
    replay.expect("import_keypair")

    created = KeypairProvider().create({"region": "bj", "name": "c_admin", "public_key": RSA_KEY})

    replay.verify()
    assert created.id == "k-3uC6fZpB"
    assert "import" in replay.requests[0].query
    assert replay.requests[0].body == {"name": "c_admin", "publicKey": RSA_KEY}


def test_keypair_rejected_by_baidu_fails_in_one_line(credentials, replay):
    replay.expect("import_keypair_invalid")
    expected = (
        r"^Baidu ImportKeypair failed: HTTP 400 Keypair.PublicKeyFormatInvalid: "
        r"Public key format is invalid. \(request id [-0-9a-f]+\)$"
    )

    with pytest.raises(BaiduApiError, match=expected):
        KeypairProvider().create({"region": "bj", "name": "c_admin", "public_key": "ssh-rsa x"})


@pytest.mark.parametrize(
    ("public_key", "expected"),
    [
        pytest.param("ssh-ed25519 AAAAC3Nza mock", ["public_key"], id="ed25519"),
        pytest.param(RSA_KEY, [], id="rsa"),
        pytest.param(rpc.UNKNOWN, [], id="generated-key-unknown-in-preview"),
    ],
)
def test_keypair_check_refuses_ed25519_only(public_key, expected):
    news = {"region": "bj", "name": "k", "public_key": public_key}
    assert failing(KeypairProvider(), news) == expected


def test_endpoint_override_reaches_another_host(credentials, replay, monkeypatch):
    monkeypatch.setenv("BCE_BCC_ENDPOINT", "bcc.fwh.baidubce.com")
    replay.expect("create_vpc")

    VpcProvider().create(dict(VPC_PROPS))

    assert replay.requests[0].host == "bcc.fwh.baidubce.com"


def test_a_resource_refuses_an_input_its_provider_does_not_declare():
    with pytest.raises(TypeError, match=r"^Vpc: unknown input cidr_block; inputs: \('region', 'name', 'cidr'"):
        Vpc("c-vpc", {"region": "bj", "name": "c_vpc", "cidr_block": "10.0.0.0/16"})
