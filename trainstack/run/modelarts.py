"""Submit the stack's job as a ModelArts training job on its dedicated pool (ModelArts API v2,
`Creating a Training Job`, POST /v2/{project_id}/training-jobs, through `huaweicloudsdkmodelarts`).

The body: `kind: job`; `metadata.name` (1-64 letters, digits, `_`, `-`); `algorithm.code_dir`
and `boot_file` (OBS paths, `/bucket/path/`) from `job.code` and the command's script, its
`--key value` arguments as `parameters` (ModelArts passes them back as `--key=value`), the
preset engine (`engine.engine_name` / `engine_version`, from `job.image` as `NAME:VERSION`; the
versions a region offers are listed by `Obtaining the Preset AI Frameworks Supported by a
Training Job`), a `checkpoints` output on OBS and the dataset's OBS folder as the `data` input,
the job's environment; `spec.resource` the pool (`pool_id`, found by the pool's
`os.modelarts/name` label with `Querying Resource Pools`), its flavor and `node_count` = the
stack's nodes; `spec.log_export_path` the job's logs on OBS. Tested against recorded answers in
the API's documented format (`responses`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from clouds.contract import ClusterConfig
from clouds.huaweicloud import modelarts as ma
from clouds.job_secrets import plain_env
from clouds.tracking import tracking_env
from trainstack.run import MissingCredentials, RunError, Submitted, as_hyperparameters, checked
from trainstack.run.object_store import StorePlace, code_place, image_of, parse

PLATFORM = "ModelArts"
NAME_LIMIT = 64  # metadata.name: 1-64 characters


def job_name(name: str, stamp: str) -> str:
    """`<cluster>-<stamp>`, cut to ModelArts' 64 characters (the stamp kept)."""
    return f"{name[: NAME_LIMIT - len(stamp) - 1]}-{stamp}"


def engine(job) -> dict[str, str]:
    """`job.image` as ModelArts' preset engine (`NAME:VERSION`).

    Raises:
        RunError: none, or not `NAME:VERSION` (a custom SWR image is not submitted yet).
    """
    text = image_of(job, PLATFORM, "preset engine as NAME:VERSION (e.g. the region's Ascend-Powered-Engine)")
    engine_name, _, version = text.partition(":")
    if not engine_name or not version or "/" in engine_name:
        raise RunError(
            f"job.image: {text} is not a ModelArts preset engine NAME:VERSION; custom images are not submitted by "
            "trainstack yet"
        )
    return {"engine_name": engine_name, "engine_version": version}


def training_job_body(cluster: ClusterConfig, name: str, stamp: str, pool_id: str) -> dict[str, Any]:
    """The `Creating a Training Job` body for the stack's job on pool `pool_id`.

    Raises:
        RunError: a job field ModelArts cannot honour, or `job.code` / `job.image` missing.
    """
    job, script, args = checked(cluster, PLATFORM)
    if job.nproc_per_node is not None and job.nproc_per_node != cluster.accelerator_count:
        raise RunError(
            f"job.nproc_per_node: ModelArts starts the boot file once per card ({cluster.accelerator_count}); "
            "remove nproc_per_node"
        )
    code = code_place(job, "obs", PLATFORM)
    algorithm: dict[str, Any] = {
        "code_dir": code.path(),
        "boot_file": code.path(script),
        "engine": engine(job),
        "parameters": [{"name": key, "value": value} for key, value in as_hyperparameters(args).items()],
        "outputs": [{"name": "checkpoints", "remote": {"obs": {"obs_url": checkpoints(code, name).path()}}}],
        "environments": {**plain_env(job), **tracking_env(job.tracking, "modelarts")},
    }
    if cluster.data is not None:
        data = parse(cluster.data.source, "obs", "data.source", PLATFORM)
        algorithm["inputs"] = [{"name": "data", "remote": {"obs": {"obs_url": data.path()}}}]
    return {
        "kind": "job",
        "metadata": {
            "name": job_name(name, stamp),
            "workspace_id": ma.DEFAULT_WORKSPACE,
            "description": f"trainstack {name}",
        },
        "algorithm": algorithm,
        "spec": {
            "resource": {"pool_id": pool_id, "flavor_id": cluster.instance_type, "node_count": cluster.nodes},
            "log_export_path": {"obs_url": code.beside(name, "logs").path()},
        },
    }


def checkpoints(code: StorePlace, name: str) -> StorePlace:
    """Where the job's checkpoints are kept: `trainstack/<name>/checkpoints/` in the code's bucket."""
    return code.beside(name, "checkpoints")


def pool_id_of(pools: list[Mapping[str, Any]], name: str) -> str:
    """The id (`metadata.name`) of the stack's pool among a `Querying Resource Pools` answer's items.

    Raises:
        RunError: the stack's pool is not there (not deployed, or another region).
    """
    wanted = ma.pool_name(name)
    for pool in pools:
        metadata = pool.get("metadata") or {}
        if (metadata.get("labels") or {}).get("os.modelarts/name") == wanted and metadata.get("name"):
            return str(metadata["name"])
    raise RunError(f"platform: no ModelArts pool {wanted} in this region; deploy the stack first (pulumi up)")


def submit(cluster: ClusterConfig, name: str, stamp: str) -> Submitted:
    """Find the stack's pool, create the training job on it, say where its logs and checkpoints
    are. Credentials: `HUAWEICLOUD_SDK_AK`, `_SK`, `_PROJECT_ID` (`ma.credential_values`).

    Raises:
        MissingCredentials: one of them is not set.
    """
    from huaweicloudsdkmodelarts.v1 import CreateTrainingJobRequest, ListPoolsRequest

    if problem := ma.credential_values(os.environ)[1]:
        raise MissingCredentials(problem)
    api = ma.client(cluster.region)
    listed = api.list_pools(ListPoolsRequest(label_selector=f"os.modelarts/name={ma.pool_name(name)}"))
    pools = (listed.to_json_object() or {}).get("items") or []  # the API's own keys (os.modelarts/name)
    body = training_job_body(cluster, name, stamp, pool_id_of(pools, name))
    answer = api.create_training_job(CreateTrainingJobRequest(body=body))
    code = code_place(cluster.job, "obs", PLATFORM)
    return Submitted(
        job_id=str((answer.to_json_object() or {}).get("metadata", {}).get("id") or answer.metadata.id),
        logs=code.beside(name, "logs").uri() + " (and the ModelArts console, Training Jobs)",
        checkpoints=checkpoints(code, name).uri(),
        request=body,
    )


def request_preview(cluster: ClusterConfig, name: str, stamp: str) -> dict[str, Any]:
    """The body `submit` would send, with `POOL_ID` for the pool's id (`run --dry-run`)."""
    return training_job_body(cluster, name, stamp, "POOL_ID")
