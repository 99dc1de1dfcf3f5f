"""The least-privilege and ingress rules read Tencent, Huawei, Volcengine, Baidu and Alibaba
resources: per cloud, a resource that breaks the rule fails it and its narrow twin passes.
(Encryption on these clouds: tests/policies/test_disk_encryption.py.)"""

import json

import pytest

from policies.rules import check_resource

ADMIN = "no-wildcard-permissions"
SOURCE = "ingress-has-source"
WORLD = "no-admin-port-from-internet"


def record(kind, **inputs):
    return {"type": kind, "name": "r", "parent": "c", "protect": False, "inputs": inputs}


def rules_broken(rec):
    found: dict[str, str] = {}
    for v in check_resource(rec):
        if v.rule != "cost-tags":
            found[v.rule] = f"{found.get(v.rule, '')} | {v.message}"
    return found


def upper_document(action, resource=None):
    statement = {"Effect": "Allow", "Action": [action]}
    if resource is not None:
        statement["Resource"] = [resource]
    return json.dumps({"Version": "1.1", "Statement": [statement]})


def tencent_document(action, resource):
    statement = {"effect": "allow", "action": [action], "resource": [resource]}
    return json.dumps({"version": "2.0", "statement": [statement]})


TC_SET = "tencentcloud:Security/groupRuleSet:GroupRuleSet"
TC_RULE = "tencentcloud:Security/groupRule:GroupRule"
HW_RULE = "huaweicloud:Vpc/secgroupRule:SecgroupRule"
VE_RULE = "volcengine:vpc/securityGroupRule:SecurityGroupRule"
BD_GROUP = "pulumi-python:dynamic/baiducloud:SecurityGroup"

