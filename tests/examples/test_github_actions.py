"""examples/github-actions/preview.yml: no job that runs pull-request code can get a credential;
a pinned CLI, new stacks, full paths."""

import copy
import re
from pathlib import Path

import pytest
import yaml

WORKFLOW = Path(__file__).resolve().parents[2] / "examples" / "github-actions" / "preview.yml"

# Actions that hand the job a cloud credential (OpenID Connect or keys).
_CLOUD_LOGINS = ("configure-aws-credentials", "azure/login", "google-github-actions/auth", "aliyun/", "tencentcloud")
# A run step that puts the pull request's code in the work tree (a `git show` of one file is data).
_CHECKOUT_RUN = re.compile(r"\b(git\s+(checkout|switch|reset|merge|pull|worktree|restore)|gh\s+pr\s+checkout)\b")


def _load(text: str) -> dict:
    document = yaml.safe_load(text)
    document["on"] = document.pop(True, document.get("on"))  # YAML 1.1 reads `on:` as true
    return document


@pytest.fixture(scope="module")
def workflow() -> dict:
    return _load(WORKFLOW.read_text())


def steps(job: dict) -> str:
    return "\n".join(step.get("run", "") for step in job["steps"])


def _events(document: dict) -> set[str]:
    on = document["on"]
    return {on} if isinstance(on, str) else set(on)


def runs_pull_request_code(document: dict, job: dict) -> bool:
    """True when `job` may execute code from the pull request: it runs on `pull_request`
    (whose checkout is the pull request's merge commit), or it checks out the head on
    `pull_request_target`."""
    condition = str(job.get("if", ""))
    events = _events(document)
    if "pull_request" in events and "event_name == 'pull_request_target'" not in condition:
        return True
    for step in job["steps"]:
        ref = str((step.get("with") or {}).get("ref", ""))
        if "checkout" in str(step.get("uses", "")) and ("head" in ref or "merge" in ref or "refs/pull" in ref):
            return True
        if _CHECKOUT_RUN.search(step.get("run", "")):
            return True
    return False


def credential_in(document: dict, job: dict) -> str | None:
    """The first credential `job` can get, described, or None."""
    permissions = job.get("permissions", document.get("permissions", "write-all"))
    if not isinstance(permissions, dict):
        return f"permissions: {permissions}"
    if permissions.get("id-token") == "write":
        return "id-token: write"
    text = yaml.safe_dump(job)
    if "secrets." in text or "github.token" in text or "GITHUB_TOKEN" in text:
        return "a secret or the GITHUB_TOKEN"
    if "environment" in job:
        return f"environment {job['environment']} (its secrets)"
    for step in job["steps"]:
        uses = str(step.get("uses", ""))
        if any(login in uses for login in _CLOUD_LOGINS):
            return uses
        if "checkout" in uses and (step.get("with") or {}).get("persist-credentials") is not False:
            return "actions/checkout keeps the token in .git/config (persist-credentials)"
    return None


def leaks(document: dict) -> list[str]:
    return [
        f"{name}: {found}"
        for name, job in document["jobs"].items()
        if runs_pull_request_code(document, job) and (found := credential_in(document, job))
    ]


def test_no_job_that_runs_pull_request_code_can_get_a_credential(workflow):
    assert leaks(workflow) == []
    assert {n for n, j in workflow["jobs"].items() if runs_pull_request_code(workflow, j)} == {"review"}


def _edited(workflow: dict, job: str, change) -> dict:
    document = copy.deepcopy(workflow)
    change(document["jobs"][job])
    return document


@pytest.mark.parametrize(
    "job, change",
    [
        pytest.param("review", lambda j: j["permissions"].update({"id-token": "write"}), id="oidc-in-review"),
        pytest.param("review", lambda j: j.setdefault("env", {}).update({"T": "${{ secrets.X }}"}), id="secret"),
        pytest.param("review", lambda j: j["steps"][0]["with"].pop("persist-credentials"), id="persisted-token"),
        pytest.param("review", lambda j: j.update({"permissions": "write-all"}), id="write-all"),
        pytest.param(
            "review",
            lambda j: j["steps"].append({"uses": "aws-actions/configure-aws-credentials@v4"}),
            id="aws-role",
        ),
        pytest.param("review", lambda j: j.update({"environment": "preview"}), id="environment"),
        pytest.param(
            "preview",
            lambda j: j["steps"][0]["with"].update({"ref": "${{ github.event.pull_request.head.sha }}"}),
            id="target-checks-out-head",
        ),
        pytest.param(
            "preview", lambda j: j["steps"].insert(1, {"run": 'git checkout "$HEAD_SHA"'}), id="target-git-checkout"
        ),
        pytest.param("preview", lambda j: j.pop("if"), id="preview-also-on-pull-request"),
        pytest.param("comment", lambda j: j.pop("if"), id="comment-also-on-pull-request"),
    ],
)
def test_the_check_catches_a_credential_reaching_pull_request_code(workflow, job, change):
    assert leaks(_edited(workflow, job, change)), "the edit hands pull-request code a credential"


def test_the_credentialed_preview_waits_for_approval_and_uses_the_base_policy_pack(workflow):
    preview = workflow["jobs"]["preview"]
    assert preview["environment"] == "preview" and preview["permissions"]["id-token"] == "write"
    assert preview["steps"][0]["with"]["ref"] == "${{ github.event.pull_request.base.sha }}"
    assert "--policy-pack policies" in steps(preview)
    assert not _CHECKOUT_RUN.search(steps(preview))


def test_the_pulumi_cli_install_is_pinned(workflow):
    install = steps(workflow["jobs"]["preview"])
    assert "get.pulumi.com" in install and '--version "$PULUMI_VERSION"' in install
    assert workflow["env"]["PULUMI_VERSION"].count(".") == 2


def test_a_stack_added_in_the_pull_request_is_created_before_its_preview(workflow):
    run = steps(workflow["jobs"]["preview"])
    assert run.index("pulumi stack select --create") < run.index("pulumi preview")


def test_the_pull_request_job_plans_offline(workflow):
    run = steps(workflow["jobs"]["review"])
    assert "trainstack plan" in run and "pulumi " not in run


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
    assert path in workflow["on"]["pull_request_target"]["paths"]
