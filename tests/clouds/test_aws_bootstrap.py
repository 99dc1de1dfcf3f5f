"""EC2's 16 KB user-data limit is checked on the bootstrap the component will render, with the
longest values the engine can hand it, by every stack reader and before `resolve --write-stack`
writes anything."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

import pytest
import yaml

from clouds.aws.bootstrap import USER_DATA_LIMIT_BYTES, node_user_data, user_data_problem
from clouds.config import ConfigError
from profiles.stack.file import StackFileError, validate_cluster, write_stack
from tests.clusters import example_config
from trainstack.plan.runner import run_plan

ROOT = Path(__file__).resolve().parents[2]
# A workload of 2 x 8 H100 with a file system, for `resolve` (a `job` and `providers` added).
WORKLOAD = {
    "name": "j",
    "accelerators": ["H100:8"],
    "nodes": 2,
    "interconnect": "rdma",
    "hours": "24h",
    "file_system": {"capacity": "2400GiB"},
}


def _env(count: int) -> dict[str, str]:
    return {f"VAR_{i:03d}": "x" * 30 for i in range(count)}


def _config(count: int, **changes):
    job = {"command": "/fsx/code/train.py", "env": _env(count)}
    return example_config("aws", purchase="on-demand", job=job, **changes)


@pytest.mark.parametrize(
    ("count", "fits"),
    [pytest.param(0, True, id="no-env"), pytest.param(32, True, id="32-vars"), pytest.param(120, False, id="120-vars")],
)
def test_the_limit_is_checked_on_the_rendered_bootstrap(count, fits):
    config = _config(count)
    worker = node_user_data(
        "c", config, "fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com", "abcdefgh", "255.255.255.255", "worker"
    )
    size = len(worker.encode())
    assert (size <= USER_DATA_LIMIT_BYTES) == fits
    problem = user_data_problem(config, "c")
    if fits:
        assert problem is None
    else:
        assert problem is not None and problem.startswith(f"job.env: the node bootstrap would be {size:,} bytes")
        assert "over EC2's 16,384-byte user-data limit" in problem and "shorten job.env and job.command" in problem


def test_no_job_has_no_head_bootstrap_and_fits():
    config = example_config("aws")
    assert config.job is None and user_data_problem(config) is None


def test_plan_and_the_program_refuse_it_in_one_line(tmp_path):
    with pytest.raises(
        ConfigError, match=r"^job.env: the node bootstrap would be [\d,]+ bytes, over EC2's 16,384-byte"
    ):
        validate_cluster(_config(120).model_dump(mode="json", exclude_none=True), "us-east-1")


def test_write_stack_writes_nothing_plan_would_refuse(tmp_path):
    document = {"config": {"aws:region": "us-east-1", "trainstack:cluster": _config(120).model_dump(mode="json")}}
    path = tmp_path / "Pulumi.big.yaml"
    with pytest.raises(
        StackFileError, match=r"Pulumi\.big\.yaml: not written, `plan` would refuse it: job.env: the node"
    ):
        write_stack(path, yaml.safe_dump(document))
    assert not path.exists()


def test_the_check_renders_at_least_what_the_plan_creates(tmp_path):
    """The placeholders are the longest values: the planned user data is never larger."""
    shutil.copy(ROOT / "__main__.py", tmp_path)
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    (tmp_path / "stacks").mkdir()
    document = yaml.safe_load((ROOT / "stacks" / "Pulumi.training-a100.yaml").read_text())
    config = _config(32)  # 40 no longer fit once the worker ships the job channel (relay)
    document["config"]["trainstack:cluster"]["job"] = config.job.model_dump(mode="json", exclude_none=True)
    document["config"]["trainstack:cluster"]["purchase"] = "on-demand"
    (tmp_path / "stacks" / "Pulumi.job.yaml").write_text(yaml.safe_dump(document))
    plan = run_plan("job", tmp_path, priced=False)
    encoded = [r["inputs"].get("userData") or r["inputs"].get("userDataBase64") for r in plan.resources]
    planned = [len(base64.b64decode(text)) for text in encoded if isinstance(text, str)]
    assert len(planned) == 2
    cluster = validate_cluster(document["config"]["trainstack:cluster"], document["config"]["aws:region"], "job")
    dns, mount, address = "fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com", "abcdefgh", "255.255.255.255"
    checked = [len(node_user_data("job", cluster, dns, mount, address, role).encode()) for role in ("worker", "head")]
    assert max(planned) <= max(checked) and max(checked) - max(planned) < 100


def test_resolve_leaves_out_rows_whose_bootstrap_would_not_fit():
    from profiles.catalog.loader import load_catalog
    from profiles.explain import NoMatchError
    from profiles.resolver import resolve
    from profiles.spec import parse_spec

    workload = {**WORKLOAD, "job": {"command": "/fsx/code/train.py", "env": _env(120)}}
    offerings = load_catalog().offerings
    with pytest.raises(NoMatchError, match=r"'job' removed the last \d+ candidates \(job\.env: the node bootstrap"):
        resolve(parse_spec({**workload, "providers": ["aws"]}), offerings)
    rows = resolve(parse_spec({**workload, "providers": ["aws", "gcp"]}), offerings, top=50).candidates
    assert rows and {c.offering.provider for c in rows} == {"gcp"}
    fits = resolve(
        parse_spec({**workload, "providers": ["aws"], "job": {"command": "t.py", "env": _env(20)}}), offerings
    )
    assert fits.choice.candidate.offering.provider == "aws"
