"""Job values that reach a node's unit, job file or shell are refused in one line naming the
field and the fix, in a stack's cluster config and in a workload alike (`clouds.job_fields`)."""

import pytest

from clouds.config import ConfigError, parse_cluster_config
from profiles.spec import SpecError, parse_spec
from tests.cases import cases
from tests.clusters import BASE_CLUSTER

WORKLOAD = {"accelerators": "A100:8", "nodes": 2, "hours": "1h", "file_system": {"capacity": "1TiB"}}


def _job(change: dict) -> dict:
    return {k: v for k, v in {"command": "/fsx/t.py", **change}.items() if v is not None}


@pytest.mark.parametrize(("job", "says"), cases("job_field_refusals.yaml", "job", "says"))
def test_a_stack_refuses_the_job_value(job, says):
    with pytest.raises(ConfigError) as err:
        parse_cluster_config({**BASE_CLUSTER, "nodes": 2, "job": _job(job)})
    assert says in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("job", "says"), cases("job_field_refusals.yaml", "job", "says"))
def test_a_workload_refuses_the_job_value(job, says):
    with pytest.raises(SpecError) as err:
        parse_spec({**WORKLOAD, "job": _job(job)}, "w.yaml")
    assert says in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    "job",
    [
        pytest.param({"python": "python3"}, id="python-on-path"),
        pytest.param({"python": "/fsx/venv-3.11/bin/python3.11"}, id="python-path"),
        pytest.param({"command": "/fsx/t.py --name 'a b' --lr=3e-4"}, id="command-with-spaces"),
        pytest.param({"env": {"_X": "a b", "NCCL_DEBUG": "WARN", "x9": ""}}, id="env-names"),
        pytest.param(
            {"env": {"WANDB_API_KEY_FILE": "/fsx/keys/wandb", "TOKENIZERS_PARALLELISM": "false", "MAX_TOKENS": "8"}},
            id="env-not-credentials",
        ),
        pytest.param({"env": {"HF_TOKEN": ""}}, id="env-empty-credential"),
    ],
)
def test_ordinary_job_values_are_accepted(job):
    config = parse_cluster_config({**BASE_CLUSTER, "nodes": 2, "job": _job(job)})
    assert config.job is not None and config.job.python == job.get("python")


def test_nproc_per_node_above_the_workloads_gpus_names_the_count_before_ranking():
    with pytest.raises(SpecError) as err:
        parse_spec({**WORKLOAD, "job": _job({"nproc_per_node": 16})}, "w.yaml")
    assert "job.nproc_per_node: 16 is more than the 8 GPUs per node asked for; give at most 8" in str(err.value)
