"""The compact copy of the catalog files (profiles/catalog/compact.py) answers exactly as the CSVs."""

import json
import marshal
import shutil

import pytest

from profiles.catalog import compact
from profiles.catalog.loader import DATA_DIR, PROVIDERS, load_catalog, load_provider


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A copy of the committed catalog in which copies may be written, with an empty memo."""
    folder = tmp_path / "data"
    folder.mkdir()
    for path in DATA_DIR.iterdir():
        if path.is_file():
            shutil.copy(path, folder)
    monkeypatch.setattr(compact, "_MEMO", {})
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    return folder


def test_compact_copy_loads_the_same_offerings_as_the_csvs(data_dir):
    parsed = load_catalog(data_dir)
    stored = sorted(p.name.split(".")[0] for p in (data_dir / "__pycache__").iterdir())
    assert stored == sorted(p for p in PROVIDERS if (data_dir / f"{p}.csv").exists())
    compact._MEMO.clear()
    from_copy = load_catalog(data_dir)
    assert from_copy.offerings == parsed.offerings
    assert from_copy.left_out == parsed.left_out
    direct = [
        o
        for p in PROVIDERS
        if (data_dir / f"{p}.csv").exists()
        for o in load_provider(data_dir / f"{p}.csv", parsed.rates)
    ]
    assert list(from_copy.offerings) == direct
    assert {o.provider for o in from_copy.offerings} >= {"aws", "gcp", "tencentcloud"}  # CNY rows converted too


def test_copy_is_read_when_its_key_matches(data_dir):
    load_catalog(data_dir, providers=("aws",))
    path = compact.cache_path(data_dir / "aws.csv")
    key, rows, left_out = marshal.loads(path.read_bytes())
    first = rows[0]
    cheaper = (*first[:13], 0.5, *first[14:])  # on-demand USD/hour of the first row
    path.write_bytes(marshal.dumps((key, [cheaper], left_out)))
    compact._MEMO.clear()
    (offering,) = load_catalog(data_dir, providers=("aws",)).offerings
    assert offering.on_demand_usd_per_hour == 0.5


def test_an_edited_csv_is_parsed_again(data_dir):
    before = load_catalog(data_dir, providers=("azure",)).offerings
    path = data_dir / "azure.csv"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2]) + "\n")  # the header and the first row only
    after = load_catalog(data_dir, providers=("azure",)).offerings
    assert len(before) > 1
    assert after == before[:1]
    compact._MEMO.clear()
    assert load_catalog(data_dir, providers=("azure",)).offerings == before[:1]  # the copy was rewritten


def test_a_changed_exchange_rate_converts_again(data_dir):
    before = load_catalog(data_dir, providers=("tencentcloud",)).offerings
    meta_path = data_dir / "catalog.json"
    meta = json.loads(meta_path.read_text())
    meta["exchange_rates"]["CNY"]["per_usd"] *= 2
    meta_path.write_text(json.dumps(meta))
    after = load_catalog(data_dir, providers=("tencentcloud",)).offerings
    assert after[0].on_demand_usd_per_hour == pytest.approx(before[0].on_demand_usd_per_hour / 2, rel=1e-4)


def test_rows_left_out_for_a_missing_rate_are_counted_from_the_copy(data_dir):
    meta_path = data_dir / "catalog.json"
    meta = json.loads(meta_path.read_text())
    del meta["exchange_rates"]
    meta_path.write_text(json.dumps(meta))
    parsed = load_catalog(data_dir)
    compact._MEMO.clear()
    from_copy = load_catalog(data_dir)
    assert parsed.left_out["CNY"] > 0
    assert from_copy.left_out == parsed.left_out
    assert from_copy.offerings == parsed.offerings


@pytest.mark.parametrize("content", [b"", b"not marshal", b"\xe9" * 40], ids=["empty", "garbage", "truncated"])
def test_a_broken_copy_falls_back_to_the_csv(data_dir, content):
    parsed = load_catalog(data_dir, providers=("azure",)).offerings
    compact.cache_path(data_dir / "azure.csv").write_bytes(content)
    compact._MEMO.clear()
    assert load_catalog(data_dir, providers=("azure",)).offerings == parsed


def test_no_copy_without_bytecode_writing_unless_forced(data_dir, monkeypatch):
    monkeypatch.setattr("sys.dont_write_bytecode", True)
    load_catalog(data_dir)
    assert not (data_dir / "__pycache__").exists()
    load_catalog(data_dir, write_compact=True)
    assert (compact.cache_path(data_dir / "aws.csv")).exists()


def test_a_copy_that_cannot_be_written_is_skipped(data_dir):
    (data_dir / "__pycache__").write_text("a file where the folder would be")
    offerings = load_catalog(data_dir).offerings
    compact._MEMO.clear()
    assert load_catalog(data_dir).offerings == offerings
    assert {o.provider for o in offerings} >= {"aws", "azure", "gcp"}
    assert sorted(p.name for p in data_dir.iterdir() if p.suffix == ".tmp") == []


def test_the_stack_checks_rows_have_their_own_copy_and_answer_as_the_csv(data_dir, monkeypatch):
    """`catalog_rows` keeps every row, priced in USD or not, beside (never in place of) the
    offerings copy; both answer as parsing the CSV does, from the copy too."""
    from profiles.catalog import loader
    from profiles.stack.check import catalog_rows

    monkeypatch.setattr(loader, "DATA_DIR", data_dir)
    meta_path = data_dir / "catalog.json"
    meta = json.loads(meta_path.read_text())
    del meta["exchange_rates"]  # CNY rows: kept by the check, left out of the offerings
    meta_path.write_text(json.dumps(meta))
    for provider in ("aws", "tencentcloud"):
        parsed = load_provider(data_dir / f"{provider}.csv", require_usd=False)
        assert catalog_rows(provider) == parsed
        compact._MEMO.clear()
        assert catalog_rows(provider) == parsed  # from the copy
    assert len(catalog_rows("tencentcloud")) > len(load_catalog(data_dir, providers=("tencentcloud",)).offerings) == 0
    offerings = load_catalog(data_dir, providers=("aws",)).offerings
    assert compact.cache_path(data_dir / "aws.csv", "rows").exists()
    assert compact.cache_path(data_dir / "aws.csv").exists()
    compact._MEMO.clear()
    assert load_catalog(data_dir, providers=("aws",)).offerings == offerings == tuple(catalog_rows("aws"))
    (data_dir / "tencentcloud.csv").write_text("not,a,catalog\n")
    assert catalog_rows("tencentcloud") == []
