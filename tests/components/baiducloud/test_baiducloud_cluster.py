"""`BaiducloudGpuCluster` under Pulumi mocks: the resource tree, its inputs and outputs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from clouds.azure.mock import PRIVATE_KEY
from clouds.baiducloud.mock import baiducloud_outputs
from clouds.baiducloud.validate import validate_args
from clouds.contract import OUTPUT_NAMES
from components.baiducloud.cluster import TYPE_TOKEN, BaiducloudGpuCluster
from components.baiducloud.security import world_open_ingress
from components.registry import component_for
from tests.components.baiducloud.conftest import EXAMPLE
from tests.components.harness import by_type, one
from trainstack.plan.runner import run_plan

DYN = "pulumi-python:dynamic/baiducloud:"
INSTANCE, GROUP, KEYPAIR = f"{DYN}BccInstance", f"{DYN}SecurityGroup", f"{DYN}Keypair"
TLS_KEY = "tls:index/privateKey:PrivateKey"
UNTAGGED = {TYPE_TOKEN, f"{DYN}DeploySet", f"{DYN}EhcCluster", KEYPAIR, TLS_KEY}
RSA_KEY = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDmock admin@example"


def test_resource_tree_is_parented_and_unprotected(baidu_run, baidu_config):
    monitor, _ = baidu_run(baidu_config())
    records = monitor.records()

    assert [(r["type"], r["name"]) for r in records if r["parent"] is None] == [(TYPE_TOKEN, "c")]
    children = [r for r in records if r["parent"] is not None]
    assert {r["parent"] for r in children} == {"c"}
    assert sorted((r["type"].removeprefix(DYN), r["name"]) for r in children) == [
        ("BccInstance", "c-node-0"),
        ("BccInstance", "c-node-1"),
        ("DeploySet", "c-deployset"),
        ("EhcCluster", "c-ehc"),
        ("Keypair", "c-keypair"),
        ("SecurityGroup", "c-sg"),
        ("Subnet", "c-subnet"),
        ("Vpc", "c-vpc"),
        (TLS_KEY, "c-admin-key"),
    ]
    assert not any(r["protect"] for r in records)  # no stateful child: no file system here


def test_outputs_are_the_common_contract(baidu_run, baidu_config):
    monitor, outputs = baidu_run(baidu_config())

    registered = monitor.registered_outputs["c"]
    assert set(registered) <= set(OUTPUT_NAMES)  # None values are dropped on the wire
    assert set(OUTPUT_NAMES) - set(registered) == {
        "file_system_dns",
        "file_system_mount_name",
        "file_system_mount_command",
    }
    assert outputs["node_private_ips"] == ["10.0.0.10", "10.0.0.11"]
    assert [i.startswith("i-") for i in outputs["node_ids"]] == [True, True]
    assert outputs["placement_group"].startswith("dset-") and outputs["usd_per_hour"] == 1.0
    assert outputs["file_system_dns"] is None and outputs["file_system_mount_name"] is None
    assert outputs["ssh_private_key"] == PRIVATE_KEY


def test_nodes_join_subnet_group_deploy_set_ehc_and_keypair(baidu_run, baidu_config):
    records = baidu_run(baidu_config())[0].records()
    node = by_type(records, INSTANCE)[1]["inputs"]

    assert node["name"] == node["hostname"] == "c-node-1"
    place = (node["region"], node["zone"], node["spec"])
    assert place == ("bj", "cn-bj-a", EXAMPLE["instance_type"])

    # each node references the cluster's own subnet, group, deploy set, EHC cluster and key pair
    # (the ids the mocks gave those resources), not ids of its own making
    def id_of(kind: str, name: str) -> str:
        return baiducloud_outputs(f"{DYN}{kind}", name, {})[0]

    assert (node["subnet_id"], node["security_group_ids"]) == (
        id_of("Subnet", "c-subnet"),
        [id_of("SecurityGroup", "c-sg")],
    )
    assert (node["deploy_set_id"], node["ehc_cluster_id"]) == (
        id_of("DeploySet", "c-deployset"),
        id_of("EhcCluster", "c-ehc"),
    )
    assert node["keypair_id"] == id_of("Keypair", "c-keypair") and node["image_os"] == "Ubuntu"
    assert one(records, f"{DYN}DeploySet")["inputs"]["strategy"] == "HOST_HA"


@pytest.mark.parametrize(
    ("purchase", "bid_model"),
    [pytest.param("spot", "market", id="spot"), pytest.param("on-demand", None, id="on-demand")],
)
def test_purchase_sets_the_bid_model(baidu_run, baidu_config, purchase, bid_model):
    records = baidu_run(baidu_config(purchase=purchase))[0].records()
    assert {n["inputs"].get("bid_model") for n in by_type(records, INSTANCE)} == {bid_model}
    assert all("bid_price" not in n["inputs"] for n in by_type(records, INSTANCE))


def test_no_ehc_cluster_without_rdma(baidu_run, baidu_config):
    spec = "bcc.gn5.c32m128.4A10"  # a synthetic non-IB spec name, shaped as in §1.5
    monitor, outputs = baidu_run(
        baidu_config(interconnect="none", instance_type=spec, accelerator="A10", accelerator_count=4)
    )
    records = monitor.records()
    assert by_type(records, f"{DYN}EhcCluster") == []
    assert all("ehc_cluster_id" not in n["inputs"] for n in by_type(records, INSTANCE))
    assert outputs["ehc_cluster_id"] is None


def test_cost_tags_on_every_taggable_resource(baidu_run, baidu_config):
    records = baidu_run(baidu_config(tags={"cost:center": "ml"}))[0].records()
    for record in records:
        if record["type"] in UNTAGGED:
            continue
        assert record["inputs"]["tags"] == {
            "trainstack-cluster": "c",
            "trainstack-provider": "baiducloud",
            "cost-center": "ml",
        }, record["name"]


def test_ssh_only_from_configured_cidrs(baidu_run, baidu_config):
    config = baidu_config(ssh_cidrs=("203.0.113.0/24", "198.51.100.7/32"))
    group = one(baidu_run(config)[0].records(), GROUP)
    rules = group["inputs"]["rules"]
    assert world_open_ingress(rules) == []
    assert [(r["portRange"], r["sourceIp"]) for r in rules if r["direction"] == "ingress"] == [
        ("22", "203.0.113.0/24"),
        ("22", "198.51.100.7/32"),
    ]
    assert group["inputs"]["intra_group"] is True


def test_no_ingress_rule_without_ssh_cidrs(baidu_run, baidu_config):
    rules = one(baidu_run(baidu_config(ssh_cidrs=()))[0].records(), GROUP)["inputs"]["rules"]
    assert [r["direction"] for r in rules] == ["egress"]


def test_existing_subnet_skips_the_network(baidu_run, baidu_config):
    monitor, outputs = baidu_run(baidu_config(subnet_id="sbn-existing01"))
    records = monitor.records()
    assert by_type(records, f"{DYN}Vpc") == [] and by_type(records, f"{DYN}Subnet") == []
    group = one(records, GROUP)["inputs"]
    assert group["subnet_id"] == "sbn-existing01" and "vpc_id" not in group
    assert {n["inputs"]["subnet_id"] for n in by_type(records, INSTANCE)} == {"sbn-existing01"}
    assert outputs["subnet_id"] == "sbn-existing01"


def test_given_public_key_is_imported_and_nothing_generated(baidu_run, baidu_config):
    monitor, outputs = baidu_run(baidu_config(ssh_public_key=RSA_KEY))
    records = monitor.records()
    assert by_type(records, TLS_KEY) == []
    assert one(records, KEYPAIR)["inputs"]["public_key"] == RSA_KEY
    assert outputs["ssh_private_key"] is None


def test_generated_key_is_rsa_and_its_private_half_a_secret(baidu_run, baidu_config):
    monitor, outputs = baidu_run(baidu_config())
    key = one(monitor.records(), TLS_KEY)
    assert key["inputs"] == {"algorithm": "RSA", "rsaBits": 4096}
    assert outputs["ssh_private_key_is_secret"] is True


def test_network_does_not_depend_on_nodes_or_purchase(baidu_run, baidu_config):
    def network(config):
        kinds = {f"{DYN}{k}" for k in ("Vpc", "Subnet", "SecurityGroup", "DeploySet", "EhcCluster")}
        records = baidu_run(config)[0].records()
        return {(r["type"], r["name"]): r["inputs"] for r in records if r["type"] in kinds}

    assert network(baidu_config()) == network(baidu_config(nodes=4, purchase="on-demand"))


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        pytest.param({"provider": "aws"}, r"^provider: 'aws' given to the Baidu AI Cloud component", id="provider"),
        pytest.param(
            {"file_system": {"capacity_gib": 4800}}, r"^file_system: .*mount an existing PFS", id="file-system"
        ),
        pytest.param({"capacity_reservation_id": "r-1"}, r"^capacity_reservation_id: ", id="reservation"),
        pytest.param({"ssh_public_key": "ssh-ed25519 AAAAC3 x"}, r"^ssh_public_key: .*not ed25519", id="ed25519"),
        pytest.param({"zone": "cn-gz-a"}, r"^zone: 'cn-gz-a' is not a zone of region bj", id="zone"),
        pytest.param({"region": "cn-beijing"}, r"^region: ", id="region"),
        pytest.param({"instance_type": "p4d.24xlarge"}, r"^instance_type: 'p4d.24xlarge' is not a BCC spec", id="spec"),
        pytest.param({"accelerator_count": 4}, r"^accelerator_count: 4 but spec .* carries 8 GPUs", id="gpu-count"),
        pytest.param(
            {"instance_type": "bcc.gn5.c32m128.8A100-80g"},
            r"^interconnect: rdma needs an InfiniBand spec",
            id="rdma-without-ib",
        ),
    ],
)
def test_invalid_configs_fail_in_one_line_before_anything_is_created(baidu_run, baidu_config, overrides, message):
    config = baidu_config(**overrides)
    with pytest.raises(ValueError, match=message) as error:
        validate_args(config)
    assert "\n" not in str(error.value)
    with pytest.raises(ValueError):
        baidu_run(config)


def test_registered_as_baiducloud():
    assert component_for("baiducloud") is BaiducloudGpuCluster


def test_plan_of_a_baidu_stack_through_the_real_program(tmp_path: Path):
    shutil.copy(Path(__file__).resolve().parents[3] / "__main__.py", tmp_path / "__main__.py")
    (tmp_path / "stacks").mkdir()
    stack = {"config": {"baiducloud:region": EXAMPLE["region"], "trainstack:cluster": {**EXAMPLE, "nodes": 3}}}
    (tmp_path / "stacks" / "Pulumi.baidu.yaml").write_text(yaml.safe_dump(stack))

    plan = run_plan("baidu", tmp_path)

    assert len([r for r in plan.resources if r["type"] == INSTANCE]) == 3
    assert len(plan.outputs["node_ids"]) == 3
    assert plan.outputs["placement_group"].startswith("dset-")
    assert plan.usd_total == pytest.approx(72.0)
