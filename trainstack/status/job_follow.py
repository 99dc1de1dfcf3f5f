"""`trainstack status` follows the job `trainstack run` last started (`trainstack.run.record`).

Each platform is asked in its own API, and its answer read into one line:

- SageMaker: DescribeTrainingJob (`TrainingJobStatus`, `SecondaryStatus`, `FailureReason`,
  `BillableTimeInSeconds`; SageMaker API reference);
- Azure ML: `Jobs - Get` (ARM REST, `properties.status`);
- ModelArts: `Querying the Details About a Training Job` (v2, `status.phase` / `secondary_phase`);
- PAI-DLC: `GetJob` (`Status`, `ReasonMessage`);
- TI-ONE: `DescribeTrainingTask` (`TrainingTaskDetail.Status`, `FailureReason`);
- the cloud's own VMs (AWS): a Run Command on every node of the stack printing the job unit's
  state (`systemctl is-active trainstack-job`) and the run id the node agents launch with.

Platforms without a follower say so; the line always names the job, where its logs and
checkpoints are.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from nodeagent.follow import ENDED_FILE
from trainstack.run.record import RunRecord
from trainstack.run.vm_job import JOB_UNIT

STATE_MARK = "TRAINSTACK-STATE "  # a node's answer: `TRAINSTACK-STATE <unit state> <run id or ->`


def sagemaker_state(answer: dict[str, Any]) -> str:
    """A DescribeTrainingJob answer as `InProgress (Training), 1.5 h billed` / `Failed: <reason>`."""
    text = f"{answer.get('TrainingJobStatus', '?')} ({answer.get('SecondaryStatus', '?')})"
    if billed := answer.get("BillableTimeInSeconds"):
        text += f", {billed / 3600:.1f} h billed"
    if reason := answer.get("FailureReason"):
        text += f": {' '.join(str(reason).split())[:200]}"
    return text


def azureml_state(answer: dict[str, Any]) -> str:
    """A `Jobs - Get` answer as its `properties.status` (`Running`, `Completed`, `Failed`, ...)."""
    return str((answer.get("properties") or {}).get("status") or "unknown")


def modelarts_state(answer: dict[str, Any]) -> str:
    """A ModelArts job's details as `Running (Running)`."""
    status = answer.get("status") or {}
    return f"{status.get('phase', '?')} ({status.get('secondary_phase', '?')})"


def pai_state(answer: dict[str, Any]) -> str:
    """A PAI-DLC `GetJob` answer as `Running` or `Failed: <reason>`."""
    text = str(answer.get("Status") or "unknown")
    if reason := answer.get("ReasonMessage"):
        text += f": {' '.join(str(reason).split())[:200]}"
    return text


def ti_one_state(answer: dict[str, Any]) -> str:
    """A TI-ONE `DescribeTrainingTask` answer as `RUNNING` or `FAILED: <reason>`."""
    detail = (answer.get("Response") or {}).get("TrainingTaskDetail") or {}
    text = str(detail.get("Status") or "unknown")
    if reason := detail.get("FailureReason"):
        text += f": {' '.join(str(reason).split())[:200]}"
    return text


def vm_commands(record: RunRecord, run_file: str) -> list[str]:
    """Shell lines that print one node's `STATE_MARK` line (nothing on a node without the job).

    A node that follows runs (`nodeagent.follow`, GCP and Azure) keeps its unit active after its
    job ended, waiting for the next run; its note (`ENDED_FILE`: `finished ...` or `failed ...`)
    then stands for the unit's state.
    """
    ended = shlex.quote(ENDED_FILE)
    return [
        f"[ -f /etc/systemd/system/{JOB_UNIT}.service ] || exit 0",
        f"s=$(systemctl is-active {JOB_UNIT}); if [ \"$s\" = active ] && [ -f {ended} ]; then s=$(cut -d' ' -f1 {ended}); fi",
        f'echo "{STATE_MARK}$s $(cat {run_file} 2>/dev/null || echo -)"',
    ]


def vm_state(outputs: list[str], run_id: str) -> str:
    """Nodes' answers (`vm_commands`) as `running on 2 of 2 nodes` with the ones off the run named.

    A unit `active` under another run id is counted apart: it runs another version of the job.
    """
    states = [line.removeprefix(STATE_MARK).split() for text in outputs for line in text.splitlines()]
    states = [s for s in states if len(s) == 2 and not s[0].startswith("TRAINSTACK")]
    if not states:
        return "no node answered with the job unit (is the stack up?)"
    running = sum(1 for unit, rid in states if unit == "active" and rid == run_id)
    text = f"running on {running} of {len(states)} nodes"
    if finished := sum(1 for unit, rid in states if unit == "finished" and rid == run_id):
        text += f"; finished on {finished}"
    others = sorted({unit for unit, rid in states if unit not in ("active", "finished")})
    stale = sum(1 for unit, rid in states if unit == "active" and rid != run_id)
    if others:
        text += f"; job unit {', '.join(others)} elsewhere"
    if stale:
        text += f"; {stale} node(s) on another run than {run_id}"
    return text


