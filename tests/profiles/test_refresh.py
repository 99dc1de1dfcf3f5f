"""`refresh`: merge, summary, snapshots and metadata; a failure anywhere changes no byte."""

import csv
import json

import pytest

import profiles.catalog.refresh as refresh_module
from profiles.catalog.build import offerings_to_csv
from profiles.catalog.fetchers import FetchError
from profiles.catalog.loader import load_catalog, load_provider
from profiles.catalog.offering import LEGACY_COLUMNS, RESERVED_COLUMNS, Offering
from profiles.catalog.refresh import prune_snapshots, refresh
from tests.aws_live import (
    P4D_USE1,
    copy_catalog,
    p4d_pages,
    pricing_answering,
    snapshot_files,
    stubbed,
)

TODAY = "2026-12-01"
ROW = Offering(
    "aws",
    "us-east-1",
    "use1-az1",
    "p4d.24xlarge",
    "A100",
    8,
    40.0,
    "SXM",
    96.0,
    1152.0,
    "efa",
    4,
    400.0,
    30.0,
    10.0,
    TODAY,
    "test-api",
)


def _aws_refresh(data, session, pricing, regions=("us-east-1",), **kw):
    return refresh(
        "aws",
        list(regions) if regions else None,
        data,
        lambda _: None,
        TODAY,
        session=session,
        pricing=pricing,
        families=("p4d",),
        **kw,
    )


def _use_fetcher(monkeypatch, fetch):
    monkeypatch.setattr(refresh_module, "fetcher_for", lambda provider: fetch)


def test_refreshed_region_is_replaced_and_the_rest_kept_verbatim(tmp_path, moto_session):
    data = copy_catalog(tmp_path)
    old_lines = (data / "aws.csv").read_text().splitlines()
    gcp_before = (data / "gcp.csv").read_bytes()
    summary = _aws_refresh(data, moto_session, pricing_answering(*p4d_pages()))
    new_text = (data / "aws.csv").read_text()
    # Every us-west-2 row (not refreshed) is kept byte for byte; other providers untouched.
    assert all(line in new_text.splitlines() for line in old_lines[1:] if ",us-west-2," in line)
    assert (data / "gcp.csv").read_bytes() == gcp_before
    east = [o for o in load_provider(data / "aws.csv") if o.region == "us-east-1" and o.instance_type == "p4d.24xlarge"]
    assert {(o.on_demand_usd_per_hour, o.source, o.catalog_date) for o in east} == {
        (P4D_USE1, "aws-pricing-api", TODAY)
    }
    # Types this fetch did not cover (g5, p5 fixture rows) keep their rows.
    assert all(line in new_text.splitlines() for line in old_lines[1:] if ",g5." in line or ",p5." in line)
    rows = list(csv.reader(new_text.splitlines()))[1:]
    assert rows == sorted(rows, key=lambda r: (r[3], r[1], r[2]))
    # Summary: fixture us-east-1 had p4d in az1+az2 at $32; the fetch returns p4d zones.
    assert summary.removed == 0 and summary.added == len(east) - 2 and summary.changed == 2
    (move,) = [m for m in summary.moves if m.purchase == "on-demand"]
    assert (move.instance_type, move.purchase, move.old_usd_per_hour, move.new_usd_per_hour, move.zones) == (
        "p4d.24xlarge",
        "on-demand",
        32.0,
        P4D_USE1,
        2,
    )
    assert move.percent == pytest.approx((P4D_USE1 - 32) / 32 * 100)


def test_metadata_records_source_date_and_a_new_version(tmp_path, moto_session):
    data = copy_catalog(tmp_path)
    summary = _aws_refresh(data, moto_session, pricing_answering(*p4d_pages()))
    meta = json.loads((data / "catalog.json").read_text())
    assert meta["version"] == summary.version and meta["version"].startswith(f"{TODAY}-")
    assert meta["refreshed"] == TODAY
    assert meta["sources"]["aws"]["refreshed"] == {
        "date": TODAY,
        "source": "aws-pricing-api",
        "regions": ["us-east-1"],
        "offerings": summary.rows,
    }
    catalog = load_catalog(data)
    assert catalog.version == summary.version
    assert {o.provider for o in catalog.offerings} == {"aws", "gcp"}


def test_previous_file_is_kept_as_a_dated_snapshot(tmp_path, moto_session):
    data = copy_catalog(tmp_path)
    before = (data / "aws.csv").read_bytes()
    summary = _aws_refresh(data, moto_session, pricing_answering(*p4d_pages()))
    assert summary.snapshot == data / "snapshots" / "aws-fixture-1.csv"
    assert summary.snapshot.read_bytes() == before
    assert "*" in (data / "snapshots" / ".gitignore").read_text()  # local only, not committed


