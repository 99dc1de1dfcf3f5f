"""The provider-neutral cluster contract refuses what no component should build."""

from pathlib import Path

import pytest
import yaml

from clouds.config import ConfigError, parse_cluster_config
from clouds.contract import ClusterConfig
from tests.cases import cases
from tests.clusters import BASE_CLUSTER

HUAWEI_STACK = Path(__file__).resolve().parents[2] / "stacks" / "Pulumi.training-a100-huaweicloud.yaml"


@pytest.mark.parametrize("cidr", ["0.0.0.0/0", "1.2.3.4/0", "0.0.0.0/1", "128.0.0.0/1", "::/0"])
def test_ssh_from_the_internet_is_refused_however_written(cidr):
    with pytest.raises(ValueError, match=rf"ssh_cidrs: {cidr} opens SSH to the whole internet"):
        ClusterConfig(**{**BASE_CLUSTER, "ssh_cidrs": [cidr]})


def test_office_cidrs_are_accepted():
    config = ClusterConfig(**{**BASE_CLUSTER, "ssh_cidrs": ["203.0.113.0/24", "10.0.0.0/8"]})
    assert config.ssh_cidrs == ("203.0.113.0/24", "10.0.0.0/8")


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("nodes", True, "nodes: expected a number, got true"),
        ("hours", float("inf"), "hours"),
        ("usd_per_hour", float("nan"), "usd_per_hour"),
    ],
)
def test_yes_no_and_non_finite_numbers_are_refused(key, value, message):
    with pytest.raises(ValueError, match=message):
        ClusterConfig(**{**BASE_CLUSTER, key: value})


def test_prepaid_capacity_may_cost_nothing():
    assert ClusterConfig(**{**BASE_CLUSTER, "usd_per_hour": 0}).usd_per_hour == 0


def test_a_single_ssh_cidr_string_is_a_one_item_list():
    assert ClusterConfig(**{**BASE_CLUSTER, "ssh_cidrs": "203.0.113.0/24"}).ssh_cidrs == ("203.0.113.0/24",)


def test_kms_key_id_is_optional():
    assert ClusterConfig(**BASE_CLUSTER).kms_key_id is None


def test_an_empty_kms_key_id_is_refused():
    with pytest.raises(ValueError, match="kms_key_id"):
        ClusterConfig(**{**BASE_CLUSTER, "kms_key_id": ""})
    with pytest.raises(ConfigError, match=r"^trainstack:cluster\.kms_key_id: empty: the KMS key id"):
        parse_cluster_config({**BASE_CLUSTER, "kms_key_id": ""})
    with pytest.raises(
        ConfigError,
        match=r"^trainstack:cluster\.kms_key_id: '  ' cannot be used as the KMS key id.*: write one word with no spaces",
    ):
        parse_cluster_config({**BASE_CLUSTER, "kms_key_id": "  "})


def test_a_stack_file_sets_kms_key_id_under_trainstack_cluster():
    stack = yaml.safe_load(HUAWEI_STACK.read_text())
    cluster = {**stack["config"]["trainstack:cluster"], "kms_key_id": "0d0466b0-0000-4000-8000-00000000cafe"}
    assert parse_cluster_config(cluster).kms_key_id == "0d0466b0-0000-4000-8000-00000000cafe"


def test_spot_with_a_reserved_term_is_refused():
    with pytest.raises(
        ConfigError,
        match=r"commitment: a 1y reserved term covers on-demand capacity, not spot; "
        r"set commitment: none or purchase: on-demand",
    ):
        parse_cluster_config({**BASE_CLUSTER, "purchase": "spot", "commitment": "1y"})
    assert ClusterConfig(**{**BASE_CLUSTER, "purchase": "on-demand", "commitment": "1y"}).commitment == "1y"


@pytest.mark.parametrize(
    ("change", "says"),
    [
        pytest.param(
            {"nodes": 0},
            "trainstack:cluster.nodes: 0 is too small: the number of nodes must be at least 1",
            id="nodes-0",
        ),
        pytest.param(
            {"purchase": "spott"}, "'spott' is not a valid purchase option (did you mean spot?)", id="purchase"
        ),
        pytest.param({"nodess": 2}, "trainstack:cluster.nodess: unknown key; valid keys:", id="unknown-key"),
        pytest.param({"hours": 30_000}, "trainstack:cluster.hours: 30000 is too large", id="hours-absurd"),
        pytest.param(
            {"file_system": {"capacity_gib": 107_374_182_400}},
            "more than any cloud's largest file system",
            id="capacity-absurd",
        ),
    ],
)
def test_cluster_errors_say_the_meaning_and_the_fix(change, says):
    from clouds.config import parse_cluster_config
    from tests.clusters import BASE_CLUSTER

    with pytest.raises(ConfigError) as err:
        parse_cluster_config({**BASE_CLUSTER, **change})
    assert says in str(err.value)
    assert not any(raw in str(err.value) for raw in ("Input should", "Extra inputs", "String should"))


@pytest.mark.parametrize(("cidr", "message"), cases("ssh_cidr_refusals.yaml", "cidr", "says"))
def test_an_ssh_cidr_not_written_as_an_ipv4_network_is_refused_with_the_fix(cidr, message):
    with pytest.raises(ConfigError) as err:
        parse_cluster_config({**BASE_CLUSTER, "ssh_cidrs": [cidr]})
    assert "ssh_cidrs: " in str(err.value) and message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize(("job", "purchase", "message"), cases("checkpoint_places.yaml", "job", "purchase", "says"))
def test_a_jobs_checkpoints_must_outlive_a_replaced_node(job, purchase, message):
    cluster = {**BASE_CLUSTER, "purchase": purchase, "job": {"command": "/fsx/train.py", **job}}
    if message is None:
        assert ClusterConfig(**cluster).job is not None
        return
    with pytest.raises(ConfigError) as err:
        parse_cluster_config(cluster)
    assert message in str(err.value) and "job.checkpoint_dir: /fsx/checkpoints" in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("written", ["reserved-1y", "Reserved-3y"])
def test_resolves_purchase_column_for_a_term_names_the_stack_keys(written):
    # resolve's table shows a row priced under a term as `reserved-1y`; a stack edited to it by
    # hand is told the two keys that say it (it said "write one of spot, on-demand")
    term = written.lower().removeprefix("reserved-")
    with pytest.raises(ValueError) as caught:
        ClusterConfig(**{**BASE_CLUSTER, "purchase": written})
    assert (
        f"purchase: '{written}' is how resolve names on-demand nodes priced under a {term} commitment; "
        f"write purchase: on-demand and commitment: {term}"
    ) in str(caught.value)
    fixed = ClusterConfig(**{**BASE_CLUSTER, "purchase": "on-demand", "commitment": term})
    assert (fixed.purchase, fixed.commitment) == ("on-demand", term)