def _sagemaker(record: RunRecord) -> str:
    import boto3

    client = boto3.client("sagemaker", region_name=record.region)
    return sagemaker_state(client.describe_training_job(TrainingJobName=record.job_id.rsplit("/", 1)[-1]))


def _azureml(record: RunRecord) -> str:
    import os

    import requests

    from clouds.azure import aml
    from trainstack.run.azure_ml import ARM, credentials

    token, _ = credentials(os.environ)
    url = f"{ARM}{record.job_id}?api-version={aml.API_VERSION}"
    answer = requests.get(url, headers={"Authorization": f"Bearer {token}"}, timeout=60)
    answer.raise_for_status()
    return azureml_state(answer.json())


def _vm(record: RunRecord, stack: str, run_file: str, cluster: Any = None, settings: dict | None = None) -> str:
    """Every job node's unit and run id, asked through the cloud's node runner
    (`trainstack.bench.node_run`: AWS Systems Manager, Azure Run Command, GCP SSH through IAP)."""
    from types import SimpleNamespace

    from trainstack.bench.node_run import has_runner, runner_for

    if not has_runner(record.provider):
        return f"no live job reading on {record.provider} VMs yet"
    where = cluster if cluster is not None else SimpleNamespace(provider=record.provider, region=record.region)
    runner = runner_for(where, stack, settings)
    nodes = runner.nodes()
    runs = runner.wait(runner.send(nodes, vm_commands(record, run_file), f"trainstack status {stack}", 60), 120, 2.0)
    return vm_state([r.output for r in runs], record.job_id)


def _modelarts(record: RunRecord) -> str:
    from huaweicloudsdkmodelarts.v1 import ShowTrainingJobDetailsRequest

    from clouds.huaweicloud.modelarts import client

    answer = client(record.region).show_training_job_details(
        ShowTrainingJobDetailsRequest(training_job_id=record.job_id)
    )
    return modelarts_state(answer.to_json_object() or {})


def _pai(record: RunRecord) -> str:
    import os

    from trainstack.run.pai_dlc import DLC_VERSION, _call, _client

    client = _client(f"pai-dlc.{record.region}.aliyuncs.com", os.environ)
    return pai_state(_call(client, "GetJob", DLC_VERSION, "GET", f"/api/v1/jobs/{record.job_id}", None, None))


def _ti_one(record: RunRecord) -> str:
    import os

    from tencentcloud.common.common_client import CommonClient
    from tencentcloud.common.credential import Credential

    from trainstack.run.ti_one import API_VERSION

    credential = Credential(os.environ["TENCENTCLOUD_SECRET_ID"], os.environ["TENCENTCLOUD_SECRET_KEY"])
    client = CommonClient("tione", API_VERSION, credential, record.region)
    return ti_one_state(client.call_json("DescribeTrainingTask", {"Id": record.job_id}))


FOLLOWERS: dict[str, Callable[[RunRecord], str]] = {
    "sagemaker": _sagemaker,
    "azureml": _azureml,
    "modelarts": _modelarts,
    "pai": _pai,
    "ti-one": _ti_one,
}


def job_line(
    record: RunRecord, stack: str, run_file: str = "", cluster: Any = None, settings: dict | None = None
) -> str:
    """`job <id> (started <when>): <state>; logs: ...; checkpoints: ...`; a platform that cannot
    be asked (credentials, network, no follower) gives its reason in place of the state.

    Args:
        record: the stack's last run.
        stack: the stack's cluster name (the nodes' tag).
        run_file: on VMs, where the node agents keep the run id (`nodeagent.job.run_file`).
        cluster, settings: on VMs, the stack's cluster and stack-file settings (the node
            runner's zone, `ssh_cidrs`, project); None: the record's provider and region.
    """
    try:
        if record.platform == "vm":
            state = _vm(record, stack, run_file, cluster, settings)
        elif (follow := FOLLOWERS.get(record.platform)) is not None:
            state = follow(record)
        else:
            state = f"no live job reading on {record.platform} yet"
    except Exception as exc:  # credentials, permissions, network: the line says why, status goes on
        state = f"cannot read it: {' '.join(str(exc).split())[:200]}"
    return (
        f"job {record.job_id} (started {record.started}): {state}; "
        f"logs: {record.logs}; checkpoints: {record.checkpoints}"
    )
