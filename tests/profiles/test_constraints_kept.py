"""Constraints stay constraints (#27 item 5) and checkpoints cost time (item 4): a file system
below the throughput asked ranks after every row that meets it, with the reason; every allowed
cloud that gave no row is named with why; `NAME:N` binds its own entry only; checkpoint writes
at the file system's write rate add to the job."""

from __future__ import annotations

import pytest

from clouds.filesystems import shortfall
from profiles.cost.checkpoint import checkpoint_hours, state_bytes, write_hours
from profiles.resolver import resolve
from profiles.spec import parse_spec

H100_FS = {
    "accelerators": "H100:8",
    "nodes": 4,
    "interconnect": "rdma",
    "purchase": "on-demand",
    "hours": "26 weeks",
    "providers": ["aws", "azure", "gcp"],
}


def test_filestore_zonal_writes_below_the_asked_tier():
    # Filestore ZONAL at 9,728 GiB writes 876.6 MB/s = 92 MB/s per TiB (Google's zonal tier table).
    assert shortfall("gcp", 9600, 250, 250) == (
        "file system writes 92 of the 250 MB/s per TiB asked (Filestore ZONAL, Google's Filestore zonal tier table)"
    )
    assert shortfall("aws", 9600, 250, 250) is None  # FSx PERSISTENT_2 at 250 does 250 both ways


def test_a_file_system_below_the_stated_throughput_ranks_after_every_row_that_meets_it(real_catalog):
    spec = parse_spec({**H100_FS, "file_system": {"capacity": "9600GiB", "throughput": 250}})
    rows = resolve(spec, real_catalog.offerings, top=200)
    ranked = [r.candidate for r in (rows.choice, *rows.alternatives)]
    assert ranked[0].offering.provider != "gcp" and not ranked[0].caveats
    first_gcp = next(i for i, c in enumerate(ranked) if c.offering.provider == "gcp")
    # The GCP rows are cheaper per job, yet every row without a caveat ranks above them.
    assert all(not c.caveats for c in ranked[:first_gcp]) and all(c.caveats for c in ranked[first_gcp:])
    assert min(c.usd_total for c in ranked[first_gcp:]) < ranked[0].usd_total
    assert "caveat: file system writes 92 of the 250 MB/s per TiB asked" in rows.alternatives[first_gcp - 1].reason


def test_an_unstated_throughput_is_no_constraint(real_catalog):
    spec = parse_spec({**H100_FS, "file_system": {"capacity": "9600GiB"}})
    assert not resolve(spec, real_catalog.offerings).choice.candidate.caveats


def test_every_allowed_cloud_without_a_row_is_named_with_why(real_catalog):
    spec = parse_spec(
        {
            "accelerators": ["A100:8", "A100-80GB:8", "H100:8", "H800:8"],
            "nodes": 2,
            "interconnect": "rdma",
            "hours": 72,
            "jurisdiction": "cn-mainland",
            "providers": ["alicloud", "tencentcloud", "huaweicloud"],
            "file_system": {"capacity": "4800GiB", "throughput": 100},
        }
    )
    rows = resolve(spec, real_catalog.offerings)
    assert {c.offering.provider for c in rows.candidates} == {"alicloud"}
    assert rows.clouds is not None and set(rows.clouds) == {"tencentcloud", "huaweicloud"}
    assert rows.clouds["tencentcloud"].startswith(
        "interconnect: no offering of these accelerators has an RDMA fabric (EFA, InfiniBand, GPUDirect, eRDMA); "
    )
    assert rows.clouds["huaweicloud"].startswith("no priced offering in the catalog")


def test_a_count_binds_its_own_entry_only(real_catalog):
    spec = parse_spec({"accelerators": ["tpu-v6e", "H100:8"], "hours": 10, "providers": ["gcp"]})
    assert (spec.gpus_per_node, spec.accelerator_counts) == (None, ("H100:8",))
    rows = resolve(spec, real_catalog.offerings, top=1000).candidates
    assert {c.offering.accelerator_count for c in rows if c.offering.accelerator == "H100"} == {8}
    assert len({c.offering.accelerator_count for c in rows if c.offering.accelerator == "tpu-v6e"}) > 1
    # One count shared by every entry still sets gpus_per_node.
    assert parse_spec({"accelerators": ["A100:8", "H100:8"], "hours": 10}).gpus_per_node == 8


def test_checkpoint_writes_add_to_the_job():
    # 70B x 16 bytes = 1.12 TB every 2 h on FSx 9,600 GiB at 250 MB/s per TiB: 9.375 TiB x 250 =
    # 2,343.75 MB/s, 477.9 s per checkpoint; a 100 h run writes 50: 6.637 h (+6.6 %).
    spec = parse_spec(
        {
            "accelerators": "H100:8",
            "purchase": "any",
            "work": {"params": "70B", "tokens": "1T", "mfu": 0.4},
            "spot": {"checkpoint_interval": "2h"},
            "file_system": {"capacity": "9600GiB", "throughput": 250},
        }
    )
    assert state_bytes(spec) == pytest.approx(1.12e12)
    assert write_hours(1.12e12, 2343.75) * 3600 == pytest.approx(477.87, abs=0.01)
    found = checkpoint_hours(spec, "aws", 9600, 250, 100.0)
    assert found is not None
    added, note = found
    assert added == pytest.approx(50 * 1.12e12 / 2343.75e6 / 3600)
    assert note.startswith("checkpoints: 1.12 TB every 2 h at 2,344 MB/s write (FSx for Lustre")
    assert note.endswith("478 s each, +6.64 h (+6.6%)")
    # Without a parameter count there is nothing to size: no figure is invented.
    assert checkpoint_hours(spec._replace(work=spec.work._replace(params=None)), "aws", 9600, 250, 100.0) is None
    # Nor without a checkpoint interval, or on a cloud that cannot create the file system.
    assert checkpoint_hours(spec._replace(spot=None), "aws", 9600, 250, 100.0) is None
    assert checkpoint_hours(spec, "volcengine", 9600, 250, 100.0) is None
    # A model block's own bytes per parameter: 70B x 12 = 0.84 TB.
    model = {"params": "70B", "layers": 80, "hidden": 8192, "heads": 64, "seq_len": 4096, "bytes_per_param": 12}
    assert state_bytes(parse_spec({"accelerators": "H100:8", "hours": 10, "model": model})) == pytest.approx(8.4e11)


