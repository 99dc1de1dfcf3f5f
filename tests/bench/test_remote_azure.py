"""`bench run --send`, `bench fetch` and the job's progress on Azure through Run Command: recorded
ARM answers in the Compute REST API's documented shapes (scale sets, their VMs with instance
views, the 202 with `Azure-AsyncOperation`, the operation's answer as Azure/azure-cli#32286
records it) served over HTTP by `responses`; the script the VM would run is run by bash here
on a folder laid out as the nodes leave it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import responses
from typer.testing import CliRunner

from trainstack.bench import azure_run
from trainstack.bench.node_run import RemoteError
from trainstack.cli.app import app

ROOT = Path(__file__).parents[2]
ANSWERS = ROOT / "tests" / "fixtures"
STACK = "training-h100-azure"
SUBSCRIPTION = "00000000-0000-0000-0000-000000000000"
ARM = f"https://management.azure.com/subscriptions/{SUBSCRIPTION}"
SET = f"{ARM}/resourceGroups/train-rg9d8c7b6/providers/Microsoft.Compute/virtualMachineScaleSets/train-nodes4e5f6a7"
OPERATIONS = f"{ARM}/providers/Microsoft.Compute/locations/eastus/operations"


def _sent(request) -> dict:
    """The JSON body of a recorded request."""
    body = request.body
    return json.loads(body if isinstance(body, (str, bytes)) else "{}")


def _answer(path: str) -> dict:
    return json.loads((ANSWERS / path).read_text())


def succeeded(stdout: str, stderr: str = "", name: str = "5f0b8a2e-0000-4000-8000-000000000003") -> dict:
    """An action Run Command operation that ended, in the shape Azure/azure-cli#32286 records."""
    message = f"Enable succeeded: \n[stdout]\n{stdout}\n[stderr]\n{stderr}"
    output = {"code": "ProvisioningState/succeeded", "level": "Info", "displayStatus": "Provisioning succeeded"}
    return {
        "startTime": "2026-12-07T13:00:01.1790546+00:00",
        "endTime": "2026-12-07T13:00:24.0981520+00:00",
        "status": "Succeeded",
        "properties": {"output": {"value": [{**output, "message": message}]}},
        "name": name,
    }


def vm_script(commands: list[str], root: str, here: Path) -> str:
    """Standard output of the script a VM gets (`in_bash`), run by bash with `root` moved to `here`."""
    script = "\n".join(azure_run.in_bash(commands)).replace(root, str(here))
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30, check=True).stdout


def _list_the_workers() -> None:
    listed = _answer("status/azure-vmss-list.json")
    for item in listed["value"]:  # the cluster's set, named as the stack's cluster
        if item["tags"]["trainstack:cluster"] == "train":
            item["tags"]["trainstack:cluster"] = STACK
    responses.get(f"{ARM}/providers/Microsoft.Compute/virtualMachineScaleSets", json=listed)
    responses.get(f"{SET}/virtualMachines", json=_answer("remote/azure-vmss-vms.json"))


def _started(vm: str, operation: str) -> None:
    url = f"{OPERATIONS}/{operation}?api-version=2024-11-01"
    responses.post(f"{vm}/runCommand", status=202, headers={"Azure-AsyncOperation": url, "Location": url + "&m=1"})


