import pytest
import yaml

from profiles.cost.commitment import rate_basis
from profiles.resolver import resolve
from profiles.spec import parse_spec
from profiles.stack.rewrite import move_problem
from profiles.stack.writer import (
    StackWriteError,
    cluster_config,
    is_hand_edited,
    render_stack,
    stack_path,
    write_stack,
)
from tests.profiles.workloads import TWO_NODES_72H

SPEC = {
    "name": "job",
    "accelerators": "A100:8",
    **TWO_NODES_72H,
    "providers": "aws",
    "file_system": {"capacity": "4.5TiB", "throughput": 500},
    "spot": {"checkpoint_interval": "1h", "interruptions_per_node_month": 0},
}


@pytest.fixture()
def stack_text(fixture_catalog):
    spec = parse_spec(SPEC)
    config = cluster_config(spec, resolve(spec, fixture_catalog.offerings).choice.candidate, fixture_catalog.version)
    return render_stack(config, "profiles/workloads/job.yaml", fixture_catalog.built)


def test_stack_holds_provider_region_and_neutral_cluster_config(stack_text):
    config = yaml.safe_load(stack_text)["config"]
    assert config["aws:region"] == "us-east-1"
    cluster = config["trainstack:cluster"]
    assert cluster["provider"] == "aws"
    assert (cluster["instance_type"], cluster["zone"], cluster["purchase"]) == ("p4d.24xlarge", "use1-az1", "spot")
    assert cluster["nodes"] == 2 and cluster["interconnect"] == "rdma"
    assert cluster["usd_per_hour"] == 24.0  # 12.0 spot x 2 nodes
    assert cluster["catalog_version"] == "fixture-1"
    assert cluster["file_system"] == {"capacity_gib": 4608, "throughput_mbps_per_tib": 500}
    assert "# Choice: aws p4d.24xlarge x2 spot in us-east-1 (use1-az1).\n" in stack_text
    assert cluster["commitment"] == "none" and "capacity_reservation_id" not in cluster
    assert "# Catalog fixture-1 (built 2026-01-01)" in stack_text


def test_checksum_tells_generated_from_hand_edited(stack_text):
    assert not is_hand_edited(stack_text)
    assert is_hand_edited(stack_text.replace("nodes: 2", "nodes: 3"))
    assert is_hand_edited("config:\n  aws:region: us-east-1\n")


def test_write_refuses_to_overwrite_hand_edits_without_force(tmp_path, stack_text):
    path = tmp_path / "stacks" / "Pulumi.job.yaml"
    assert write_stack(path, stack_text) is True
    assert write_stack(path, stack_text) is False  # unchanged: nothing rewritten
    edited = stack_text.replace("nodes: 2", "nodes: 3")
    path.write_text(edited)
    with pytest.raises(StackWriteError, match="edited by hand since trainstack wrote it; pass --force"):
        write_stack(path, stack_text.replace("24.0", "25.0"))
    assert path.read_text() == edited  # nothing lost
    assert write_stack(path, stack_text, force=True) is True
    assert path.read_text() == stack_text
    assert [p.name for p in path.parent.iterdir()] == ["Pulumi.job.yaml"]  # no temp files left


def test_regenerated_stack_may_replace_an_unedited_one(tmp_path, stack_text):
    path = tmp_path / "Pulumi.job.yaml"
    write_stack(path, stack_text)
    newer = render_stack_with_nodes(stack_text, 4)
    assert write_stack(path, newer) is True


def render_stack_with_nodes(text, nodes):
    from profiles.stack.file import digest as _digest  # same checksum rule as the writer

    body = text.split("\n", 4)[4].replace("nodes: 2", f"nodes: {nodes}")
    header = "".join(line + "\n" for line in text.splitlines()[:3])
    return f"{header}# trainstack-checksum: sha256:{_digest(body)}\n{body}"


@pytest.mark.parametrize("name", ["bad name", "../escape", ""])
def test_stack_names_are_checked(tmp_path, name):
    with pytest.raises(StackWriteError, match="stack name"):
        stack_path(tmp_path, name)


def test_header_gives_the_hourly_and_job_cost_per_part(fixture_catalog):
    spec = parse_spec(SPEC)
    config = cluster_config(spec, resolve(spec, fixture_catalog.offerings).choice.candidate, "v")
    text = render_stack(config, "w.yaml", "2026-01-01")
    # FSx PERSISTENT_2 500 MB/s/TiB: 4,608 GiB asked -> 4,800 GiB created; $0.145/GB-month x
    # 6.19/2.48 (F5, FJ1) = $0.36192/GB-month; 4,800 GiB x 1.0737 GB/GiB x that / 730 h = $2.5552/h.
    assert (
        "# Cost: $26.5552/hour = compute $24.0000 + file system $2.5552; "
        "$1,911.97 per job (72 h) = $1,728.00 compute + $183.97 file system.\n"
    ) in text
    assert "# Cost note" not in text
    from profiles.stack.document import workload_of

    spaced = render_stack(config, "my work/w b.yaml", "2026-01-01")
    assert spaced.startswith("# Written by `trainstack resolve 'my work/w b.yaml' --write-stack`")
    assert workload_of(spaced) == "my work/w b.yaml" and workload_of(text) == "w.yaml"


