"""The stack exports: the generated admin key is retrievable, and only as a secret."""

from pathlib import Path

import pulumi
import pytest

from trainstack.plan.runner import run_plan

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("stack", ["training-h100-azure", "training-a100-baiducloud"])
def test_a_generated_admin_key_is_exported_as_a_secret(stack, monkeypatch):
    secret: dict[str, object] = {}
    export = pulumi.export

    def recording_export(name, value):
        if name == "ssh_private_key":

            async def flag():
                secret[name] = await value.is_secret()

            export("ssh_private_key_is_secret", pulumi.Output.from_input(flag()))
        export(name, value)

    monkeypatch.setattr(pulumi, "export", recording_export)
    plan = run_plan(stack, ROOT)
    assert plan.outputs["ssh_private_key"].startswith("-----BEGIN OPENSSH PRIVATE KEY-----")
    assert secret["ssh_private_key"] is True


def test_an_aws_stack_generates_no_key_and_exports_none():
    assert "ssh_private_key" not in run_plan("training-a100", ROOT).outputs
