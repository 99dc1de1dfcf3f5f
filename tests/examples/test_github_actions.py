"""examples/github-actions/preview.yml: least privilege, a pinned CLI, new stacks, full paths."""

from pathlib import Path

import pytest
import yaml

WORKFLOW = Path(__file__).resolve().parents[2] / "examples" / "github-actions" / "preview.yml"


@pytest.fixture(scope="module")
def workflow() -> dict:
    document = yaml.safe_load(WORKFLOW.read_text())
    document["on"] = document.pop(True, document.get("on"))  # YAML 1.1 reads `on:` as true
    return document


def steps(job: dict) -> str:
    return "\n".join(step.get("run", "") for step in job["steps"])


def test_only_the_preview_job_can_mint_cloud_credentials(workflow):
    assert "id-token" not in workflow.get("permissions", {})
    assert "id-token" not in workflow["jobs"]["review"].get("permissions", {"id-token": "inherited"})
    assert workflow["jobs"]["preview"]["permissions"]["id-token"] == "write"


def test_the_pulumi_cli_install_is_pinned(workflow):
    install = steps(workflow["jobs"]["preview"])
    assert "get.pulumi.com" in install and '--version "$PULUMI_VERSION"' in install
    assert workflow["env"]["PULUMI_VERSION"].count(".") == 2


def test_a_stack_added_in_the_pull_request_is_created_before_its_preview(workflow):
    run = steps(workflow["jobs"]["preview"])
    assert run.index("pulumi stack select --create") < run.index("pulumi preview")


@pytest.mark.parametrize(
    "path",
    [
        "Pulumi.yaml",
        "requirements.txt",
        "trainstack/**",
        "__main__.py",
        "stacks/**",
        "components/**",
        "profiles/**",
        "policies/**",
        "pyproject.toml",
    ],
)
def test_the_paths_filter_covers_what_the_plan_reads(workflow, path):
    assert path in workflow["on"]["pull_request"]["paths"]
