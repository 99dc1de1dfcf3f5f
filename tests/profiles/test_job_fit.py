"""A job's process count that no offering fits gets its own fix (U5)."""

import pytest

from profiles.explain import NoMatchError
from profiles.resolver import resolve
from profiles.spec import SpecError, parse_spec

WORKLOAD = {
    "accelerators": "H100",
    "nodes": 2,
    "hours": "1h",
    "providers": ["aws"],
    "file_system": {"capacity": "1TiB"},
    "job": {"command": "/fsx/t.py", "nproc_per_node": 16},
}


def test_a_no_match_on_nproc_per_node_gives_its_fix(real_catalog):
    """Without a GPU count in `accelerators` the check waits for the offerings; the error's
    fix then names nproc_per_node, not the clouds that run no job."""
    with pytest.raises(NoMatchError) as err:
        resolve(parse_spec(WORKLOAD, "w.yaml"), real_catalog.offerings)
    fix = str(err.value).split("to fix:")[1]
    assert fix.startswith(" give `job.nproc_per_node` at most the GPUs per node of these offerings")
    assert "remove `job`" not in fix


def test_with_a_gpu_count_the_workload_is_refused_before_ranking():
    with pytest.raises(SpecError, match=r"job\.nproc_per_node: 16 is more than the 8 GPUs per node asked for"):
        parse_spec({**WORKLOAD, "accelerators": "H100:8"}, "w.yaml")
