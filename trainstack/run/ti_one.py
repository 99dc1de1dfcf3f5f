"""Submit the stack's job as a TI-ONE training task (TI-ONE API 2021-11-11, `CreateTrainingTask`,
through `tencentcloud-sdk-python-common`'s `CommonClient`, which signs TC3-HMAC-SHA256).

The request: `Name` (at most 60 letters, digits, `_`, `-`); `ChargeType: POSTPAID_BY_HOUR`;
`ResourceConfigInfos` one `WORKER` entry of `InstanceNum` = the stack's nodes and `InstanceType`
= TI-ONE's pay-as-you-go spec of the CVM type (`TI.<type>.POST`, the naming of the API's
InstanceType list, e.g. TI.GN7.2XLARGE32.POST = 8C32G T4*1 as CVM GN7.2XLARGE32);
`FrameworkName: PYTORCH` with `FrameworkVersion` / `FrameworkEnvironment` from `job.image`
(an environment `DescribeTrainingFrameworks` lists, e.g. torch1.9-py3.8-cuda11.1-gpu);
`TrainingMode: DDP`; `CodePackagePath` the code folder (`job.code`, cos://); `StartCmdInfo`
the job's launcher (`trainstack.run.launch`) with its environment before it (the task takes no
environment of its own); `DataConfigs` the dataset's COS folder; `Output` the job's folder
beside the code. The answer is `{"Response": {"Id", "RequestId"}}`. Tested against recorded
answers in that format (`responses`).

TI-ONE has no spot and no automatic restart: a task that ends early is resubmitted with
`trainstack run`, and the script resumes from its newest checkpoint in `Output`.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping
from typing import Any

from clouds.contract import ClusterConfig
from clouds.job_secrets import plain_env
from clouds.tracking import tracking_env
from trainstack.run import RunError, Submitted, checked, env_credentials
from trainstack.run.launch import RUN_MODULE_SINCE, node_command
from trainstack.run.object_store import StorePlace, code_place, image_of, parse

PLATFORM = "TI-ONE"
API_VERSION = "2021-11-11"
CODE_DIR, DATA_DIR, OUTPUT_DIR = "/opt/ml/code", "/opt/ml/input/data", "/opt/ml/output"  # TI-ONE's container paths
_ENVIRONMENT = re.compile(r"^torch(\d+(?:\.\d+)+)-\S+$")
NAME_LIMIT = 60


def spec_name(instance_type: str) -> str:
    """TI-ONE's pay-as-you-go spec of a CVM type: `GN7.2XLARGE32` -> `TI.GN7.2XLARGE32.POST`."""
    return f"TI.{instance_type.upper()}.POST"


def _cos(place: StorePlace, region: str) -> dict[str, Any]:
    return {"Bucket": place.bucket, "Region": region, "Paths": [place.prefix]}


def framework(job) -> tuple[str, str]:
    """(FrameworkVersion, FrameworkEnvironment) of `job.image` (`torch<version>-...`).

    Raises:
        RunError: none, not a TI-ONE PyTorch environment name, or a PyTorch before 1.9 (no
            `torch.distributed.run` to start the job with: `trainstack.run.launch`).
    """
    environment = image_of(job, PLATFORM, "PyTorch environment (e.g. torch1.9-py3.8-cuda11.1-gpu)")
    found = _ENVIRONMENT.match(environment)
    if found is None:
        raise RunError(
            f"job.image: {environment} is not a TI-ONE PyTorch environment (torch<version>-...); pick one that "
            "DescribeTrainingFrameworks lists"
        )
    if version_of(found.group(1)) < RUN_MODULE_SINCE:
        raise RunError(
            f"job.image: {environment} has PyTorch {found.group(1)}, which has no torch.distributed.run (PyTorch 1.9+) "
            "to start the job on every node; pick a torch1.9 or newer environment that DescribeTrainingFrameworks lists"
        )
    return found.group(1), environment


