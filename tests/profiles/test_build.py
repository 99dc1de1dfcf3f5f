"""The catalog build: cleaning rules on a tiny extract, and the real extract end to end."""

import csv
import json
from pathlib import Path

import pytest

from profiles.catalog.build import DATA_DIR, DEFAULT_SOURCE, build, source_commits
from profiles.catalog.loader import load_catalog

AWS_HEADER = (
    "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone,Arch"
)
GCP_HEADER = (
    "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice"
)
AZURE_HEADER = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,Generation"
V8_README = (
    "| `aws_gpu.csv` | `catalogs/v8/aws/vms.csv` | `" + "a" * 40 + "` | 1 |\n"
    "| `gcp_gpu.csv`, `gcp_gpu_host_vms.csv` | `catalogs/v8/gcp/vms.csv` | `" + "c" * 40 + "` | 1 |\n"
)
README = "| `azure_gpu.csv` | `catalogs/v6/azure/vms.csv` | `" + "b" * 40 + "` | 1 |\n"
L4_SLICE = "\"{'Gpus': [{'Name': 'L4', 'Count': 0, 'GpuPartitionSize': 0.125, 'MemoryInfo': {'SizeInMiB': 2861}}]}\""


@pytest.fixture()
def tiny_extract(tmp_path: Path) -> Path:
    src = tmp_path / "extract"
    (src / "v8").mkdir(parents=True)
    (src / "README.md").write_text(README)
    (src / "v8" / "README.md").write_text(V8_README)
    (src / "v8" / "aws_gpu.csv").write_text(
        "\n".join(
            [
                AWS_HEADER,
                "p4de.24xlarge,A100-80GB,8.0,96.0,1152.0,\"{'Gpus': [{'Name': 'A100', 'MemoryInfo': {'SizeInMiB': 81920}}]}\",27.44705,7.8074,us-east-1,use1-az4,x86_64",
                "p5e.48xlarge,H200,8.0,192.0,2048.0,,,,us-east-1,use1-az1,x86_64",
                "p5.48xlarge,H100,8.0,192.0,2048.0,,0,31.5,us-east-1,use1-az1,x86_64",
                "p5.48xlarge,H100,8.0,192.0,2048.0,,55.04,10.2397,us-east-1,use1-atl2-az1,x86_64",  # a Local Zone
                "p5.48xlarge,H100,8.0,192.0,2048.0,,55.04,55.040000,us-east-1,use1-az2,x86_64",  # spot = on-demand
                f"g6f.large,L4,0.125,2.0,8.0,{L4_SLICE},0.2,0.1,us-east-1,use1-az1,x86_64",
                "g5g.xlarge,T4g,1.0,4.0,8.0,,0.42,0.2,us-east-1,use1-az1,arm64",
            ]
        )
        + "\n"
    )
    (src / "azure_gpu.csv").write_text(
        "\n".join(
            [
                AZURE_HEADER,
                "Standard_ND96isr_H100_v5,H100,12,96.0,1900,H100,98.32,98.32,eastus,V2",
            ]
        )
        + "\n"
    )
    (src / "v8" / "gcp_gpu.csv").write_text(
        "\n".join(
            [
                GCP_HEADER,
                ",,,A100-80GB,8,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 81920}}]},us-central1,us-central1-a,14.76958,12.5696",
                ",,,T4,1,{},us-central1,us-central1-a,0.35,0.175",
                ",,,B200,8,{},us-central1,us-central1-b,90.216,32.6064",
                ",,,tpu-v5p-8,1,tpu-v5p-8,us-east5,us-east5-a,16.8,6.72",
                ",,,tpu-v6e-8,1,tpu-v6e-8,us-central2,us-central2-b,700.0,700.0",
            ]
        )
        + "\n"
    )
    (src / "v8" / "gcp_gpu_host_vms.csv").write_text(
        "\n".join(
            [
                GCP_HEADER,
                "a2-ultragpu-8g,96.0,1360.0,,,,us-central1,us-central1-a,8.79698,3.51864",
                "n1-standard-8,8.0,30.0,,,,us-central1,us-central1-a,0.38,0.10446",
                "a4-highgpu-8g,224.0,3968.0,,,,us-central1,us-central1-b,0.0,0.0",
            ]
        )
        + "\n"
    )
    return src


def _rows(path: Path) -> list[dict]:
    with path.open() as handle:
        return list(csv.DictReader(handle))