def test_only_the_newest_snapshots_are_kept(tmp_path):
    import os

    for day in range(1, 6):
        path = tmp_path / f"aws-2026-12-0{day}-abc.csv"
        path.write_text("x")
        os.utime(path, ns=(day * 10**9, day * 10**9))
    (tmp_path / "gcp-2026-12-01-abc.csv").write_text("kept: another provider")
    deleted = prune_snapshots(tmp_path, "aws", keep=3)
    assert [p.name for p in deleted] == ["aws-2026-12-01-abc.csv", "aws-2026-12-02-abc.csv"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "aws-2026-12-03-abc.csv",
        "aws-2026-12-04-abc.csv",
        "aws-2026-12-05-abc.csv",
        "gcp-2026-12-01-abc.csv",
    ]


def test_throttled_fetch_mid_way_leaves_every_file_byte_identical(tmp_path, moto_session):
    data = copy_catalog(tmp_path)
    before = snapshot_files(data)
    pricing, stub = stubbed("pricing")
    stub.add_response("get_products", p4d_pages()[0])
    stub.add_client_error("get_products", service_error_code="ThrottlingException", http_status_code=400)
    with pytest.raises(FetchError, match="throttled"):
        _aws_refresh(data, moto_session, pricing)
    assert snapshot_files(data) == before


def test_fetcher_failing_after_progress_changes_nothing(tmp_path, monkeypatch):
    data = copy_catalog(tmp_path)
    before = snapshot_files(data)
    seen = []

    def failing(regions, progress, **clients):
        progress("aws us-east-1: instance types")
        raise FetchError("AWS throttled ec2:DescribeSpotPriceHistory in us-east-1")

    _use_fetcher(monkeypatch, failing)
    with pytest.raises(FetchError):
        refresh("aws", ["us-east-1"], data, seen.append, TODAY)
    assert seen == ["aws us-east-1: instance types"] and snapshot_files(data) == before


def test_a_failed_write_restores_every_file(tmp_path, monkeypatch):
    data = copy_catalog(tmp_path)
    before = snapshot_files(data)
    _use_fetcher(monkeypatch, lambda regions, progress, **_: [ROW])
    real_write = refresh_module.write_atomically

    def write(path, text):
        if path.name == "catalog.json":
            raise OSError("disk full")
        real_write(path, text)

    monkeypatch.setattr(refresh_module, "write_atomically", write)
    with pytest.raises(OSError):
        refresh("aws", ["us-east-1"], data, lambda _: None, TODAY)
    assert snapshot_files(data) == before


@pytest.mark.parametrize(
    "rows, message",
    [
        pytest.param([], "returned no offerings", id="empty"),
        pytest.param([ROW._replace(on_demand_usd_per_hour=0.0)], "on_demand_usd_per_hour=0.0", id="zero-price"),
        pytest.param([ROW._replace(spot_usd_per_hour=-1.0)], "spot_usd_per_hour=-1.0", id="negative-price"),
        pytest.param([ROW._replace(on_demand_usd_per_hour=float("nan"))], "=nan", id="nan-price"),
        pytest.param(
            [ROW._replace(on_demand_usd_per_hour=None, spot_usd_per_hour=None)], "without a price", id="no-price"
        ),
        pytest.param([ROW, ROW._replace(on_demand_usd_per_hour=31.0)], "twice", id="duplicate"),
        pytest.param([ROW._replace(region="eu-west-1")], "outside the request", id="other-region"),
        pytest.param([ROW._replace(provider="gcp")], "outside the request", id="other-provider"),
    ],
)
def test_invalid_rows_are_rejected_before_any_write(tmp_path, monkeypatch, rows, message):
    data = copy_catalog(tmp_path)
    before = snapshot_files(data)
    _use_fetcher(monkeypatch, lambda regions, progress, **_: rows)
    with pytest.raises(FetchError, match=message):
        refresh("aws", ["us-east-1"], data, lambda _: None, TODAY)
    assert snapshot_files(data) == before


def test_all_regions_refresh_replaces_every_row_of_the_fetched_types(tmp_path, monkeypatch):
    data = copy_catalog(tmp_path)
    before = {(o.instance_type, o.zone) for o in load_provider(data / "aws.csv")}
    _use_fetcher(monkeypatch, lambda regions, progress, **_: [ROW])
    summary = refresh("aws", None, data, lambda _: None, TODAY)
    after = {(o.instance_type, o.zone) for o in load_provider(data / "aws.csv")}
    assert {z for t, z in after if t == "p4d.24xlarge"} == {"use1-az1"}
    # Types the fetch did not return (g5, p4de, p5 here) keep their rows: nothing vanishes.
    assert {k for k in before if k[0] != "p4d.24xlarge"} == {k for k in after if k[0] != "p4d.24xlarge"}
    assert summary.regions == () and summary.removed == 1  # p4d in use1-az2
    assert {m.purchase: (m.old_usd_per_hour, m.new_usd_per_hour) for m in summary.moves} == {
        "on-demand": (32.0, 30.0),
        "spot": (12.0, 10.0),
    }