def version_of(text: str) -> tuple[int, ...]:
    """`1.9` as (1, 9)."""
    return tuple(int(part) for part in text.split("."))


def task_request(cluster: ClusterConfig, name: str, stamp: str) -> dict[str, Any]:
    """The `CreateTrainingTask` parameters for the stack's job.

    Raises:
        RunError: a job field TI-ONE cannot honour (spot, `job.code` / `job.image` missing).
    """
    job, script, args = checked(cluster, PLATFORM)
    if cluster.purchase == "spot":
        raise RunError("purchase: TI-ONE has no spot training tasks; set purchase: on-demand")
    code = code_place(job, "cos", PLATFORM)
    version, environment = framework(job)
    env = {
        **plain_env(job),
        **tracking_env(job.tracking, "ti-one"),
        "TRAINSTACK_CHECKPOINT_DIR": f"{OUTPUT_DIR}/checkpoints",
    }
    nproc = job.nproc_per_node or cluster.accelerator_count
    command = node_command(job.launcher, f"{CODE_DIR}/{script}", args, nproc, job.max_restarts, version_of(version))
    assignments = " ".join(f"{key}={shlex.quote(value)}" for key, value in sorted(env.items()))
    request: dict[str, Any] = {
        "Name": f"{name[: NAME_LIMIT - len(stamp) - 1]}-{stamp}",
        "ChargeType": "POSTPAID_BY_HOUR",
        "ResourceConfigInfos": [
            {"Role": "WORKER", "InstanceType": spec_name(cluster.instance_type), "InstanceNum": cluster.nodes}
        ],
        "FrameworkName": "PYTORCH",
        "FrameworkVersion": version,
        "FrameworkEnvironment": environment,
        "TrainingMode": "DDP",
        "CodePackagePath": _cos(code, cluster.region),
        "StartCmdInfo": {"StartCmd": f"env {assignments} {command}"},
        "Output": _cos(code.beside(name, "output"), cluster.region),
        "LogEnable": False,  # delivery to a CLS logset/topic trainstack does not make; DescribeLogs reads them
        "Tags": [{"TagKey": "trainstack-cluster", "TagValue": name}],
        "Remark": f"trainstack {name}",
    }
    if cluster.data is not None:
        data = parse(cluster.data.source, "cos", "data.source", PLATFORM)
        request["DataConfigs"] = [
            {"MappingPath": DATA_DIR, "DataSourceType": "COS", "COSSource": _cos(data, cluster.region)}
        ]
    return request


def submit(cluster: ClusterConfig, name: str, stamp: str, env: Mapping[str, str] | None = None) -> Submitted:
    """Create the task in the stack's region; its id, where its logs and output are.
    Credentials: `TENCENTCLOUD_SECRET_ID`, `TENCENTCLOUD_SECRET_KEY`."""
    from tencentcloud.common.common_client import CommonClient
    from tencentcloud.common.credential import Credential

    env = os.environ if env is None else env
    key_id, key = env_credentials(env, ("TENCENTCLOUD_SECRET_ID", "TENCENTCLOUD_SECRET_KEY"), "Tencent Cloud")
    request = task_request(cluster, name, stamp)
    client = CommonClient("tione", API_VERSION, Credential(key_id, key), cluster.region)
    answer = client.call_json("CreateTrainingTask", request).get("Response") or {}
    if not answer.get("Id"):
        raise RunError(f"platform: TI-ONE answered without a task Id: {str(answer)[:200]}")
    output = code_place(cluster.job, "cos", PLATFORM).beside(name, "output")
    return Submitted(
        job_id=str(answer["Id"]),
        logs=f"TI-ONE console, task {answer['Id']} (DescribeLogs)",
        checkpoints=output.uri("checkpoints/"),
        request=request,
    )


def request_preview(cluster: ClusterConfig, name: str, stamp: str) -> dict[str, Any]:
    """The parameters `submit` would send (`run --dry-run`)."""
    return task_request(cluster, name, stamp)
