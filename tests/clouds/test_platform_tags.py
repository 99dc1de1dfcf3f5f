"""A managed-platform stack's own tags meet its cloud's tag rules, as the cloud's VM stacks do:
the pool's resources carry them (SageMaker: its IAM role and S3 bucket; PAI Lingjun: its VPD,
subnet, cluster and nodes; TI-ONE: the resource group's TagSet; ModelArts: the pool's TMS tags),
so a tag the cloud refuses would fail `pulumi up` halfway. `plan`, `check` and `resolve
--write-stack` all validate through `clouds.registry.validator`, the function called here."""

from __future__ import annotations

from pathlib import Path

import pytest

from clouds.contract import ClusterConfig
from clouds.registry import validator
from tests.clusters import example

ROOT = Path(__file__).parents[2]


def _sagemaker(**tags: str) -> ClusterConfig:
    from profiles.stack.file import read_cluster

    cluster = read_cluster(ROOT / "stacks" / "Pulumi.training-a100-sagemaker.yaml")[1]
    return cluster.model_copy(update={"tags": tags})


def _lingjun(**tags: str) -> ClusterConfig:
    values = {
        **example("alicloud"),
        "region": "cn-wulanchabu",
        "zone": "cn-wulanchabu-a",
        "instance_type": "efg1.nvga1",
        "file_system": None,
        "platform": "pai-lingjun",
        "node_image": "i190297201634099844192",
        "nodes": 3,
        "tags": tags,
    }
    return ClusterConfig.model_validate(values)


def _tione(**tags: str) -> ClusterConfig:
    values = {**example("tencentcloud"), "platform": "ti-one", "purchase": "on-demand", "file_system": None}
    values.pop("spot_max_price", None)
    return ClusterConfig.model_validate({**values, "tags": tags})


def _modelarts(**tags: str) -> ClusterConfig:
    from profiles.stack.file import read_cluster

    cluster = read_cluster(ROOT / "stacks" / "Pulumi.training-ascend-modelarts.yaml")[1]
    return cluster.model_copy(update={"tags": tags})


def _check(cluster: ClusterConfig) -> str | None:
    try:
        validator(cluster.provider, cluster.platform)(cluster, "train")
    except ValueError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize(
    ("build", "tags", "says"),
    [
        pytest.param(_sagemaker, {"bad key!": "v"}, "tags: key 'bad key!' has a character AWS refuses", id="sm-char"),
        pytest.param(_sagemaker, {"aws:team": "ml"}, "starts with aws:, which AWS reserves", id="sm-aws-prefix"),
        pytest.param(_sagemaker, {"team": "v" * 257}, "the value is 257 characters, AWS allows 256", id="sm-long"),
        pytest.param(
            _lingjun, {"acs:team": "ml"}, "tags: key 'acs:team' starts with a prefix Alibaba reserves", id="lj-acs"
        ),
        pytest.param(_lingjun, {"team": "v" * 129}, "tags: value of 'team' is longer than 128", id="lj-long"),
        pytest.param(
            _tione, {"qcs:team": "ml"}, "tags: key 'qcs:team' starts with a prefix Tencent reserves", id="ti-qcs"
        ),
        pytest.param(_tione, {"bad key!": "v"}, "tags: key of 'bad key!' has a character Tencent", id="ti-char"),
        pytest.param(
            _modelarts, {"_sys_team": "ml"}, "starts with _sys_, which Huawei ModelArts reserves", id="ma-sys"
        ),
        pytest.param(_modelarts, {"bad key!": "v"}, "key 'bad key!' has a character Huawei ModelArts", id="ma-char"),
        pytest.param(_modelarts, {" team": "v"}, "key ' team' has a character Huawei ModelArts", id="ma-space"),
        pytest.param(_modelarts, {"k" * 129: "v"}, "must be 1-128 characters on Huawei ModelArts", id="ma-long-key"),
        pytest.param(_modelarts, {"team": "v" * 256}, "256 characters, Huawei ModelArts allows 255", id="ma-long"),
    ],
)
def test_a_platform_stack_tag_its_cloud_refuses_is_one_line(build, tags, says):
    problem = _check(build(**tags))
    assert problem is not None and says in problem and "\n" not in problem, problem


@pytest.mark.parametrize(
    "build", [_sagemaker, _lingjun, _tione, _modelarts], ids=["sagemaker", "pai-lingjun", "ti-one", "modelarts"]
)
def test_a_platform_stack_with_fitting_tags_passes(build):
    assert _check(build(team="ml-research", **{"cost-center": "a1"})) is None