def test_unknown_provider_is_a_fetch_error(tmp_path):
    with pytest.raises(
        FetchError,
        match="unknown provider 'ibm'; valid: alicloud, aws, azure, baiducloud, gcp, huaweicloud, tencentcloud, volcengine",
    ):
        refresh("ibm", None, tmp_path)


def test_reserved_prices_round_trip_and_old_files_keep_their_header(tmp_path):
    reserved = ROW._replace(reserved_1y_usd_per_hour=20.0, reserved_3y_usd_per_hour=13.5)
    assert offerings_to_csv([ROW]).splitlines()[0] == ",".join(LEGACY_COLUMNS)
    text = offerings_to_csv([reserved, ROW._replace(zone="use1-az2")])
    assert text.splitlines()[0] == ",".join(RESERVED_COLUMNS)
    (tmp_path / "aws.csv").write_text(text)
    first, second = load_provider(tmp_path / "aws.csv")
    assert (first.reserved_1y_usd_per_hour, first.reserved_3y_usd_per_hour) == (20.0, 13.5)
    assert second.reserved_1y_usd_per_hour is None


def test_price_moves_of_cny_rows_are_in_cny():
    from profiles.catalog.diff import summarize

    old = ROW._replace(
        provider="alicloud",
        region="cn-beijing",
        zone="cn-beijing",
        on_demand_usd_per_hour=None,
        spot_usd_per_hour=None,
        currency="CNY",
        on_demand_native=277.933,
    )
    new = old._replace(on_demand_native=250.14)
    summary = summarize("alicloud", ["cn-beijing"], [old], [new], "v", None)
    (move,) = summary.moves
    assert (move.currency, move.old_usd_per_hour, move.new_usd_per_hour, summary.changed) == ("CNY", 277.933, 250.14, 1)


def test_a_refresh_keeps_the_recorded_rate_in_the_version(tmp_path, monkeypatch):
    import hashlib

    from profiles.catalog.loader import PROVIDERS

    data = copy_catalog(tmp_path)
    meta = json.loads((data / "catalog.json").read_text())
    meta["exchange_rates"] = {"CNY": {"per_usd": 7.12, "as_of": "2026-11-29", "source": "CFETS central parity"}}
    (data / "catalog.json").write_text(json.dumps(meta))
    _use_fetcher(monkeypatch, lambda regions, progress, **_: [ROW])
    summary = refresh("aws", ["us-east-1"], data, lambda _: None, TODAY)
    text = "".join((data / f"{p}.csv").read_text() for p in sorted(PROVIDERS) if (data / f"{p}.csv").exists())
    expected = f"{TODAY}-{hashlib.sha256(text.encode()).hexdigest()[:10]}+CNY7.12@2026-11-29"
    assert summary.version == expected
    assert json.loads((data / "catalog.json").read_text())["version"] == expected
    assert load_catalog(data).version == expected


@pytest.fixture()
def umask_027():
    import os

    old = os.umask(0o027)
    yield
    os.umask(old)


def test_refresh_keeps_file_modes_and_new_files_follow_the_umask(tmp_path, monkeypatch, umask_027):
    import os
    import stat

    def mode(path):
        return stat.S_IMODE(os.stat(path).st_mode)

    data = copy_catalog(tmp_path)
    os.chmod(data / "aws.csv", 0o664)
    os.chmod(data / "catalog.json", 0o644)
    _use_fetcher(monkeypatch, lambda regions, progress, **_: [ROW])
    summary = refresh("aws", ["us-east-1"], data, lambda _: None, TODAY)
    assert (mode(data / "aws.csv"), mode(data / "catalog.json")) == (0o664, 0o644)
    assert mode(summary.snapshot) == 0o640  # a new file: 0o666 less the umask 027, not mkstemp's 0o600


def test_write_atomically_keeps_the_mode_of_the_file_it_replaces(tmp_path, umask_027):
    import os
    import stat

    from profiles.files import write_atomically

    new, existing = tmp_path / "new.yaml", tmp_path / "existing.yaml"
    write_atomically(new, "a: 1\n")
    existing.write_text("old")
    os.chmod(existing, 0o604)
    write_atomically(existing, "b: 2\n")
    assert stat.S_IMODE(os.stat(new).st_mode) == 0o640
    assert (stat.S_IMODE(os.stat(existing).st_mode), existing.read_text()) == (0o604, "b: 2\n")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left
