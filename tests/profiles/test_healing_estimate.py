"""The spot estimate's restart time is what each cloud's cluster does (clouds.healing)."""

import pytest

from clouds.contract import ClusterConfig
from clouds.healing import GROUP_RESTART_HOURS, HEALING, MANUAL_RESTART_HOURS, healing, job_problem, spot_healing
from clouds.registry import NAMES
from profiles.cost.inputs import restart_hours
from tests.cases import cases


def test_every_registered_cloud_has_an_answer():
    assert set(HEALING) == set(NAMES)


@pytest.mark.parametrize(
    ("provider", "hours", "replaced"),
    [
        pytest.param("aws", GROUP_RESTART_HOURS, True, id="aws-group"),
        pytest.param("azure", GROUP_RESTART_HOURS, True, id="azure-scale-set"),
        pytest.param("gcp", GROUP_RESTART_HOURS, True, id="gcp-instance-group"),
        pytest.param("baiducloud", MANUAL_RESTART_HOURS, False, id="baidu-manual"),
    ],
)
def test_restart_hours_follow_self_healing(provider, hours, replaced):
    assert restart_hours(provider) == hours
    assert healing(provider).replaces_nodes is replaced
    summary = healing(provider).summary
    assert ("not replaced automatically" in summary) is not replaced and "unsourced" in summary
    assert MANUAL_RESTART_HOURS > GROUP_RESTART_HOURS


def test_alibaba_group_replaces_the_node_but_the_job_restart_stays_manual():
    entry = healing("alicloud", "ecs.ebmgn7ex.32xlarge")
    assert (entry.replaces_nodes, entry.runs_job) == (True, False)
    # The node comes back by itself, the job does not: a person restarts it (no node agent).
    assert restart_hours("alicloud", "ecs.gn7e-c16g1.32xlarge") == restart_hours("alicloud") == MANUAL_RESTART_HOURS
    assert "ESS scaling group" in entry.summary and "spot instance remedy" in entry.summary
    assert "restart it by hand (manual restart, unsourced 2 h)" in entry.summary
    assert "not replaced automatically" not in entry.summary


@pytest.mark.parametrize(
    ("provider", "instance_type", "replaced", "words"),
    [
        pytest.param("tencentcloud", "GT4.41XLARGE948", True, "Auto Scaling group of fixed size", id="tencent-group"),
        pytest.param("tencentcloud", "HCCPNV4h.48XLARGE1024", False, "takes no HPC cluster", id="tencent-hcc"),
        pytest.param("huaweicloud", "p3.16xlarge.8", False, "no spot charging mode", id="huawei-spot"),
    ],
)
def test_spot_note_says_whether_the_group_holds_the_nodes(provider, instance_type, replaced, words):
    """What `resolve` adds to a spot pick's estimate (`spot_healing`): the group, or why the nodes
    are per-node instances; the restart is manual either way (no node agent on these clouds)."""
    entry = spot_healing(provider, instance_type)
    assert entry.replaces_nodes is replaced and words in entry.summary
    assert ("not replaced automatically" in entry.summary) is not replaced
    assert restart_hours(provider, instance_type) == MANUAL_RESTART_HOURS


# 2 x 8 A100 on-demand with a file system and a job (region and zone are not checked here).
NODES = {"accelerator": "A100", "accelerator_count": 8, "nodes": 2, "purchase": "on-demand", "hours": 1}
JOB_BASE = {"region": "r", "zone": "z", **NODES, "file_system": {"capacity_gib": 1200}, "job": {"command": "/fsx/t.py"}}


@pytest.mark.parametrize(("provider", "instance_type"), cases("job_accepted.yaml", "provider", "instance_type"))
def test_job_accepted_where_the_node_agent_ships(provider, instance_type):
    config = ClusterConfig(provider=provider, instance_type=instance_type, **JOB_BASE)
    assert config.job.argv == ("/fsx/t.py",)
    assert job_problem(provider, instance_type) is None


