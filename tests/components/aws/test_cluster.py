"""AwsGpuCluster under Pulumi mocks: layout, security, purchase options, outputs."""

import base64

import pulumi
import pytest

from clouds.aws.mock import AMI_ID, EXISTING_VPC_ID
from clouds.contract import OUTPUT_NAMES
from components.aws.cluster import TYPE_TOKEN, AwsGpuCluster


def _rule_view(rule):
    return pulumi.Output.all(
        rule.ip_protocol,
        rule.from_port,
        rule.to_port,
        rule.cidr_ipv4,
        rule.referenced_security_group_id,
        rule.security_group_id,
    )


def _rules(cluster):
    """Output of [(kind, protocol, from, to, cidr, peer_group, group), ...]."""
    views = [_rule_view(rule).apply(lambda v, r=rule: (type(r).__name__, *v)) for rule in cluster.security_group_rules]
    return pulumi.Output.all(*views)


@pytest.mark.parametrize(
    ("instance_type", "count", "secondary"),
    [pytest.param("p4d.24xlarge", 4, "efa", id="p4d"), pytest.param("p5.48xlarge", 32, "efa-only", id="p5")],
)
@pulumi.runtime.test
def test_launch_template_efa_interfaces(mocks, make_config, instance_type, count, secondary):
    cluster = AwsGpuCluster("c", make_config(instance_type=instance_type))

    def check(args):
        nics, sg_id, subnet_id = args
        assert len(nics) == count
        assert [(n["network_card_index"], n["device_index"]) for n in nics] == [(0, 0)] + [
            (k, 1) for k in range(1, count)
        ]
        assert [n["interface_type"] for n in nics] == ["efa"] + [secondary] * (count - 1)
        assert all(n["security_groups"] == [sg_id] and n["subnet_id"] == subnet_id for n in nics)
        assert all(n["delete_on_termination"] == "true" for n in nics)

    lt = cluster.launch_template
    return pulumi.Output.all(lt.network_interfaces, cluster.security_group.id, cluster.subnet.id).apply(check)


@pulumi.runtime.test
def test_security_group_self_rules_and_no_open_ssh(mocks, make_config):
    cluster = AwsGpuCluster("c", make_config())

    def check(args):
        rules, sg_id = args
        assert all(rule[6] == sg_id for rule in rules)
        self_all = {(kind, proto) for kind, proto, *_, peer, _g in rules if peer == sg_id}
        assert ("SecurityGroupIngressRule", "-1") in self_all
        assert ("SecurityGroupEgressRule", "-1") in self_all
        assert ("SecurityGroupEgressRule", "-1", None, None, "0.0.0.0/0", None, sg_id) in rules
        assert not [r for r in rules if r[2] is not None and r[2] <= 22 <= r[3]]
        lustre = {(r[2], r[3]) for r in rules if r[0] == "SecurityGroupIngressRule" and r[5] == sg_id}
        assert {(988, 988), (1018, 1023)} <= lustre

    return pulumi.Output.all(_rules(cluster), cluster.security_group.id).apply(check)


@pulumi.runtime.test
def test_ssh_rule_only_for_given_cidrs(mocks, make_config):
    cluster = AwsGpuCluster("c", make_config(ssh_cidrs=["203.0.113.0/24"]))

    def check(rules):
        ssh = [r for r in rules if r[2] == 22]
        assert ssh == [("SecurityGroupIngressRule", "tcp", 22, 22, "203.0.113.0/24", None, ssh[0][6])]
        assert not [r for r in rules if r[4] == "0.0.0.0/0" and r[0].endswith("IngressRule")]

    return _rules(cluster).apply(check)


@pulumi.runtime.test
def test_imdsv2_encrypted_gp3_root_and_dlami(mocks, make_config):
    cluster = AwsGpuCluster("c", make_config())
    lt = cluster.launch_template

    def check(args):
        metadata, devices, image_id, instance_type = args
        assert metadata["http_tokens"] == "required"
        assert metadata["http_put_response_hop_limit"] == 2  # containers on the nodes reach IMDSv2
        assert len(devices) == 1
        root = devices[0]
        assert root["device_name"] == "/dev/sda1"
        assert (root["ebs"]["volume_type"], root["ebs"]["encrypted"]) == ("gp3", "true")
        assert image_id == AMI_ID
        assert instance_type == "p4d.24xlarge"

    return pulumi.Output.all(lt.metadata_options, lt.block_device_mappings, lt.image_id, lt.instance_type).apply(check)


@pulumi.runtime.test
def test_capacity_reservation_targeted_by_the_launch_template(mocks, make_config):
    config = make_config(purchase="on-demand", capacity_reservation_id="cr-0abc")
    cluster = AwsGpuCluster("c", config)

    def check(spec):
        assert spec["capacity_reservation_target"]["capacity_reservation_id"] == "cr-0abc"

    return cluster.launch_template.capacity_reservation_specification.apply(check)


@pulumi.runtime.test
def test_role_trusts_ec2_and_attaches_only_ssm(mocks, make_config):
    cluster = AwsGpuCluster("c", make_config())
    role = cluster.role

    def check(args):
        assume, inline, managed, policy_arn, profile_role, role_name = args
        assert '"Service": "ec2.amazonaws.com"' in assume
        assert not inline and not managed
        assert policy_arn == "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore"
        assert profile_role == role_name

    return pulumi.Output.all(
        role.assume_role_policy,
        role.inline_policies,
        role.managed_policy_arns,
        cluster.role_policy_attachment.policy_arn,
        cluster.instance_profile.role,
        role.name,
    ).apply(check)


