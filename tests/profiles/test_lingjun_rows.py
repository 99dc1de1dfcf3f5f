"""The PAI Lingjun platform's own row, hand-computed: the efg1.nvga1 machine type (8 x A100 80 GB,
the ListMachineTypes example answer) at the PAI billing page's example Lingjun node price over
730 h, labelled an estimate; `platform: pai-lingjun` resolves to it and writes a stack whose
`node_image` comes from the workload and which the Lingjun pool's checks accept."""

from __future__ import annotations

import pytest

from clouds.alicloud.lingjun import validate_pool
from profiles.catalog.platform_rows import own_rows, shown
from profiles.resolver import NoMatchError, resolve
from profiles.spec import parse_spec
from profiles.stack.writer import cluster_config

IMAGE = "i190297201634099844192"


@pytest.fixture(scope="module")
def row():
    (found,) = own_rows(("alicloud",), {})  # a USD row: no exchange rate needed
    return found


def test_row_is_the_billing_examples_month_over_730_hours(row):
    assert row.on_demand_usd_per_hour == round(23_932.70 / 730, 6) == 32.784521
    assert row.spot_usd_per_hour is None  # Lingjun nodes have no spot
    assert (row.accelerator, row.accelerator_count, row.accelerator_memory_gib) == ("A100-80GB", 8, 80.0)
    assert (row.platform, row.catalog_date) == ("pai-lingjun", "2026-03-10")
    assert row.price_note.startswith("estimate: the PAI billing page's example")
    assert shown(row) == ("alicloud/pai-lingjun", "efg1.nvga1")


def _spec(**extra):
    base = {"name": "w", "accelerators": ["A100-80GB:8"], "nodes": 2, "hours": "10h", "providers": ["alicloud"]}
    return parse_spec({**base, **extra})


def test_pai_lingjun_workload_resolves_to_the_row_and_writes_its_pool(row):
    spec = _spec(platform="pai-lingjun", node_image=IMAGE)
    choice = resolve(spec, [row]).choice.candidate
    assert choice.offering.instance_type == "efg1.nvga1"
    assert choice.usd_total == pytest.approx(32.784521 * 2 * 10)
    config = cluster_config(spec, choice, "v")
    assert (config.platform, config.node_image, config.purchase, config.file_system) == (
        "pai-lingjun",
        IMAGE,
        "on-demand",
        None,
    )
    validate_pool(config)  # the pool's own checks accept what the writer wrote


def test_spot_only_workload_finds_no_lingjun_row(row):
    with pytest.raises(NoMatchError):
        resolve(_spec(platform="pai-lingjun", purchase="spot", spot={"checkpoint_interval": "1h"}), [row])


def test_stack_without_node_image_is_refused_naming_it(row):
    spec = _spec(platform="pai-lingjun")
    config = cluster_config(spec, resolve(spec, [row]).choice.candidate, "v")
    with pytest.raises(ValueError, match="^node_image: "):
        validate_pool(config)


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        pytest.param({}, None, id="the-row"),
        pytest.param(
            {"instance_type": "ecs.ebmgn7ex.32xlarge"},
            "instance_type: 'ecs.ebmgn7ex.32xlarge' is not an alicloud instance type the catalog knows; "
            "valid A100-80GB types: efg1.nvga1",
            id="an-ecs-type",
        ),
        pytest.param({"region": "cn-beijing", "zone": "cn-beijing-h"}, "region: 'cn-beijing'", id="region"),
    ],
)
def test_a_lingjun_stack_is_checked_against_the_platforms_own_rows(changes, problem):
    """`plan` and `--write-stack` match a platform stack against the rows the platform sells, not the ECS catalog."""
    from clouds.contract import ClusterConfig
    from profiles.stack.check import catalog_problems

    values = {"provider": "alicloud", "region": "cn-wulanchabu", "zone": "cn-wulanchabu-a", "hours": 10}
    values.update(instance_type="efg1.nvga1", accelerator="A100-80GB", accelerator_count=8, nodes=2)
    values.update(purchase="on-demand", platform="pai-lingjun", node_image=IMAGE, **changes)
    problems = catalog_problems(ClusterConfig.model_validate(values))
    if problem is None:
        assert problems == []
    else:
        assert problems and problems[0].startswith(problem)


def test_a_job_is_not_placed_on_lingjun_and_run_refuses_its_stack(row):
    """trainstack submits no job to a Lingjun cluster yet: `resolve` leaves the row out for a
    workload with a job (naming `job`), and `run` on a Lingjun stack refuses in one line."""
    from trainstack.run import RunError
    from trainstack.run.command import submitter

    with pytest.raises(NoMatchError, match="job: trainstack submits no job to Alibaba PAI Lingjun yet"):
        resolve(_spec(platform="pai-lingjun", node_image=IMAGE, job={"command": "train.py"}), [row])
    spec = _spec(platform="pai-lingjun", node_image=IMAGE)
    config = cluster_config(spec, resolve(spec, [row]).choice.candidate, "v")
    with pytest.raises(RunError, match="^platform: Alibaba PAI Lingjun has no job submitter yet$"):
        submitter(config)
