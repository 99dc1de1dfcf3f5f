"""Azure's 65,535-byte custom data and Compute Engine's 262,144-byte metadata value are checked
on the bootstrap each component renders, with the longest values the engine can hand it: the
stack check (`plan`, `check`, the program) refuses in one line naming job.env and the fix,
`write_stack` writes nothing, `resolve` leaves the rows out, and a job that fits still plans.
(EC2's user data: tests/clouds/test_aws_bootstrap.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from clouds.azure.bootstrap import CUSTOM_DATA_LIMIT_BYTES, custom_data_problem, custom_data_text
from clouds.config import ConfigError
from clouds.gcp.bootstrap import METADATA_VALUE_LIMIT_BYTES, startup_script, startup_script_problem
from clouds.gcp.filesystems import LUSTRE, choose_file_system
from profiles.stack.file import StackFileError, validate_cluster, write_stack
from tests.clouds.rendered import JOB, rendered
from tests.clouds.test_aws_bootstrap import WORKLOAD
from tests.clusters import example_config

ROOT = Path(__file__).resolve().parents[2]
IP = "255.255.255.255"
# cloud -> (shipped stack, region key, env width, vars that fit, vars that do not, limit words)
CLOUDS = {
    "azure": ("training-h100-azure", "azure-native:location", 60, 40, 900, "over Azure's 65,535-byte custom-data"),
    "gcp": ("training-a3-gcp", "gcp:region", 200, 40, 1400, "over Compute Engine's 262,144-byte metadata-value"),
}


def _job(cloud: str, count: int) -> dict:
    width = CLOUDS[cloud][2]
    return {"command": "/fsx/code/train.py", "env": {f"VAR_{i:04d}": "x" * width for i in range(count)}}


def _config(cloud: str, count: int):
    return example_config(cloud, purchase="on-demand", job=_job(cloud, count))


def _rendered(cloud: str, config, name: str = "c") -> int:
    """The worker's bootstrap of cluster `name` as the component renders it, with the longest addresses."""
    if cloud == "azure":
        return len(custom_data_text(name, config, "worker", IP, IP))
    kind = choose_file_system(config.file_system).kind
    address = f"{IP}@tcp:/trainfs" if kind == LUSTRE else IP
    return len(startup_script(name, config, "worker", kind, address, "trainstack", IP).encode())


CHECKS = {
    "azure": (custom_data_problem, CUSTOM_DATA_LIMIT_BYTES),
    "gcp": (startup_script_problem, METADATA_VALUE_LIMIT_BYTES),
}


@pytest.mark.parametrize(
    ("cloud", "big"),
    [
        pytest.param("azure", False, id="azure-fits"),
        pytest.param("azure", True, id="azure-over"),
        pytest.param("gcp", False, id="gcp-fits"),
        pytest.param("gcp", True, id="gcp-over"),
    ],
)
def test_the_limit_is_checked_on_the_rendered_bootstrap(cloud, big):
    config = _config(cloud, CLOUDS[cloud][4] if big else CLOUDS[cloud][3])
    check, limit = CHECKS[cloud]
    size = _rendered(cloud, config)
    assert (size > limit) == big
    problem = check(config, "c")
    if not big:
        assert problem is None
    else:
        assert problem is not None and problem.startswith(f"job.env: the node bootstrap would be {size:,} bytes, ")
        assert CLOUDS[cloud][5] in problem and "shorten job.env and job.command" in problem


@pytest.mark.parametrize("cloud", [pytest.param(c, id=c) for c in CLOUDS])
def test_plan_and_the_program_refuse_it_in_one_line(cloud):
    raw = _config(cloud, CLOUDS[cloud][4]).model_dump(mode="json", exclude_none=True)
    with pytest.raises(ConfigError, match=r"^job\.env: the node bootstrap would be [\d,]+ bytes, over ") as caught:
        validate_cluster(raw, raw["region"], "c")
    assert "\n" not in str(caught.value) and CLOUDS[cloud][5] in str(caught.value)


@pytest.mark.parametrize("cloud", [pytest.param(c, id=c) for c in CLOUDS])
def test_write_stack_writes_nothing_plan_would_refuse(cloud, tmp_path):
    config = _config(cloud, CLOUDS[cloud][4]).model_dump(mode="json")
    document = {"config": {CLOUDS[cloud][1]: config["region"], "trainstack:cluster": config}}
    path = tmp_path / "Pulumi.big.yaml"
    with pytest.raises(StackFileError, match=r"Pulumi\.big\.yaml: not written, `plan` would refuse it: job\.env: "):
        write_stack(path, yaml.safe_dump(document))
    assert not path.exists()


@pytest.mark.parametrize("cloud", [pytest.param(c, id=c) for c in CLOUDS])
def test_a_job_that_fits_plans_and_the_check_renders_at_least_what_it_creates(cloud):
    """The shipped stack with a job (`tests.clouds.rendered`: the plan the real-tool checks read)
    plans; the check passes it, rendering the worker's bootstrap at least as long as the plan's
    longest (the workers' and the head node's) and within 100 bytes of it."""
    stack, region_key = CLOUDS[cloud][:2]
    planned = [len(b.text.encode()) for b in rendered(stack, with_job=True)]
    assert len(planned) == 2  # the workers' (scale set / template) and the head node's
    document = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{stack}.yaml").read_text())
    raw = {**document["config"]["trainstack:cluster"], "job": JOB}
    cluster = validate_cluster(raw, document["config"][region_key], stack)
    check, limit = CHECKS[cloud]
    assert check(cluster, stack) is None and max(planned) <= limit
    worker = _rendered(cloud, cluster, stack)
    assert max(planned) <= worker and worker - max(planned) < 100


@pytest.mark.parametrize("cloud", [pytest.param(c, id=c) for c in CLOUDS])
def test_resolve_leaves_out_rows_whose_bootstrap_would_not_fit(cloud):
    from profiles.catalog.loader import load_catalog
    from profiles.explain import NoMatchError
    from profiles.resolver import resolve
    from profiles.spec import parse_spec

    workload = {**WORKLOAD, "providers": [cloud]}
    offerings = load_catalog().offerings
    big = parse_spec({**workload, "job": _job(cloud, CLOUDS[cloud][4])})
    with pytest.raises(
        NoMatchError, match=r"'job' removed the last \d+ candidates \(job\.env: the node bootstrap"
    ) as e:
        resolve(big, offerings)
    assert CLOUDS[cloud][5] in str(e.value)
    fits = resolve(parse_spec({**workload, "job": _job(cloud, CLOUDS[cloud][3])}), offerings)
    assert fits.choice.candidate.offering.provider == cloud
