"""The IAM and ingress rules: a `*` action or resource, an admin role, and an inbound rule with
no source are refused on every cloud that has them; the committed plans' grants pass."""

import json

import pytest

from policies.rules import check_resource

TAGS = {"trainstack:cluster": "c", "trainstack:provider": "aws"}
LABELS = {"trainstack-cluster": "c", "trainstack-provider": "gcp"}
AZ_TAGS = {"trainstack:cluster": "c", "trainstack:provider": "azure"}
ALI_TAGS = {"trainstack:cluster": "c", "trainstack:provider": "alicloud"}


def record(kind, **inputs):
    return {"type": kind, "name": "r", "parent": "c", "protect": False, "inputs": inputs}


def document(*statements):
    return json.dumps({"Version": "2012-10-17", "Statement": list(statements)})


def broken(rec):
    return sorted((v.rule, v.message) for v in check_resource(rec) if v.rule != "cost-tags")


EVERYTHING = {"Effect": "Allow", "Action": "*", "Resource": "*"}
GCP_FW = "gcp:compute/firewall:Firewall"


@pytest.mark.parametrize(
    ("rec", "rule", "says"),
    [
        pytest.param(
            record("aws:iam/rolePolicy:RolePolicy", policy=document(EVERYTHING), role="c-node-role"),
            "no-wildcard-permissions",
            "allows action '*'",
            id="aws-star-star",
        ),
        pytest.param(
            record(
                "aws:iam/rolePolicy:RolePolicy",
                policy=document({"Effect": "Allow", "Action": "s3:*", "Resource": "arn:aws:s3:::b/p/*"}),
            ),
            "no-wildcard-permissions",
            "allows action 's3:*'",
            id="aws-service-star",
        ),
        pytest.param(
            record(
                "aws:iam/policy:Policy",
                policy=document({"Effect": "Allow", "Action": ["s3:GetObject"], "Resource": ["*"]}),
                tags=TAGS,
            ),
            "no-wildcard-permissions",
            "on every resource ('*')",
            id="aws-every-resource",
        ),
        pytest.param(
            record(
                "aws:iam/rolePolicyAttachment:RolePolicyAttachment",
                policyArn="arn:aws:iam::aws:policy/AdministratorAccess",
                role="r",
            ),
            "no-wildcard-permissions",
            "allows action '*'",
            id="aws-admin-policy",
        ),
        pytest.param(
            record("gcp:projects/iAMMember:IAMMember", role="roles/editor", project="p", member="serviceAccount:x"),
            "no-wildcard-permissions",
            "allows action '*'",
            id="gcp-editor",
        ),
        pytest.param(
            record(
                "azure-native:authorization:RoleAssignment",
                roleDefinitionId="/providers/Microsoft.Authorization/roleDefinitions/8e3af657-a8ff-443c-a75c-2fe8c4bcb635",
                scope="/subscriptions/s",
            ),
            "no-wildcard-permissions",
            "allows action '*'",
            id="azure-owner",
        ),
        pytest.param(
            record(
                "alicloud:ram/policy:Policy",
                policyDocument=json.dumps(
                    {
                        "Version": "1",
                        "Statement": [{"Effect": "Allow", "Action": "oss:*", "Resource": "acs:oss:*:*:b/p/*"}],
                    }
                ),
            ),
            "no-wildcard-permissions",
            "allows action 'oss:*'",
            id="alibaba-oss-star",
        ),
        pytest.param(
            record(GCP_FW, direction="INGRESS", allows=[{"protocol": "tcp", "ports": ["8080"]}], labels=LABELS),
            "ingress-has-source",
            "names no sourceRanges, sourceTags or sourceServiceAccounts, so GCP admits 0.0.0.0/0",
            id="gcp-firewall-no-source",
        ),
        pytest.param(
            record(
                "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule",
                ipProtocol="tcp",
                fromPort=443,
                toPort=443,
                tags=TAGS,
            ),
            "ingress-has-source",
            "inbound rule for ports 443-443 names no source",
            id="aws-rule-no-source",
        ),
        pytest.param(
            record(
                "aws:ec2/securityGroup:SecurityGroup",
                ingress=[{"protocol": "tcp", "fromPort": 80, "toPort": 80}],
                tags=TAGS,
            ),
            "ingress-has-source",
            "names no source",
            id="aws-group-no-source",
        ),
        pytest.param(
            record(
                "azure-native:network:SecurityRule",
                name="web",
                direction="Inbound",
                access="Allow",
                protocol="Tcp",
                destinationPortRange="443",
            ),
            "ingress-has-source",
            "inbound rule web names no source",
            id="azure-rule-no-source",
        ),
        pytest.param(
            record(
                "alicloud:ecs/securityGroupRule:SecurityGroupRule",
                type="ingress",
                portRange="443/443",
                ipProtocol="tcp",
            ),
            "ingress-has-source",
            "ingress rule for 443/443 names no source",
            id="alibaba-rule-no-source",
        ),
    ],
)
def test_the_rule_refuses(rec, rule, says):
    found = [message for name, message in broken(rec) if name == rule]
    assert any(says in message for message in found), broken(rec)


