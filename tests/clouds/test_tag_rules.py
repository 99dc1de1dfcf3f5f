"""Each cloud's documented tag/label limits (`clouds.tag_rules`), one refusal per rule and the
values at each limit accepted; and a malformed subnet id or a two-line SSH key refused."""

from __future__ import annotations

import pytest

from clouds.aws.validate import TAG_RULES as AWS
from clouds.azure.validate import TAG_RULES as AZURE
from clouds.config import ConfigError, parse_cluster_config
from clouds.gcp.validate import TAG_RULES as GCP
from clouds.network_fields import ssh_public_key_problem, subnet_id_problem
from clouds.tag_rules import tag_problem
from tests.clusters import BASE_CLUSTER


@pytest.mark.parametrize(
    "rules, tags, says",
    [
        pytest.param(AWS, {"aws:team": "ml"}, "key 'aws:team' starts with aws:", id="aws-prefix-key"),
        pytest.param(AWS, {"team": "AWS:ml"}, "value 'AWS:ml' starts with aws:", id="aws-prefix-value"),
        pytest.param(AWS, {f"k{i}": "v" for i in range(49)}, "49 tags; AWS allows 50", id="aws-49-tags"),
        pytest.param(AWS, {"team": "v" * 257}, "the value is 257 characters, AWS allows 256", id="aws-257-value"),
        pytest.param(AWS, {"k" * 129: "v"}, "must be 1-128 characters", id="aws-129-key"),
        pytest.param(AWS, {"": "v"}, "must be 1-128 characters", id="aws-empty-key"),
        pytest.param(AWS, {"team": "a;b"}, "value 'a;b' has a character AWS refuses", id="aws-semicolon"),
        pytest.param(AZURE, {"cost/center": "1"}, "key 'cost/center' has a character Azure refuses", id="az-slash"),
        pytest.param(AZURE, {"a<b": "1"}, "has a character Azure refuses", id="az-angle"),
        pytest.param(AZURE, {"Microsoft.x": "1"}, "starts with microsoft", id="az-prefix"),
        pytest.param(AZURE, {"team": "v" * 257}, "Azure allows 256", id="az-257-value"),
        pytest.param(AZURE, {f"k{i}": "v" for i in range(49)}, "Azure allows 50", id="az-49-tags"),
        pytest.param(GCP, {"Team": "ml"}, "key 'Team' has a character GCP refuses", id="gcp-upper-key"),
        pytest.param(GCP, {"team": "ML Research"}, "value 'ML Research' has a character GCP refuses", id="gcp-space"),
        pytest.param(GCP, {"1team": "ml"}, "key '1team' has a character", id="gcp-digit-first"),
        pytest.param(GCP, {"team": "v" * 64}, "GCP allows 63", id="gcp-64-value"),
        pytest.param(GCP, {"Équipe": "ml"}, "key 'Équipe' has a character GCP refuses", id="gcp-upper-international"),
        pytest.param(GCP, {"team": "Données"}, "value 'Données' has a character GCP", id="gcp-upper-intl-value"),
        pytest.param(GCP, {f"k{i}": "v" for i in range(63)}, "GCP allows 64", id="gcp-63-labels"),
    ],
)
def test_a_tag_the_cloud_refuses_is_one_line(rules, tags, says):
    problem = tag_problem(rules, tags)
    assert problem is not None and says in problem and "\n" not in problem


@pytest.mark.parametrize(
    "rules, tags",
    [
        pytest.param(AWS, {**{f"k{i}": "v" for i in range(47)}, "k" * 128: "v" * 256}, id="aws-limits"),
        pytest.param(AWS, {"Cost Center": "team/ml:a+b=c@d_e.f-g", "équipe": "données"}, id="aws-chars"),
        pytest.param(AZURE, {"Cost Center": "a&b%c<d", "k" * 128: "v" * 256}, id="azure"),
        pytest.param(GCP, {"team": "ml-research_1", "k" * 63: "v" * 63, "empty": ""}, id="gcp"),
        pytest.param(GCP, {"équipe": "données", "ключ": "значение", "項目": "研究"}, id="gcp-international"),
    ],
)
def test_tags_at_the_limits_pass(rules, tags):
    assert tag_problem(rules, tags) is None


BASE = {
    "provider": "aws",
    "region": "us-east-1",
    "zone": "use1-az1",
    "instance_type": "p4d.24xlarge",
    "accelerator": "A100",
    "accelerator_count": 8,
    "nodes": 2,
    "purchase": "on-demand",
    "hours": 1,
}
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@host"


@pytest.mark.parametrize(
    "changes, says",
    [
        pytest.param({"subnet_id": "subnet-xyz; rm -rf /"}, "subnet_id: 'subnet-xyz; rm -rf /' is not", id="aws"),
        pytest.param({"subnet_id": "sg-0123"}, "is not an AWS subnet id", id="aws-not-a-subnet"),
        pytest.param(
            {"ssh_public_key": KEY + "\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ x"}, "more than one line", id="2"
        ),
        pytest.param({"ssh_public_key": "hello"}, "not an OpenSSH public key line", id="not-a-key"),
    ],
)
def test_a_malformed_subnet_or_key_is_one_line(changes, says):
    with pytest.raises(ConfigError, match=says.replace("(", r"\(").replace(";", ";")):
        parse_cluster_config({**BASE, **changes})


def test_well_formed_subnets_and_keys_pass():
    assert subnet_id_problem("aws", "subnet-0123456789abcdef0") is None
    assert subnet_id_problem("baiducloud", "sbn-q3rd8w1mzx6c") is None
    assert subnet_id_problem("huaweicloud", "7c1a0c3e-5a5b-4c9f-9a63-3d8a1d1f2e4b") is None
    assert "is not a Huawei" in (subnet_id_problem("huaweicloud", "subnet-1") or "")
    azure = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet/subnets/n"
    assert subnet_id_problem("azure", azure) is None
    assert ssh_public_key_problem(KEY + "\n") is None  # a block scalar's final newline
    assert ssh_public_key_problem("ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY=") is None


@pytest.mark.parametrize(
    ("key", "refused"),
    [
        pytest.param("trainstack:cluster", True, id="own-cluster-tag"),
        pytest.param("trainstack-provider", True, id="own-provider-as-gcp-labels-it"),
        pytest.param("Trainstack_Cluster", True, id="own-in-another-spelling"),
        pytest.param("trainstack:team", False, id="another-trainstack-key"),
        pytest.param("cluster", False, id="plain"),
    ],
)
def test_a_stack_tag_may_not_replace_trainstacks_own(key, refused):
    """The stack's tags come last (`clouds.common.cluster_tags`): `trainstack:cluster: x` replaced
    the cluster's own tag, and `run` (Run Command targets) and `status` (tag filters) then found no
    node."""
    if not refused:
        parse_cluster_config({**BASE_CLUSTER, "tags": {key: "x"}})
        return
    with pytest.raises(ConfigError) as err:
        parse_cluster_config({**BASE_CLUSTER, "tags": {key: "x"}})
    assert f"tags: {key!r} is trainstack's own tag" in str(err.value) and "\n" not in str(err.value)
