"""The GCP mocks answer in the stack's own project (`gcp:project`), as the provider does."""

from __future__ import annotations

import pytest

from tests.components.test_data_safety import write_stack
from trainstack.plan.runner import run_plan


def _by_type(resources, token):
    return [r for r in resources if r["type"] == token]


@pytest.mark.parametrize(
    ("config", "project"),
    [
        pytest.param({"gcp:project": "team-ml-prod"}, "team-ml-prod", id="stack-project"),
        pytest.param({"gcp:project": "other-42"}, "other-42", id="another-project"),
        pytest.param({}, "mock-project", id="no-project-configured"),
    ],
)
def test_gcp_plan_follows_the_stack_project(tmp_path, config, project):
    write_stack(tmp_path, "gcp-project", base="training-a3-gcp", config=config)
    plan = run_plan("gcp-project", tmp_path, priced=False)
    members = _by_type(plan.resources, "gcp:projects/iAMMember:IAMMember")
    assert members and {m["inputs"]["project"] for m in members} == {project}
    assert all(m["inputs"]["member"].endswith(f"@{project}.iam.gserviceaccount.com") for m in members)
