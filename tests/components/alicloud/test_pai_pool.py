"""`PaiPool` under Pulumi mocks: the PAI workspace with the inputs the `CreateWorkspace` schema
takes (name 3-23 letters, digits and `_` from a letter; a description of at most 80
characters; the environment types), protected; the stack's refusals name the field."""

from __future__ import annotations

import pytest

from clouds.alicloud import pai
from clouds.contract import ClusterConfig
from components.alicloud.pai import TYPE_TOKEN, PaiPool
from tests.clusters import example
from tests.components.harness import build_plan

WORKSPACE = "alicloud:pai/workspaceWorkspace:WorkspaceWorkspace"


def _config(**changes) -> ClusterConfig:
    values = {**example("alicloud"), "file_system": None, "ssh_cidrs": [], "platform": "pai", **changes}
    return ClusterConfig.model_validate(values)


def test_workspace_under_mocks():
    plan = build_plan(PaiPool, _config(), ("node_ids", "workspace_name"))
    assert any(r["type"] == TYPE_TOKEN and r["name"] == "c" for r in plan.records)
    (workspace,) = plan.of_type(WORKSPACE)
    assert workspace["inputs"]["workspaceName"] == "c_ws" == plan.outputs["workspace_name"]
    assert workspace["inputs"]["envTypes"] == ["prod"]
    assert workspace["inputs"]["description"] == "trainstack c"
    assert workspace["protect"] is True
    assert plan.outputs["node_ids"] == []


@pytest.mark.parametrize("cluster", ["c", "training-a100-alicloud-with-a-long-name", "7up", "a.b"])
def test_workspace_names_fit_the_schema(cluster):
    name = pai.workspace_name(cluster)
    assert 3 <= len(name) <= 23 and name[0].isalpha() and all(ch.isalnum() or ch == "_" for ch in name)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        pytest.param({"file_system": example("alicloud")["file_system"]}, "file_system: a PAI-DLC job", id="fs"),
        pytest.param({"ssh_cidrs": ["203.0.113.7/32"]}, "ssh_cidrs: PAI-DLC", id="ssh"),
        pytest.param({"tags": {"team": "ml"}}, "tags: nothing trainstack makes for PAI-DLC carries tags", id="tags"),
    ],
)
def test_refused_naming_the_field(changes, field):
    with pytest.raises(ValueError, match=f"^{field}"):
        pai.validate_pool(_config(**changes))
