"""`bench run --send` / `bench fetch`: the all-reduce under torchrun (gloo, CPU), the node and fetch
scripts run by bash, the results round trip into `bench import`'s check, and the SSM calls on moto."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from clouds.contract import JobConfig
from profiles.preflight.check import read_cluster
from trainstack.bench.remote import fetch_commands, new_run_id, node_commands, results_from_output, results_root

ROOT = Path(__file__).parents[2]
STACK = "training-a100"
TINY = ["--steps", "2", "--warmup", "1", "--batch", "2", "--image-size", "32", "--width", "8", "--classes", "10"]


@pytest.fixture(scope="module")
def cluster():
    """The committed AWS stack with a job (so its nodes have the node agent)."""
    plain = read_cluster(ROOT / "stacks" / f"Pulumi.{STACK}.yaml")
    return plain.model_copy(update={"job": JobConfig(command="/fsx/train.py")})


@pytest.fixture(scope="module")
def allreduce_log(tmp_path_factory) -> Path:
    """`trainstack.bench.allreduce` under torchrun, 2 processes, gloo: the real path, bounded.

    torchrun forks its two workers (`--run-path --start-method fork`: the module's file run as
    `__main__`, in the same rendezvous and environment as `-m` gives it) instead of starting two
    more interpreters: each would import torch again (about 1.7 s of CPU apiece)."""
    out = tmp_path_factory.mktemp("allreduce") / "nccl-all.log"
    argv = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"]
    argv += [
        "--run-path",
        "--start-method",
        "fork",
        str(ROOT / "trainstack" / "bench" / "allreduce.py"),
        "-b",
        "8",
        "-e",
        "4K",
        "-f",
        "8",
        "--iters",
        "2",
        "--warmup",
        "1",
        "-o",
        str(out),
    ]
    subprocess.run(
        argv, check=True, capture_output=True, timeout=120, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": ""}
    )
    return out


def test_bus_bandwidth_is_nccl_tests_definition() -> None:
    # imported here, not at collection: the module imports torch (about 1.5 s of CPU per process)
    from trainstack.bench.allreduce import bus_bandwidth, size_bytes, sizes

    # doc/PERFORMANCE.md in NVIDIA/nccl-tests: busbw = algbw * 2(n-1)/n for all-reduce
    algbw, busbw = bus_bandwidth(8 << 30, 0.1, 16)
    assert algbw == pytest.approx(85.899, abs=1e-3) and busbw == pytest.approx(algbw * 30 / 16)
    assert sizes(size_bytes("8"), size_bytes("8G"), 2)[-1] == 8 << 30 and len(sizes(8, 8 << 30, 2)) == 31


def test_allreduce_under_torchrun_prints_the_nccl_tests_table(allreduce_log) -> None:
    from trainstack.bench.parse_nccl import parse_nccl

    found = parse_nccl(allreduce_log.read_text())
    assert found.ranks == 2 and found.scope == "node" and [p.size_bytes for p in found.by_size] == [8, 64, 512, 4096]
    for point in found.by_size:  # two ranks: busbw = algbw; algbw = bytes / time
        assert point.busbw_gbs == pytest.approx(point.algbw_gbs, abs=0.01)
        assert point.algbw_gbs == pytest.approx(point.size_bytes / point.time_us / 1e3, abs=0.01)


def test_node_script_runs_each_step_through_the_node_agent(cluster) -> None:
    lines = node_commands(STACK, cluster, "20261207T060000Z", steps=5, batch=8, max_bytes="1G")
    script = "\n".join(lines)
    assert "RUN=/fsx/trainstack/bench/training-a100/20261207T060000Z" in script
    assert script.count("python3 -m nodeagent run") == 3 and "ssh" not in script
    # nccl-tests' all_reduce_perf under mpirun on the first node; the others serve its daemons
    assert '--mca plm_rsh_agent "python3 -m trainstack.bench.mpi_launch agent $MPI_DIR"' in script
    assert '"$NCCL_TESTS/all_reduce_perf" -b 8 -e 1G -f 2 -g 1' in script
    assert 'python3 -m trainstack.bench.mpi_launch serve "$MPI_DIR" "$ME" "$MPI_DIR/done"' in script
    assert "ls -d /usr/local/cuda-*/efa/test-cuda-*" in script and "/opt/amazon/openmpi/bin" in script  # the DLAMI's
    assert 'make -C "$1" MPI=1' in script  # else built once on the shared file system
    # without nccl-tests, torch's all-reduce the nccl-tests way
    assert (
        '--id bench-20261207T060000Z-allreduce --module trainstack.bench.allreduce --code "$CODE" -- -b 8 -e 1G'
        in script
    )
    assert "--model vit_b16 --data synthetic --steps 5 --batch 8" in script
    assert "systemctl is-active --quiet trainstack-job" in script
    subprocess.run(["bash", "-n"], input=script, text=True, check=True)


def test_fetch_output_round_trips_into_bench_import(cluster, allreduce_log, tmp_path, capsys, monkeypatch) -> None:
    """The fetch script run by bash on a run folder, its output read back, the results file
    accepted by `bench import`'s check."""
    from profiles.measurements.store import check_import
    from trainstack.bench.train import main as train_main

    for variable in ("WORLD_SIZE", "RANK"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.delenv("TRAINSTACK_NOW")  # the run below is dated by the system clock: check it against that
    train_main(["--model", "resnet50", *TINY])
    run = tmp_path / "20261207T060000Z"
    run.mkdir()
    (run / "nccl-all.log").write_text(allreduce_log.read_text())
    (run / "train-resnet50-node1.log").write_text("[rank0]: torchrun noise\n" + capsys.readouterr().out)
    script = "\n".join(fetch_commands(STACK, cluster)).replace(results_root("aws", STACK), str(tmp_path))
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30, check=True)
    result = results_from_output(done.stdout, cluster, STACK)
    assert (result.provider, result.instance_type, result.nodes) == ("aws", "p4d.24xlarge", 2)
    assert result.busbw[0].ranks == 2 and result.throughput[0].model == "resnet50"
    path = tmp_path / "run.json"
    path.write_text(result.model_dump_json(exclude_none=True))
    assert check_import(path).throughput[0].steps == 2