@pytest.fixture()
def project(tmp_path, monkeypatch):
    """The committed Azure stack with a job, as a project folder, and ARM credentials."""
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    text = (ROOT / "stacks" / f"Pulumi.{STACK}.yaml").read_text()
    job = "    job:\n      command: /fsx/train.py\n"
    (tmp_path / "stacks" / f"Pulumi.{STACK}.yaml").write_text(
        text.replace("    provider: azure\n", "    provider: azure\n" + job, 1)
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AZURE_ACCESS_TOKEN", "token-4")
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", SUBSCRIPTION)
    return tmp_path


@responses.activate
def test_the_workers_are_the_running_vms_of_the_clusters_sets() -> None:
    _list_the_workers()
    assert azure_run.worker_vms(lambda path, params=None: _list(path, params), SUBSCRIPTION, STACK) == [
        f"{SET.removeprefix('https://management.azure.com')}/virtualMachines/0",
        f"{SET.removeprefix('https://management.azure.com')}/virtualMachines/2",
    ]  # instance 1 is deallocated (an evicted spot VM); `other`'s set is not asked
    assert responses.calls[1].request.params == {  # type: ignore[attr-defined]
        "api-version": "2024-11-01",
        "$expand": "instanceView",
    }
    assert azure_run.short(f"{SET}/virtualMachines/2") == "train-nodes4e5f6a7_2"


def _list(path: str, params=None) -> list:
    from profiles.preflight import azure_api

    return azure_api.listed(path, "token-4", azure_run.API_VERSION, params)


@pytest.mark.parametrize(
    ("message", "output"),
    [
        pytest.param("Enable succeeded: \n[stdout]\nhello\nworld\n\n[stderr]\n", "hello\nworld", id="stdout"),
        pytest.param("Enable succeeded: \n[stdout]\nok\n[stderr]\nwarning: x\n", "ok\nwarning: x", id="and-stderr"),
        pytest.param("Enable succeeded: \n[stdout]\n\n[stderr]\n", "", id="nothing"),
    ],
)
def test_the_scripts_output_is_read_from_the_message(message, output) -> None:
    assert azure_run.script_output(message) == output


@responses.activate
def test_wait_polls_each_operation_until_it_ends_and_names_a_vm_that_failed(monkeypatch) -> None:
    monkeypatch.setenv("AZURE_ACCESS_TOKEN", "token-4")
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", SUBSCRIPTION)
    vms = [f"{SET}/virtualMachines/0", f"{SET}/virtualMachines/2"]
    for vm, operation in zip(vms, ("op-0", "op-2"), strict=True):
        _started(vm, operation)
    responses.get(f"{OPERATIONS}/op-0", json=_answer("remote/azure-run-command-in-progress.json"))
    responses.get(f"{OPERATIONS}/op-0", json=succeeded("node 0 says hi"))
    responses.get(f"{OPERATIONS}/op-2", json=_answer("remote/azure-run-command-failed.json"))
    pauses: list[float] = []
    runner = azure_run.AzureRunner(None, STACK, {}, sleep=pauses.append)
    handle = runner.send(vms, ["echo hi"], "test", 60)
    assert _sent(responses.calls[0].request) == {
        "commandId": "RunShellScript",
        "script": ["bash <<'TRAINSTACK_BASH'", "echo hi", "TRAINSTACK_BASH"],
    }
    with pytest.raises(RemoteError, match="^train-nodes4e5f6a7_2: Failed: VMAgentStatusCommunicationError: VM "):
        runner.wait(handle, 60, pause=5.0)
    assert pauses == [5.0]  # op-0 was still running at the first look
    with pytest.raises(RemoteError, match="no running VM of a scale set tagged"):
        runner.wait({}, 60)


def on_the_node(commands: list[str], here: Path) -> str:
    """What a VM prints for `commands` (a detached benchmark start), run by bash here: the job
    file, the script folder and the shared file system moved under `here`, `systemd-run`
    echoed instead of started, the job unit inactive as on a node whose job was stopped."""
    from trainstack.bench.remote import JOB_FILE, JOB_UNIT_FILE, SCRIPTS, results_root

    (here / "job.json").write_text("{}")
    (here / "job.service").touch()
    script = "\n".join(azure_run.in_bash(commands)).replace(JOB_FILE, str(here / "job.json"))
    script = script.replace(JOB_UNIT_FILE, str(here / "job.service"))
    script = script.replace(SCRIPTS, str(here / "scripts")).replace(results_root("azure", STACK), str(here / "fs"))
    script = script.replace("systemd-run ", "echo systemd-run ")
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30, check=True).stdout


