"""Submit the stack's job as an Azure Machine Learning command job (ARM REST, `Jobs - Create Or
Update`, api-version `clouds.azure.aml.API_VERSION`).

The job runs on the pool's AmlCompute cluster (`clouds.azure.aml.compute_name`) with PyTorch
distribution (`distributionType: PyTorch`, one process per GPU on each of `nodes` instances;
Azure ML sets MASTER_ADDR, RANK and WORLD_SIZE), in the curated PyTorch environment. Its code is
the workspace blob store's `code/` folder, mounted read-only as the `code` input; its
checkpoints a read-write mount of `checkpoints/<cluster>/` there, exported to the script as
`TRAINSTACK_CHECKPOINT_DIR`; an Azure Blob dataset is mounted as the `data` input. Credentials:
an ARM access token (`AZURE_ACCESS_TOKEN`, else `az account get-access-token`) and the
subscription (`AZURE_SUBSCRIPTION_ID`, else `az account show`). Tested against recorded answers
in the REST reference's format (`responses`).
"""

from __future__ import annotations

import math
import os
import shlex
from collections.abc import Mapping
from typing import Any

from clouds.azure import aml
from clouds.contract import ClusterConfig
from clouds.job_secrets import plain_env
from clouds.tracking import tracking_env
from trainstack.run import MissingCredentials, RunError, Submitted, checked

ARM = "https://management.azure.com"
DATASTORE = "azureml://datastores/workspaceblobstore/paths"


def workspace_id(subscription: str, name: str) -> str:
    """The ARM id of the pool's workspace."""
    group = aml.resource_group_name(name)
    return (
        f"/subscriptions/{subscription}/resourceGroups/{group}/providers/"
        f"Microsoft.MachineLearningServices/workspaces/{aml.workspace_name(name)}"
    )


def command_job_body(cluster: ClusterConfig, name: str, subscription: str) -> dict[str, Any]:
    """The `Jobs - Create Or Update` body of the stack's job (a CommandJob).

    Raises:
        RunError: a job field the command job cannot honour (one line naming it).
    """
    job, script, args = checked(cluster, "Azure ML")
    inputs: dict[str, Any] = {
        "code": {"jobInputType": "uri_folder", "uri": f"{DATASTORE}/code/", "mode": "ReadOnlyMount"},
    }
    if cluster.data is not None:
        if ".blob.core.windows.net" not in cluster.data.source:
            raise RunError(f"data.source: {cluster.data.source} is not an Azure Blob URI; Azure ML mounts Blob data")
        inputs["data"] = {"jobInputType": "uri_folder", "uri": cluster.data.source, "mode": "ReadOnlyMount"}
    python = shlex.quote(job.python or "python")  # the curated environment's interpreter
    command = (
        f"TRAINSTACK_CHECKPOINT_DIR=${{{{outputs.checkpoints}}}} {python} ${{{{inputs.code}}}}/{shlex.quote(script)}"
    )
    if args:
        command += " " + shlex.join(args)
    hours = math.ceil(cluster.hours * 1.5)  # trainstack's margin over the planned hours (assumed)
    return {
        "properties": {
            "jobType": "Command",
            "experimentName": name,
            "displayName": f"{name} ({script})",
            "computeId": f"{workspace_id(subscription, name)}/computes/{aml.compute_name(name)}",
            "environmentId": aml.CURATED_ENVIRONMENT,
            "command": command,
            "environmentVariables": {**plain_env(job), **tracking_env(job.tracking, "azureml")},
            "inputs": inputs,
            "outputs": {
                "checkpoints": {
                    "jobOutputType": "uri_folder",
                    "uri": f"{DATASTORE}/checkpoints/{name}/",
                    "mode": "ReadWriteMount",
                }
            },
            "distribution": {
                "distributionType": "PyTorch",
                "processCountPerInstance": job.nproc_per_node or cluster.accelerator_count,
            },
            "resources": {"instanceCount": cluster.nodes},
            "limits": {"jobLimitsType": "Command", "timeout": f"PT{hours}H"},
            "tags": {"trainstack:cluster": name},
        }
    }


def _az(*args: str) -> str:
    from profiles.preflight.azure_api import LOGIN_FIX
    from profiles.preflight.cloud_cli import tool_output
    from profiles.preflight.finding import PreflightError

    try:
        return tool_output(["az", *args, "-o", "tsv"], "no Azure credentials", LOGIN_FIX)
    except PreflightError as exc:
        raise MissingCredentials(str(exc)) from None


def credentials(env: Mapping[str, str]) -> tuple[str, str]:
    """(ARM access token, subscription id) from the environment, else the Azure CLI."""
    token = env.get("AZURE_ACCESS_TOKEN") or _az("account", "get-access-token", "--query", "accessToken")
    subscription = env.get("AZURE_SUBSCRIPTION_ID") or _az("account", "show", "--query", "id")
    return token, subscription


def submit(cluster: ClusterConfig, name: str, stamp: str, env: Mapping[str, str] | None = None) -> Submitted:
    """PUT the command job into the pool's workspace; its id, Studio address and checkpoints.

    Raises:
        MissingCredentials: no credentials.
        requests.HTTPError: Azure refused the job (its message is in the error).
    """
    import requests

    token, subscription = credentials(os.environ if env is None else env)
    body = command_job_body(cluster, name, subscription)
    job = f"{name}-{stamp}"
    url = f"{ARM}{workspace_id(subscription, name)}/jobs/{job}?api-version={aml.API_VERSION}"
    answer = requests.put(url, json=body, headers={"Authorization": f"Bearer {token}"}, timeout=60)
    if not answer.ok:
        error = (answer.json().get("error") or {}) if answer.content else {}
        raise requests.HTTPError(f"Azure ML refused the job: {error.get('code')}: {error.get('message')}")
    created = answer.json()
    studio = ((created.get("properties") or {}).get("services") or {}).get("Studio") or {}
    return Submitted(
        job_id=created.get("id", url.split("?")[0].removeprefix(ARM)),
        logs=studio.get("endpoint") or f"az ml job stream --name {job} -w {aml.workspace_name(name)}",
        checkpoints=body["properties"]["outputs"]["checkpoints"]["uri"],
        request=body,
    )


def request_preview(cluster: ClusterConfig, name: str, stamp: str) -> dict[str, Any]:
    """The body `submit` would PUT, with `SUBSCRIPTION` for the subscription (`run --dry-run`)."""
    return command_job_body(cluster, name, "SUBSCRIPTION")