def test_fetch_of_an_empty_run_says_so(cluster, tmp_path) -> None:
    from trainstack.bench.remote import FetchError

    (tmp_path / "20261207T060000Z").mkdir()
    script = "\n".join(fetch_commands(STACK, cluster)).replace(results_root("aws", STACK), str(tmp_path))
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30, check=True)
    with pytest.raises(FetchError, match="no all-reduce table and no training result yet"):
        results_from_output(done.stdout, cluster, STACK)
    with pytest.raises(FetchError, match="printed no benchmark logs"):
        results_from_output("", cluster, STACK)


def test_run_ids_sort_by_time() -> None:
    from datetime import datetime, timezone

    assert new_run_id(datetime(2026, 12, 7, 6, 0, 5, tzinfo=timezone.utc)) == "20261207T060005Z"


def test_the_bundle_is_the_same_bytes_at_any_time(monkeypatch) -> None:
    """gzip's header holds a time: the bundle (sent in every node's script) must not."""
    import time

    from trainstack.bench.remote import bundle

    first = bundle()
    monkeypatch.setattr(time, "time", lambda: 2_000_000_000.0)
    assert bundle() == first


@pytest.mark.parametrize(
    "stack", ["training-a100", "training-h100-azure", "training-a3-gcp"], ids=["aws", "azure", "gcp"]
)
def test_every_clouds_node_script_parses(stack) -> None:
    """What each runner's cloud gets, detached or not, is valid bash (the GCP script once held
    an unmatched quote in a `:` line: its image sets up no MPI)."""
    from trainstack.bench.remote import detached

    cluster = read_cluster(ROOT / "stacks" / f"Pulumi.{stack}.yaml").model_copy(
        update={"job": JobConfig(command="/fsx/train.py")}
    )
    lines = node_commands(stack, cluster, "20261207T060000Z")
    for script in ("\n".join(lines), "\n".join(detached("20261207T060000Z", lines))):
        subprocess.run(["bash", "-n"], input=script, text=True, check=True)


def test_the_head_takes_no_part_in_the_benchmark(cluster, tmp_path) -> None:
    """The head has the job file (its store's settings) but no job unit: its script stops at
    once, before any rendezvous or MPI host file (AWS's Run Command by tag reaches it too)."""
    from trainstack.bench.remote import JOB_FILE, node_checks

    (tmp_path / "job.json").write_text("{}")
    script = "\n".join([*node_checks(), "echo ran the benchmark"]).replace(JOB_FILE, str(tmp_path / "job.json"))
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=10, check=True)
    assert done.stdout.endswith(": no job unit (the head node): nothing to run\n")


def test_a_pack_too_long_for_one_answer_comes_back_in_parts(cluster, tmp_path, monkeypatch) -> None:
    """Azure's Run Command keeps only the last 4,096 bytes of output: the logs come back in pieces
    of `PART_CHARS`, read from the file part 0 packed, and join into the same results."""
    from trainstack.bench import remote
    from trainstack.bench.remote import FetchError

    fixtures = ROOT / "tests" / "fixtures" / "bench"
    run = tmp_path / "20261207T060000Z"
    run.mkdir()
    (run / "nccl-all.log").write_text((fixtures / "nccl-all.log").read_text())
    (run / "train-resnet50-node1.log").write_text((fixtures / "train.log").read_text())
    monkeypatch.setattr(remote, "PART_CHARS", 500)

    def part(number: int) -> str:
        lines = fetch_commands(STACK, cluster, run.name, number)
        script = "\n".join(lines).replace(results_root("aws", STACK), str(tmp_path))
        return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=10, check=True).stdout

    first = part(0)
    _, parts, _ = remote.fetched_part(first)
    assert parts > 1
    outputs = [first, *(part(n) for n in range(1, parts))]
    assert all(len(o) < 600 for o in outputs)
    result = results_from_output(outputs, cluster, STACK)
    assert result.throughput[0].model == "resnet50" and result.busbw
    with pytest.raises(FetchError, match=f"1 of its {parts} parts fetched"):
        results_from_output(first, cluster, STACK)
