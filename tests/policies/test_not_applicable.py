"""Results that say "n/a" where a rule checks nothing, and how `plan` and the PR comment show them."""

import pytest

from policies import evaluate
from policies.pack import resource_validator
from policies.registry import RuleResult
from policies.rules import Violation
from trainstack.cli.render import policy_summary
from trainstack.review.markdown import _policies

TAGS = {"trainstack-cluster": "c", "trainstack-provider": "volcengine"}
LT = "aws:ec2/launchTemplate:LaunchTemplate"


def record(kind, name="r", **inputs):
    return {"type": kind, "name": name, "parent": "c", "protect": False, "inputs": inputs}


def statuses(records):
    return {r.rule: r.status for r in evaluate(records)}


def test_aws_only_rules_are_na_on_other_clouds():
    found = statuses(
        [record("volcengine:ecs/instance:Instance", tags=[{"key": k, "value": v} for k, v in TAGS.items()])]
    )
    assert found["imdsv2-required"] == found["efa-security-group-self-rule"] == found["disks-encrypted"] == "n/a"
    assert found["cost-tags"] == "passed" and found["budget"] == "n/a"  # no budget set


def test_na_carries_its_reason_and_never_fails():
    (imds,) = [r for r in evaluate([]) if r.rule == "imdsv2-required"]
    assert imds.passed and not imds.checked and imds.violations == ()
    assert [(v.resource, v.message) for v in imds.not_applicable] == [
        (None, "no EC2 instance, launch template or launch configuration (IMDSv2 is an EC2 setting)")
    ]


def test_aws_rules_apply_to_aws_records():
    template = record(
        LT,
        metadataOptions={"httpTokens": "optional"},
        networkInterfaces=[{"interfaceType": "efa", "securityGroups": ["sg"]}],
    )
    found = statuses([template])
    assert found["imdsv2-required"] == "failed" and found["efa-security-group-self-rule"] == "failed"
    assert found["disks-encrypted"] == "failed"  # no blockDeviceMappings


def test_status_defaults_keep_old_results_working():
    assert RuleResult("x", "d", ()).status == "passed"
    assert RuleResult("x", "d", (Violation("x", None, "m"),)).status == "failed"
    assert RuleResult("x", "d", (), (Violation("x", None, "why"),), checked=False).status == "n/a"


def test_pack_reports_no_violation_for_data_it_cannot_check():
    messages = []
    resource_validator("disks-encrypted")(
        _Args(record("huaweicloud:Sfs/turbo:Turbo")), lambda message, urn=None: messages.append(message)
    )
    assert messages == []


class _Args:
    """Just enough of `ResourceValidationArgs` for `pack.to_record`."""

    def __init__(self, rec):
        self.resource_type, self.name, self.props = rec["type"], rec["name"], rec["inputs"]
        self.opts = type("Opts", (), {"parent": None, "protect": False})()


def test_plan_summary_counts_na_and_lists_why(capsys):
    results = evaluate(
        [
            record(
                "pulumi-python:dynamic/baiducloud:BccInstance",
                name="node-0",
                tags={"trainstack-cluster": "c", "trainstack-provider": "baiducloud"},
            )
        ]
    )
    policy_summary(results)
    out = capsys.readouterr().out
    assert out.startswith("policies: 4 passed, 6 n/a\n")
    assert "- budget: n/a: no budget set (trainstack:max_usd_per_hour)" in out
    assert "- disks-encrypted: n/a: node-0: root disk not encrypted" in out
    assert "- imdsv2-required: n/a: no EC2 instance" in out


def test_plan_summary_all_passed_is_unchanged(capsys):
    policy_summary([RuleResult("a", "d", ()), RuleResult("b", "d", ())])
    assert capsys.readouterr().out == "policies: all 2 passed\n"


def test_plan_summary_failures_then_na(capsys):
    policy_summary(
        [
            RuleResult("a", "d", (Violation("a", "x", "broken"),)),
            RuleResult("b", "d", (), (Violation("b", None, "why"),), checked=False),
        ]
    )
    out = capsys.readouterr().out.splitlines()
    assert out == ["policies: 1 of 2 failed, 1 n/a", "  x a: x: broken", "  - b: n/a: why"]


@pytest.mark.parametrize(
    ("result", "rows"),
    [
        pytest.param(
            {"rule": "a", "description": "d", "passed": True, "violations": []},
            ["| ✅ | `a` | d |"],
            id="review-without-status",
        ),
        pytest.param(
            {
                "rule": "a",
                "description": "d",
                "passed": True,
                "violations": [],
                "status": "n/a",
                "not_applicable": [{"resource": None, "message": "no EFA interface"}],
            },
            ["| ➖ n/a | `a` | no EFA interface |"],
            id="na",
        ),
        pytest.param(
            {
                "rule": "a",
                "description": "d",
                "passed": True,
                "violations": [],
                "status": "passed",
                "not_applicable": [{"resource": "fs", "message": "cpfs not encrypted"}],
            },
            [
                "| ✅ | `a` | d (what it can check; the rest is n/a below) |",
                "| ➖ n/a | `a` | `fs`: cpfs not encrypted |",
            ],
            id="passed-with-gap",
        ),
        pytest.param(
            {
                "rule": "a",
                "description": "d",
                "passed": False,
                "status": "failed",
                "violations": [{"resource": "n", "message": "bad"}],
            },
            ["| ❌ | `a` | `n`: bad |"],
            id="failed",
        ),
    ],
)
def test_markdown_rows(result, rows):
    assert _policies({"results": [result]})[4:] == rows
