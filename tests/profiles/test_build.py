"""The catalog build: cleaning rules on a tiny extract, and the real extract end to end."""

import csv
import json
from pathlib import Path

import pytest

from profiles.catalog.build import DATA_DIR, DEFAULT_SOURCE, build, source_commits
from profiles.catalog.loader import load_catalog

AWS_HEADER = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone"
GCP_HEADER = "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice"
AZURE_HEADER = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,Generation"
README = "| `aws_gpu.csv` | `catalogs/v7/aws/vms.csv` | `" + "a" * 40 + "` | 1 |\n"


@pytest.fixture()
def tiny_extract(tmp_path: Path) -> Path:
    src = tmp_path / "extract"
    src.mkdir()
    (src / "README.md").write_text(README)
    (src / "aws_gpu.csv").write_text("\n".join([
        AWS_HEADER,
        'p4de.24xlarge,A100-80GB,8.0,96.0,1152.0,"{\'Gpus\': [{\'Name\': \'A100\', \'MemoryInfo\': {\'SizeInMiB\': 81920}}]}",40.96575,7.8074,us-east-1,use1-az4',
        'p4de.24xlarge,A100-80GB,8.0,96.0,1152.0,"{\'Gpus\': [{\'Name\': \'A100-80GB\', \'MemoryInfo\': {\'SizeInMiB\': 81920}}]}",40.96575,,us-east-1,use1-az4',
        "p5e.48xlarge,H200,8.0,192.0,2048.0,,,,us-east-1,use1-az1",
        "p5.48xlarge,H100,8.0,192.0,2048.0,,0,31.5,us-east-1,use1-az1",
    ]) + "\n")
    (src / "azure_gpu.csv").write_text("\n".join([
        AZURE_HEADER,
        "Standard_ND96isr_H100_v5,H100,12,96.0,1900,H100,98.32,98.32,eastus,V2",
    ]) + "\n")
    (src / "gcp_gpu.csv").write_text("\n".join([
        GCP_HEADER,
        ",,,A100-80GB,8,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 81920}}]},us-central1,us-central1-a,14.76958,12.5696",
        ",,,T4,1,{},us-central1,us-central1-a,0.35,0.1",
        ",,,tpu-v5p-8,1,tpu-v5p-8,us-east5,us-east5-a,16.8,6.72",
        ",,,tpu-v6e-8,1,tpu-v6e-8,us-central2,us-central2-b,700.0,700.0",
    ]) + "\n")
    (src / "gcp_gpu_host_vms.csv").write_text("\n".join([
        GCP_HEADER,
        "a2-ultragpu-8g,96.0,1360.0,,,,us-central1,us-central1-a,8.79698,3.51864",
    ]) + "\n")
    return src


def _rows(path: Path) -> list[dict]:
    with path.open() as handle:
        return list(csv.DictReader(handle))


def test_cleaning_rules(tiny_extract, tmp_path):
    out = tmp_path / "out"
    meta = build(tiny_extract, out, "2026-02-03")
    aws = _rows(out / "aws.csv")
    # Duplicate p4de rows merge into one, keeping the spot price; p5e (no prices) is dropped.
    assert [(r["instance_type"], r["spot_usd_per_hour"]) for r in aws] == [("p4de.24xlarge", "7.8074"), ("p5.48xlarge", "31.5")]
    assert aws[0]["accelerator"] == "A100-80GB" and aws[0]["accelerator_memory_gib"] == "80"
    assert aws[0]["max_efa_interfaces"] == "4" and aws[0]["interconnect"] == "efa"
    assert aws[1]["on_demand_usd_per_hour"] == ""  # price 0 is unknown, not free
    (azure,) = _rows(out / "azure.csv")
    assert azure["accelerator_count"] == "8"  # the extract's 12 corrected (Azure documents 8)
    assert azure["spot_usd_per_hour"] == ""  # spot == on-demand is no spot discount
    assert azure["interconnect"] == "infiniband"
    gcp = _rows(out / "gcp.csv")
    # A100-80GB node = host + GPUs; T4 has no host row (N1) and v6e has only the placeholder.
    assert [(r["instance_type"], r["on_demand_usd_per_hour"], r["spot_usd_per_hour"]) for r in gcp] == [
        ("a2-ultragpu-8g", "23.56656", "16.08824"),
        ("tpu-v5p-8", "16.8", "6.72"),
    ]
    assert gcp[1]["accelerator"] == "tpu-v5p" and gcp[1]["accelerator_count"] == "4"
    assert meta["sources"]["aws"]["files"]["aws_gpu.csv"]["commit"] == "a" * 40
    assert meta["version"].startswith("2026-02-03-")


