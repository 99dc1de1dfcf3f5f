"""The small always-on helper VMs (a job's head node, the TPU queued-resource controller) are
named as left out of every cost, with the type and disk each cloud's component creates (U4)."""

import pytest

from clouds.helper_vms import helper_lines
from profiles.cost.cluster_cost import cluster_cost
from tests.clusters import example_config

JOB = {"command": "/fsx/code/train.py"}


def _component_head(provider: str) -> tuple[str, int]:
    """The head node's type and disk size as the cloud's component creates it."""
    if provider == "aws":
        from components.aws.compute import ROOT_VOLUME_GIB
        from components.aws.nodes import HEAD_INSTANCE_TYPE

        return HEAD_INSTANCE_TYPE, ROOT_VOLUME_GIB
    if provider == "azure":
        from components.azure.head import HEAD_VM_SIZE
        from components.azure.profile import OS_DISK_GIB

        return HEAD_VM_SIZE, OS_DISK_GIB
    from clouds.gcp.machine import BOOT_DISK_GB
    from components.gcp.nodes import HEAD_MACHINE_TYPE

    return HEAD_MACHINE_TYPE, BOOT_DISK_GB


@pytest.mark.parametrize("provider", ["aws", "azure", "gcp"])
def test_every_job_clouds_head_node_is_named_in_the_stacks_cost(provider):
    config = example_config(provider, job=JOB, purchase="on-demand")
    head_type, disk = _component_head(provider)
    lines = [line for line in cluster_cost(config, 10.0).left_out if line.startswith("the job's head node")]
    assert len(lines) == 1
    assert f"({head_type} with a {disk} " in lines[0] and "on-demand, always on" in lines[0]
    assert f"add its on-demand price in {config.region}" in lines[0]


@pytest.mark.parametrize("provider", ["aws", "azure", "gcp"])
def test_without_a_job_no_head_node_is_named(provider):
    config = example_config(provider, purchase="on-demand")
    assert not [line for line in cluster_cost(config, 10.0).left_out if "head node" in line]


def test_the_queued_resource_controller_is_named():
    from clouds.gcp.queued import CONTROLLER_MACHINE_TYPE

    config = example_config("gcp-tpu", queued_resource=True)
    lines = [line for line in cluster_cost(config, 10.0).left_out if "controller VM" in line]
    assert len(lines) == 1 and f"({CONTROLLER_MACHINE_TYPE} " in lines[0]


@pytest.mark.parametrize("provider", ["alicloud", "baiducloud", "no-such-cloud"])
def test_clouds_without_helper_vms_name_none(provider):
    assert helper_lines(provider, "r", job=True, queued_resource=True) == ()


def test_resolve_rows_of_a_job_name_the_head_node(real_catalog):
    from profiles.resolver import resolve
    from profiles.spec import parse_spec

    spec = {
        "accelerators": "H100:8",
        "nodes": 2,
        "hours": "24h",
        "providers": ["aws", "azure", "gcp"],
        "file_system": {"capacity": "2400GiB"},
        "job": JOB,
    }
    result = resolve(parse_spec(spec), real_catalog.offerings)
    for row in (result.choice, *result.alternatives):
        offering = row.candidate.offering
        head = _component_head(offering.provider)[0]
        assert any(n.startswith(f"the job's head node ({head} ") for n in row.candidate.notes), offering
    plain = resolve(parse_spec({k: v for k, v in spec.items() if k != "job"}), real_catalog.offerings)
    assert not any("head node" in n for n in plain.choice.candidate.notes)