def test_every_constraint_has_words_for_a_cloud_without_rows():
    from profiles.choice.gaps import WHY
    from profiles.explain import CONSTRAINTS

    assert set(WHY) == set(CONSTRAINTS)


# A catalog folder with CNY rows no USD rate converts (`matching.unpriced_rows`), beside USD-priced
# ones (on-demand only, spot only, and an AWS row without a spot price).
HEADER = (
    "provider,region,zone,instance_type,accelerator,accelerator_count,accelerator_memory_gib,form_factor,vcpus,"
    "memory_gib,interconnect,max_efa_interfaces,network_gbps,on_demand_usd_per_hour,spot_usd_per_hour,"
    "catalog_date,source,reserved_1y_usd_per_hour,reserved_3y_usd_per_hour,currency,on_demand_native,spot_native,"
    "price_note\n"
)
LEFT_OUT_ROWS = {
    "alicloud": [
        "alicloud,cn-beijing,cn-beijing,ecs.a,A100-80GB,8,80,,128,1024,erdma,0,160,,,2024-12-30,t,,,CNY,270.8,,n",
        "alicloud,cn-beijing,cn-beijing,ecs.b,A100-80GB,8,80,,128,1024,erdma,0,160,37.5,,2024-12-30,t,,,USD,,,n",
        "alicloud,cn-beijing,cn-beijing,ecs.c,A100-80GB,8,80,,128,1024,erdma,0,160,,12.5,2024-12-30,t,,,USD,,,n",
        "alicloud,cn-beijing,cn-beijing,ecs.d,V100,8,16,,96,768,erdma,0,100,,,2024-12-30,t,,,CNY,100.0,,n",
    ],
    "tencentcloud": [
        "tencentcloud,ap-beijing,ap-beijing-7,HCCPNV4h,A100-80GB,8,80,,192,1536,rdma,0,800,,,2024-12-30,t,,,CNY,280.0,,n",
    ],
    "aws": [
        "aws,us-east-1,use1-az1,p4de.24xlarge,A100-80GB,8,80,SXM,96,1152,efa,4,400,40.96,,2026-01-01,t,,,,,,",
    ],
}


@pytest.fixture
def left_out_catalog(tmp_path, monkeypatch):
    from profiles.catalog import loader

    for provider, rows in LEFT_OUT_ROWS.items():
        (tmp_path / f"{provider}.csv").write_text(HEADER + "\n".join(rows) + "\n", encoding="utf-8")
    monkeypatch.setattr(loader, "DATA_DIR", tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("currencies", "providers", "types"),
    [
        # in CNY with no rate: ecs.a and ecs.d on Alibaba, HCCPNV4h on Tencent (ecs.b and ecs.c are in USD)
        pytest.param(["CNY"], ["alicloud", "tencentcloud", "aws"], ["ecs.a", "ecs.d", "HCCPNV4h"], id="cny"),
        pytest.param(["CNY"], ["tencentcloud"], ["HCCPNV4h"], id="one-cloud"),
        pytest.param(["CNY"], ["volcengine", "alicloud"], ["ecs.a", "ecs.d"], id="a-cloud-without-a-file"),
        pytest.param(["EUR"], ["alicloud", "tencentcloud", "aws"], [], id="another-currency"),
        pytest.param([], ["alicloud", "tencentcloud", "aws", "volcengine"], [], id="nothing-left-out"),
    ],
)
def test_rows_left_out_are_those_in_the_currency_without_a_usd_price(left_out_catalog, currencies, providers, types):
    from profiles.matching import unpriced_rows

    assert [o.instance_type for o in unpriced_rows(currencies, providers)] == types


@pytest.mark.parametrize(
    ("ask", "counts"),
    [
        pytest.param({"accelerators": "A100-80GB:8"}, {"CNY": 2}, id="both-clouds"),
        pytest.param({"accelerators": ["V100:8", "A100-80GB:8"]}, {"CNY": 3}, id="two-accelerators"),
        pytest.param({"accelerators": "A100-80GB:8", "providers": ["tencentcloud"]}, {"CNY": 1}, id="one-cloud"),
        pytest.param({"accelerators": "A100-80GB:8", "regions": ["us-east-1"]}, {}, id="region-fails"),
        pytest.param({"accelerators": "H100:8"}, {}, id="other-accelerator"),
    ],
)
def test_left_out_rows_that_would_fit_the_workload_are_counted_per_currency(left_out_catalog, ask, counts):
    from profiles.matching import fitting, unpriced_rows

    rows = unpriced_rows(["CNY"], ["alicloud", "tencentcloud"])
    assert fitting(parse_spec({"hours": 10, **ask}), rows) == counts