def test_a_gcp_firewall_with_no_source_also_opens_its_admin_ports_to_the_world():
    rec = record(GCP_FW, direction="INGRESS", allows=[{"protocol": "tcp", "ports": ["22"]}], labels=LABELS)
    assert "no-admin-port-from-internet" in {rule for rule, _ in broken(rec)}


@pytest.mark.parametrize(
    "rec",
    [
        pytest.param(
            record(
                "aws:iam/rolePolicy:RolePolicy",
                policy=document(
                    {"Effect": "Allow", "Action": "s3:ListBucket", "Resource": "arn:aws:s3:::b"},
                    {"Effect": "Allow", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/imagenet/*"},
                    {"Effect": "Deny", "Action": "*", "Resource": "*"},
                ),
            ),
            id="aws-prefix-scoped",
        ),
        pytest.param(
            record(
                "gcp:storage/bucketIAMMember:BucketIAMMember", role="roles/storage.objectViewer", bucket="b", member="m"
            ),
            id="gcp-viewer",
        ),
        pytest.param(
            record(GCP_FW, direction="INGRESS", sourceTags=["nodes"], allows=[{"protocol": "all"}], labels=LABELS),
            id="gcp-tags",
        ),
        pytest.param(record(GCP_FW, direction="EGRESS", allows=[{"protocol": "all"}], labels=LABELS), id="gcp-egress"),
        pytest.param(
            record("aws:ec2/securityGroup:SecurityGroup", ingress=[{"protocol": "-1", "self": True}], tags=TAGS),
            id="aws-self",
        ),
        pytest.param(
            record(
                "azure-native:network:SecurityRule",
                direction="Inbound",
                access="Allow",
                sourceAddressPrefix="VirtualNetwork",
            ),
            id="azure-vnet",
        ),
    ],
)
def test_scoped_grants_and_sourced_rules_pass(rec):
    assert [rule for rule, _ in broken(rec) if rule in ("no-wildcard-permissions", "ingress-has-source")] == []


@pytest.mark.parametrize(
    ("actions", "refused"),
    [
        pytest.param(["ecr:GetAuthorizationToken"], False, id="ecr-token-has-no-resource-type"),
        pytest.param(["cloudwatch:PutMetricData"], False, id="put-metric-data-has-no-resource-type"),
        pytest.param(["ecr:GetAuthorizationToken", "s3:GetObject"], True, id="a-resource-action-beside-it"),
        pytest.param(["ecr:BatchGetImage"], True, id="ecr-pull-names-its-repository"),
    ],
)
def test_actions_without_a_resource_type_may_name_every_resource_alone(actions, refused):
    rec = record(
        "aws:iam/rolePolicy:RolePolicy",
        policy=document({"Effect": "Allow", "Action": actions, "Resource": "*"}),
        role="c-node-role",
    )
    found = [message for rule, message in broken(rec) if rule == "no-wildcard-permissions"]
    assert bool(found) is refused
    if refused:
        assert "on every resource ('*')" in found[0]


def test_the_rules_description_names_every_exception_it_allows():
    """The rule lets `NO_RESOURCE_TYPE` actions stand alone on `*` (above), so its description
    (shown in the review and the policy pack) says so and names each of them."""
    from policies.registry import RULES
    from policies.rules import NO_RESOURCE_TYPE

    text = RULES["no-wildcard-permissions"]
    assert text.startswith("no IAM statement allows `*` actions or every resource, except actions that name no")
    assert all(action in text for action in NO_RESOURCE_TYPE)
