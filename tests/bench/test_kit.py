"""The rendered kit, checked as text (and by `bash -n`), for each cloud's NCCL environment."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from profiles.preflight.check import read_cluster
from trainstack.bench.kit import KitOptions, render_kit
from trainstack.cli.app import app

ROOT = Path(__file__).parents[2]


def kit(stack: str, **options) -> tuple[str, list[str]]:
    return render_kit(stack, read_cluster(ROOT / "stacks" / f"Pulumi.{stack}.yaml"), KitOptions(**options))


def test_aws_kit_runs_every_step_with_the_efa_environment() -> None:
    script, notes = kit("training-a100")
    assert "export FI_PROVIDER=efa\n" in script and "export FI_EFA_USE_DEVICE_RDMA=1\n" in script
    assert "-x NCCL_DEBUG -x NCCL_SOCKET_IFNAME -x FI_PROVIDER -x FI_EFA_USE_DEVICE_RDMA" in script
    assert (
        '-np $(( ${#HOSTS[@]} * GPUS )) --hostfile "$HOSTFILE" "$NCCL_TESTS/all_reduce_perf" -b 8 -e 8G -f 2 -g 1'
        in script
    )
    assert '-np $(( 2 * GPUS )) -H "$a:$GPUS,$b:$GPUS"' in script  # pairwise
    assert 'ssh "$h" dcgmi diag -r 2 --json >> "$OUT/dcgm-$h.json"' in script
    assert "GPUS=8\n" in script and "DATA=${DATA:-/fsx/trainstack-bench}" in script
    assert "for model in resnet50 vit_b16; do" in script and "for data in synthetic files; do" in script
    assert "-m trainstack.bench.train --steps 50 --batch 256 --precision bf16" in script
    assert "python3 -m trainstack.bench.sampler --out $OUT/nvml-$h.csv" in script
    assert 'python3 -m trainstack.bench.fsread "$DATA/images"' in script
    assert 'trainstack bench parse "${files[@]}" -s training-a100 -o "$OUT/run.json"' in script
    assert notes == []


def test_kit_is_valid_bash() -> None:
    bash = shutil.which("bash")
    assert bash is not None
    script, _ = kit("training-h100-azure", steps=5, batch=32)
    subprocess.run([bash, "-n"], input=script, text=True, check=True)


def test_azure_kit_uses_the_health_check_environment() -> None:
    script, _ = kit("training-h100-azure")
    assert "export NCCL_TOPO_FILE=/opt/microsoft/ndv5-topo.xml\n" in script
    assert "export NCCL_IB_PCI_RELAXED_ORDERING=1\n" in script and "FI_PROVIDER" not in script
    assert "DATA=${DATA:-/fsx/trainstack-bench}" in script  # where the node bootstrap mounts AMLFS


def test_gcp_a3_high_runs_with_the_gpudirect_tcpx_plugin() -> None:
    script, notes = kit("training-a3-gcp", data_dir="/mnt/fs/bench")
    assert notes == []  # the bootstrap installs the plugin; the kit sets its variables
    assert "export NCCL_NET=GPUDirectTCPX_v7\n" in script
    assert "export NCCL_GPUDIRECTTCPX_SOCKET_IFNAME=enp6s0,enp12s0,enp134s0,enp140s0\n" in script
    assert "DATA=${DATA:-/mnt/fs/bench}" in script


def test_bench_run_writes_the_kit_and_prints_the_steps(tmp_path, monkeypatch) -> None:
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    (tmp_path / "stacks").mkdir()
    shutil.copy(ROOT / "stacks" / "Pulumi.training-a100.yaml", tmp_path / "stacks")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["bench", "run", "-s", "training-a100", "--steps", "20"])
    assert result.exit_code == 0, result.output
    written = tmp_path / "bench-kit" / "training-a100" / "run-bench.sh"
    assert "--steps 20 " in written.read_text()
    assert f"kit written: {written}" in result.output and "HOSTFILE=~/hostfile bash run-bench.sh" in result.output
    assert "aws ssm start-session" in result.output and "scp" not in result.output


@pytest.mark.parametrize("stack", ["nope", "../x"])
def test_bench_run_unknown_stack(stack, tmp_path, monkeypatch) -> None:
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["bench", "run", "-s", stack])
    assert result.exit_code == 2 and result.output.startswith("error: ")


def test_a_stack_with_a_job_runs_the_benchmark_through_its_node_agent() -> None:
    from clouds.contract import JobConfig

    cluster = read_cluster(ROOT / "stacks" / "Pulumi.training-a100.yaml")
    script, notes = render_kit("training-a100", cluster.model_copy(update={"job": JobConfig(command="/fsx/train.py")}))
    assert "python3 -m trainstack.bench.jobfile /etc/trainstack/job.json $OUT/job-$model-$data-$rank.json" in script
    assert "&& python3 -m nodeagent run $OUT/job-$model-$data-$rank.json" in script
    assert "systemctl is-active --quiet trainstack-job" in script and "torchrun" not in script
    assert any("node agent" in n for n in notes)
    subprocess.run(["bash", "-n"], input=script, text=True, check=True)


def test_bench_job_file_keeps_the_nodes_launcher_settings() -> None:
    from nodeagent.job import NodeJob
    from trainstack.bench.jobfile import bench_job

    base = {
        "command": ["/fsx/train.py"],
        "rdzv_host": "10.0.0.5",
        "job_id": "training-a100",
        "min_nodes": 1,
        "max_nodes": 2,
        "nproc_per_node": 8,
        "env_file": "/etc/profile.d/trainstack-nccl.sh",
        "cloud": "aws",
        "max_restarts": 3,
        "log_dir": "/fsx/logs",
        "job_doc": "/fsx/trainstack/jobs/training-a100.json",
    }
    job = bench_job(base, ["--steps", "5", "--model", "vit_b16"], "bench-vit_b16-files")
    assert job["job_doc"] == ""  # the stack's published job must not replace the benchmark
    assert job["command"] == ["trainstack.bench.train", "--steps", "5", "--model", "vit_b16"] and job["module"]
    assert (job["job_id"], job["min_nodes"], job["max_nodes"], job["max_restarts"], job["log_dir"]) == (
        "training-a100-bench-vit_b16-files",
        2,
        2,
        0,
        "",
    )
    assert job["rdzv_host"] == "10.0.0.5" and job["env_file"] == base["env_file"]
    NodeJob.from_dict(job)  # the node agent accepts it
    with pytest.raises(ValueError, match="not a node-agent job file"):
        bench_job({"command": ["x"]}, [], "b")


def _steps(stack: str, **update) -> str:
    from trainstack.bench.access import access_steps

    cluster = read_cluster(ROOT / "stacks" / f"Pulumi.{stack}.yaml").model_copy(update=update)
    return "\n".join(access_steps(stack, cluster, Path("/k/run-bench.sh"), "/fsx/trainstack-bench/results/run.json"))


@pytest.mark.parametrize(
    ("stack", "way_in", "copy_back"),
    [
        pytest.param(
            "training-a100",
            "aws ssm start-session --region eu-north-1 --target NODE",
            "cat /fsx/trainstack-bench/results/run.json",
            id="aws-session-manager",
        ),
        pytest.param(
            "training-a3-gcp",
            "gcloud compute ssh NODE --zone europe-north1-c --tunnel-through-iap",
            "gcloud compute scp --zone europe-north1-c --tunnel-through-iap "
            "NODE:/fsx/trainstack-bench/results/run.json run.json",
            id="gcp-iap",
        ),
        pytest.param(
            "training-h100-azure",
            "az network bastion ssh --name BASTION --resource-group BASTION_RG --target-resource-id NODE",
            "scp -P 50022 -i key azureuser@127.0.0.1:/fsx/trainstack-bench/results/run.json run.json",
            id="azure-bastion",
        ),
    ],
)
def test_bench_steps_go_through_the_clouds_own_way_in(stack, way_in, copy_back) -> None:
    text = _steps(stack)
    assert way_in in text and copy_back in text
    assert "scp /k" not in text and "scp NODE" not in text  # no plain SSH: the stack opens no port 22


def test_gcp_steps_say_the_iap_range_must_be_admitted_first() -> None:
    assert "first: add 35.235.240.0/20 (IAP's TCP forwarding range) to ssh_cidrs" in _steps("training-a3-gcp")
    assert "first:" not in _steps("training-a3-gcp", ssh_cidrs=["35.235.240.0/20"])


def test_aws_steps_render_the_kit_on_the_node_and_use_the_bucket_with_write_back() -> None:
    from clouds.data import DataConfig

    text = _steps("training-a100")
    assert "trainstack bench run -s training-a100 --out ." in text  # Session Manager copies no file
    assert "Values=$(pulumi stack output node_ids -s training-a100 --json" in text
    back = _steps("training-a100", data=DataConfig(source="s3://team/imagenet/", write_back=True))
    assert (
        "on NODE: aws s3 cp /fsx/trainstack-bench/results/run.json s3://team/imagenet/trainstack-bench/"
        "training-a100-run.json; here: aws s3 cp s3://team/imagenet/trainstack-bench/training-a100-run.json run.json"
    ) in back


def test_a_cloud_without_its_own_way_in_says_ssh_cidrs_is_empty() -> None:
    text = _steps("training-a100-alicloud")
    assert "the stack admits SSH from no address (ssh_cidrs: [])" in text and "scp /k/run-bench.sh NODE:" in text
    opened = _steps("training-a100-alicloud", ssh_cidrs=["10.8.0.0/16"])
    assert "SSH is admitted from 10.8.0.0/16 only" in opened and "first:" not in opened


def test_azure_access_uses_the_components_admin_user() -> None:
    from clouds.azure import CLOUD
    from components.azure.profile import ADMIN_USERNAME

    access = CLOUD.access
    assert access is not None
    assert f"--username {ADMIN_USERNAME} " in access.shell and f"{ADMIN_USERNAME}@127.0.0.1:" in access.copy_back


@pytest.mark.parametrize(
    ("stack", "platform", "command"),
    [
        ("training-a100-sagemaker", "Amazon SageMaker", ["run", "--print"]),
        ("training-a100-sagemaker", "Amazon SageMaker", ["run", "--send"]),
        ("training-a100-sagemaker", "Amazon SageMaker", ["fetch"]),
        ("training-a100-azureml", "Azure Machine Learning", ["run", "--print"]),
    ],
)
def test_bench_refuses_a_managed_platforms_stack_in_one_line(stack, platform, command) -> None:
    # the kit reaches VM nodes (Auto Scaling groups, node agents, /fsx): no kit, no credentials asked
    result = CliRunner().invoke(app, ["bench", *command, "-s", stack, "--project-dir", str(ROOT)])
    assert result.exit_code == 2, result.output
    assert result.output == (
        "error: bench: a managed platform's stack has no nodes trainstack reaches; "
        f"stack {stack} runs on {platform}: benchmark a VM stack of the same instance type (write it with "
        "`platform: vm`) and rank with its measurements, or run the kit's steps as a job on the platform\n"
    )
