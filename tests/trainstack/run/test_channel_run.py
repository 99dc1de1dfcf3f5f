"""`trainstack run` on GCP and Azure VM stacks: the run written to the head's job channel (GCP:
`instances.setMetadata` of its `trainstack-job` attribute; Azure: PATCH of the VM's user data),
against recorded answers in the Compute Engine and ARM REST formats served by `responses`; the
requests each run sends are asserted (`tests/fixtures/vm_run/`)."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import pytest
import responses

from clouds.job_bootstrap import channel_text
from nodeagent import publisher
from tests.cli.helpers import one_error_line, run
from trainstack.run import head_channel
from trainstack.run.record import load

ROOT = Path(__file__).parents[3]
ANSWERS = ROOT / "tests" / "fixtures" / "vm_run"
JOB = "    job:\n      command: /fsx/train.py --epochs 10\n"
STAMP = "20261207-043900"
NOW = "2026-12-07T04:39:00+00:00"
GCP = "https://compute.googleapis.com/compute/v1/projects/p/zones/europe-north1-c"
SUBSCRIPTION = "/subscriptions/00000000-0000-0000-0000-000000000000"
HEAD_VM = f"https://management.azure.com{SUBSCRIPTION}/resourceGroups/train-rg9d8c7b6/providers/Microsoft.Compute/virtualMachines/train-head5c6d7e8f"


def _project(tmp_path: Path, monkeypatch, stack: str, provider: str, job: str = JOB) -> Path:
    """The committed stack `stack` with a job, as the project's stack `train`."""
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    text = (ROOT / "stacks" / stack).read_text()
    (tmp_path / "stacks" / "Pulumi.train.yaml").write_text(
        text.replace(f"    provider: {provider}\n", f"    provider: {provider}\n{job}", 1)
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TRAINSTACK_NOW", NOW)
    monkeypatch.setattr(head_channel, "PAUSE_SECONDS", 0.0)
    return tmp_path


def _deployed(folder: Path) -> str:
    """The channel `pulumi up` wrote for the project's stack (its job as it is now)."""
    from profiles.stack.file import read_cluster

    _, cluster = read_cluster(folder / "stacks" / "Pulumi.train.yaml")
    return channel_text("train", cluster)


def _answer(name: str, **values: str) -> dict:
    text = (ANSWERS / name).read_text()
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return json.loads(text)


@pytest.fixture()
def gcp(tmp_path, monkeypatch):
    monkeypatch.setenv("GOOGLE_OAUTH_ACCESS_TOKEN", "token-1")
    monkeypatch.setenv("GOOGLE_PROJECT", "p")
    return _project(tmp_path, monkeypatch, "Pulumi.training-a3-gcp.yaml", "gcp")


@responses.activate
def test_gcp_run_sets_the_heads_channel_with_the_run_and_waits_for_the_operation(gcp):
    deployed = _deployed(gcp)
    job_id = publisher.decode(deployed)["job_id"]
    responses.get(f"{GCP}/instances", json=_answer("gcp-instances-list.json", CHANNEL=deployed))
    responses.post(f"{GCP}/instances/train-head-3f9a2b1/setMetadata", json=_answer("gcp-set-metadata-running.json"))
    operation = "operation-1796643540000-5f1c0a7e3b2d1-9c8b7a6e-4d3c2b1a"
    responses.get(f"{GCP}/operations/{operation}", json=_answer("gcp-set-metadata-done.json"))
    result = run("run", "-s", "train")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        f"job: {job_id}-{STAMP}",
        "logs: /fsx/trainstack/logs/train/ on the shared file system (launcher-<node>.log, one folder per worker)",
        "checkpoints: /fsx/checkpoints/train",
    ]
    assert lines[3].startswith("expected cost: $")
    sent = json.loads(responses.calls[1].request.body)
    assert sent["fingerprint"] == "kL8w0Jb1mPc="  # the head's, not another instance's
    assert [i["key"] for i in sent["items"]] == ["enable-oslogin", "startup-script", "trainstack-job"]
    assert sent["items"][:2] == [
        {"key": "enable-oslogin", "value": "TRUE"},
        {"key": "startup-script", "value": "#!/bin/bash\n# head bootstrap"},
    ]
    assert publisher.decode(sent["items"][2]["value"]) == {**publisher.decode(deployed), "run_id": f"{job_id}-{STAMP}"}
    assert len(responses.calls) == 3
    record = load(gcp, "train")
    assert record is not None and (record.job_id, record.platform, record.provider) == (
        f"{job_id}-{STAMP}",
        "vm",
        "gcp",
    )


@responses.activate
def test_gcp_run_of_a_job_edited_since_pulumi_up_is_refused_and_sends_nothing(gcp):
    deployed = _deployed(gcp)
    edited = gcp / "stacks" / "Pulumi.train.yaml"
    edited.write_text(edited.read_text().replace("--epochs 10", "--epochs 20"))
    responses.get(f"{GCP}/instances", json=_answer("gcp-instances-list.json", CHANNEL=deployed))
    result = run("run", "-s", "train")
    one_error_line(result, f"job: the nodes run job {publisher.decode(deployed)['job_id']}, the stack file's job is")
    assert "deploy it first: pulumi up -s train" in result.stderr
    assert [c.request.method for c in responses.calls] == ["GET"] and load(gcp, "train") is None


