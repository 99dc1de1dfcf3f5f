"""The OSS <-> CPFS data flow and the nodes' bucket-scoped RAM role, under mocks and as pure rules."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from clouds.alicloud.data import bucket_problem, flow_throughput, node_ram_policy, split_uri
from clouds.alicloud.mock import alicloud_id
from clouds.contract import ClusterConfig
from tests.components.alicloud.alicloud_harness import EXAMPLE, build, make_config

SOURCE = "oss://team-datasets/imagenet/train"
DATA = {"source": SOURCE, "size_gib": 800, "files": 600_000}
FS_ID = alicloud_id("alicloud:nas/fileSystem:FileSystem", "c-cpfs")


def test_data_flow_links_a_protected_fileset_to_the_whole_bucket():
    plan = build(make_config(data=DATA))
    fileset = plan.named("c-fileset")
    assert (fileset["type"], fileset["protect"]) == ("alicloud:nas/fileset:Fileset", True)
    assert fileset["inputs"]["fileSystemId"] == FS_ID and fileset["inputs"]["fileSystemPath"] == "/data/"
    assert fileset["inputs"]["deletionProtection"] is True
    flow = plan.named("c-data-flow")["inputs"]
    # 3,600 GiB x 200 MB/s per TiB = 703 MB/s: the 600 MB/s spec is the one below it
    assert flow == {
        "fileSystemId": FS_ID,
        "fsetId": alicloud_id("alicloud:nas/fileset:Fileset", "c-fileset"),
        "sourceStorage": "oss://team-datasets",
        "sourceSecurityType": "SSL",
        "throughput": 600,
        "description": "c dataset oss://team-datasets",
    }
    assert [r["name"] for r in plan.records if r["protect"]] == ["c-cpfs", "c-fileset"]
    assert plan.registered_outputs["data_commands"] == []


@pytest.mark.parametrize(
    ("write_back", "writes"),
    [pytest.param(False, [], id="read-only"), pytest.param(True, ["PutObject"], id="write-back")],
)
def test_node_role_reads_the_prefix_and_writes_it_only_with_write_back(write_back, writes):
    plan = build(make_config(data={**DATA, "write_back": write_back}))
    trust = json.loads(plan.named("c-node-role")["inputs"]["assumeRolePolicyDocument"])
    assert trust["Statement"][0]["Principal"] == {"Service": ["ecs.aliyuncs.com"]}
    policy = json.loads(plan.named("c-node-bucket")["inputs"]["policyDocument"])
    resources = [s["Resource"] for s in policy["Statement"]]
    assert resources[:2] == [["acs:oss:*:*:team-datasets"], ["acs:oss:*:*:team-datasets/imagenet/train/*"]]
    assert policy["Statement"][0]["Condition"] == {"StringLike": {"oss:Prefix": ["imagenet/train/*"]}}
    actions = [a for s in policy["Statement"] for a in s["Action"]]
    assert [a.removeprefix("oss:") for a in actions if "Put" in a] == writes
    assert not any("Delete" in a for a in actions)
    attachment = plan.named("c-node-bucket-attachment")["inputs"]
    assert (attachment["policyType"], attachment["roleName"]) == ("Custom", "c-node-role")
    # Every node the ESS group creates gets the role from the scaling configuration.
    (configuration,) = plan.of_type("alicloud:ess/scalingConfiguration:ScalingConfiguration")
    assert configuration["inputs"]["roleName"] == "c-node-role"


def test_write_back_exports_with_a_data_flow_task_command():
    plan = build(make_config(data={**DATA, "write_back": True}))
    flow_id = alicloud_id("alicloud:nas/dataFlow:DataFlow", "c-data-flow")
    assert plan.registered_outputs["data_commands"] == [
        f"aliyun nas CreateDataFlowTask --FileSystemId {FS_ID} --DataFlowId {flow_id} "
        "--TaskAction Export --DataType MetaAndData --Directory /data/imagenet/train/"
    ]


def test_no_link_and_no_role_without_data():
    plan = build(make_config())
    types = {r["type"] for r in plan.records}
    assert not types & {"alicloud:nas/dataFlow:DataFlow", "alicloud:ram/role:Role", "alicloud:nas/fileset:Fileset"}
    (configuration,) = plan.of_type("alicloud:ess/scalingConfiguration:ScalingConfiguration")
    assert "roleName" not in configuration["inputs"]


@pytest.mark.parametrize(
    ("capacity", "tier", "expected"),
    [
        pytest.param(3600, 200, 600, id="703MBps"),  # 3.515625 TiB x 200 = 703.1 MB/s > 600
        pytest.param(9000, 200, 600, id="1758MBps-still-the-cheapest"),  # 8.79 TiB x 200 = 1,757.8
        pytest.param(6145, 100, 600, id="just-above-600"),  # 6.0010 TiB x 100 = 600.1
    ],
)
def test_flow_throughput_is_the_smallest_spec_below_the_file_system(capacity, tier, expected):
    assert flow_throughput(capacity, tier) == expected


def test_a_file_system_at_600_MBps_is_too_slow_for_any_flow():
    # 6,144 GiB = 6 TiB x 100 MB/s per TiB = 600 MB/s: not below the smallest spec
    with pytest.raises(ValueError, match=r"gives 600 MB/s.*set capacity_gib above 6,144"):
        flow_throughput(6144, 100)


def test_stack_refuses_a_file_system_too_slow_for_a_data_flow():
    # 3,600 GiB = 3.515625 TiB x 100 MB/s per TiB = 351.6 MB/s, below the 600 MB/s spec
    slow = {"capacity_gib": 3600, "throughput_mbps_per_tib": 100}
    with pytest.raises(ValidationError, match=r"3,600 GiB CPFS at 100 MB/s per TiB gives 352 MB/s"):
        ClusterConfig(**{**EXAMPLE, "data": DATA, "file_system": slow})


def test_resolver_drops_a_row_whose_file_system_cannot_carry_the_flow():
    from profiles.catalog.loader import load_catalog
    from profiles.explain import NoMatchError
    from profiles.resolver import resolve
    from profiles.spec import parse_spec

    spec = {
        "name": "x",
        "accelerators": ["A100-80GB:8"],
        "providers": ["alicloud"],
        "hours": "10h",
        "data": {"source": SOURCE, "size": "800GiB"},
        "file_system": {"capacity": "3600GiB", "throughput": 100},
    }
    with pytest.raises(NoMatchError, match=r"data flow needs more.*set capacity above 6,144 or throughput: 200"):
        resolve(parse_spec(spec), load_catalog().offerings)
    fast = resolve(
        parse_spec({**spec, "file_system": {"capacity": "3600GiB", "throughput": 200}}), load_catalog().offerings
    )
    assert fast.choice.candidate.offering.provider == "alicloud"


def test_more_files_than_a_fileset_holds_is_refused():
    with pytest.raises(ValidationError, match=r"data.files: 1,280,000 files exceed the 1,000,000 a CPFS Fileset"):
        ClusterConfig(**{**EXAMPLE, "data": {**DATA, "files": 1_280_000}})


@pytest.mark.parametrize(
    ("found", "message"),
    [
        pytest.param([], "no OSS bucket 'b1-data'", id="missing"),
        pytest.param(
            [{"name": "b1-data", "location": "oss-cn-hangzhou", "tags": {"cpfs-dataflow": "true"}}],
            r"is in oss-cn-hangzhou.*\(cn-beijing\)",
            id="other-region",
        ),
        pytest.param(
            [{"name": "b1-data", "location": "oss-cn-beijing", "tags": {"team": "ml"}}],
            "lacks the tag cpfs-dataflow=true",
            id="untagged",
        ),
        pytest.param(
            [{"name": "b1-data", "location": "oss-cn-beijing", "tags": {"cpfs-dataflow": "true"}}], None, id="ok"
        ),
    ],
)
def test_bucket_problem(found, message):
    problem = bucket_problem("b1-data", "cn-beijing", found)
    if message is None:
        assert problem is None
    else:
        assert problem is not None and __import__("re").search(message, problem)


def test_oss_uri_and_whole_bucket_policy():
    assert split_uri("oss://team-data") == ("team-data", "")
    with pytest.raises(ValueError, match="is not an OSS URI"):
        split_uri("oss://Team_Data/x")
    policy = node_ram_policy("team-data", "", False)
    assert "Condition" not in policy["Statement"][0]
    assert policy["Statement"][1]["Resource"] == ["acs:oss:*:*:team-data/*"]


def test_an_oss_dataset_without_a_file_system_gets_a_cpfs_at_alibabas_nearest_tier():
    from profiles.catalog.loader import load_catalog
    from profiles.data_path.terms import tier_for
    from profiles.resolver import resolve
    from profiles.spec import parse_spec
    from profiles.stack.writer import cluster_config

    base = {"name": "x", "accelerators": ["A100-80GB:8"], "providers": ["alicloud"], "hours": "10h"}
    spec = parse_spec({**base, "data": {"source": SOURCE, "size": "3TiB", "files": "600k"}})
    assert spec.file_system is not None
    # CPFS sells 100 and 200 MB/s per TiB; the unstated default (250) becomes the nearest, 200
    assert tier_for("alicloud", spec.file_system) == 200 and tier_for("aws", spec.file_system) == 250
    choice = resolve(spec, load_catalog().offerings).choice.candidate
    config = cluster_config(spec, choice, "v")
    # (3,072 GiB of data) x 1.25 headroom = 3,840 GiB; x 200 MB/s per TiB = 750 MB/s > the 600 MB/s flow
    assert config.file_system is not None
    assert (config.file_system.capacity_gib, config.file_system.throughput_mbps_per_tib) == (3840, 200)
    stated = parse_spec(
        {**base, "data": {"source": SOURCE, "size": "3TiB"}, "file_system": {"capacity": "3840GiB", "throughput": 250}}
    )
    assert stated.file_system is not None and tier_for("alicloud", stated.file_system) == 250  # asked: kept


@pytest.mark.parametrize(
    ("size", "files", "written"),
    [
        # (2,048 GiB) x 1.25 = 2,560 GiB: 500 MB/s at 200 MB/s per TiB, below the 600 MB/s flow;
        # raised to the smallest CPFS above it: floor(600 x 1024 / 200) + 1 = 3,073 GiB
        pytest.param("2TiB", "900k", 3073, id="raised"),
        # (3,072 GiB) x 1.25 = 3,840 GiB already carries the flow: kept
        pytest.param("3TiB", "600k", 3840, id="kept"),
    ],
)
def test_a_data_sized_cpfs_is_never_refused_for_the_size_trainstack_picked(size, files, written):
    from clouds.alicloud.data import flow_throughput
    from profiles.catalog.loader import load_catalog
    from profiles.resolver import resolve
    from profiles.spec import parse_spec
    from profiles.stack.writer import cluster_config

    base = {"name": "x", "accelerators": ["A100-80GB:8"], "providers": ["alicloud"], "hours": "24h", "nodes": 2}
    spec = parse_spec({**base, "interconnect": "rdma", "data": {"source": SOURCE, "size": size, "files": files}})
    choice = resolve(spec, load_catalog().offerings).choice.candidate
    config = cluster_config(spec, choice, "v")
    assert config.file_system is not None and config.file_system.capacity_gib == written
    assert flow_throughput(written, 200) == 600  # the component accepts it
    raised = [n for n in choice.notes if n.startswith("data: file system sized up from 2,560 to 3,073 GiB")]
    assert len(raised) == (written == 3073)


def test_a_stated_cpfs_too_small_for_the_flow_names_the_size_and_a_true_fix():
    from profiles.catalog.loader import load_catalog
    from profiles.explain import NoMatchError
    from profiles.resolver import resolve
    from profiles.spec import parse_spec

    spec = parse_spec(
        {
            "name": "x",
            "accelerators": ["A100-80GB:8"],
            "providers": ["alicloud"],
            "hours": "24h",
            "data": {"source": SOURCE, "size": "2TiB"},
            "file_system": {"capacity": "2560GiB"},
        }
    )
    with pytest.raises(NoMatchError) as err:
        resolve(spec, load_catalog().offerings)
    text = str(err.value)
    assert "a 2,560 GiB CPFS at 200 MB/s per TiB gives 500 MB/s" in text and "set capacity above 3,072" in text
    assert "throughput: 200" not in text  # 200 is the fastest CPFS tier: no fix
    assert "to fix: where the cloud holding the bucket is allowed, the change named above" in text