def test_cleaning_rules(tiny_extract, tmp_path):
    out = tmp_path / "out"
    meta = build(tiny_extract, out, "2026-02-03")
    aws = _rows(out / "aws.csv")
    # p5e (no prices), the fractional L4, the arm64 g5g and the Local Zone row are left out.
    assert [(r["instance_type"], r["zone"], r["on_demand_usd_per_hour"], r["spot_usd_per_hour"]) for r in aws] == [
        ("p4de.24xlarge", "use1-az4", "27.44705", "7.8074"),
        ("p5.48xlarge", "use1-az1", "", "31.5"),  # price 0 is unknown, not free
        ("p5.48xlarge", "use1-az2", "55.04", ""),  # spot = on-demand is no spot discount
    ]
    assert aws[0]["accelerator"] == "A100-80GB" and aws[0]["accelerator_memory_gib"] == "80"
    assert aws[0]["max_efa_interfaces"] == "4" and aws[0]["interconnect"] == "efa"
    assert meta["sources"]["aws"]["left_out"] == {"arm64": 1, "fractional GPU": 1, "local zone": 1, "no price": 1}
    (azure,) = _rows(out / "azure.csv")
    assert azure["accelerator_count"] == "8"  # the extract's 12 corrected (Azure documents 8)
    assert azure["spot_usd_per_hour"] == ""  # spot == on-demand is no spot discount
    assert azure["interconnect"] == "infiniband"
    gcp = _rows(out / "gcp.csv")
    # Node = host + GPUs (T4 on N1 now priced: 0.38 + 0.35, 0.10446 + 0.175); the B200's a4
    # host is a 0.0 placeholder and v6e has only the 700.0 placeholder: both left out.
    assert [(r["instance_type"], r["on_demand_usd_per_hour"], r["spot_usd_per_hour"]) for r in gcp] == [
        ("a2-ultragpu-8g", "23.56656", "16.08824"),
        ("n1-standard-8", "0.73", "0.27946"),
        ("tpu-v5p-8", "16.8", "6.72"),
    ]
    assert (gcp[1]["accelerator"], gcp[1]["accelerator_count"], gcp[1]["accelerator_memory_gib"]) == ("T4", "1", "16")
    assert gcp[2]["accelerator"] == "tpu-v5p" and gcp[2]["accelerator_count"] == "4"
    assert meta["sources"]["gcp"]["left_out"] == {"placeholder or no price": 2}
    assert meta["sources"]["aws"]["files"]["aws_gpu.csv"]["commit"] == "a" * 40
    assert meta["sources"]["azure"]["files"]["azure_gpu.csv"]["path"] == "catalogs/v6/azure/vms.csv"
    assert meta["version"].startswith("2026-02-03-")


def test_snapshot_rows_carry_unknown_dates_with_the_extraction_date_never_the_build_date(tiny_extract, tmp_path):
    out = tmp_path / "out"
    build(tiny_extract, out, "2026-02-03")
    assert {r["catalog_date"] for p in ("aws", "azure", "gcp") for r in _rows(out / f"{p}.csv")} == {
        "unknown, extracted on 2026-02-03"
    }
    # A rebuild from the same commits keeps the day each was first read; a new commit is read today.
    (tiny_extract / "v8" / "README.md").write_text(V8_README.replace("a" * 40, "d" * 40))
    meta = build(tiny_extract, out, "2026-03-04")
    assert {r["catalog_date"] for r in _rows(out / "aws.csv")} == {"unknown, extracted on 2026-03-04"}
    assert {r["catalog_date"] for r in _rows(out / "azure.csv")} == {"unknown, extracted on 2026-02-03"}
    assert meta["sources"]["azure"]["files"]["azure_gpu.csv"] == {
        "path": "catalogs/v6/azure/vms.csv",
        "commit": "b" * 40,
        "date": "unknown",
        "extracted": "2026-02-03",
        "snapshot": "reference-catalog",
    }
    assert meta["built"] == "2026-03-04"
    # China rows carry their sources' dates: Alibaba's third-party file 2024-12-30, Tencent undated.
    assert {r["catalog_date"] for r in _rows(out / "alicloud.csv")} == {"2024-12-30", "2023-07-21"}
    assert {r["catalog_date"] for r in _rows(out / "tencentcloud.csv")} == {"unknown, extracted on 2026-12-01"}


def test_build_is_deterministic(tiny_extract, tmp_path):
    first = build(tiny_extract, tmp_path / "one", "2026-02-03")
    second = build(tiny_extract, tmp_path / "two", "2026-02-03")
    assert first == second
    assert (tmp_path / "one" / "gcp.csv").read_text() == (tmp_path / "two" / "gcp.csv").read_text()


def test_source_commits_reads_the_extract_readmes():
    commits = source_commits((DEFAULT_SOURCE / "v8" / "README.md").read_text())
    assert commits["aws_gpu.csv"] == {
        "path": "catalogs/v8/aws/vms.csv",
        "commit": "00148f2af3672e2229b4f7bf8157d5a3f36e3c35",
    }
    assert commits["gcp_gpu_host_vms.csv"]["commit"].startswith("006059e0")
    azure = source_commits((DEFAULT_SOURCE / "README.md").read_text())["azure_gpu.csv"]
    assert azure == {"path": "catalogs/v6/azure/vms.csv", "commit": "098741e70562f65d7af1cceb81e33b284f742604"}


