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
