"""Sanity warnings (`profiles.cost.sanity`): each rule on both sides of its threshold, and the
stack-level entry `plan` and `check` call."""

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
