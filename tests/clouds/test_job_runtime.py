"""The interpreter every node unit calls has torch: on AWS because the pinned image's release
notes list it (the recorded facts, `clouds.aws.runtime.IMAGE_FACTS`), on Azure and GCP because
the bootstrap itself creates it before any unit starts. The head's rendezvous store runs on
that interpreter whatever `job.python` says, and `plan` / `check` say which torch and NCCL the
nodes run."""

from __future__ import annotations

import json
import re

import pytest

from clouds import torch_wheel
from clouds.aws import runtime as aws_runtime
from clouds.job_runtime import VENV, install_lines, job_python, runtime_for, runtime_line, store_python
from components.aws.compute import DLAMI_NAME
from tests.cli.helpers import ROOT, run
from tests.clouds.rendered import STACKS, Bootstrap, rendered
from tests.clusters import example_config
from trainstack.plan.runner import run_plan

JOB_FILE = re.compile(r"<<'TRAINSTACK_JOB'\n(.*?)\nTRAINSTACK_JOB", re.S)
EXEC = re.compile(r"^ExecStart=(\S+) -m nodeagent (run|store)", re.M)


def _job_bootstraps() -> list[Bootstrap]:
    return [b for stack in STACKS for b in rendered(stack, True)]


def _provider(bootstrap: Bootstrap) -> str:
    return bootstrap.resource_type.split(":")[0].removesuffix("-native")


def test_the_aws_image_is_the_pinned_pytorch_dlami_of_the_recorded_release_notes():
    facts = aws_runtime.IMAGE_FACTS
    assert DLAMI_NAME == facts["name"] and facts["source"].startswith("https://docs.aws.amazon.com/dlami/")
    runtime = runtime_for("aws")
    assert (runtime.python, runtime.torch, runtime.provided_by) == ("/opt/pytorch/bin/python", "2.9", "image")
    assert install_lines(runtime) == []  # nothing to install: the image ships it


def test_every_unit_calls_an_interpreter_that_has_torch():
    bootstraps = _job_bootstraps()
    assert {_provider(b) for b in bootstraps} == {"aws", "azure", "gcp"}
    for bootstrap in bootstraps:
        runtime = runtime_for(_provider(bootstrap))
        job = json.loads(JOB_FILE.search(bootstrap.text).group(1))
        calls = dict((role, program) for program, role in EXEC.findall(bootstrap.text))
        if "store" in calls:  # the head: the store on the runtime's interpreter
            assert calls["store"] == runtime.python, bootstrap.label
        else:  # a worker: the stdlib launcher on the image's python3, torchrun on job["python"]
            assert calls["run"] == "/usr/bin/python3", bootstrap.label
            assert job["python"] == runtime.python, bootstrap.label  # job.python unset: the runtime's
        if runtime.provided_by == "image":
            assert runtime.python == aws_runtime.IMAGE_FACTS["python_location"]
            assert "pip install" not in bootstrap.text
        else:  # the bootstrap creates it, with the pinned torch, before the unit is enabled
            install = bootstrap.text.index(f"{VENV}/bin/pip install --no-cache-dir {torch_wheel.REQUIREMENT}")
            assert runtime.python == f"{VENV}/bin/python"
            assert bootstrap.text.index(f"python3 -m venv --clear {VENV}") < install
            unit = re.search(r"systemctl enable --now trainstack-(job|rendezvous)\.service", bootstrap.text)
            assert install < unit.start(), bootstrap.label


@pytest.mark.parametrize("provider", ["aws", "azure", "gcp"])
def test_a_job_python_runs_the_job_but_never_the_store(provider):
    config = example_config(
        provider, purchase="on-demand", job={"command": "/fsx/t.py", "python": "/fsx/venv/bin/python"}
    )
    runtime = runtime_for(provider)
    assert job_python(config) == "/fsx/venv/bin/python" and store_python(config) == runtime.python
    line = runtime_line(config)
    assert "the job runs on job.python /fsx/venv/bin/python" in line and f"stays on {runtime.python}" in line