def test_build_is_deterministic(tiny_extract, tmp_path):
    first = build(tiny_extract, tmp_path / "one", "2026-02-03")
    second = build(tiny_extract, tmp_path / "two", "2026-02-03")
    assert first == second
    assert (tmp_path / "one" / "gcp.csv").read_text() == (tmp_path / "two" / "gcp.csv").read_text()


def test_source_commits_reads_the_extract_readme():
    text = (DEFAULT_SOURCE / "README.md").read_text()
    commits = source_commits(text)
    assert commits["aws_gpu.csv"] == {"path": "catalogs/v7/aws/vms.csv", "commit": "001367d22a0033fac286a8c71aeac7109e431bcb"}
    assert commits["gcp_gpu_host_vms.csv"]["commit"].startswith("017e2502")


def test_committed_catalog_is_what_the_build_script_makes(tmp_path):
    """Rebuilding from the shared extract with the committed date reproduces the files."""
    meta = json.loads((DATA_DIR / "catalog.json").read_text())
    rebuilt = build(DEFAULT_SOURCE, tmp_path, meta["built"])
    assert rebuilt == meta
    for provider in ("aws", "azure", "gcp"):
        assert (tmp_path / f"{provider}.csv").read_text() == (DATA_DIR / f"{provider}.csv").read_text()


def test_real_gcp_prices_match_the_extract_readme_examples():
    """Worked examples in the extract README (host + accelerators, us-central1)."""
    offerings = {(o.instance_type, o.zone): o for o in load_catalog(providers=("gcp",)).offerings}
    expected = {
        ("a2-highgpu-1g", "us-central1-a"): (3.67339, 1.44296),
        ("a2-ultragpu-8g", "us-central1-a"): (23.56656, 16.08824),
        ("a3-highgpu-8g", "us-central1-a"): (43.06615, 20.19947),
        ("a3-megagpu-8g", "us-central1-a"): (92.21427, 21.20827),
        ("a3-ultragpu-8g", "us-central1-b"): (86.75992, 32.61871),
        ("g2-standard-4", "us-central1-a"): (0.70683, 0.28184),
    }
    for key, (on_demand, spot) in expected.items():
        assert offerings[key].on_demand_usd_per_hour == pytest.approx(on_demand)
        assert offerings[key].spot_usd_per_hour == pytest.approx(spot)


def test_rebuild_refuses_to_replace_refreshed_rows_unless_forced(tiny_extract, tmp_path):
    from profiles.catalog.build import BuildError, main

    out = tmp_path / "out"
    out.mkdir()
    build(tiny_extract, out, "2026-01-01")
    meta = json.loads((out / "catalog.json").read_text())
    meta["sources"]["aws"]["refreshed"] = {"date": "2026-11-28", "source": "aws-pricing-api", "regions": "all"}
    (out / "catalog.json").write_text(json.dumps(meta))
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(BuildError, match=r"aws \(refreshed 2026-11-28\) came from live price APIs .* --force"):
        build(tiny_extract, out, "2026-01-02")
    with pytest.raises(SystemExit, match=r"^error: .*make catalog ARGS=--force"):
        main(["--source", str(tiny_extract), "--out", str(out), "--date", "2026-01-02"])
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert build(tiny_extract, out, "2026-01-02", force=True)["built"] == "2026-01-02"
    assert "refreshed" not in json.loads((out / "catalog.json").read_text())["sources"]["aws"]


def _digest_version(folder: Path, date: str) -> str:
    """`DATE-<sha256 of every provider file, by name>[:10]`: what the version must hash."""
    import hashlib

    from profiles.catalog.loader import PROVIDERS

    text = "".join((folder / f"{p}.csv").read_text() for p in sorted(PROVIDERS) if (folder / f"{p}.csv").exists())
    return f"{date}-{hashlib.sha256(text.encode()).hexdigest()[:10]}"