def test_header_counts_import_and_export_requests(fixture_catalog):
    spec = parse_spec(
        {
            **SPEC,
            "data": {
                "source": "s3://team/imagenet",
                "size": "2TiB",
                "files": "1.28M",
                "write_back": True,
                "written_files": "20k",
            },
        }
    )
    config = cluster_config(spec, resolve(spec, fixture_catalog.offerings).choice.candidate, "v")
    text = render_stack(config, "w.yaml", "2026-01-01")
    # S3 (R1, R2): 1,280,000 GETs x $0.0004/1,000 = $0.512; 1,280 LISTs + 20,000 PUTs x
    # $0.005/1,000 = $0.1064; $0.6184 per job, $0.6184 / 72 h = $0.0086/h.
    assert "+ bucket requests $0.0086; " in text and "+ $0.62 bucket requests." in text
    no_count = render_stack(
        config.model_copy(update={"data": config.data.model_copy(update={"written_files": None})}), "w.yaml", "x"
    )
    assert "# Cost note: export (write_back) requests not counted: give data.written_files" in no_count


def render_stack_elsewhere(text, old, new):
    from profiles.stack.file import digest as _digest

    body = text.split("\n", 4)[4].replace(old, new)
    header = "".join(line + "\n" for line in text.splitlines()[:3])
    return f"{header}# trainstack-checksum: sha256:{_digest(body)}\n{body}"


@pytest.mark.parametrize(
    ("old", "new", "moved"),
    [
        ("zone: use1-az1", "zone: use1-az2", "aws us-east-1 use1-az2"),
        ("provider: aws", "provider: gcp", "gcp us-east-1 use1-az1"),
    ],
)
def test_a_pick_that_moves_the_cluster_needs_force(tmp_path, stack_text, old, new, moved):
    path = tmp_path / "Pulumi.job.yaml"
    write_stack(path, stack_text)
    elsewhere = render_stack_elsewhere(stack_text, old, new)
    if moved.startswith("gcp"):  # an aws cluster relabelled gcp: `plan` would refuse it, so never written,
        for force in (False, True):  # and said first: a "pass --force" that --force then refuses is no fix
            with pytest.raises(StackWriteError, match="not written, `plan` would refuse it: trainstack:cluster.region"):
                write_stack(path, elsewhere, force=force)
        assert path.read_text() == stack_text
        return
    with pytest.raises(StackWriteError) as err:
        write_stack(path, elsewhere)
    replaced = (  # a zone of the same region: what is regional stays
        "the nodes and every other resource fixed to a zone, the file system and its data included"
        if moved.startswith("aws us-east-1")
        else "every resource, its file system included"
    )
    assert str(err.value) == (
        f"{path}: the new pick moves the cluster from aws us-east-1 use1-az1 to {moved}, so `pulumi up` would "
        f"replace {replaced}; pass --force or write another stack name"
    )
    assert path.read_text() == stack_text
    assert write_stack(path, elsewhere, force=True) and path.read_text() == elsewhere


def test_a_move_of_a_stack_without_a_file_system_names_none(tmp_path, fixture_catalog):
    # Finding 14 (session 13): the refusal said "its file system included" of a stack with none.
    spec = parse_spec({**{k: v for k, v in SPEC.items() if k not in ("file_system", "spot")}, "purchase": "on-demand"})
    config = cluster_config(spec, resolve(spec, fixture_catalog.offerings).choice.candidate, fixture_catalog.version)
    assert config.file_system is None
    text = render_stack(config, "profiles/workloads/job.yaml", fixture_catalog.built)
    path = tmp_path / "Pulumi.job.yaml"
    write_stack(path, text)
    with pytest.raises(StackWriteError) as err:
        write_stack(path, render_stack_elsewhere(text, f"zone: {config.zone}", "zone: use1-az6"))
    assert str(err.value).endswith(
        "would replace the nodes and every other resource fixed to a zone; pass --force or write another stack name"
    )


def test_a_stack_not_written_by_trainstack_is_named_so(tmp_path, stack_text):
    path = tmp_path / "Pulumi.job.yaml"
    path.write_text("config:\n  aws:region: us-east-1\n")
    with pytest.raises(StackWriteError, match="not written by trainstack and has no cluster; pass --force to add one"):
        write_stack(path, stack_text)


