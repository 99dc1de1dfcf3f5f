"""`job.tracking: {mlflow: managed}` on a VM stack (`clouds.mlflow_head`): the head's bootstrap runs
an MLflow server whose artifacts go to the cluster's prefix of the dataset's bucket, every
worker's environment file carries `MLFLOW_TRACKING_URI` (read by the node agent at launch), the
node role may write that prefix only, and the cost says what the server adds. The rendered
scripts also go through shellcheck and systemd-analyze (`tests.clouds.rendered.tracked`)."""

from __future__ import annotations

import json
import subprocess

import pulumi
import pytest

from clouds.aws.bootstrap import node_user_data
from clouds.aws.data import mlflow_policy
from clouds.helper_vms import head_tracking_line
from clouds.mlflow_head import VERSION, artifact_prefix, destination, on_head
from nodeagent.job import read_env_file
from tests.clusters import example_config
from tests.components.harness import install_mocks

JOB = {"command": "/fsx/code/train.py", "tracking": {"mlflow": "managed"}}
DATA = {"source": "s3://team-data/imagenet"}
HEAD = "10.0.0.4"


def _tracked(**changes):
    return example_config("aws", purchase="on-demand", job=JOB, data=DATA, **changes)


def test_the_artifacts_go_to_the_clusters_prefix_of_the_datasets_bucket():
    cluster = _tracked()
    assert on_head(cluster) and artifact_prefix("c") == "trainstack/mlflow/c/"
    assert destination(cluster, "c") == "s3://team-data/trainstack/mlflow/c"
    assert not on_head(example_config("aws", job={"command": "/fsx/code/train.py"}))


def test_the_heads_bootstrap_runs_the_server_and_the_workers_get_its_uri(tmp_path):
    cluster = _tracked()
    head = node_user_data("c", cluster, "fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com", "abcdefgh", HEAD, "head")
    assert f"  /opt/trainstack/mlflow/bin/pip install --no-cache-dir mlflow=={VERSION} boto3 ||" in head
    unit = head.split("cat > /etc/systemd/system/trainstack-mlflow.service <<'TRAINSTACK_UNIT'\n", 1)[1]
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    assert exec_start == (
        "ExecStart=/opt/trainstack/mlflow/bin/mlflow server --host=0.0.0.0 --port=5000 "
        "--backend-store-uri=sqlite:////var/lib/trainstack/mlflow/mlflow.db "
        "--artifacts-destination=s3://team-data/trainstack/mlflow/c"
    )
    assert head.rstrip().endswith("systemctl enable --now trainstack-mlflow.service")
    worker = node_user_data(
        "c", cluster, "fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com", "abcdefgh", HEAD, "worker"
    )
    assert "trainstack-mlflow" not in worker
    line = "echo 'export MLFLOW_TRACKING_URI=http://10.0.0.4:5000' >> /etc/profile.d/trainstack-nccl.sh"
    assert line in worker and worker.index(line) < worker.index("systemctl enable --now trainstack-job.service")
    # what the node agent reads at launch from that file (`nodeagent.launcher.launcher_env`)
    env_file = tmp_path / "env.sh"
    subprocess.run(["bash", "-c", line.replace("/etc/profile.d/trainstack-nccl.sh", str(env_file))], check=True)
    assert read_env_file(str(env_file)) == {"MLFLOW_TRACKING_URI": "http://10.0.0.4:5000"}


def test_the_job_id_and_channel_do_not_depend_on_the_heads_address():
    """The URI rides in the node's environment file, not the job's env (its id's digest)."""
    from clouds.job_bootstrap import channel_text, node_job

    cluster = _tracked()
    ids = {node_job("c", cluster, host, "/fsx", "")["job_id"] for host in ("10.0.0.4", "10.9.9.9", "0.0.0.0")}
    assert len(ids) == 1 and "MLFLOW_TRACKING_URI" not in node_job("c", cluster, HEAD, "/fsx", "")["env"]
    assert channel_text("c", cluster)