def test_committed_catalog_is_what_the_build_script_makes(tmp_path):
    """Rebuilding from the shared extract with the committed date (and its record of when each
    snapshot was first read) reproduces the files."""
    meta = json.loads((DATA_DIR / "catalog.json").read_text())
    (tmp_path / "catalog.json").write_text(json.dumps(meta))
    rebuilt = build(DEFAULT_SOURCE, tmp_path, meta["built"])
    assert rebuilt == meta
    for provider in ("aws", "azure", "gcp", "alicloud", "tencentcloud"):
        assert (tmp_path / f"{provider}.csv").read_text() == (DATA_DIR / f"{provider}.csv").read_text()


def test_committed_catalog_is_built_from_the_v8_snapshot_with_its_dates():
    meta = json.loads((DATA_DIR / "catalog.json").read_text())
    assert meta["sources"]["aws"]["files"]["aws_gpu.csv"]["path"] == "catalogs/v8/aws/vms.csv"
    assert meta["sources"]["gcp"]["files"]["gcp_gpu.csv"]["path"] == "catalogs/v8/gcp/vms.csv"
    assert meta["sources"]["azure"]["files"]["azure_gpu.csv"]["path"] == "catalogs/v6/azure/vms.csv"
    catalog = load_catalog(providers=("aws", "azure", "gcp"))
    assert {o.catalog_date for o in catalog.offerings if o.provider != "azure"} == {"unknown, extracted on 2026-12-01"}
    assert {o.catalog_date for o in catalog.offerings if o.provider == "azure"} == {"unknown, extracted on 2026-11-29"}
    assert meta["exchange_rates"]["CNY"] == {
        "per_usd": 6.8012,
        "as_of": "2026-05-08",
        "source": "ECB euro reference rates, cross rate 7.9989/1.1761 (china-prices.md CP-R1)",
    }


def test_real_aws_prices_match_the_v8_readme():
    """On-demand USD/h per instance, us-east-1 unless stated (v8 README, "Old snapshot vs this one")."""
    offerings = {(o.instance_type, o.zone): o for o in load_catalog(providers=("aws",)).offerings}
    expected = {
        ("p4d.24xlarge", "use1-az2"): 21.957642,
        ("p4de.24xlarge", "use1-az4"): 27.44705,
        ("p5.48xlarge", "use1-az2"): 55.04,
        ("p5.4xlarge", "use1-az2"): 6.88,
        ("p5en.48xlarge", "use1-az2"): 63.296,
        ("p6-b200.48xlarge", "use1-az6"): 113.9328,
        ("p6-b300.48xlarge", "usw2-az2"): 142.416,
        ("g6e.48xlarge", "use1-az1"): 30.13118,
        ("g7e.48xlarge", "use1-az2"): 33.14432,
    }
    for key, on_demand in expected.items():
        assert offerings[key].on_demand_usd_per_hour == pytest.approx(on_demand), key
    assert offerings[("p6-b300.48xlarge", "usw2-az2")].spot_usd_per_hour == pytest.approx(33.4308)
    trn2 = next(o for (t, _), o in offerings.items() if t == "trn2.48xlarge")
    assert (trn2.accelerator, trn2.accelerator_count, trn2.accelerator_memory_gib) == ("Trainium2", 16, 96)
    assert trn2.on_demand_usd_per_hour is None  # v8 has no on-demand price for trn2
    assert not [o for o in offerings.values() if o.instance_type.startswith(("g6f.", "gr6f.", "g5g."))]
    assert not [z for (_, z) in offerings if z.count("-") > 1]  # no Local Zone (use1-atl2-az1)


