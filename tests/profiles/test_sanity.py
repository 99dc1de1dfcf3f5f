"""Sanity warnings (`profiles.cost.sanity`): each rule on both sides of its threshold, and the
stack-level entry `plan` and `check` call."""

import math

import pytest

from profiles.cost.sanity import MAX_GIB_PER_GPU, MAX_SANE_NODES, sanity_warnings


@pytest.mark.parametrize(
    ("nodes", "warned"),
    [pytest.param(MAX_SANE_NODES, False, id="64-quiet"), pytest.param(MAX_SANE_NODES + 1, True, id="65-warns")],
)
def test_nodes_beyond_what_resolve_ever_picks_warn(nodes, warned):
    lines = sanity_warnings(nodes, 8, 2.4655 * nodes, None, None)
    assert bool(lines) is warned
    if warned:
        assert lines == [
            "warning: nodes: 65 is far beyond the 64 nodes trainstack ever picks on its own ($160/hour for the "
            "nodes); check the stack's nodes (a typo?), or set trainstack:max_usd_per_hour to cap it"
        ]


@pytest.mark.parametrize(
    ("storage", "warned"),
    [pytest.param(6.0, False, id="equal-quiet"), pytest.param(6.01, True, id="dearer-warns")],
)
def test_a_file_system_dearer_than_its_gpus_warns(storage, warned):
    lines = sanity_warnings(2, 8, 6.0, storage, 9_536_743)
    assert bool(lines) is warned
    if warned:
        assert lines[0].startswith("warning: file_system: 9,536,743 GiB costs $6.01/hour, more than the 2 x 8 GPUs")


def test_an_unpriced_file_system_is_judged_per_gpu():
    limit = MAX_GIB_PER_GPU * 2 * 8  # 163,840 GiB for 16 GPUs
    assert sanity_warnings(2, 8, 6.0, None, limit) == []
    assert "more than 10 TiB per GPU for 2 x 8 GPUs" in sanity_warnings(2, 8, None, None, limit + 1)[0]


def test_the_committed_stack_is_quiet_and_a_fat_fingered_one_is_not():
    from pathlib import Path

    from profiles.cost.sanity import stack_warnings
    from profiles.stack.file import read_cluster

    cluster = read_cluster(Path(__file__).parents[2] / "stacks" / "Pulumi.training-a100.yaml")[1]
    assert stack_warnings(cluster, 4.931, 110.31) == []  # $1.53/h of FSx beside $4.93/h of nodes
    big = cluster.model_copy(update={"nodes": 5000})
    assert stack_warnings(big, 4.931 * 2500, 110.31)[0].startswith("warning: nodes: 5,000 is far beyond")


def test_nodes_without_a_price_warn_without_one():
    assert sanity_warnings(65, 8, None, None, None) == [
        "warning: nodes: 65 is far beyond the 64 nodes trainstack ever picks on its own; check the stack's "
        "nodes (a typo?), or set trainstack:max_usd_per_hour to cap it"
    ]


def test_a_dearer_file_system_line_names_its_size_price_and_gpus():
    assert sanity_warnings(2, 8, 6.0, 6.5, 9_536_743) == [
        "warning: file_system: 9,536,743 GiB costs $6.50/hour, more than the 2 x 8 GPUs it feeds ($6.00/hour); "
        "check file_system.capacity_gib (a unit slip? GiB, TiB and PB differ by 1,024 and more)"
    ]


def _committed_cluster():
    from pathlib import Path

    from profiles.stack.file import read_cluster

    return read_cluster(Path(__file__).parents[2] / "stacks" / "Pulumi.training-a100.yaml")[1]


def test_a_stacks_file_system_is_priced_per_hour_of_its_run():
    """The stack's file-system USD for the run over its hours (72.03 h) against the nodes' USD/hour."""
    from profiles.cost.sanity import stack_warnings

    cluster = _committed_cluster()
    hours = cluster.hours  # 72.0296 h
    assert stack_warnings(cluster, 1.0, 0.99 * hours) == []
    assert stack_warnings(cluster, 1.0, 1.01 * hours) == [
        "warning: file_system: 4,800 GiB costs $1.01/hour, more than the 2 x 8 GPUs it feeds ($1.00/hour); "
        "check file_system.capacity_gib (a unit slip? GiB, TiB and PB differ by 1,024 and more)"
    ]