def test_a_forced_rewrite_keeps_the_stacks_own_settings(tmp_path, stack_text):
    from profiles.stack.writer import kept_settings

    path = tmp_path / "Pulumi.job.yaml"
    path.write_text(
        "encryptionsalt: v1:abc==\n"
        "config:\n"
        "  aws:region: eu-west-1\n"
        "  aws:profile: prod\n"
        "  trainstack:max_usd_per_hour: 50\n"
        "  trainstack:previous_names: [old-job]\n"
        "  trainstack-job:hf_token:\n"
        "    secure: v1:Zm9v\n"
        "  trainstack:cluster: {provider: aws}\n"
    )
    kept = kept_settings(path)
    cluster = yaml.safe_load(stack_text)["config"]["trainstack:cluster"]
    from clouds.contract import ClusterConfig

    text = render_stack(ClusterConfig(**cluster), "profiles/workloads/job.yaml", "2026-01-01", None, kept)
    assert write_stack(path, text, force=True)
    written = yaml.safe_load(path.read_text())
    assert written["encryptionsalt"] == "v1:abc=="
    assert written["config"] == {
        "aws:region": "us-east-1",
        "trainstack:cluster": cluster,
        "aws:profile": "prod",
        "trainstack:max_usd_per_hour": 50,
        "trainstack:previous_names": ["old-job"],
        "trainstack-job:hf_token": {"secure": "v1:Zm9v"},
    }
    assert not is_hand_edited(path.read_text())  # the kept settings are part of what trainstack wrote
    assert kept_settings(tmp_path / "none.yaml") == {}


def test_job_travels_from_the_workload_into_the_stack(fixture_catalog):
    job = {
        "command": "/fsx/code/train.py --lr 3e-4",
        "nproc_per_node": 4,
        "max_restarts": 5,
        "env": {"NCCL_DEBUG": "WARN"},
    }
    spec = parse_spec({**SPEC, "job": job})
    config = cluster_config(spec, resolve(spec, fixture_catalog.offerings).choice.candidate, "v")
    cluster = yaml.safe_load(render_stack(config, "w.yaml", "2026-01-01"))["config"]["trainstack:cluster"]
    assert cluster["job"] == {
        "command": "/fsx/code/train.py --lr 3e-4",
        "nproc_per_node": 4,
        "max_restarts": 5,
        "env": {"NCCL_DEBUG": "WARN"},
        "module": False,
    }
    assert (
        "job"
        not in yaml.safe_load(
            render_stack(
                cluster_config(
                    parse_spec(SPEC), resolve(parse_spec(SPEC), fixture_catalog.offerings).choice.candidate, "v"
                ),
                "w.yaml",
                "2026-01-01",
            )
        )["config"]["trainstack:cluster"]
    )


def test_job_in_the_workload_needs_a_file_system():
    from profiles.spec import SpecError

    with pytest.raises(SpecError, match="job"):
        parse_spec({**SPEC, "file_system": None, "purchase": "on-demand", "spot": None, "job": {"command": "/t.py"}})


def _picked(fixture_catalog, **spec):
    parsed = parse_spec({**SPEC, **spec})
    candidate = resolve(parsed, fixture_catalog.offerings).choice.candidate
    return cluster_config(parsed, candidate, fixture_catalog.version)


def _hand_edited(tmp_path, stack_text, **fields):
    document = yaml.safe_load(stack_text)
    document["config"]["trainstack:cluster"].update(fields)
    path = tmp_path / "Pulumi.job.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    return path


def test_a_rewrite_keeps_the_cluster_settings_the_pick_does_not_decide(tmp_path, stack_text, fixture_catalog):
    from profiles.stack.writer import keep_cluster_settings

    own = {
        "ssh_cidrs": ["10.1.0.0/16"],
        "tags": {"team": "ml"},
        "ssh_public_key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 user@host",
        "job": {"command": "/fsx/train.py", "nproc_per_node": 8},
        "nodes": 7,  # the pick decides the node count: a hand edit of it is replaced
    }
    path = _hand_edited(tmp_path, stack_text, **own)
    config, kept = keep_cluster_settings(_picked(fixture_catalog), path)
    assert kept == ["ssh_cidrs", "tags", "ssh_public_key", "job"]
    assert list(config.ssh_cidrs) == ["10.1.0.0/16"] and config.tags == {"team": "ml"}
    assert config.ssh_public_key == own["ssh_public_key"]
    assert config.job is not None and config.job.command == "/fsx/train.py" and config.job.nproc_per_node == 8
    assert config.nodes == 2 and config.instance_type == "p4d.24xlarge"