def test_a_rebuild_keeps_the_recorded_rate_in_the_version(tiny_extract, tmp_path):
    import datetime as dt

    from profiles.catalog.rates import set_rate

    plain = build(tiny_extract, tmp_path / "plain", "2026-11-29")
    out = tmp_path / "out"
    build(tiny_extract, out, "2026-11-29")
    set_rate(out, "CNY", 7.12, "2026-11-29", "CFETS central parity", today=dt.date(2026, 11, 29))
    meta = build(tiny_extract, out, "2026-11-30")
    assert meta["version"] == f"{_digest_version(out, '2026-11-30')}+CNY7.12@2026-11-29"
    assert plain["version"] == _digest_version(tmp_path / "plain", "2026-11-29")
    assert json.loads((out / "catalog.json").read_text())["version"] == meta["version"]
    assert meta["exchange_rates"] == {"CNY": {"per_usd": 7.12, "as_of": "2026-11-29", "source": "CFETS central parity"}}


def _refreshed_tencentcloud(out: Path) -> tuple[str, dict]:
    """Give `out` a tencentcloud.csv and sources entry as `catalog refresh` writes them."""
    from profiles.catalog.build import offerings_to_csv
    from profiles.catalog.offering import Offering

    row = Offering("tencentcloud", "ap-beijing", "ap-beijing-7", "GT4.41XLARGE948", "A100", 8, 40.0, "SXM", 164.0,
                   948.0, "ethernet", 0, 100.0, None, None, "2026-11-28", "tencentcloud-cvm-api",
                   currency="CNY", on_demand_native=250.0)
    text = offerings_to_csv([row])
    (out / "tencentcloud.csv").write_text(text)
    entry = {"offerings": 1, "refreshed": {"date": "2026-11-28", "source": "tencentcloud-cvm-api",
                                           "regions": ["ap-beijing"], "offerings": 1}}
    meta = json.loads((out / "catalog.json").read_text())
    meta["sources"]["tencentcloud"] = entry
    meta["refreshed"] = "2026-11-28"
    (out / "catalog.json").write_text(json.dumps(meta))
    return text, entry


def test_a_rebuild_keeps_providers_it_does_not_build(tiny_extract, tmp_path):
    out = tmp_path / "out"
    build(tiny_extract, out, "2026-11-27")
    text, entry = _refreshed_tencentcloud(out)
    meta = build(tiny_extract, out, "2026-11-29")  # no refusal: the build has no tencentcloud rows to write
    assert (out / "tencentcloud.csv").read_text() == text
    assert meta["sources"]["tencentcloud"] == entry and meta["refreshed"] == "2026-11-28"
    assert sorted(meta["sources"]) == ["alicloud", "aws", "azure", "gcp", "tencentcloud"]
    assert meta["version"] == _digest_version(out, "2026-11-29")
    assert meta["version"] != build(tiny_extract, tmp_path / "bare", "2026-11-29")["version"]
    assert json.loads((out / "catalog.json").read_text()) == meta
    assert len(load_catalog(out, providers=("tencentcloud",)).offerings) == 0  # CNY without a rate: left out
    assert load_catalog(out, providers=("tencentcloud",)).left_out == {"CNY": 1}


def test_a_forced_rebuild_over_refreshed_rows_still_keeps_unbuilt_providers(tiny_extract, tmp_path):
    from profiles.catalog.build import BuildError

    out = tmp_path / "out"
    build(tiny_extract, out, "2026-11-27")
    text, entry = _refreshed_tencentcloud(out)
    meta = json.loads((out / "catalog.json").read_text())
    meta["sources"]["aws"]["refreshed"] = {"date": "2026-11-28", "source": "aws-pricing-api", "regions": "all"}
    (out / "catalog.json").write_text(json.dumps(meta))
    with pytest.raises(BuildError) as error:
        build(tiny_extract, out, "2026-11-29")
    assert str(error.value).startswith(f"{out}: aws (refreshed 2026-11-28) came from live price APIs and a rebuild")
    assert "tencentcloud" not in str(error.value)
    meta = build(tiny_extract, out, "2026-11-29", force=True)
    assert "refreshed" not in meta["sources"]["aws"]
    assert meta["sources"]["tencentcloud"] == entry and (out / "tencentcloud.csv").read_text() == text
    assert meta["version"] == _digest_version(out, "2026-11-29")
