"""FSx for Lustre sizing (pure): capacity rounding (F1) and throughput tiers (F1/F2)."""

import pytest

from clouds.aws.fsx import FsxSizing, fsx_sizing, round_capacity_gib
from tests.cases import cases


@pytest.mark.parametrize(("requested", "rounded"), cases("fsx_capacity_rounding.yaml", "requested", "rounded"))
def test_persistent_2_capacity_rounds_up(requested, rounded):
    assert round_capacity_gib(requested) == rounded


def test_scratch_1_steps_of_3600():
    assert round_capacity_gib(2401, "SCRATCH_1") == 3600
    assert round_capacity_gib(3601, "SCRATCH_1") == 7200


def test_default_is_persistent_2():
    assert fsx_sizing(4800, 250) == FsxSizing("PERSISTENT_2", 4800, 250)


@pytest.mark.parametrize("tier", [125, 250, 500, 1000])
def test_persistent_2_tiers_accepted(tier):
    assert fsx_sizing(1, tier).per_unit_storage_throughput == tier


def test_bad_throughput_names_field_and_valid_values():
    with pytest.raises(ValueError) as err:
        fsx_sizing(1200, 200)

    message = str(err.value)
    assert "\n" not in message
    assert message.startswith("file_system.throughput_mbps_per_tib: 200")
    assert "PERSISTENT_2" in message
    assert message.endswith("125, 250, 500, 1000")


def test_persistent_1_has_its_own_tiers():
    assert fsx_sizing(1200, 200, "PERSISTENT_1").per_unit_storage_throughput == 200
    with pytest.raises(ValueError, match="valid values .*: 50, 100, 200$"):
        fsx_sizing(1200, 250, "PERSISTENT_1")


def test_scratch_takes_no_throughput():
    assert fsx_sizing(1300, 250, "SCRATCH_2") == FsxSizing("SCRATCH_2", 2400, None)


def test_unknown_deployment_type():
    with pytest.raises(ValueError, match="file_system.deployment_type: 'FAST' is not known"):
        fsx_sizing(1200, 250, "FAST")


@pytest.mark.parametrize(
    ("deployment_type", "efa", "expected"),
    [
        pytest.param(
            "PERSISTENT_2",
            True,
            {"file_system_type_version": "2.15", "efa_enabled": True, "metadata_configuration": {"mode": "AUTOMATIC"}},
            id="p2-efa",
        ),
        pytest.param(
            "PERSISTENT_2",
            False,
            {"file_system_type_version": "2.15", "efa_enabled": False, "metadata_configuration": {"mode": "AUTOMATIC"}},
            id="p2-no-efa",
        ),
        pytest.param("SCRATCH_2", True, {"file_system_type_version": "2.15"}, id="scratch-no-metadata-config"),
    ],
)
def test_create_time_settings(deployment_type, efa, expected):
    from clouds.aws.fsx import create_time_settings

    assert create_time_settings(deployment_type, efa) == expected