@responses.activate
def test_bench_run_send_wait_starts_a_unit_on_every_worker_then_fetches(project, tmp_path, monkeypatch) -> None:
    """`bench run --send --wait`: the run started detached on both running workers (the node
    side run by bash), its end markers polled on one, then its logs fetched into the results file."""
    from clouds.contract import JobConfig
    from profiles.preflight.check import read_cluster
    from trainstack.bench import remote
    from trainstack.cli import bench_remote

    run = "20261207T060000Z"
    monkeypatch.setattr(remote, "new_run_id", lambda: run)
    monkeypatch.setattr(bench_remote, "POLL_SECONDS", 0.0)
    cluster = read_cluster(project / "stacks" / f"Pulumi.{STACK}.yaml").model_copy(
        update={"job": JobConfig(command="/fsx/train.py")}
    )
    started = remote.detached(run, remote.node_commands(STACK, cluster, run, 5, 256, "8G"))
    start_output = on_the_node(started, tmp_path)
    assert start_output.startswith("systemd-run --unit=trainstack-bench-20261207T060000Z --collect /bin/bash ")
    written = (tmp_path / "scripts" / f"bench-{run}.sh").read_text()
    assert "python3 -m nodeagent run" in written and written.endswith(
        'then: trainstack bench fetch -s training-h100-azure"\n'
    )
    subprocess.run(["bash", "-n", str(tmp_path / "scripts" / f"bench-{run}.sh")], check=True)
    logs = tmp_path / "fs" / run
    logs.mkdir(parents=True)
    shutil.copy(ANSWERS / "bench" / "nccl-all.log", logs / "nccl-all.log")
    shutil.copy(ANSWERS / "bench" / "train.log", logs / "train-resnet50-node1.log")
    for host in ("train-nod000000", "train-nod000002"):
        (logs / f"finished-{host}").touch()
    root = remote.results_root("azure", STACK)
    finished = vm_script(remote.finished_commands(STACK, cluster, run), root, tmp_path / "fs")
    fetched = vm_script(remote.fetch_commands(STACK, cluster, run), root, tmp_path / "fs")
    _list_the_workers()
    for index in ("0", "2"):
        _started(f"{SET}/virtualMachines/{index}", f"op-{index}")
        responses.get(f"{OPERATIONS}/op-{index}", json=succeeded(start_output))
    _started(f"{SET}/virtualMachines/0", "op-w")
    _started(f"{SET}/virtualMachines/0", "op-f")
    responses.get(f"{OPERATIONS}/op-w", json=succeeded(finished))
    responses.get(f"{OPERATIONS}/op-f", json=succeeded(fetched))
    argv = ["bench", "run", "-s", STACK, "--send", "--wait", "--steps", "5", "-o", str(tmp_path / "run.json")]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.output
    assert f"benchmark {run} sent to 2 nodes of {STACK} (2 Run Command operations)" in result.output
    assert "finished on 2 nodes" in result.output and "results written: " in result.output
    posts = [c.request for c in responses.calls if c.request.method == "POST"]
    assert [str(p.url).split("?")[0].rsplit("/", 2)[-2] for p in posts] == ["0", "2", "0", "0"]
    assert _sent(posts[0])["script"] == azure_run.in_bash(started)
    assert json.loads((tmp_path / "run.json").read_text())["provider"] == "azure"


@responses.activate
def test_bench_fetch_reads_the_run_on_one_worker(project, tmp_path) -> None:
    """The fetch script, as the VM gets it, run by bash on a run folder; its output in the
    operation's answer becomes the results file."""
    from clouds.contract import JobConfig
    from profiles.preflight.check import read_cluster
    from trainstack.bench.remote import fetch_commands, results_root

    cluster = read_cluster(project / "stacks" / f"Pulumi.{STACK}.yaml").model_copy(
        update={"job": JobConfig(command="/fsx/train.py")}
    )
    run = tmp_path / "logs" / "20261207T060000Z"
    run.mkdir(parents=True)
    shutil.copy(ANSWERS / "bench" / "nccl-all.log", run / "nccl-all.log")
    shutil.copy(ANSWERS / "bench" / "train.log", run / "train-resnet50-node1.log")
    stdout = vm_script(fetch_commands(STACK, cluster), results_root("azure", STACK), tmp_path / "logs")
    _list_the_workers()
    _started(f"{SET}/virtualMachines/0", "op-f")
    responses.get(f"{OPERATIONS}/op-f", json=succeeded(stdout))
    result = CliRunner().invoke(app, ["bench", "fetch", "-s", STACK, "-o", str(tmp_path / "run.json")])
    assert result.exit_code == 0, result.output
    written = json.loads((tmp_path / "run.json").read_text())
    assert (written["provider"], written["instance_type"], written["nodes"]) == ("azure", "Standard_ND96isr_H100_v5", 2)
    assert [t["model"] for t in written["throughput"]] == ["resnet50", "resnet50"]