def test_an_unpriced_stack_file_system_is_judged_by_its_capacity_per_gpu():
    from profiles.cost.sanity import stack_warnings

    cluster = _committed_cluster()
    fat = cluster.model_copy(update={"file_system": cluster.file_system.model_copy(update={"capacity_gib": 163_841})})
    assert stack_warnings(cluster, 4.931, None) == []
    assert stack_warnings(fat, 4.931, None) == [
        "warning: file_system: 163,841 GiB is more than 10 TiB per GPU for 2 x 8 GPUs; check "
        "file_system.capacity_gib (a unit slip?)"
    ]
    assert stack_warnings(fat.model_copy(update={"file_system": None}), 4.931, None) == []


def test_a_stack_with_a_budget_is_not_told_to_set_one():
    """The nodes line suggests trainstack:max_usd_per_hour only when the stack has none; with
    one, it names it (a suggestion that is already done is no help)."""
    (line,) = sanity_warnings(65, 8, 160.0, None, None, budget_usd_per_hour=100.0)
    assert line.endswith("check the stack's nodes (a typo?), its budget is $100/hour (trainstack:max_usd_per_hour)")
    assert "set trainstack:max_usd_per_hour" not in line


@pytest.mark.parametrize(
    ("capacity", "created", "data", "warned"),
    [
        pytest.param(4800, 4800, 4800.0, False, id="holds-it-exactly"),
        pytest.param(4800, 4800, 100_000.0, True, id="far-below-warns"),
        pytest.param(4800, 4800, 4800.5, True, id="half-a-gib-short-warns"),
        pytest.param(1000, 1200, 1100.0, False, id="rounded-up-by-the-cloud-holds-it"),
        pytest.param(4800, None, None, False, id="no-data-size-quiet"),
    ],
)
def test_a_file_system_below_its_data_warns(capacity, created, data, warned):
    """The workload refuses a file system below its data; a hand-edited stack is told, against the
    capacity the cloud creates (FSx makes 1,200 GiB of 1,000)."""
    lines = sanity_warnings(2, 8, 6.0, 1.0, capacity, data_gib=data, created_gib=created)
    assert bool(lines) is warned
    if warned:
        assert lines == [
            f"warning: file_system: {created:,} GiB cannot hold the {math.ceil(data):,} GiB of data "
            "(data.size_gib), so "
            f"every pass reads the bucket again; raise file_system.capacity_gib to at least {math.ceil(data)} "
            "(or check data.size_gib)"
        ]


@pytest.mark.parametrize(
    ("stack", "data_gib", "warned"),
    [
        pytest.param("training-a100", 100_000, True, id="aws-fsx-4800"),
        pytest.param("training-a100", 4800, False, id="aws-fsx-holds-it"),
        pytest.param("training-a3-gcp", 4_864, False, id="gcp-filestore-4800-made-4864-holds-4864"),
        pytest.param("training-a3-gcp", 4_865, True, id="gcp-filestore-4864-short-of-4865"),
        pytest.param("training-h100-azure", 8_193, True, id="azure-amlfs-8tib-short-of-8193"),
        pytest.param("training-a100-huaweicloud", 4_916, True, id="huawei-sfs-turbo-4915"),
    ],
)
def test_a_committed_stack_edited_below_its_data_warns_per_cloud(stack, data_gib, warned):
    """Per cloud, the comparison is with what its component creates (`provisioned_gib`)."""
    from pathlib import Path

    from clouds.data_config import DataConfig
    from profiles.cost.sanity import stack_warnings
    from profiles.stack.file import read_cluster

    cluster = read_cluster(Path(__file__).parents[2] / "stacks" / f"Pulumi.{stack}.yaml")[1]
    edited = cluster.model_copy(update={"data": DataConfig(source="s3://team/data", size_gib=data_gib)})
    lines = [line for line in stack_warnings(edited, 1000.0, 0.0) if "cannot hold" in line]
    assert bool(lines) is warned, lines