@pytest.mark.parametrize(
    ("stack", "words"),
    [
        pytest.param(
            "training-a100",
            [
                "torch 2.9 at /opt/pytorch/bin/python",
                "from the image Deep Learning OSS",
                "aws-ofi-nccl 1.17.1 over EFA",
            ],
            id="aws",
        ),
        pytest.param(
            "training-a3-gcp",
            ["torch 2.9.1 at /opt/trainstack/torch/bin/python", "NCCL 2.27.5", "GPUDirect-TCPX"],
            id="gcp",
        ),
        pytest.param("training-h100-azure", ["torch 2.9.1", "NCCL 2.27.5", "InfiniBand verbs"], id="azure"),
        pytest.param("training-tpu-v5p", [], id="tpu-no-agent"),
        pytest.param("training-a100-tencentcloud", [], id="tencent-no-agent"),
        # a managed platform runs the job in its own image (`trainstack run` names it), not the VMs' runtime
        pytest.param("training-a100-sagemaker", [], id="sagemaker"),
        pytest.param("training-a100-azureml", [], id="azureml"),
    ],
)
def test_plan_says_which_torch_and_nccl_the_nodes_run(stack, words):
    line = run_plan(stack, ROOT, priced=False).runtime
    assert all(w in line for w in words) and (line == "") == (not words), line


def test_fsx_is_created_without_efa_while_the_clients_mount_over_tcp():
    from clouds.aws.cloud_init import user_data
    from clouds.aws.fsx import EFA_CLIENTS_CONFIGURED

    (fsx,) = [
        r for r in run_plan("training-a100", ROOT, priced=False).resources if r["type"].startswith("aws:fsx/lustre")
    ]
    mount = user_data("fs-0.fsx.us-east-1.amazonaws.com", "abcdefgh", True, True)
    assert "@tcp:/abcdefgh" in mount and "lnetctl" not in mount and EFA_CLIENTS_CONFIGURED is False
    assert fsx["inputs"]["efaEnabled"] is False


def test_check_says_it_too(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run("check", "-s", "training-h100-azure")
    assert "job runtime: torch 2.9.1 at /opt/trainstack/torch/bin/python" in result.stdout


def test_the_azure_and_gcp_images_are_pinned_with_their_recorded_contents():
    """Every node, replacement and head boots one named build, never `latest` or a family."""
    from clouds.azure.facts import HPC_IMAGE, HPC_IMAGE_FACTS
    from clouds.gcp.machine import IMAGE, IMAGE_FACTS

    assert HPC_IMAGE["version"] == HPC_IMAGE_FACTS["version"] and HPC_IMAGE["version"] != "latest"
    assert HPC_IMAGE_FACTS["source"].startswith("https://github.com/Azure/azhpc-images/tree/ubuntu-hpc-")
    assert HPC_IMAGE_FACTS["version"].endswith(HPC_IMAGE_FACTS["source"].split("ubuntu-hpc-")[1].split()[0][-10:])
    assert "/images/family/" not in IMAGE and IMAGE.endswith(IMAGE_FACTS["name"])
    assert IMAGE_FACTS["name"].startswith(IMAGE_FACTS["family"] + "-v")
    assert runtime_for("azure").image.endswith(":22.04.2026072901")
    assert runtime_for("gcp").image == IMAGE_FACTS["name"]


@pytest.mark.parametrize("platform", ["hyperpod", "sagemaker"])
def test_a_platform_pool_prints_no_vm_runtime(platform):
    """A pool's nodes run the platform's image (HyperPod's own AMI, SageMaker's containers), not
    the DLAMI the VM stacks pin: `plan` names no VM runtime for them."""
    config = example_config("aws", purchase="on-demand", platform=platform, file_system=None)
    assert runtime_line(config) is None
    assert runtime_line(example_config("aws", purchase="on-demand")) is not None
