"""File-system choice and sizing: Filestore ZONAL (C1, C4) or Managed Lustre (L1)."""

from __future__ import annotations

import pytest

from clouds.contract import FileSystemConfig
from clouds.gcp.filesystems import (
    FileSystemChoice,
    choose_file_system,
    filestore_capacity_gib,
    lustre_capacity_gib,
)
from tests.cases import cases


@pytest.mark.parametrize(("requested", "expected"), cases("filestore_rounding.yaml", "requested", "expected"))
def test_filestore_rounding(requested: int, expected: int) -> None:
    assert filestore_capacity_gib(requested) == expected


@pytest.mark.parametrize(
    ("requested", "tier", "expected"),
    [
        pytest.param(4800, 250, 36_000, id="250-min"),
        pytest.param(36_001, 250, 72_000, id="250-step"),
        pytest.param(9_000, 1000, 9_000, id="1000-min"),
        pytest.param(1_530_000, 1000, 1_530_000, id="1000-threshold"),
        pytest.param(1_600_000, 1000, 1_656_000, id="1000-large-step"),
        pytest.param(72_001, 125, 144_000, id="125-step"),
        pytest.param(18_000, 500, 18_000, id="500-min"),
    ],
)
def test_lustre_rounding(requested: int, tier: int, expected: int) -> None:
    assert lustre_capacity_gib(requested, tier) == expected


@pytest.mark.parametrize(("config", "expected"), cases("gcp_file_system_choice.yaml", "config", "expected"))
def test_choose_file_system(config: dict, expected: list) -> None:
    assert choose_file_system(FileSystemConfig(**config)) == FileSystemChoice(*expected)


@pytest.mark.parametrize(("config", "message"), cases("gcp_file_system_refusals.yaml", "config", "message"))
def test_choose_file_system_errors(config: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        choose_file_system(FileSystemConfig(**config))


@pytest.mark.parametrize(
    ("config", "hint"),
    [
        pytest.param(
            FileSystemConfig(capacity_gib=4800, throughput_mbps_per_tib=250),
            "raise capacity_gib to 36000",
            id="below-250-min",
        ),
        pytest.param(
            FileSystemConfig(capacity_gib=50_000, throughput_mbps_per_tib=125),
            "raise capacity_gib to 72000",
            id="below-125-min",
        ),
        pytest.param(FileSystemConfig(capacity_gib=50_000, throughput_mbps_per_tib=200), "or set", id="not-a-tier"),
    ],
)
def test_never_less_throughput_than_asked_without_an_explicit_choice(config, hint):
    """Filestore ZONAL writes 88 MiB/s per TiB (C4): a third of 250. No silent fallback."""
    from clouds.gcp.filesystems import explicit_deployment_type, offered_file_system

    with pytest.raises(ValueError, match=r"^file_system: .*Filestore ZONAL writes only 88 MiB/s per TiB") as error:
        choose_file_system(config)
    assert hint in str(error.value) and "deployment_type: ZONAL" in str(error.value)
    assert explicit_deployment_type(config) == "ZONAL"  # what `resolve --write-stack` records
    assert offered_file_system(config).kind == "filestore"


def test_the_stack_writer_records_the_explicit_filestore_choice():
    from clouds.filesystems import explicit_deployment_type

    assert explicit_deployment_type("gcp", FileSystemConfig(capacity_gib=4800, throughput_mbps_per_tib=250)) == "ZONAL"
    assert explicit_deployment_type("gcp", FileSystemConfig(capacity_gib=36_000, throughput_mbps_per_tib=250)) is None
    assert explicit_deployment_type("aws", FileSystemConfig(capacity_gib=4800, throughput_mbps_per_tib=250)) is None


@pytest.mark.parametrize(
    ("config", "says", "fixed"),
    [
        pytest.param(
            {"capacity_gib": 9_536_743, "deployment_type": "ZONAL"},
            "set file_system.deployment_type: MANAGED_LUSTRE (at 250 MB/s per TiB)",
            {"deployment_type": "MANAGED_LUSTRE"},
            id="explicit-filestore-10pb-switch-service",
        ),
        pytest.param(
            {"capacity_gib": 30_000_000, "throughput_mbps_per_tib": 100, "deployment_type": "ZONAL"},
            "set file_system.deployment_type: MANAGED_LUSTRE and throughput_mbps_per_tib to one of 250",
            {"deployment_type": "MANAGED_LUSTRE", "throughput_mbps_per_tib": 250},
            id="explicit-filestore-only-the-250-tier-holds-it",
        ),
        pytest.param(
            {"capacity_gib": 30_000_000, "throughput_mbps_per_tib": 100},
            "for Managed Lustre set throughput_mbps_per_tib to one of 250",
            {"throughput_mbps_per_tib": 250},
            id="chosen-filestore-names-only-tiers-that-hold-it",
        ),
        pytest.param(
            {"capacity_gib": 20_000_000, "throughput_mbps_per_tib": 1000},
            "maximum of 10008000 GiB; set throughput_mbps_per_tib to 250",
            {"throughput_mbps_per_tib": 250},
            id="lustre-tier-too-small-names-the-slower-tier-that-holds-it",
        ),
    ],
)
def test_a_too_big_file_systems_fix_is_accepted(config: dict, says: str, fixed: dict) -> None:
    """The fix a refusal names is valid input: an explicit `deployment_type: ZONAL` stays Filestore
    whatever the throughput (so the fix is the deployment type), and a faster Lustre tier holds
    less, not more (L1: 1000 MB/s/TiB tops out at 10,008,000 GiB, 250 at 40,032,000)."""
    with pytest.raises(ValueError) as refused:
        choose_file_system(FileSystemConfig(**config))
    assert says in str(refused.value)
    assert choose_file_system(FileSystemConfig(**{**config, **fixed})).kind == "lustre"


def test_beyond_every_lustre_tier_asks_for_less() -> None:
    with pytest.raises(ValueError, match="and every Managed Lustre tier's maximum .40032000 GiB.; ask for less$"):
        choose_file_system(FileSystemConfig(capacity_gib=50_000_000, throughput_mbps_per_tib=100))