def test_a_workload_job_replaces_the_stacks_and_a_generated_stack_keeps_nothing(tmp_path, stack_text, fixture_catalog):
    from profiles.stack.writer import keep_cluster_settings

    job = {"command": "/fsx/new.py", "nproc_per_node": 8}
    path = _hand_edited(tmp_path, stack_text, job={"command": "/fsx/old.py", "nproc_per_node": 8})
    config, kept = keep_cluster_settings(_picked(fixture_catalog, job=job), path)
    assert config.job is not None and config.job.command == "/fsx/new.py" and kept == []
    generated = tmp_path / "Pulumi.generated.yaml"
    generated.write_text(render_stack(_picked(fixture_catalog, job=job), "w.yaml", "2026-01-01"))
    # a generated stack had its job from the workload; a workload that drops it drops it
    config, kept = keep_cluster_settings(_picked(fixture_catalog), generated)
    assert config.job is None and kept == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("config:\n  trainstack:cluster: {provider: aws\n", "fix the file"),
        ("config:\n  a: 1\n  a: 2\n", "duplicate key 'a'"),
    ],
    ids=["not-yaml", "repeated-key"],
)
def test_an_unreadable_stack_is_not_rewritten(tmp_path, fixture_catalog, text, message):
    from profiles.stack.writer import keep_cluster_settings

    path = tmp_path / "Pulumi.job.yaml"
    path.write_text(text)
    with pytest.raises(StackWriteError, match=message):
        keep_cluster_settings(_picked(fixture_catalog), path)
    assert path.read_text() == text


def test_a_kept_setting_that_does_not_fit_the_pick_is_named(tmp_path, stack_text, fixture_catalog):
    from profiles.stack.writer import keep_cluster_settings

    path = _hand_edited(tmp_path, stack_text, ssh_cidrs=["0.0.0.0/0"])
    with pytest.raises(
        StackWriteError,
        match=r"keeping its own ssh_cidrs: .*0\.0\.0\.0/0 opens SSH.*; fix or remove it in the stack file, then rerun$",
    ):
        keep_cluster_settings(_picked(fixture_catalog), path)


def test_a_commitment_stack_names_the_term_it_does_not_buy(fixture_catalog):
    plain = {k: v for k, v in SPEC.items() if k != "spot"}
    spec = parse_spec({**plain, "purchase": "on-demand", "commitment": {"term": "1y", "reuse": 0.5}})
    rows = resolve(spec, fixture_catalog.offerings, top=10)
    choice = next(r.candidate for r in (rows.choice, *rows.alternatives) if r.candidate.purchase == "reserved-1y")
    config = cluster_config(spec, choice, fixture_catalog.version)
    text = render_stack(config, "job.yaml", fixture_catalog.built, on_demand_usd_per_hour=64.0)
    cluster = yaml.safe_load(text)["config"]["trainstack:cluster"]
    assert (cluster["purchase"], cluster["commitment"], cluster["commitment_reuse"]) == ("on-demand", "1y", 0.5)
    assert "# Choice: aws p4d.24xlarge x2 on-demand (priced at a 1y commitment's rate) in us-east-1" in text
    # 2 x 32 x 0.7 = $44.80/hour x 8,760 h = $392,448; share (72 + 8,688 x 0.5) h x $44.80 = $197,837
    assert (
        "# Cost note: assumes a 1y commitment the stack does not buy: the nodes launch on-demand, and this rate "
        "applies only if you hold a Compute or EC2 Instance Savings Plan or Reserved Instances for 2 x p4d.24xlarge, "
        "bought separately; the term commits $392,448 (8,760 h at $44.80/hour), this job's share $197,837 with "
        "reuse 0.5 of the rest; without it the nodes bill on-demand at $64.00/hour"
        + rate_basis("aws", "1y")  # the fixture's $44.80 is 2 x $32 less AWS's assumed 30 %, labelled
        + ".\n"
    ) in text


@pytest.mark.parametrize(
    ("new", "replaced"),
    [
        (("aws", "us-east-1", "use1-az6"), "the nodes and every other resource fixed to a zone"),
        (("aws", "us-west-2", "usw2-az1"), "every resource"),
        (("gcp", "us-east-1", "use1-az1"), "every resource"),
    ],
)
def test_a_move_names_what_it_replaces_by_how_far_it_goes(new, replaced):
    # a zone of the same region keeps the regional resources (network, roles, security rules)
    problem = move_problem("Pulumi.job.yaml", ("aws", "us-east-1", "use1-az4"), new, "config: {}\n")
    assert f"so `pulumi up` would replace {replaced}; pass --force" in problem
