"""Spot interruption rates: a type's Spot Advisor band where recorded, else the labelled default."""

import pytest

from clouds.registry import CLOUDS
from facts.aws_spot_traces import P3_RATE, P3_TRACES, pooled_rate
from facts.spot_advisor import AWS_SPOT_ADVISOR, BANDS, aws_band
from profiles.catalog.offering import Offering
from profiles.cost import inputs
from profiles.cost.estimate import JobHours
from profiles.costing import candidates
from profiles.spec import parse_spec
from tests.cases import cases


def node(instance_type, region="us-east-1", provider="aws", spot=10.0):
    return Offering(
        provider, region, f"{region}-a", instance_type, "H100", 8, 80.0, "SXM", 192, 2048, "efa", 32, 3200.0, 40.0,
        spot, "2026-01-01",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("instance_type", "region", "rate", "label"), cases("spot_bands.yaml", "instance_type", "region", "rate", "label")
)
def test_a_recorded_band_gives_its_upper_edge_with_source_and_date(instance_type, region, rate, label):
    found, source = inputs.spot_interruptions(node(instance_type, region))
    assert found == rate
    assert source == f"Spot Advisor {label}, {AWS_SPOT_ADVISOR[(region, instance_type)].source}, 2026-09-20"


@pytest.mark.parametrize(
    ("instance_type", "region", "provider"), cases("spot_band_defaults.yaml", "instance_type", "region", "provider")
)
def test_without_a_recorded_band_the_labelled_default(instance_type, region, provider):
    # Labelled as an assumption with what the cloud publishes, never as "conservative".
    rate, source = inputs.spot_interruptions(node(instance_type, region, provider))
    assert rate == 0.20
    assert source == (
        f"assumed: {CLOUDS[provider].spot_rate_basis}; 0.2 is the floor of AWS's worst Spot Advisor band (> 20 %/month)"
    )
    assert CLOUDS[provider].spot_rate_basis and "conservative" not in source


def test_a_cloud_without_a_stated_basis_says_no_published_rate():
    rate, source = inputs.spot_interruptions(node("GT4.41XLARGE948", "ap-beijing", "tencentcloud"))
    assert (rate, source) == (
        0.20,
        "assumed: no published rate; 0.2 is the floor of AWS's worst Spot Advisor band (> 20 %/month)",
    )


def test_the_p3_family_reads_the_rate_counted_in_the_published_spot_traces():
    # ST1: 802 interruptions in 1,854.6 running node-hours over seven zone traces = 315.7 per
    # node-month (730 h); the rate is the pooled one, inside the traces' own range.
    assert sum(n for n, _ in P3_TRACES.values()) == 802
    assert pooled_rate(P3_TRACES) == pytest.approx(802 / 1854.6 * 730)
    per_trace = [n / h * 730 for n, h in P3_TRACES.values()]
    assert min(per_trace) < P3_RATE < max(per_trace)
    for size in ("p3.2xlarge", "p3.16xlarge", "p3dn.24xlarge"):
        rate, source = inputs.spot_interruptions(node(size))
        if size == "p3dn.24xlarge":  # another family (p3dn): no trace, the labelled assumption
            assert (rate, source.split(":")[0]) == (0.20, "assumed")
            continue
        assert rate == 315.7 and source.startswith("measured: ST1 (Can't Be Late, NSDI 2024")
        assert "7 zone traces pooled, on p3.2xlarge (the family's other sizes assumed alike)" in source
    # A band recorded for the type and region wins over the family row.
    assert inputs.spot_interruptions(node("p5.48xlarge"))[0] == 0.05


def test_no_spot_rate_source_calls_itself_conservative():
    for cloud in CLOUDS.values():
        assert "conservative" not in (cloud.spot_rate_basis or "")
    assert all("conservative" not in label for _, label in inputs.SPOT_INTERRUPTIONS.values())


def test_bands_are_the_advisors_five_ranges():
    assert [label for label, _ in BANDS.values()] == ["< 5 %", "5-10 %", "10-15 %", "15-20 %", "> 20 %"]
    assert aws_band("us-east-1", "p5.48xlarge").upper_edge == 0.05
    assert aws_band("us-east-1", "p4d.24xlarge") is None
    assert all(b.observed == "2026-09-20" for b in AWS_SPOT_ADVISOR.values())


def test_a_spot_row_shows_the_band_and_the_hours_it_adds():
    # 100 h on 2 p5 nodes at 0.05 per node-month: 100 x 2 x 0.05 / 730 = 0.0137 interruptions,
    # each losing 1 h / 2 + 0.25 h (AWS node group restart) = 0.0103 h added.
    spec = parse_spec(
        {
            "accelerators": "H100:8",
            "nodes": 2,
            "hours": 100,
            "purchase": "spot",
            "spot": {"checkpoint_interval": "1h"},
            "file_system": {"capacity": "1200GiB", "throughput": 125},
        }
    )
    (row,) = candidates(spec, node("p5.48xlarge"), JobHours(100.0), 2)
    assert row.interruptions == pytest.approx(100 * 2 * 0.05 / 730)
    assert row.added_hours == pytest.approx(100 * 2 * 0.05 / 730 * 0.75)
    assert row.hours == pytest.approx(100 + 100 * 2 * 0.05 / 730 * 0.75)
    assert any("(0.05/node-month, Spot Advisor < 5 % in us-east-1 (upper edge), SA1" in n for n in row.notes)