@pulumi.runtime.test
def test_outputs_and_file_system(mocks, make_config):
    cluster = AwsGpuCluster("c", make_config(file_system={"capacity_gib": 2401}))
    fs = cluster.file_system

    def check(args):
        outputs, fsx, user_data = args
        ids, ips, pg, dns, mount, usd, mount_command = outputs
        # another host mounts it where the nodes do: /fsx
        assert mount_command == f"sudo mkdir -p /fsx && sudo mount -t lustre -o relatime,flock {dns}@tcp:/{mount} /fsx"
        assert ids == ["c-nodes"]  # the node group
        assert ips == []
        assert pg == "c-pg"
        assert dns == "c-fsx-id.fsx.us-east-1.amazonaws.com"
        assert usd == 20.5  # the stack's recorded price, passed through
        # 2,401 GiB asked: PERSISTENT_2 sizes are 1,200, 2,400 then steps of 2,400 -> 4,800 GiB
        assert fsx == ["SSD", "PERSISTENT_2", 4800, 250]
        # every node mounts this file system (its DNS name and mount name) at /fsx from boot
        script = base64.b64decode(user_data).decode()
        assert f"{dns}@tcp:/{mount} /fsx lustre defaults," in script

    outputs = pulumi.Output.all(*[getattr(cluster, name) for name in OUTPUT_NAMES])
    fsx = pulumi.Output.all(fs.storage_type, fs.deployment_type, fs.storage_capacity, fs.per_unit_storage_throughput)
    return pulumi.Output.all(outputs, fsx, cluster.launch_template.user_data).apply(check)


@pulumi.runtime.test
def test_existing_subnet_and_no_file_system(mocks, make_config):
    cluster = AwsGpuCluster("c", make_config(subnet_id="subnet-0given", file_system=None))
    assert cluster.vpc is None and cluster.subnet is None and cluster.file_system is None

    def check(args):
        vpc_id, nics, dns, mount, rules = args
        assert vpc_id == EXISTING_VPC_ID
        assert {n["subnet_id"] for n in nics} == {"subnet-0given"}
        assert dns is None and mount is None
        assert not [r for r in rules if r[2] == 988]

    return pulumi.Output.all(
        cluster.security_group.vpc_id,
        cluster.launch_template.network_interfaces,
        cluster.file_system_dns,
        cluster.file_system_mount_name,
        _rules(cluster),
    ).apply(check)


@pytest.mark.parametrize(
    ("overrides", "field", "hint"),
    [
        pytest.param({"provider": "gcp"}, "provider:", "set provider: aws", id="provider"),
        pytest.param({"instance_type": "g5.xlarge"}, "interconnect:", "set interconnect: none", id="rdma-no-efa"),
        pytest.param({"capacity_reservation_id": "cr-1"}, "reservation:", "purchase: on-demand", id="spot-odcr"),
        pytest.param(
            {
                "purchase": "on-demand",
                "reservation": {"kind": "capacity-block", "id": "arn:aws:resource-groups:us-east-1:1:group/g"},
            },
            "reservation.id:",
            "group/NAME",
            id="capacity-block-by-group",
        ),
        pytest.param(
            {"file_system": {"capacity_gib": 1200, "throughput_mbps_per_tib": 300}},
            "file_system.throughput_mbps_per_tib:",
            "125, 250, 500, 1000",
            id="fsx-throughput",
        ),
    ],
)
def test_invalid_args_rejected_before_any_resource(mocks, make_config, overrides, field, hint):
    config = make_config(**overrides)
    with pytest.raises(ValueError) as err:
        AwsGpuCluster("bad", config)

    message = str(err.value)
    assert message.startswith(field) and hint in message and "\n" not in message
    assert not mocks_registered(mocks)


def mocks_registered(mocks):
    monitor = pulumi.runtime.settings.get_monitor()
    return [urn for urn in monitor.resources if urn.endswith("::bad") or "::bad-" in urn]


def test_type_token():
    assert TYPE_TOKEN == "trainstack:aws:GpuCluster"


@pulumi.runtime.test
def test_the_head_carries_the_job_channel_in_tags_it_reads_from_imds(mocks, make_config):
    """A job or node-count edit reaches the workers through the head's tags, which EC2 updates
    on the running instance (`nodeagent.publisher`): the pieces join to the channel's text."""
    from clouds.job_bootstrap import channel_text

    config = make_config(job={"command": "/fsx/train.py", "env": {f"V{i}": "x" * 30 for i in range(20)}})
    head = AwsGpuCluster("c", config).head_node

    def check(args):
        tags, metadata = args
        pieces = [tags[k] for k in sorted(tags) if k.startswith("trainstack:job:")]
        assert len(pieces) > 1 and all(len(p) <= 256 for p in pieces)  # EC2's longest tag value
        assert "".join(pieces) == channel_text("c", config)
        assert metadata["instance_metadata_tags"] == "enabled" and metadata["http_tokens"] == "required"

    return pulumi.Output.all(head.tags, head.metadata_options).apply(check)