@pytest.mark.parametrize(
    ("provider", "instance_type", "message"),
    [
        pytest.param("gcp", "tpu-v5p-8", "job: tpu-v5p-8 on gcp: TPU slices get no node bootstrap yet", id="gcp-tpu"),
        pytest.param(
            "alicloud", "ecs.gn7-c12g1.3xlarge", "job: the alicloud component does not run a job yet", id="ali"
        ),
        pytest.param("baiducloud", "bcc.lgn5.c96m512.8h800", "job: the baiducloud component", id="baidu"),
    ],
)
def test_job_refused_where_no_node_agent_ships(provider, instance_type, message):
    with pytest.raises(ValueError, match=message):
        ClusterConfig(provider=provider, instance_type=instance_type, **JOB_BASE)
    assert job_problem(provider, instance_type).startswith(message)


def test_a_job_keeps_only_clouds_whose_nodes_run_it(real_catalog):
    from profiles.resolver import NoMatchError, resolve
    from profiles.spec import parse_spec

    spec = {
        "accelerators": "A100:8",
        "nodes": 2,
        "purchase": "on-demand",
        "hours": 10,
        "file_system": {"capacity": "4800GiB", "throughput": 250},
        "job": {"command": "/fsx/train.py"},
    }
    clouds = ["gcp", "aws", "azure", "alicloud", "tencentcloud"]
    resolution = resolve(parse_spec({**spec, "providers": clouds}), real_catalog.offerings, top=200)
    kept = {r.candidate.offering.provider for r in (resolution.choice, *resolution.alternatives)}
    assert kept <= {"aws", "azure", "gcp"} and "aws" in kept
    without = resolve(
        parse_spec({**{k: v for k, v in spec.items() if k != "job"}, "providers": clouds}),
        real_catalog.offerings,
        top=200,
    )
    assert {r.candidate.offering.provider for r in (without.choice, *without.alternatives)} - {"aws", "azure", "gcp"}
    with pytest.raises(NoMatchError, match="'job' removed the last"):
        resolve(parse_spec({**spec, "providers": ["alicloud", "tencentcloud"]}), real_catalog.offerings)


def test_a_type_the_group_does_not_hold_gets_the_manual_answer():
    assert restart_hours("gcp", "a3-highgpu-8g") == GROUP_RESTART_HOURS
    assert "not replaced automatically on gcp tpu-v5p-8" in healing("gcp", "tpu-v5p-8").summary
    assert healing("gcp", "tpu-v5p-8").restart_hours == MANUAL_RESTART_HOURS  # TPU VMs in the stack
    assert restart_hours("aws", "p4d.24xlarge") == GROUP_RESTART_HOURS


def test_tpu_slices_requested_as_queued_resources_are_re_requested():
    queued = healing("gcp", "tpu-v5p-8", queued_resource=True)
    assert queued.replaces_nodes and not queued.runs_job
    # the slice comes back by itself, training on it does not: the manual restart counts (U3)
    assert queued.restart_hours == MANUAL_RESTART_HOURS == 2.0
    assert "re-requests" in queued.summary and "manual restart, unsourced 2 h" in queued.summary
    # a spot TPU pick is written with queued_resource: true, restarted by hand all the same
    assert restart_hours("gcp", "tpu-v5p-8") == MANUAL_RESTART_HOURS
    assert healing("gcp", "a3-highgpu-8g", queued_resource=True).restart_hours == GROUP_RESTART_HOURS


def test_a_spot_tpu_pick_is_written_with_queued_resources(real_catalog):
    from profiles.resolver import resolve
    from profiles.spec import parse_spec
    from profiles.stack.writer import cluster_config

    spec = {
        "accelerators": "tpu-v5p:16",
        "nodes": 1,
        "hours": 24,
        "providers": ["gcp"],
        "file_system": {"capacity": "1TiB"},
    }
    spot_spec = parse_spec({**spec, "purchase": "spot", "spot": {"checkpoint_interval": "30m"}})
    spot = resolve(spot_spec, real_catalog.offerings)
    config = cluster_config(spot_spec, spot.choice.candidate, "v")
    assert config.queued_resource is True and config.purchase == "spot"
    assert "controller VM deletes and re-requests" in " ".join(spot.choice.candidate.notes)
    on_demand = resolve(parse_spec({**spec, "purchase": "on-demand"}), real_catalog.offerings)
    config = cluster_config(parse_spec({**spec, "purchase": "on-demand"}), on_demand.choice.candidate, "v")
    assert config.queued_resource is False and "queued_resource" not in config.model_fields_set


