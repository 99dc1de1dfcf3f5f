"""`resolve` (and `--write-stack`) of a workload whose job does not fit EC2's user data: one error
line naming job.env and the fix, exit 2, and no stack file (`plan` would refuse it)."""

from __future__ import annotations

from tests.cli.helpers import one_error_line, run

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