def test_real_gcp_prices_match_the_extract_readme_examples():
    """Worked examples in the v8 README (host + accelerators, us-central1)."""
    offerings = {(o.instance_type, o.zone, o.accelerator): o for o in load_catalog(providers=("gcp",)).offerings}
    expected = {
        ("a2-highgpu-1g", "us-central1-a", "A100"): (3.67339, 1.80385),
        ("a2-ultragpu-8g", "us-central1-a", "A100-80GB"): (23.56656, 20.11024),
        ("a3-highgpu-8g", "us-central1-a", "H100"): (43.06615, 26.83013),
        ("a3-megagpu-8g", "us-central1-a", "H100"): (92.21427, 28.17013),
        ("a3-ultragpu-8g", "us-central1-b", "H200"): (86.75992, 40.99433),
        ("g2-standard-4", "us-central1-a", "L4"): (0.70683, 0.28184),
        ("n1-standard-8", "us-central1-a", "T4"): (0.73, 0.27946),
        ("n1-standard-8", "us-central1-a", "V100"): (2.86, 1.19296),
    }
    for key, (on_demand, spot) in expected.items():
        assert offerings[key].on_demand_usd_per_hour == pytest.approx(on_demand), key
        assert offerings[key].spot_usd_per_hour == pytest.approx(spot), key
    assert not [o for o in offerings.values() if o.accelerator == "B200"]  # a4 host price is a 0.0 placeholder


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
    # With no rate recorded, the build records the sourced one of china-prices.md (CP-R1).
    assert plain["version"] == f"{_digest_version(tmp_path / 'plain', '2026-11-29')}+CNY6.8012@2026-05-08"
    assert plain["exchange_rates"]["CNY"]["as_of"] == "2026-05-08"
    assert json.loads((out / "catalog.json").read_text())["version"] == meta["version"]
    assert meta["exchange_rates"] == {"CNY": {"per_usd": 7.12, "as_of": "2026-11-29", "source": "CFETS central parity"}}


def _refreshed_huaweicloud(out: Path) -> tuple[str, dict]:
    """Give `out` a huaweicloud.csv and sources entry as `catalog refresh` writes them."""
    from profiles.catalog.build import offerings_to_csv
    from profiles.catalog.offering import Offering

    row = Offering(
        "huaweicloud",
        "cn-north-4",
        "cn-north-4a",
        "p3.16xlarge.8",
        "A100-80GB",
        8,
        80.0,
        None,
        64.0,
        512.0,
        "ethernet",
        0,
        36.0,
        None,
        None,
        "2026-11-28",
        "huaweicloud-bss-api",
        currency="CNY",
        on_demand_native=250.0,
    )
    text = offerings_to_csv([row])
    (out / "huaweicloud.csv").write_text(text)
    entry = {
        "offerings": 1,
        "refreshed": {"date": "2026-11-28", "source": "huaweicloud-bss-api", "regions": ["cn-north-4"], "offerings": 1},
    }
    meta = json.loads((out / "catalog.json").read_text())
    meta["sources"]["huaweicloud"] = entry
    meta["refreshed"] = "2026-11-28"
    (out / "catalog.json").write_text(json.dumps(meta))
    return text, entry


def test_a_rebuild_keeps_providers_it_does_not_build(tiny_extract, tmp_path):
    out = tmp_path / "out"
    build(tiny_extract, out, "2026-11-27")
    text, entry = _refreshed_huaweicloud(out)
    meta = build(tiny_extract, out, "2026-11-29")  # no refusal: the build has no huaweicloud rows to write
    assert (out / "huaweicloud.csv").read_text() == text
    assert meta["sources"]["huaweicloud"] == entry and meta["refreshed"] == "2026-11-28"
    assert sorted(meta["sources"]) == ["alicloud", "aws", "azure", "gcp", "huaweicloud", "tencentcloud"]
    assert meta["version"] == f"{_digest_version(out, '2026-11-29')}+CNY6.8012@2026-05-08"
    assert meta["version"] != build(tiny_extract, tmp_path / "bare", "2026-11-29")["version"]
    assert json.loads((out / "catalog.json").read_text()) == meta
    (kept,) = load_catalog(out, providers=("huaweicloud",)).offerings  # CNY at the recorded rate
    assert kept.on_demand_usd_per_hour == pytest.approx(round(250.0 / 6.8012, 6))


def test_a_forced_rebuild_over_refreshed_rows_still_keeps_unbuilt_providers(tiny_extract, tmp_path):
    from profiles.catalog.build import BuildError

    out = tmp_path / "out"
    build(tiny_extract, out, "2026-11-27")
    text, entry = _refreshed_huaweicloud(out)
    meta = json.loads((out / "catalog.json").read_text())
    meta["sources"]["aws"]["refreshed"] = {"date": "2026-11-28", "source": "aws-pricing-api", "regions": "all"}
    (out / "catalog.json").write_text(json.dumps(meta))
    with pytest.raises(BuildError) as error:
        build(tiny_extract, out, "2026-11-29")
    assert str(error.value).startswith(f"{out}: aws (refreshed 2026-11-28) came from live price APIs and a rebuild")
    assert "huaweicloud" not in str(error.value)
    meta = build(tiny_extract, out, "2026-11-29", force=True)
    assert "refreshed" not in meta["sources"]["aws"]
    assert meta["sources"]["huaweicloud"] == entry and (out / "huaweicloud.csv").read_text() == text
    assert meta["version"] == f"{_digest_version(out, '2026-11-29')}+CNY6.8012@2026-05-08"
