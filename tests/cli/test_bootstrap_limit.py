"""`resolve` (and `--write-stack`) of a workload whose job does not fit EC2's user data: one error
line naming job.env and the fix, exit 2, and no stack file (`plan` would refuse it); the same for
Azure's custom data and Compute Engine's metadata value, whose `plan` and `check` also refuse a
stack padded by hand in one line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from tests.cli.helpers import one_error_line, run

ROOT = Path(__file__).resolve().parents[2]

ENV = "\n".join(f'    VAR_{i:03d}: "{"x" * 30}"' for i in range(120))
WORKLOAD = f"""name: j4
accelerators: [H100:8]
nodes: 2
interconnect: rdma
purchase: on-demand
hours: 24h
providers: [aws]
file_system: {{capacity: 2400GiB}}
job:
  command: /fsx/code/train.py
  env:
{ENV}
"""


def test_a_job_over_the_user_data_limit_writes_no_stack(project):
    (project / "j4.yaml").write_text(WORKLOAD)
    result = run("resolve", "j4.yaml", "--write-stack", "t-j4")
    one_error_line(result, "'job' removed the last ")
    assert "(job.env: the node bootstrap would be " in result.stderr
    assert "over EC2's 16,384-byte user-data limit" in result.stderr and "shorten job.env" in result.stderr
    assert not (project / "stacks" / "Pulumi.t-j4.yaml").exists()
    fits = WORKLOAD.replace(ENV, "\n".join(ENV.splitlines()[:20]))
    (project / "j4.yaml").write_text(fits)
    assert run("resolve", "j4.yaml", "--write-stack", "t-j4").exit_code == 0
    assert (project / "stacks" / "Pulumi.t-j4.yaml").exists()


def _workload(cloud: str, count: int, width: int) -> str:
    env = "\n".join(f'    VAR_{i:04d}: "{"x" * width}"' for i in range(count))
    return WORKLOAD.replace("name: j4", "name: j5").replace("[aws]", f"[{cloud}]").replace(ENV, env)


@pytest.mark.parametrize(
    ("cloud", "width", "over", "limit"),
    [
        pytest.param("azure", 60, 900, "over Azure's 65,535-byte custom-data limit", id="azure"),
        pytest.param("gcp", 200, 1400, "over Compute Engine's 262,144-byte metadata-value limit", id="gcp"),
    ],
)
def test_other_clouds_refuse_it_in_resolve_and_plan(project, cloud, width, over, limit):
    shutil.copy(ROOT / "__main__.py", project)  # `plan` runs the program
    (project / "j5.yaml").write_text(_workload(cloud, over, width))
    result = run("resolve", "j5.yaml", "--write-stack", "t-j5")
    assert result.exit_code == 2 and "(job.env: the node bootstrap would be " in result.stderr
    assert limit in result.stderr and "Traceback" not in result.output
    assert not (project / "stacks" / "Pulumi.t-j5.yaml").exists()
    (project / "j5.yaml").write_text(_workload(cloud, 20, width))  # a job that fits still writes and plans
    assert run("resolve", "j5.yaml", "--write-stack", "t-j5").exit_code == 0
    assert run("plan", "-s", "t-j5").exit_code == 0
    path = project / "stacks" / "Pulumi.t-j5.yaml"
    document = yaml.safe_load(path.read_text())
    document["config"]["trainstack:cluster"]["job"]["env"] = {f"VAR_{i:04d}": "x" * width for i in range(over)}
    path.write_text(yaml.safe_dump(document))  # padded by hand: plan and check say why in one line
    for command in ("plan", "check"):
        result = run(command, "-s", "t-j5")
        one_error_line(result, "Pulumi.t-j5.yaml: job.env: the node bootstrap would be ")
        assert limit in result.stderr and "shorten job.env and job.command" in result.stderr
