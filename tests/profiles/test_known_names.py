"""Catalog names in a workload (regions, reservations, accelerators) are named when unknown."""

import pytest

from profiles.explain import NoMatchError
from profiles.resolver import resolve
from profiles.spec import parse_spec
from tests.cases import cases

RESERVATION = {"provider": "aws", "instance_type": "p4d.24xlarge", "zone": "use1-az1", "nodes": 2, "usd_per_hour": 0}


def refused(fixture_catalog, **spec) -> str:
    with pytest.raises(NoMatchError) as caught:
        resolve(parse_spec({"accelerators": "A100:8", "hours": 1, **spec}), fixture_catalog.offerings)
    return str(caught.value)


@pytest.mark.parametrize(("spec", "expected"), cases("known_name_errors.yaml", "spec", "expected"))
def test_unknown_names_are_named_with_valid_ones(fixture_catalog, spec, expected):
    assert refused(fixture_catalog, **spec).startswith(expected)


def test_regions_are_read_in_any_case(fixture_catalog):
    spec = parse_spec({"accelerators": "A100:8", "hours": 1, "regions": [" US-East-1 "]})
    assert spec.regions == ("us-east-1",)
    assert resolve(spec, fixture_catalog.offerings).choice.candidate.offering.region == "us-east-1"


def test_a_known_reservation_is_used(fixture_catalog):
    spec = parse_spec({"accelerators": "A100:8", "hours": 1, "reservations": [RESERVATION | {"id": "cr-0"}]})
    choice = resolve(spec, fixture_catalog.offerings).choice.candidate
    assert (choice.offering.zone, choice.usd_per_hour) == ("use1-az1", 0.0)


def test_file_system_rejections_use_the_workload_s_keys(real_catalog):
    """The cloud rules speak the stack's keys (throughput_mbps_per_tib); a workload says throughput."""
    spec = parse_spec(
        {"accelerators": "A10:1", "hours": "1h", "file_system": {"capacity": "4800GiB", "throughput": 250}}
    )
    count, detail = resolve(spec, real_catalog.offerings).rejected["file_system"]
    assert count > 0 and detail.startswith("alicloud: file_system.throughput: 250 has no CPFS storage type; valid")
    assert "throughput_mbps_per_tib" not in detail


def test_a_created_file_system_names_each_word_once():
    from clouds.contract import FileSystemConfig
    from clouds.filesystems import created_file_system

    made = created_file_system("alicloud", FileSystemConfig(capacity_gib=4800, throughput_mbps_per_tib=100))
    assert made is not None and made.service == "CPFS advance_100"  # was "CPFS cpfs cpfs advance_100"


@pytest.mark.parametrize(
    ("accelerators", "picked"),
    [
        pytest.param(["A100:8", "H100:8"], "H100", id="first-not-sold-second-is"),
        pytest.param(["H100:8", "B200:8"], "H100", id="second-not-sold"),
    ],
)
def test_any_listed_accelerator_the_clouds_sell_may_match(fixture_catalog, accelerators, picked):
    spec = parse_spec({"accelerators": accelerators, "hours": 1, "providers": ["gcp"]})
    assert resolve(spec, fixture_catalog.offerings).choice.candidate.offering.accelerator == picked
