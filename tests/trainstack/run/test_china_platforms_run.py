"""`trainstack run` on ModelArts, PAI-DLC and TI-ONE: each request built from the same `job:` block
and sent through the platform's SDK to recorded answers in the API's documented format
(`responses` intercepts the SDK's HTTP, so the SDK signs and serialises the real request); the
request each one sends is asserted, and what a platform cannot do is refused naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import responses

from clouds.contract import ClusterConfig, JobConfig
from tests.clusters import example
from trainstack.run import RunError, pai_dlc, ti_one
from trainstack.run import modelarts as ma_run
from trainstack.run.launch import node_command

ANSWERS = Path(__file__).parents[2] / "fixtures" / "platforms"
STAMP = "20261207-043900"
PROJECT = "0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e"
JOB = {"command": "train.py --epochs 10", "env": {"NCCL_DEBUG": "WARN"}}


def _answer(name: str) -> dict:
    return json.loads((ANSWERS / name).read_text())


def _modelarts(**job) -> ClusterConfig:
    values = {
        **example("huaweicloud"),
        "platform": "modelarts",
        "instance_type": "modelarts.bm.npu.arm.8snt9b2.d",
        "accelerator": "Ascend 910B",
        "accelerator_count": 8,
        "purchase": "on-demand",
        "file_system": None,
        "ssh_cidrs": [],
        "data": {"source": "obs://team-data/corpus/"},
        "job": {**JOB, "code": "obs://team-code/llm", "image": "Ascend-Powered-Engine:pytorch_2.1.0-cann_8.0", **job},
    }
    return ClusterConfig.model_validate(values)


@pytest.fixture
def huawei(monkeypatch):
    for key, value in {
        "HUAWEICLOUD_SDK_AK": "AK",
        "HUAWEICLOUD_SDK_SK": "SK",
        "HUAWEICLOUD_SDK_PROJECT_ID": PROJECT,
    }.items():
        monkeypatch.setenv(key, value)


@responses.activate
def test_modelarts_job_on_the_stacks_pool(huawei):
    base = f"https://modelarts.cn-north-4.myhuaweicloud.com/v2/{PROJECT}"
    responses.get(f"{base}/pools", json=_answer("modelarts-list-pools.json"))
    responses.post(f"{base}/training-jobs", json=_answer("modelarts-training-job-created.json"), status=201)
    done = ma_run.submit(_modelarts(), "c", STAMP)
    listed, created = responses.calls
    assert "labelSelector=os.modelarts%2Fname%3Dc-2e7d2c-pool" in listed.request.url
    assert created.request.headers["Authorization"].startswith("SDK-HMAC-SHA256 Access=AK")
    body = json.loads(created.request.body)
    assert body["kind"] == "job" and body["metadata"]["name"] == f"c-{STAMP}"
    assert body["spec"]["resource"] == {
        "pool_id": "pool-9b1e5d0c",
        "flavor_id": "modelarts.bm.npu.arm.8snt9b2.d",
        "node_count": 2,
    }
    algorithm = body["algorithm"]
    assert (algorithm["code_dir"], algorithm["boot_file"]) == ("/team-code/llm/", "/team-code/llm/train.py")
    assert algorithm["engine"] == {"engine_name": "Ascend-Powered-Engine", "engine_version": "pytorch_2.1.0-cann_8.0"}
    assert algorithm["parameters"] == [{"name": "epochs", "value": "10"}]
    assert algorithm["inputs"] == [{"name": "data", "remote": {"obs": {"obs_url": "/team-data/corpus/"}}}]
    assert algorithm["outputs"] == [
        {"name": "checkpoints", "remote": {"obs": {"obs_url": "/team-code/trainstack/c/checkpoints/"}}}
    ]
    assert algorithm["environments"] == {"NCCL_DEBUG": "WARN"}
    assert done.job_id == "3faf5c03-aaa1-4cbe-879d-24b05d997347"
    assert done.checkpoints == "obs://team-code/trainstack/c/checkpoints/"


@responses.activate
def test_modelarts_without_the_pool_says_deploy_first(huawei):
    base = f"https://modelarts.cn-north-4.myhuaweicloud.com/v2/{PROJECT}"
    responses.get(f"{base}/pools", json={"apiVersion": "v2", "kind": "PoolList", "items": []})
    with pytest.raises(RunError, match="^platform: no ModelArts pool c-2e7d2c-pool in this region; deploy"):
        ma_run.submit(_modelarts(), "c", STAMP)


def _on_platform(cloud: str, platform: str, job: dict, changes: dict) -> ClusterConfig:
    """The cloud's example cluster on `platform` with `job`: the VM stack's cluster moved there (the
    Chinese clouds' VM stacks refuse a job, their node agent is not built)."""
    values = {**example(cloud), **{k: v for k, v in changes.items() if k != "job"}}
    job_config = JobConfig.model_validate(changes.get("job", job))
    return ClusterConfig.model_validate(values).model_copy(
        update={"platform": platform, "file_system": None, "job": job_config}
    )


def _pai(**changes) -> ClusterConfig:
    job = {**JOB, "code": "oss://team-code/llm/", "image": "dsw-registry.cn-beijing.cr.aliyuncs.com/team/torch:2.5"}
    return _on_platform("alicloud", "pai", job, changes)


@responses.activate
def test_pai_dlc_job_in_the_stacks_workspace(monkeypatch):
    cluster = _pai(purchase="spot", data={"source": "oss://team-data/corpus/"})
    env = {"ALIBABA_CLOUD_ACCESS_KEY_ID": "LTAI-test-id", "ALIBABA_CLOUD_ACCESS_KEY_SECRET": "test-secret-not-real"}
    region = cluster.region
    responses.get(
        f"https://aiworkspace.{region}.aliyuncs.com/api/v1/workspaces", json=_answer("pai-list-workspaces.json")
    )
    responses.post(f"https://pai-dlc.{region}.aliyuncs.com/api/v1/jobs", json=_answer("pai-dlc-job-created.json"))
    done = pai_dlc.submit(cluster, "c", STAMP, env)
    listed, created = responses.calls
    assert "WorkspaceName=c_ws" in listed.request.url
    assert created.request.headers["Authorization"].startswith("ACS3-HMAC-SHA256 Credential=LTAI-test-id")
    body = json.loads(created.request.body)
    assert (body["JobType"], body["WorkspaceId"]) == ("PyTorchJob", "86995")
    [spec] = body["JobSpecs"]
    assert spec == {
        "Type": "Worker",
        "Image": "dsw-registry.cn-beijing.cr.aliyuncs.com/team/torch:2.5",
        "PodCount": cluster.nodes,
        "EcsSpec": cluster.instance_type,
        "SpotSpec": {"SpotStrategy": "SpotWithPriceLimit", "SpotDiscountLimit": 1.0},
    }
    assert body["UserCommand"] == node_command("torchrun", "/mnt/code/train.py", ["--epochs", "10"], 8, 3)
    assert [s["MountPath"] for s in body["DataSources"]] == ["/mnt/code", "/mnt/checkpoints", "/mnt/data"]
    assert body["DataSources"][0]["Uri"] == f"oss://team-code.oss-{region}-internal.aliyuncs.com/llm/"
    assert body["Envs"] == {"NCCL_DEBUG": "WARN", "TRAINSTACK_CHECKPOINT_DIR": "/mnt/checkpoints"}
    assert body["JobMaxRunningTimeMinutes"] == round(cluster.hours * 90)
    assert done.job_id == "dlc7e3kbp4bqkz5y" and done.checkpoints == "oss://team-code/trainstack/c/checkpoints/"


def _tione(**changes) -> ClusterConfig:
    job = {**JOB, "code": "cos://team-code-1250000000/llm/", "image": "torch1.9-py3.8-cuda11.1-gpu"}
    return _on_platform("tencentcloud", "ti-one", job, {"purchase": "on-demand", **changes})


@responses.activate
def test_ti_one_task_postpaid_with_ddp():
    cluster = _tione(
        job={
            **JOB,
            "code": "cos://team-code-1250000000/llm/",
            "image": "torch1.9-py3.8-cuda11.1-gpu",
            "launcher": "paddle",
        }
    )
    env = {"TENCENTCLOUD_SECRET_ID": "AKID-test", "TENCENTCLOUD_SECRET_KEY": "test-key-not-real"}
    responses.post("https://tione.tencentcloudapi.com/", json=_answer("tione-training-task-created.json"))
    done = ti_one.submit(cluster, "c", STAMP, env)
    sent = responses.calls[0].request
    assert sent.headers["X-TC-Action"] == "CreateTrainingTask" and sent.headers["X-TC-Version"] == "2021-11-11"
    assert sent.headers["Authorization"].startswith("TC3-HMAC-SHA256 Credential=AKID-test/")
    body = json.loads(sent.body)
    assert body["ChargeType"] == "POSTPAID_BY_HOUR" and body["TrainingMode"] == "DDP"
    assert body["ResourceConfigInfos"] == [
        {"Role": "WORKER", "InstanceType": f"TI.{cluster.instance_type.upper()}.POST", "InstanceNum": cluster.nodes}
    ]
    assert (body["FrameworkName"], body["FrameworkVersion"]) == ("PYTORCH", "1.9")
    assert body["CodePackagePath"] == {"Bucket": "team-code-1250000000", "Region": cluster.region, "Paths": ["llm/"]}
    start = body["StartCmdInfo"]["StartCmd"]
    assert start.startswith("env NCCL_DEBUG=WARN TRAINSTACK_CHECKPOINT_DIR=/opt/ml/output/checkpoints ")
    assert "python -m paddle.distributed.launch --master=$MASTER_ADDR:$MASTER_PORT --nnodes=$WORLD_SIZE" in start
    assert start.endswith("/opt/ml/code/train.py --epochs 10")
    assert done.job_id == "train-51ba4bf0-3f36-4c2b-9d55-1b9c2b8f0a12"


@pytest.mark.parametrize(
    ("build", "job", "field"),
    [
        pytest.param(_modelarts, {"code": None}, "job.code: ModelArts runs the job's code from obs://", id="ma-code"),
        pytest.param(_modelarts, {"code": "s3://x/y/"}, "job.code: s3://x/y/ is not a obs://", id="ma-store"),
        pytest.param(_modelarts, {"image": None}, "job.image: ModelArts needs", id="ma-image"),
        pytest.param(_modelarts, {"image": "swr.cn-north-4.myhuaweicloud.com/t/i:1"}, "job.image: swr", id="ma-swr"),
        pytest.param(_modelarts, {"nproc_per_node": 4}, "job.nproc_per_node", id="ma-nproc"),
        pytest.param(_modelarts, {"launcher": "paddle"}, "job.launcher: ModelArts", id="ma-paddle"),
        pytest.param(_pai, {"image": None}, "job.image: PAI-DLC needs", id="pai-image"),
        pytest.param(_tione, {"image": "tf1.15-py3.7-cpu"}, "job.image: tf1.15-py3.7-cpu is not", id="ti-image"),
    ],
)
def test_refusals_name_the_field(build, job, field):
    cluster = build()
    changed = cluster.job.model_copy(update=job)
    preview = {_modelarts: ma_run.request_preview, _pai: pai_dlc.request_preview, _tione: ti_one.request_preview}[build]
    with pytest.raises(RunError, match=f"^{field}"):
        preview(cluster.model_copy(update={"job": changed}), "c", STAMP)


def test_ti_one_has_no_spot():
    with pytest.raises(RunError, match="^purchase: TI-ONE has no spot"):
        ti_one.task_request(_tione(purchase="spot"), "c", STAMP)


@responses.activate
def test_status_follows_each_platforms_job(huawei, monkeypatch):
    """`trainstack status` reads each platform's job in its own API (recorded answers)."""
    from trainstack.run.record import RunRecord
    from trainstack.status.job_follow import job_line

    for key, value in {
        "ALIBABA_CLOUD_ACCESS_KEY_ID": "LTAI-test-id",
        "ALIBABA_CLOUD_ACCESS_KEY_SECRET": "test-secret-not-real",
        "TENCENTCLOUD_SECRET_ID": "AKID-test",
        "TENCENTCLOUD_SECRET_KEY": "test-key-not-real",
    }.items():
        monkeypatch.setenv(key, value)
    job = "3faf5c03-aaa1-4cbe-879d-24b05d997347"
    responses.get(
        f"https://modelarts.cn-north-4.myhuaweicloud.com/v2/{PROJECT}/training-jobs/{job}",
        json=_answer("modelarts-training-job-running.json"),
    )
    responses.get(
        "https://pai-dlc.cn-beijing.aliyuncs.com/api/v1/jobs/dlc7e3kbp4bqkz5y", json=_answer("pai-dlc-job-running.json")
    )
    responses.post("https://tione.tencentcloudapi.com/", json=_answer("tione-training-task-failed.json"))
    lines = [
        job_line(RunRecord(job, "modelarts", "huaweicloud", "cn-north-4", "t0", "l", "k"), "c"),
        job_line(RunRecord("dlc7e3kbp4bqkz5y", "pai", "alicloud", "cn-beijing", "t0", "l", "k"), "c"),
        job_line(RunRecord("train-51ba4bf0", "ti-one", "tencentcloud", "ap-guangzhou", "t0", "l", "k"), "c"),
    ]
    assert [line.split("): ", 1)[1].split(";")[0] for line in lines] == [
        "Running (Running)",
        "Running",
        "FAILED: process exited with code 1",
    ]
    assert json.loads(responses.calls[2].request.body) == {"Id": "train-51ba4bf0"}
    assert responses.calls[2].request.headers["X-TC-Action"] == "DescribeTrainingTask"


@pytest.mark.parametrize(
    ("platform", "refused"),
    [
        pytest.param("sagemaker", True, id="sagemaker"),
        pytest.param("azureml", True, id="azureml"),
        pytest.param("ModelArts", True, id="modelarts"),
        pytest.param("pai", False, id="pai-word"),
        pytest.param("PAI-DLC", False, id="pai-dlc-name"),
        pytest.param("ti-one", False, id="ti-one"),
    ],
)
def test_paddle_rows_left_out_where_the_platform_runs_its_own_launcher(platform, refused):
    """The resolver's `job` constraint and `run` share this answer (`clouds.platform_job.job_problem`)."""
    from clouds.platform_job import job_problem

    code = {"pai": "oss://b/code/", "PAI-DLC": "oss://b/code/", "ti-one": "cos://b/code/"}.get(platform)
    job = JobConfig.model_validate({"command": "train.py", "launcher": "paddle", "code": code, "image": "img"})
    problem = job_problem(platform, job, 2)
    assert (problem is not None) is refused
    if refused:
        assert problem.startswith(f"job.launcher: {platform} starts the job's processes with its own")


@pytest.mark.parametrize(
    ("image", "starts"),
    [
        pytest.param(
            "torch1.9-py3.8-cuda11.1-gpu", "python -m torch.distributed.run --nnodes=$WORLD_SIZE", id="1.9-module"
        ),
        pytest.param("torch1.10-py3.8-cuda11.3-gpu", "torchrun --nnodes=$WORLD_SIZE", id="1.10-torchrun"),
        pytest.param("torch2.1.2-py3.10-cuda12.1-gpu", "torchrun --nnodes=$WORLD_SIZE", id="2.1-torchrun"),
    ],
)
def test_ti_one_start_command_runs_in_its_environments_pytorch(image, starts):
    """`torchrun` first shipped in PyTorch 1.10 (pytorch PR #64049); 1.9 has only the module
    (new-user pass 2, finding 2: the committed TI-ONE example names torch1.9)."""
    cluster = _tione()
    request = ti_one.task_request(
        cluster.model_copy(update={"job": cluster.job.model_copy(update={"image": image})}), "c", STAMP
    )
    command = request["StartCmdInfo"]["StartCmd"]
    assert f" {starts} " in command and command.count("torch.distributed.run") + command.count("torchrun") == 1


def test_ti_one_refuses_a_pytorch_without_torch_distributed_run():
    cluster = _tione()
    job = cluster.job.model_copy(update={"image": "torch1.8-py3.7-cuda10.2-gpu"})
    with pytest.raises(
        RunError, match=r"^job.image: torch1.8-py3.7-cuda10.2-gpu has PyTorch 1.8, which has no torch.distributed.run"
    ):
        ti_one.task_request(cluster.model_copy(update={"job": job}), "c", STAMP)