def test_more_processes_than_gpus_is_refused_with_the_fix():
    with pytest.raises(ValueError, match=r"job.nproc_per_node: 16 processes on p4d.24xlarge, which has 8 .*at most 8"):
        ClusterConfig(
            provider="aws",
            instance_type="p4d.24xlarge",
            **{**JOB_BASE, "job": {"command": "/t.py", "nproc_per_node": 16}},
        )
    config = ClusterConfig(
        provider="aws", instance_type="p4d.24xlarge", **{**JOB_BASE, "job": {"command": "/t.py", "nproc_per_node": 8}}
    )
    assert config.job.nproc_per_node == 8  # one per GPU is fine, fewer too
    assert job_problem("aws", "p4d.24xlarge", 4, 8) is None


def test_resolve_leaves_out_nodes_with_fewer_gpus_than_the_job_runs_processes(real_catalog):
    from profiles.resolver import NoMatchError, resolve
    from profiles.spec import parse_spec

    spec = {
        "accelerators": "A100",
        "nodes": 2,
        "purchase": "on-demand",
        "hours": 10,
        "providers": ["aws"],
        "file_system": {"capacity": "4800GiB", "throughput": 250},
        "job": {"command": "/fsx/train.py", "nproc_per_node": 8},
    }
    resolution = resolve(parse_spec(spec), real_catalog.offerings, top=100)
    rows = [r.candidate.offering for r in (resolution.choice, *resolution.alternatives)]
    assert rows and all(o.accelerator_count >= 8 for o in rows)
    with pytest.raises(NoMatchError, match="job.nproc_per_node: 16 processes"):
        resolve(parse_spec({**spec, "job": {"command": "/fsx/train.py", "nproc_per_node": 16}}), real_catalog.offerings)


SPOT_WORDS = ("spot", "evict", "preempt", "reclaim")


@pytest.mark.parametrize("provider", sorted(NAMES))
def test_an_on_demand_clusters_healing_line_never_speaks_of_spot(provider):
    """plan's healing line for an on-demand cluster says what the group does for it (U14:
    Azure's said "restores evicted spot VMs", GCP's "a preempted spot VM")."""
    summary = healing(provider, "", False, "on-demand").summary
    what_it_does = summary.split("; ")[0]  # Baidu's hint after it names its SDK's spot bids
    assert not any(word in what_it_does.lower() for word in SPOT_WORDS), summary
    assert "unsourced" in summary


@pytest.mark.parametrize(
    ("provider", "spot_says", "on_demand_says"),
    [
        pytest.param("azure", "restores evicted spot VMs", "automatic repairs replace a VM", id="azure"),
        pytest.param("gcp", "a preempted spot VM is deleted", "a VM that stops or fails its health check", id="gcp"),
        pytest.param("alicloud", "spot instance remedy", "a lost node is replaced automatically", id="alicloud"),
    ],
)
def test_the_healing_line_follows_the_purchase_option(provider, spot_says, on_demand_says):
    assert spot_says in healing(provider, "", False, "spot").summary
    assert on_demand_says in healing(provider, "", False, "on-demand").summary
    assert healing(provider, "", False, "on-demand").restart_hours == healing(provider, "", False, "spot").restart_hours


def _answers():
    for name, entry in HEALING.items():
        yield pytest.param(entry, id=name)
        if entry.queued is not None:
            yield pytest.param(entry.queued, id=f"{name}-queued")


@pytest.mark.parametrize("entry", list(_answers()))
def test_a_job_restarted_by_hand_counts_the_manual_restart(entry):
    """One rule on every cloud (U3): where no node agent runs the job, whatever brings the node
    back (a group, the TPU controller, `pulumi up`), a person restarts training, and the
    estimate counts the manual restart and says so."""
    if entry.runs_job:
        assert entry.restart_hours == GROUP_RESTART_HOURS
    else:
        assert entry.restart_hours == MANUAL_RESTART_HOURS
        assert f"manual restart, unsourced {MANUAL_RESTART_HOURS:g} h" in entry.summary
