"""Submit the stack's job as a PAI-DLC job (PAI-DLC API 2020-12-03, `CreateJob`, POST /api/v1/jobs,
ROA style, signed by `alibabacloud-tea-openapi`'s generic `call_api`).

The body: `DisplayName`; `JobType: PyTorchJob`; `WorkspaceId` (the stack's PAI workspace, `components.alicloud.pai`,
found by name with AIWorkSpace `ListWorkspaces`); one `JobSpecs` entry of `Type: Worker` with the
job's image (`job.image`), `PodCount` = the stack's nodes and `EcsSpec` = its ECS type, plus
`SpotSpec` (`SpotWithPriceLimit`) for a spot stack (PAI-DLC's preemptible jobs); `UserCommand`
the job's launcher on every node (`trainstack.run.launch`: torchrun or paddle with the
PyTorchJob variables MASTER_ADDR, MASTER_PORT, WORLD_SIZE = nodes and RANK = this node, the
Kubeflow PyTorchJob convention PAI-DLC follows); `DataSources` the code folder (`job.code`,
oss://), the checkpoints folder beside it and the dataset, each mounted by `Uri`; `Envs` the
job's environment; `JobMaxRunningTimeMinutes` 1.5 x the planned hours. The answer is
`{"JobId", "RequestId"}`. Tested against recorded answers in that format (`responses`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

from clouds.alicloud.pai import workspace_name
from clouds.contract import ClusterConfig
from clouds.job_secrets import plain_env
from clouds.tracking import tracking_env
from trainstack.run import RunError, Submitted, checked, env_credentials
from trainstack.run.launch import node_command
from trainstack.run.object_store import StorePlace, code_place, image_of, parse

PLATFORM = "PAI-DLC"
DLC_VERSION, WORKSPACE_VERSION = "2020-12-03", "2021-02-04"
CODE_MOUNT, CHECKPOINT_MOUNT, DATA_MOUNT = "/mnt/code", "/mnt/checkpoints", "/mnt/data"
SPOT_DISCOUNT_LIMIT = 1.0  # bid up to the pay-as-you-go price, never above it (assumed valid: docs give 0.8)


def _oss_uri(place: StorePlace, region: str) -> str:
    """An OSS folder as DLC's `DataSources.Uri` takes it: the bucket's in-region endpoint."""
    return f"oss://{place.bucket}.oss-{region}-internal.aliyuncs.com/{place.prefix}"


def job_body(cluster: ClusterConfig, name: str, stamp: str, workspace_id: str) -> dict[str, Any]:
    """The `CreateJob` body for the stack's job in workspace `workspace_id`.

    Raises:
        RunError: a job field PAI-DLC cannot honour, or `job.code` / `job.image` missing.
    """
    job, script, args = checked(cluster, PLATFORM)
    code = code_place(job, "oss", PLATFORM)
    spec: dict[str, Any] = {
        "Type": "Worker",
        "Image": image_of(job, PLATFORM, "container image (an official PAI PyTorch image or your own)"),
        "PodCount": cluster.nodes,
        "EcsSpec": cluster.instance_type,
    }
    if cluster.purchase == "spot":
        spec["SpotSpec"] = {"SpotStrategy": "SpotWithPriceLimit", "SpotDiscountLimit": SPOT_DISCOUNT_LIMIT}
    sources = [
        {"Uri": _oss_uri(code, cluster.region), "MountPath": CODE_MOUNT},
        {"Uri": _oss_uri(code.beside(name, "checkpoints"), cluster.region), "MountPath": CHECKPOINT_MOUNT},
    ]
    if cluster.data is not None:
        data = parse(cluster.data.source, "oss", "data.source", PLATFORM)
        sources.append({"Uri": _oss_uri(data, cluster.region), "MountPath": DATA_MOUNT})
    nproc = job.nproc_per_node or cluster.accelerator_count
    return {
        "DisplayName": f"{name}-{stamp}"[:256],
        "JobType": "PyTorchJob",
        "WorkspaceId": workspace_id,
        "JobSpecs": [spec],
        "UserCommand": node_command(job.launcher, f"{CODE_MOUNT}/{script}", args, nproc, job.max_restarts),
        "DataSources": sources,
        "Envs": {**plain_env(job), **tracking_env(job.tracking, "pai"), "TRAINSTACK_CHECKPOINT_DIR": CHECKPOINT_MOUNT},
        "JobMaxRunningTimeMinutes": math.ceil(cluster.hours * 1.5 * 60),
    }


def _client(endpoint: str, env: Mapping[str, str]) -> Any:
    from alibabacloud_tea_openapi.client import Client
    from alibabacloud_tea_openapi.models import Config

    key, secret = env_credentials(
        env, ("ALIBABA_CLOUD_ACCESS_KEY_ID", "ALIBABA_CLOUD_ACCESS_KEY_SECRET"), "Alibaba Cloud"
    )
    return Client(Config(access_key_id=key, access_key_secret=secret, endpoint=endpoint))


def _call(
    client: Any, action: str, version: str, method: str, path: str, body: dict | None, query: dict | None
) -> dict:
    from alibabacloud_tea_openapi.models import OpenApiRequest, Params
    from darabonba.runtime import RuntimeOptions

    params = Params(
        action=action,
        version=version,
        protocol="HTTPS",
        pathname=path,
        method=method,
        auth_type="AK",
        style="ROA",
        req_body_type="json",
        body_type="json",
    )
    answer = client.call_api(params, OpenApiRequest(body=body, query=query), RuntimeOptions())
    return dict(answer.get("body") or {})


def workspace_id_of(answer: Mapping[str, Any], name: str) -> str:
    """The stack's workspace id in a `ListWorkspaces` answer (`Workspaces[].WorkspaceId`).

    Raises:
        RunError: no workspace of that name (the stack's pool is not deployed).
    """
    wanted = workspace_name(name)
    for item in answer.get("Workspaces") or []:
        if item.get("WorkspaceName") == wanted and item.get("WorkspaceId"):
            return str(item["WorkspaceId"])
    raise RunError(f"platform: no PAI workspace {wanted} in this region; deploy the stack first (pulumi up)")


def submit(cluster: ClusterConfig, name: str, stamp: str, env: Mapping[str, str] | None = None) -> Submitted:
    """Find the stack's workspace, create the DLC job, say where its logs and checkpoints are."""
    env = os.environ if env is None else env
    spaces = _call(
        _client(f"aiworkspace.{cluster.region}.aliyuncs.com", env),
        "ListWorkspaces",
        WORKSPACE_VERSION,
        "GET",
        "/api/v1/workspaces",
        None,
        {"WorkspaceName": workspace_name(name)},
    )
    body = job_body(cluster, name, stamp, workspace_id_of(spaces, name))
    created = _call(
        _client(f"pai-dlc.{cluster.region}.aliyuncs.com", env),
        "CreateJob",
        DLC_VERSION,
        "POST",
        "/api/v1/jobs",
        body,
        None,
    )
    if not created.get("JobId"):
        raise RunError(f"platform: PAI-DLC answered without a JobId: {str(created)[:200]}")
    code = code_place(cluster.job, "oss", PLATFORM)
    return Submitted(
        job_id=str(created["JobId"]),
        logs=f"PAI console, DLC job {created['JobId']} (GetPodLogs)",
        checkpoints=code.beside(name, "checkpoints").uri(),
        request=body,
    )


def request_preview(cluster: ClusterConfig, name: str, stamp: str) -> dict[str, Any]:
    """The body `submit` would send, with `WORKSPACE_ID` for the workspace (`run --dry-run`)."""
    return job_body(cluster, name, stamp, "WORKSPACE_ID")