@responses.activate
def test_status_follows_the_run_on_every_worker_through_run_command(tmp_path, monkeypatch) -> None:
    """The job line of a run `trainstack run` started on an Azure VM stack: each running worker
    answers with its unit's state and run id (the lines run here by bash, as a worker whose
    unit is active under the run would answer)."""
    from tests.cli.helpers import run
    from trainstack.run.record import RunRecord, save
    from trainstack.status.job_follow import vm_commands

    run_id = "train-1a2b3c4d-20261207-120000"
    (tmp_path / "unit").mkdir()
    (tmp_path / "unit" / "trainstack-job.service").touch()
    (tmp_path / "run-file").write_text(run_id + "\n")
    lines = vm_commands(RunRecord(run_id, "vm", "azure", "eastus", "t0", "l", "k"), str(tmp_path / "run-file"))
    script = "\n".join(azure_run.in_bash(lines)).replace("/etc/systemd/system", str(tmp_path / "unit"))
    script = script.replace("$(systemctl is-active trainstack-job)", "active")  # the worker's unit runs
    answer = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=10, check=True).stdout
    monkeypatch.setenv("AZURE_ACCESS_TOKEN", "token-7")
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", SUBSCRIPTION)
    monkeypatch.setattr("trainstack.status.progress.progress", lambda *a, **k: "progress: (not asked here)")
    responses.get(
        f"{ARM}/providers/Microsoft.Compute/virtualMachineScaleSets", json=_answer("status/azure-vmss-list.json")
    )
    responses.get(f"{SET}/instanceView", json=_answer("status/azure-instance-view.json"))
    responses.get(f"{SET}/virtualMachines", json=_answer("remote/azure-vmss-vms.json"))
    for index in ("0", "2"):
        _started(f"{SET}/virtualMachines/{index}", f"op-s{index}")
        responses.get(f"{OPERATIONS}/op-s{index}", json=succeeded(answer))
    for name in ("__main__.py", "Pulumi.yaml"):
        shutil.copy(ROOT / name, tmp_path)
    (tmp_path / "stacks").mkdir()
    text = (ROOT / "stacks" / f"Pulumi.{STACK}.yaml").read_text()
    job = "    job:\n      command: /fsx/train.py\n"
    (tmp_path / "stacks" / "Pulumi.train.yaml").write_text(
        text.replace("    provider: azure\n", "    provider: azure\n" + job, 1)
    )
    save(tmp_path, "train", RunRecord(run_id, "vm", "azure", "eastus", "2026-12-07T12:00:00+00:00", "logs/", "ckpt/"))
    result = run("status", "-s", "train", "--project-dir", str(tmp_path))
    assert result.stdout.splitlines()[1] == (
        f"job {run_id} (started 2026-12-07T12:00:00+00:00): running on 2 of 2 nodes; logs: logs/; checkpoints: ckpt/"
    )


@pytest.mark.parametrize(
    ("answer", "status", "output"),
    [
        pytest.param({"startTime": "t", "status": "InProgress", "name": "x"}, None, None, id="async-running"),
        pytest.param({}, None, None, id="location-202-no-body"),
        pytest.param(
            {"value": succeeded("hi")["properties"]["output"]["value"]}, "Success", "hi", id="location-result"
        ),
        pytest.param(succeeded("ok"), "Success", "ok", id="async-succeeded"),
        pytest.param(
            {
                "status": "Succeeded",
                "properties": {
                    "output": {
                        "value": [
                            {
                                "code": "ProvisioningState/failed/1",
                                "message": "Enable failed: \n[stdout]\nno\n[stderr]\nboom\n",
                            }
                        ]
                    }
                },
            },
            "Failed",
            "no\nboom",
            id="script-failed",
        ),
    ],
)
def test_an_operation_answer_is_read_in_both_polling_shapes(answer, status, output) -> None:
    found = azure_run.invocation("vm", answer)
    if status is None:
        assert found is None  # still running: asked again
    else:
        assert found is not None and (found.status, found.output) == (status, output)