@responses.activate
def test_gcp_stale_fingerprint_is_one_line(gcp):
    responses.get(f"{GCP}/instances", json=_answer("gcp-instances-list.json", CHANNEL=_deployed(gcp)))
    responses.post(
        f"{GCP}/instances/train-head-3f9a2b1/setMetadata",
        json=_answer("gcp-set-metadata-stale-fingerprint.json"),
        status=412,
    )
    result = run("run", "-s", "train")
    one_error_line(  # the platform refused the call: the work failed (exit 1), not the job
        result,
        "run: GCP POST projects/p/zones/europe-north1-c/instances/train-head-3f9a2b1/setMetadata failed (412)",
        1,
    )


@responses.activate
def test_gcp_stack_without_a_head_says_to_deploy(gcp):
    responses.get(
        f"{GCP}/instances", json={"kind": "compute#instanceList", "id": "projects/p/zones/europe-north1-c/instances"}
    )
    # the job is fine (a stack without one is refused earlier): the stack is not up
    one_error_line(
        run("run", "-s", "train"),
        "stack: no head node train-head in europe-north1-c; deploy the stack first: pulumi up -s train",
    )


@pytest.fixture()
def azure(tmp_path, monkeypatch):
    monkeypatch.setenv("AZURE_ACCESS_TOKEN", "token-2")
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", "00000000-0000-0000-0000-000000000000")
    return _project(tmp_path, monkeypatch, "Pulumi.training-h100-azure.yaml", "azure")


def _azure_head(user_data: str) -> None:
    """ARM's VM answers around an update: `Updating` while it applies the PATCHed user data, then
    `Succeeded` (`Virtual Machines - Get` with `$expand=userData`)."""
    state = {"userData": user_data, "reads": 0}

    def get(request):
        state["reads"] += 1
        settled = "Updating" if state.get("patched") and state["reads"] == 2 else "Succeeded"
        return 200, {}, json.dumps(_answer("azure-vm-head.json", USER_DATA=state["userData"], STATE=settled))

    def patch(request):
        state["userData"], state["patched"] = json.loads(request.body)["properties"]["userData"], True
        return 200, {}, json.dumps(_answer("azure-vm-head.json", USER_DATA=state["userData"], STATE="Updating"))

    responses.add_callback(responses.GET, HEAD_VM, callback=get)
    responses.add_callback(responses.PATCH, HEAD_VM, callback=patch)


@responses.activate
def test_azure_run_patches_the_head_vms_user_data_with_the_run(azure):
    deployed = _deployed(azure)
    job_id = publisher.decode(deployed)["job_id"]
    arm = f"https://management.azure.com{SUBSCRIPTION}/providers/Microsoft.Compute/virtualMachines"
    responses.get(arm, json=_answer("azure-vm-list.json"))
    _azure_head(base64.b64encode(deployed.encode()).decode())
    result = run("run", "-s", "train")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == f"job: {job_id}-{STAMP}"
    calls = [(c.request.method, c.request.url.split("?")[0]) for c in responses.calls]
    assert calls == [("GET", arm), ("GET", HEAD_VM), ("PATCH", HEAD_VM), ("GET", HEAD_VM), ("GET", HEAD_VM)]
    assert responses.calls[1].request.params == {"api-version": "2024-11-01", "$expand": "userData"}
    sent = json.loads(responses.calls[2].request.body)
    assert list(sent) == ["properties"] and list(sent["properties"]) == ["userData"]  # nothing else of the VM
    channel = base64.b64decode(sent["properties"]["userData"]).decode()
    assert publisher.decode(channel) == {**publisher.decode(deployed), "run_id": f"{job_id}-{STAMP}"}
    assert load(azure, "train").provider == "azure"  # type: ignore[union-attr]


@responses.activate
def test_azure_head_without_a_channel_says_to_deploy(azure):
    arm = f"https://management.azure.com{SUBSCRIPTION}/providers/Microsoft.Compute/virtualMachines"
    responses.get(arm, json=_answer("azure-vm-list.json"))
    responses.get(HEAD_VM, json={**_answer("azure-vm-head.json", USER_DATA="", STATE="Succeeded")})
    one_error_line(run("run", "-s", "train"), "job: the head node carries no job channel; deploy the job first")
    assert [c.request.method for c in responses.calls] == ["GET", "GET"]


@pytest.mark.parametrize(
    ("provider", "stack", "method"),
    [
        pytest.param("gcp", "Pulumi.training-a3-gcp.yaml", "POST", id="gcp"),
        pytest.param("azure", "Pulumi.training-h100-azure.yaml", "PATCH", id="azure"),
    ],
)
def test_dry_run_prints_the_channel_write_and_sends_nothing(tmp_path, monkeypatch, provider, stack, method):
    folder = _project(tmp_path, monkeypatch, stack, provider)
    result = run("run", "-s", "train", "--dry-run")
    assert result.exit_code == 0, result.output
    request = json.loads(result.stdout)
    assert (
        request["method"] == method
        and f"run_id {publisher.decode(_deployed(folder))['job_id']}-{STAMP}" in result.stdout
    )
    assert load(folder, "train") is None
