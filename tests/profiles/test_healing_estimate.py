"""The spot estimate's restart time is what each cloud's cluster does (clouds.healing)."""

import pytest

from clouds.contract import ClusterConfig
from clouds.healing import GROUP_RESTART_HOURS, HEALING, MANUAL_RESTART_HOURS, healing
from clouds.registry import NAMES
from profiles.cost.inputs import restart_hours


def test_every_registered_cloud_has_an_answer():
    assert set(HEALING) == set(NAMES)


@pytest.mark.parametrize(
    ("provider", "hours", "replaced"),
    [
        pytest.param("aws", GROUP_RESTART_HOURS, True, id="aws-group"),
        pytest.param("azure", GROUP_RESTART_HOURS, True, id="azure-scale-set"),
        pytest.param("gcp", GROUP_RESTART_HOURS, True, id="gcp-instance-group"),
        pytest.param("alicloud", MANUAL_RESTART_HOURS, False, id="alicloud-manual"),
        pytest.param("baiducloud", MANUAL_RESTART_HOURS, False, id="baidu-manual"),
    ],
)
def test_restart_hours_follow_self_healing(provider, hours, replaced):
    assert restart_hours(provider) == hours
    assert healing(provider).replaces_nodes is replaced
    summary = healing(provider).summary
    assert ("not replaced automatically" in summary) is not replaced and "unsourced" in summary
    assert MANUAL_RESTART_HOURS > GROUP_RESTART_HOURS


def test_job_refused_where_no_node_agent_ships():
    base = dict(
        region="r",
        zone="z",
        instance_type="t",
        accelerator="A100",
        accelerator_count=8,
        nodes=2,
        purchase="on-demand",
        hours=1,
        file_system={"capacity_gib": 1200},
        job={"command": "/fsx/t.py"},
    )
    assert ClusterConfig(provider="aws", **base).job.argv == ("/fsx/t.py",)
    with pytest.raises(ValueError, match="job: the gcp component does not run a job yet"):
        ClusterConfig(provider="gcp", **base)


def test_a_job_keeps_only_clouds_whose_nodes_run_it(real_catalog):
    from profiles.resolver import NoMatchError, resolve
    from profiles.spec import parse_spec

    spec = {
        "accelerators": "H100:8",
        "nodes": 2,
        "interconnect": "rdma",
        "purchase": "on-demand",
        "hours": 10,
        "file_system": {"capacity": "4800GiB", "throughput": 250},
        "job": {"command": "/fsx/train.py"},
    }
    resolution = resolve(parse_spec({**spec, "providers": ["gcp", "aws"]}), real_catalog.offerings, top=50)
    assert {r.candidate.offering.provider for r in (resolution.choice, *resolution.alternatives)} == {"aws"}
    with pytest.raises(NoMatchError, match="'job' removed the last"):
        resolve(parse_spec({**spec, "providers": ["gcp"]}), real_catalog.offerings)