def test_the_node_role_may_write_the_artifact_prefix_only():
    document = mlflow_policy("aws", "team-data", "trainstack/mlflow/c/")
    assert document["Statement"] == [
        {
            "Sid": "ListTrackingArtifacts",
            "Effect": "Allow",
            "Action": "s3:ListBucket",
            "Resource": "arn:aws:s3:::team-data",
            "Condition": {"StringLike": {"s3:prefix": ["trainstack/mlflow/c/*"]}},
        },
        {
            "Sid": "ReadWriteTrackingArtifacts",
            "Effect": "Allow",
            "Action": ["s3:GetObject", "s3:PutObject", "s3:AbortMultipartUpload"],
            "Resource": "arn:aws:s3:::team-data/trainstack/mlflow/c/*",
        },
    ]


@pytest.mark.parametrize("tracked", [True, False])
def test_the_component_grants_the_prefix_only_with_managed_tracking(tracked):
    import pulumi_aws as aws

    from components.aws.data_link import create_mlflow_policy

    _, monitor = install_mocks("us-east-1")
    cluster = _tracked() if tracked else example_config("aws", job={"command": "/fsx/code/train.py"}, data=DATA)

    @pulumi.runtime.test
    def program():
        role = aws.iam.Role("c-node-role", assume_role_policy="{}")
        policy = create_mlflow_policy("c", cluster, role, pulumi.ResourceOptions())
        return pulumi.Output.all(role.urn, policy.urn if policy is not None else "")

    program()
    records = {r["name"]: r for r in monitor.records()}
    assert ("c-node-mlflow" in records) is tracked
    if tracked:
        inputs = records["c-node-mlflow"]["inputs"]
        assert inputs["role"] == "c-node-role-id"
        assert json.loads(inputs["policy"]) == mlflow_policy("aws", "team-data", "trainstack/mlflow/c/")


def test_the_cost_says_what_the_server_adds():
    assert head_tracking_line("s3://team-data/imagenet") == (
        "the MLflow tracking server (job.tracking: managed) runs on the job's head node: it adds no VM and no "
        "USD/hour; its artifacts (in s3://team-data, prefix trainstack/mlflow/) bill at the bucket's storage and "
        "request rates and are not in USD/job: their volume is the job's"
    )
    from profiles.cost.cluster_cost import cluster_cost

    assert head_tracking_line("s3://team-data/imagenet") in cluster_cost(_tracked(), None).left_out
    assert (
        head_tracking_line("s3://team-data/imagenet")
        not in cluster_cost(example_config("aws", job={"command": "/fsx/code/train.py"}, data=DATA), None).left_out
    )


def test_gcp_heads_server_writes_its_gs_prefix_and_the_grants_hold_it_there():
    import pulumi_gcp as gcp

    from clouds.gcp.bootstrap import startup_script
    from clouds.gcp.data import read_condition, write_condition
    from components.gcp.data_link import create_mlflow_access

    cluster = example_config("gcp", job=JOB, data={"source": "gs://team-data/imagenet"})
    assert destination(cluster, "c") == "gs://team-data/trainstack/mlflow/c"
    head = startup_script("c", cluster, "head", None, None, None, "127.0.0.1")
    assert f"pip install --no-cache-dir mlflow=={VERSION} google-cloud-storage ||" in head
    assert "--artifacts-destination=gs://team-data/trainstack/mlflow/c" in head
    worker = startup_script("c", cluster, "worker", None, None, None, HEAD)
    assert "echo 'export MLFLOW_TRACKING_URI=http://10.0.0.4:5000' >> /etc/profile.d/trainstack-nccl.sh" in worker
    _, monitor = install_mocks("us-central1")

    @pulumi.runtime.test
    def program():
        account = gcp.serviceaccount.Account("c-nodes", account_id="c-nodes")
        grants = create_mlflow_access("c", cluster, account, pulumi.ResourceOptions())
        return pulumi.Output.all(*[g.urn for g in grants])

    program()
    records = {r["name"]: r["inputs"] for r in monitor.records() if r["type"].startswith("gcp:storage")}
    prefix = "trainstack/mlflow/c/"
    assert {name: (i["bucket"], i["role"], i["condition"]) for name, i in records.items()} == {
        "c-node-mlflow": ("team-data", "roles/storage.objectViewer", read_condition("team-data", prefix)),
        "c-node-mlflow-write": ("team-data", "roles/storage.objectCreator", write_condition("team-data", prefix)),
    }