# (broken record, rule, words of its message, the narrow twin that passes)
CASES = [
    pytest.param(
        record("tencentcloud:Cam/policy:Policy", document=tencent_document("cos:*", "qcs::cos:ap-beijing:uid/1:b/*")),
        ADMIN,
        "allows action 'cos:*'",
        record(
            "tencentcloud:Cam/policy:Policy",
            document=tencent_document("cos:GetObject", "qcs::cos:ap-beijing:uid/1:b/data/*"),
        ),
        id="tencent-cam-action-star",
    ),
    pytest.param(
        record("tencentcloud:Cam/policyVersion:PolicyVersion", policyDocument=tencent_document("cos:GetObject", "*")),
        ADMIN,
        "on every resource ('*')",
        record(
            "tencentcloud:Cam/policyVersion:PolicyVersion",
            policyDocument=tencent_document("cos:GetObject", "qcs::cos:ap-beijing:uid/1:b/data/*"),
        ),
        id="tencent-cam-every-resource",
    ),
    pytest.param(
        record(
            "tencentcloud:Cam/rolePolicyAttachmentByName:RolePolicyAttachmentByName",
            roleName="node",
            policyName="AdministratorAccess",
        ),
        ADMIN,
        "allows action '*'",
        record(
            "tencentcloud:Cam/rolePolicyAttachmentByName:RolePolicyAttachmentByName",
            roleName="node",
            policyName="team-read-data",
        ),
        id="tencent-preset-admin",
    ),
    pytest.param(
        record(TC_SET, ingresses=[{"action": "ACCEPT", "protocol": "TCP", "port": "443"}]),
        SOURCE,
        "ingress rule for port 443 names no source",
        record(TC_SET, ingresses=[{"action": "ACCEPT", "protocol": "TCP", "port": "443", "cidrBlock": "10.0.0.0/16"}]),
        id="tencent-rule-set-no-source",
    ),
    pytest.param(
        record(TC_RULE, type="ingress", policy="ACCEPT", portRange="80", securityGroupId="sg"),
        SOURCE,
        "names no source",
        record(TC_RULE, type="ingress", policy="ACCEPT", portRange="80", securityGroupId="sg", sourceSgid="sg-1"),
        id="tencent-rule-no-source",
    ),
    pytest.param(
        record("huaweicloud:Iam/role:Role", type="AX", policy=upper_document("obs:*:*", "obs:*:*:object:b/*")),
        ADMIN,
        "allows action 'obs:*:*'",
        record(
            "huaweicloud:Iam/role:Role",
            type="AX",
            policy=upper_document("obs:object:GetObject", "obs:*:*:object:b/data/*"),
        ),
        id="huawei-action-star",
    ),
    pytest.param(
        record("huaweicloud:Iam/role:Role", type="AX", policy=upper_document("obs:object:GetObject")),
        ADMIN,
        "on every resource ('*')",
        record(
            "huaweicloud:Iam/role:Role",
            type="AX",
            policy=upper_document("obs:object:GetObject", "obs:*:*:object:b/data/*"),
        ),
        id="huawei-statement-without-resource",
    ),
    pytest.param(
        record(HW_RULE, direction="ingress", action="allow", protocol="tcp", ports="8080"),
        SOURCE,
        "ingress rule for ports 8080 (from anywhere when none is set) names no source",
        record(HW_RULE, direction="ingress", action="allow", protocol="tcp", ports="8080", remoteGroupId="sg-1"),
        id="huawei-rule-no-source",
    ),
    pytest.param(
        record("volcengine:iam/policy:Policy", policyName="p", policyDocument=upper_document("tos:*", "trn:tos:::b/*")),
        ADMIN,
        "allows action 'tos:*'",
        record(
            "volcengine:iam/policy:Policy",
            policyName="p",
            policyDocument=upper_document("tos:GetObject", "trn:tos:::b/data/*"),
        ),
        id="volcengine-action-star",
    ),
    pytest.param(
        record(
            "volcengine:iam/rolePolicyAttachment:RolePolicyAttachment",
            roleName="node",
            policyName="AdministratorAccess",
            policyType="System",
        ),
        ADMIN,
        "allows action '*'",
        record(
            "volcengine:iam/rolePolicyAttachment:RolePolicyAttachment",
            roleName="node",
            policyName="p",
            policyType="Custom",
        ),
        id="volcengine-system-admin",
    ),
    pytest.param(
        record(VE_RULE, direction="ingress", policy="accept", protocol="tcp", portStart=443, portEnd=443),
        SOURCE,
        "ingress rule for ports 443-443 (from anywhere when none is set) names no source",
        record(
            VE_RULE,
            direction="ingress",
            policy="accept",
            protocol="tcp",
            portStart=443,
            portEnd=443,
            cidrIp="10.0.0.0/8",
        ),
        id="volcengine-rule-no-source",
    ),
    pytest.param(
        record(BD_GROUP, rules=[{"direction": "ingress", "protocol": "tcp", "portRange": "22"}]),
        SOURCE,
        "ingress rule for ports 22 (0.0.0.0/0 when none is set) names no source",
        record(
            BD_GROUP, rules=[{"direction": "ingress", "protocol": "tcp", "portRange": "22", "sourceIp": "10.1.0.0/16"}]
        ),
        id="baidu-rule-no-source",
    ),
    pytest.param(
        record(
            "alicloud:ram/rolePolicyAttachment:RolePolicyAttachment",
            roleName="node",
            policyName="AdministratorAccess",
            policyType="System",
        ),
        ADMIN,
        "allows action '*'",
        record(
            "alicloud:ram/rolePolicyAttachment:RolePolicyAttachment",
            roleName="node",
            policyName="AliyunOSSReadOnlyAccess",
            policyType="System",
        ),
        id="alibaba-system-admin",
    ),
]


@pytest.mark.parametrize(("rec", "rule", "says", "narrow"), CASES)
def test_the_rule_refuses_the_broken_resource_and_passes_its_narrow_twin(rec, rule, says, narrow):
    assert says in rules_broken(rec).get(rule, ""), rules_broken(rec)
    assert rule not in rules_broken(narrow), rules_broken(narrow)


def test_a_baidu_ssh_rule_with_no_source_is_open_to_the_internet():
    """bce-python-sdk 0.9.79: a rule without `sourceIp` allows 0.0.0.0/0."""
    rec = record(BD_GROUP, rules=[{"direction": "ingress", "protocol": "tcp", "portRange": "22"}])
    assert "admin port(s) 22 open to 0.0.0.0/0" in rules_broken(rec).get(WORLD, "")
