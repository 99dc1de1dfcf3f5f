"""Hand-computed candidate rows: currencies, reserved terms, placement and spot notes, the data
path a row reads through, held capacity."""

import pytest

from profiles.cost.estimate import JobHours
from profiles.costing import PLATFORM_STORAGE, candidates
from profiles.data_path.terms import _data_path
from profiles.spec import parse_spec
from tests.profiles.offering_factory import offering

GB = 2**30 / 1e9
FS = {"capacity": "4800GiB", "throughput": 250}


def spec(**fields):
    return parse_spec({"accelerators": "A100-80GB", "hours": 10, **fields})


def rows(workload, node, job=JobHours(10.0), nodes=None):
    return {c.purchase: c for c in candidates(workload, node, job, nodes)}


def test_a_cny_row_says_both_currencies_and_prices_its_storage_at_the_rows_rate():
    # 100 CNY/h listed, $14/h recorded: 0.14 USD/CNY. SFS Turbo 250: 4,915 GiB x 1.31 CNY/GB-month.
    huawei = offering(
        provider="huaweicloud", currency="CNY", on_demand_native=100.0, on_demand_usd_per_hour=14.0, price_note="n1"
    )
    row = rows(spec(file_system=FS), huawei, JobHours(10.0, notes=("job note",)))["on-demand"]
    assert row.notes[:2] == ("job note", "listed as 100.00 CNY/h per node")
    assert row.notes[2] == "n1"
    assert row.storage.usd_per_hour == pytest.approx(4915 * GB * 1.31 * 0.14 / 730)
    assert row.notes[3] == row.storage.describe()


@pytest.mark.parametrize(
    ("fields", "listed"),
    [
        pytest.param({"currency": "USD"}, (), id="usd-row"),
        pytest.param({"currency": "USD", "on_demand_native": 30.0}, (), id="usd-row-with-a-native-figure"),
        pytest.param({"currency": "CNY", "on_demand_native": None}, (), id="no-native-price"),
        pytest.param(
            {"currency": "CNY", "on_demand_native": 0.0}, ("listed as 0.00 CNY/h per node",), id="zero-native-price"
        ),
    ],
)
def test_without_a_usable_rate_a_cny_price_is_an_estimate(fields, listed):
    row = rows(spec(file_system=FS), offering(provider="huaweicloud", **fields))["on-demand"]
    assert row.storage.basis == "estimate"
    assert tuple(n for n in row.notes if n.startswith("listed as")) == listed


def test_a_spot_only_cny_row_without_usd_on_demand_has_no_rate():
    node = offering(provider="huaweicloud", currency="CNY", on_demand_native=100.0, on_demand_usd_per_hour=None)
    workload = spec(file_system=FS, purchase="spot", spot={"checkpoint_interval": "1h"})
    assert rows(workload, node)["spot"].storage.basis == "estimate"


def test_a_live_3y_price_is_the_3y_rate():
    node = offering(reserved_1y_usd_per_hour=20.0, reserved_3y_usd_per_hour=12.0)
    workload = spec(purchase="on-demand", nodes=2, commitment={"term": "3y"}, file_system=FS)
    reserved = rows(workload, node, JobHours(10.0, speed="measured"))["reserved-3y"]
    assert reserved.usd_per_node_hour == 12.0
    assert reserved.notes[-1] == (
        "3y commitment: $630,720 for 26,280 h, bought separately (the stack launches on-demand nodes and buys no "
        "commitment; without one they bill $60.00/hour); this job's share $630,720 (26,280 h billed, reuse 0 of the rest)"
    )
    assert reserved.speed == "measured" and reserved.usd_storage == pytest.approx(reserved.storage.usd(10.0))


def test_gcp_filestore_below_the_asked_tier_is_said():
    row = rows(spec(file_system=FS), offering(provider="gcp", region="us-central1", zone="us-central1-a"))
    notes = row["on-demand"].notes
    assert notes[-1] == (
        "file system below the 250 MB/s per TiB asked: Filestore ZONAL reads 273 and writes 92 MB/s per TiB (Google's Filestore zonal tier table); "
        "a stack written from this row says deployment_type: ZONAL"
    )
    default = rows(spec(file_system={"capacity": "4800GiB"}), offering(provider="gcp", region="us-central1"))
    assert default["on-demand"].notes[-1].startswith("file system below the 250 MB/s per TiB default: Filestore")
    assert None not in notes


ALIBABA_SPOT = (
    "Alibaba spot instances cannot join a deployment set (Alibaba's deployment-set documentation), so spot nodes "
    "are placed in the zone without the LowLatency deployment set"
)
PER_REGION = "priced per region: write the stack with `--write-stack NAME --zone ZONE` (a zone id of the region)"


@pytest.mark.parametrize(
    ("provider", "zone", "purchase", "notes"),
    [
        pytest.param("alicloud", "cn-beijing", "on-demand", (PER_REGION,), id="alibaba-region-priced"),
        pytest.param("alicloud", "cn-beijing", "spot", (PER_REGION, ALIBABA_SPOT), id="alibaba-region-priced-spot"),
        pytest.param("alicloud", "cn-beijing-h", "spot", (ALIBABA_SPOT,), id="alibaba-spot"),
        pytest.param("alicloud", "cn-beijing-h", "on-demand", (), id="alibaba-zone"),
        pytest.param("azure", "cn-beijing", "spot", (), id="other-cloud-region-priced"),
    ],
)
def test_placement_notes(provider, zone, purchase, notes):
    node = offering(provider=provider, region="cn-beijing", zone=zone)
    spot = {"checkpoint_interval": "1h", "interruptions_per_node_month": 0}
    row = rows(spec(purchase=purchase, spot=spot, file_system=FS), node)[purchase]
    assert tuple(n for n in row.notes if not n.startswith(("spot:", "file system:"))) == notes


def test_a_spot_note_names_the_rate_and_what_the_cloud_does_after_an_interruption():
    # 10 h x 2 nodes x 0.2 / 730 = 0.0055 interruptions, each 0.5 + 0.25 h.
    workload = spec(nodes=2, purchase="spot", spot={"checkpoint_interval": "1h"}, file_system=FS)
    assert rows(workload, offering(), nodes=2)["spot"].notes[-1] == (
        "spot: 0.01 interruptions expected, +0.0 h (0.2/node-month, assumed: Azure shows eviction-rate bands per size "
        "and region in its portal only (Z6, not recorded here); 0.2 is the floor of AWS's worst Spot Advisor band "
        "(> 20 %/month)); the scale set restores evicted spot VMs and repairs unhealthy ones, which rejoin the job "
        "(unsourced 0.25 h per interruption); the wait for spot capacity to return after an interruption is not in "
        "the hours: no source gives it"
    )


def test_rows_use_the_specs_nodes_unless_told():
    workload = spec(nodes=2)
    assert rows(workload, offering())["on-demand"].nodes == 2
    assert rows(workload, offering(), nodes=3)["on-demand"].nodes == 3


def test_a_cloud_without_spot_from_a_stack_gets_on_demand_only():
    tencent = offering(provider="tencentcloud", region="ap-beijing", zone="ap-beijing-6")
    workload = spec(purchase="any", spot={"checkpoint_interval": "1h"}, file_system=FS)
    assert set(rows(workload, tencent)) == {"on-demand"}
    assert rows(spec(purchase="spot", spot={"checkpoint_interval": "1h"}, file_system=FS), tencent) == {}


def test_a_row_without_on_demand_still_gets_spot():
    node = offering(on_demand_usd_per_hour=None)
    assert set(rows(spec(purchase="any", spot={"checkpoint_interval": "1h"}, file_system=FS), node)) == {"spot"}


DATA = {"source": "s3://team/set", "size": "2000GiB", "passes": 10}


def test_a_lazy_link_too_slow_for_the_gpus_adds_the_first_pass_io():
    # FSx 2,400 GiB x 125 MB/s/TiB = 293 MB/s; the GPUs read 2,000 GiB x 10 passes in 10 h = 597 MB/s.
    # p4de caches the 2,000 GiB on its 7,450 GiB of NVMe: one pass of 2,147,484 MB / 293 MB/s = 2.036 h,
    # of which 1 h overlaps compute: 11.036 h. The bucket link loads lazily: no staging.
    workload = spec(data=DATA, file_system={"capacity": "2400GiB", "throughput": 125})
    p4de = offering(provider="aws", region="us-east-1", zone="use1-az1", instance_type="p4de.24xlarge")
    row = rows(workload, p4de)["on-demand"]
    assert row.notes[0] == row.storage.describe()
    pass_hours = 2000 * 2**30 / 1e6 / (2400 / 1024 * 125) / 3600
    assert row.hours == pytest.approx(10 + pass_hours - 1)
    data_notes = tuple(n for n in row.notes if n.startswith(("data: GPUs", "data: the first pass")))
    assert data_notes == (
        "data: GPUs can read 597 MB/s, the file system delivers 293 MB/s; /scratch caches the dataset after the first pass",
        f"data: the first pass is I/O bound: +{pass_hours - 1:.2f} h; more file_system.throughput (MB/s per TiB) or "
        "capacity feeds the GPUs",
    )


@pytest.mark.parametrize(
    ("capacity", "tier", "copy_mbps", "how"),
    [
        # 4,800 GiB at 250 is Filestore ZONAL 4,864 GiB (explicit), which imports nothing: the
        # stack copies with `gcloud storage rsync` from one node, at most Filestore's write rate,
        # 4,864 / 1,024 x 88 MiB/s x 1.048576 = 438.30 MB/s (C4): 2,147,483.6 MB in 1.3610 h.
        pytest.param(4800, 250, 4864 / 1024 * 88 * 1.048576, "gcloud storage rsync from one node", id="filestore"),
        # 36,000 GiB at 250 is Managed Lustre: its import job runs at the instance's throughput,
        # 36,000 / 1,024 x 250 = 8,789.06 MB/s (under the 100 GB/s Google states): 0.0679 h.
        pytest.param(36000, 250, 36000 / 1024 * 250, "Managed Lustre import job", id="managed-lustre"),
    ],
)
def test_an_imported_dataset_is_staged_the_way_the_file_system_is_filled(capacity, tier, copy_mbps, how):
    workload = spec(
        data={**DATA, "source": "gs://team/set"}, file_system={"capacity": f"{capacity}GiB", "throughput": tier}
    )
    row = rows(workload, offering(provider="gcp", region="us-central1", zone="us-central1-a"))["on-demand"]
    staging = 2000 * 2**30 / 1e6 / copy_mbps / 3600
    assert row.throughput == tier and row.hours == pytest.approx(10 + staging)
    note = next(n for n in row.notes if "to import the dataset before training" in n)
    assert note.startswith(f"data: +{staging:.2f} h to import the dataset before training ({how}")


def test_filestore_staging_is_about_ten_times_the_lustre_tier_figure():
    # The old estimate staged a 2 TiB dataset on a 2,560 GiB Filestore at the Lustre tier's
    # 1,000 MB/s per TiB (2,500 MB/s: 0.24 h); Filestore writes 230.69 MB/s: 2.65 h.
    workload = spec(
        data={**DATA, "size": "2TiB", "source": "gs://team/set"},
        file_system={"capacity": "2560GiB", "throughput": 1000},
    )
    row = rows(workload, offering(provider="gcp", region="us-central1", zone="us-central1-a"))["on-demand"]
    staging = 2048 * 2**30 / 1e6 / (2560 / 1024 * 88 * 1.048576) / 3600
    assert staging == pytest.approx(2.648, abs=1e-3)
    assert row.hours == pytest.approx(10 + staging)


def test_a_blob_dataset_loads_lazily_on_azure():
    # Azure Managed Lustre blob integration imports the names at creation and loads on first read.
    workload = spec(
        data={**DATA, "source": "https://acct.blob.core.windows.net/datasets/set", "resource_group": "rg"},
        file_system=FS,
    )
    row = rows(workload, offering())["on-demand"]
    assert row.hours == pytest.approx(10.0)
    assert not any("to import the dataset" in n for n in row.notes)


@pytest.mark.parametrize(
    ("fields", "params"),
    [
        pytest.param({"model": {"params": 13e9, "layers": 2, "hidden": 1024, "heads": 8, "seq_len": 1024}}, 13e9),
        pytest.param({"hours": None, "work": {"params": 7e9, "tokens": 1e10, "mfu": 0.4}}, 7e9),
        pytest.param({}, 0.0),
    ],
)
def test_the_data_path_keeps_room_for_the_models_checkpoints(fields, params):
    workload = spec(data=DATA, file_system=FS, **fields)
    path = _data_path(workload, offering(provider="aws", instance_type="p5.48xlarge"), 4800, 250, 10.0)
    # (2,000 GiB + 2 checkpoints x 16 B per parameter) x 1.25 headroom.
    assert path.capacity_gib == pytest.approx((2000 + 2 * 16 * params / 2**30) * 1.25)
    assert (path.fs_capacity_gib, path.cache_fits, path.staging_hours) == (4800, True, 0.0)


def test_gcp_managed_lustre_at_its_tier_needs_no_note():
    # 18,000 GiB at 1,000 MB/s/TiB is a Managed Lustre size: nothing below what was asked.
    node = offering(provider="gcp", region="us-central1", zone="us-central1-a")
    row = rows(spec(file_system={"capacity": "18000GiB", "throughput": 1000}), node)["on-demand"]
    assert not any(n.startswith("file system below") for n in row.notes)


def test_a_capacity_block_is_priced_as_the_spec_says():
    block = {"provider": "aws", "instance_type": "p5.48xlarge", "zone": "use1-az1", "nodes": 2, "usd_per_hour": 0}
    workload = spec(nodes=2, reservations=[{**block, "id": "cb-1", "kind": "capacity-block"}])
    p5 = offering(provider="aws", region="us-east-1", zone="use1-az1", instance_type="p5.48xlarge")
    row = rows(workload, p5, nodes=2)["capacity-block"]
    assert row.notes[-1] == (
        "Capacity Block cb-1: priced at the spec's $0.00/node-hour; Capacity Blocks are paid up front per block "
        "and the catalog holds no price for them (AWS lists $0.00/hour)"
    )


def test_a_capacity_block_elsewhere_than_aws_is_refused():
    block = {"provider": "azure", "instance_type": "Standard_X", "zone": "eastus", "nodes": 2, "usd_per_hour": 0}
    with pytest.raises(ValueError, match="set kind: capacity-reservation or provider: aws"):
        spec(reservations=[{**block, "id": "cb-1", "kind": "capacity-block"}])


def test_held_capacity_is_priced_as_the_spec_says_with_its_storage():
    held = {"provider": "azure", "instance_type": "Standard_X", "zone": "eastus", "nodes": 2, "usd_per_hour": 5.0}
    workload = spec(nodes=2, file_system=FS, reservations=[{**held, "id": "res-1"}])
    row = rows(workload, offering(), nodes=2)["reservation"]
    assert (row.usd_per_hour, row.reservation_id) == (10.0, "res-1")
    assert row.usd_storage == pytest.approx(row.storage.usd(10.0))
    assert row.notes[-1] == "capacity reservation res-1: priced at the spec's $5.00/node-hour, not the catalog's"


def test_request_charges_from_a_mean_file_size_at_a_third_party_price():
    # 2,000 GiB / 100 MiB = 20,480 files read once (the file system holds them all): 20,480 GETs at
    # $0.0004 per 1,000 + 21 LISTs at $0.005 per 1,000 = $0.008297.
    data = {"source": "s3://team/set", "size": "2000GiB", "mean_file_size": "100MiB"}
    row = rows(spec(data=data, file_system=FS), offering(provider="aws", zone="use1-az1"))["on-demand"]
    assert row.usd_requests == pytest.approx(20480 / 1000 * 0.0004 + 21 / 1000 * 0.005)
    assert row.notes[-1] == (
        "data: bucket requests $0.01 (20,480 GETs + 21 LISTs, Amazon S3 Standard us-east-1, third-party price: "
        "R1, R2 (third-party), undated)"
    )


def test_request_charges_without_a_sourced_price_are_said_not_counted():
    data = {"source": "https://acct.blob.core.windows.net/data/set", "size": "2000GiB", "files": 1000}
    row = rows(spec(data=data, file_system=FS), offering())["on-demand"]
    assert row.usd_requests is None
    assert row.notes[-1] == "data: not counted: azure bucket requests (no published request price was found)"


def test_a_platform_row_restarts_spot_work_in_the_platforms_time_and_says_so():
    from clouds.platform_lookup import find
    from profiles.catalog.platform_rows import platform_row
    from profiles.costing import _spot

    workload = spec(
        accelerators="A100-80GB:8",
        nodes=2,
        purchase="spot",
        file_system=FS,
        spot={"checkpoint_interval": "1h", "interruptions_per_node_month": 73},
    )
    # 73/node-month = 0.1/node-hour x 2 nodes x 10 h = 2 interruptions, each half a 1 h checkpoint
    # interval of lost work plus the restart: Azure ML 0.5 h (assumed), the scale set 0.25 h (unsourced)
    interruptions, hours, note = _spot(workload, platform_row(offering(), find("azure", "azureml")), JobHours(10.0), 2)
    assert (interruptions, hours) == (pytest.approx(2.0), pytest.approx(2.0))
    assert note.startswith(
        "spot: 2.00 interruptions expected, +2.0 h (73/node-month, spec); Azure Machine Learning: on interruption "
        "the cluster re-acquires the lost low-priority node"
    )
    interruptions, hours, note = _spot(workload, offering(), JobHours(10.0), 2)
    assert (interruptions, hours) == (pytest.approx(2.0), pytest.approx(1.5))
    assert note.startswith("spot: 2.00 interruptions expected, +1.5 h (73/node-month, spec); the scale set restores")


FS_4800 = {"capacity": "4800GiB"}
HELPER = "is not in USD/hour or USD/job: the catalog holds GPU types only; add its on-demand price in"
TPU = {"instance_type": "tpu-v5p-8", "accelerator": "tpu-v5p", "accelerator_count": 4, "form_factor": "TPU"}


@pytest.mark.parametrize(
    ("where", "fields", "lines"),
    [
        pytest.param(
            {"provider": "volcengine", "region": "cn-beijing", "zone": "cn-beijing-a"},
            {"file_system": FS_4800},
            {
                "on-demand": [
                    "the file system's mount service (3 x ecs.g4i.large ECS instances it creates to manage the clients, "
                    "billed as ECS, on-demand, always on)"
                ]
            },
            id="a-file-systems-own-vms",
        ),
        pytest.param(
            {"provider": "volcengine", "region": "cn-beijing", "zone": "cn-beijing-a"},
            {},
            {"on-demand": []},
            id="no-file-system-no-mount-service",
        ),
        pytest.param(
            {"provider": "aws", "region": "us-west-2", "zone": "usw2-az1"},
            {"job": {"command": "/fsx/t.py"}, "file_system": FS_4800},
            {"on-demand": ["the job's head node (m7i.large with a 200 GiB gp3 root volume, on-demand, always on)"]},
            id="a-jobs-head-node",
        ),
        pytest.param(
            {"provider": "aws", "region": "us-west-2", "zone": "usw2-az1", "platform": "sagemaker"},
            {"job": {"command": "/fsx/t.py"}, "file_system": FS_4800},
            {"on-demand": []},
            id="a-platform-has-no-head-node",
        ),
        pytest.param(
            {"provider": "gcp", "region": "us-east5", "zone": "us-east5-a", "interconnect": "tpu-ici", **TPU},
            {
                "accelerators": "tpu-v5p",
                "purchase": "spot",
                "spot": {"checkpoint_interval": "1h"},
                "file_system": FS_4800,
            },
            {"spot": ["the queued-resource controller VM (e2-small with its image's boot disk, on-demand, always on)"]},
            id="tpu-spot-queued-resource-controller",
        ),
    ],
)
def test_each_row_names_the_helper_vms_its_stack_creates_in_its_region(where, fields, lines):
    found = rows(spec(**fields), offering(**where), nodes=2)
    region = where["region"]
    assert {p: [n for n in c.notes if HELPER in n] for p, c in found.items()} == {
        p: [f"{line} {HELPER} {region}" for line in expected] for p, expected in lines.items()
    }


def test_a_platform_row_keeps_its_storage_in_the_platform_and_prices_none():
    node = offering(provider="aws", region="us-west-2", zone="usw2-az1", platform="sagemaker")
    row = rows(spec(file_system=FS_4800), node, nodes=2)["on-demand"]
    assert row.storage is None and row.usd_storage is None and row.throughput is None
    assert PLATFORM_STORAGE in row.notes
    assert row.usd_total == pytest.approx(30.0 * 2 * 10.0)
    vm = rows(spec(file_system=FS_4800), node._replace(platform="vm"), nodes=2)["on-demand"]
    assert vm.storage is not None and PLATFORM_STORAGE not in vm.notes


def test_a_block_that_cannot_be_priced_drops_only_its_own_row(monkeypatch):
    """A Capacity Block ending 5 h 40 min into a 10 h job (its nodes stop 40 min before the
    end: 5 h on the block) on a type without an on-demand price cannot price the rest
    (`profiles.cost.held.block_price`): its row is dropped, the capacity reservation held
    beside it still gets one; with an on-demand price of $40/h the block's row blends $0 for
    5 h and $40 for 5 h: $20/node-hour."""
    monkeypatch.setenv("TRAINSTACK_NOW", "2026-12-04T13:40:00Z")
    where = {"provider": "aws", "instance_type": "p5.48xlarge", "zone": "use1-az1", "nodes": 2}
    block = {**where, "id": "cb-1", "kind": "capacity-block", "usd_per_hour": 0, "ends": "2026-12-04T19:20:00Z"}
    held = {**where, "id": "cr-1", "usd_per_hour": 25.0}
    workload = spec(nodes=2, reservations=[block, held])
    p5 = offering(provider="aws", region="us-east-1", zone="use1-az1", instance_type="p5.48xlarge")
    found = rows(workload, p5._replace(on_demand_usd_per_hour=None, spot_usd_per_hour=None), nodes=2)
    assert list(found) == ["reservation"] and found["reservation"].usd_per_node_hour == 25.0
    found = rows(workload, p5._replace(on_demand_usd_per_hour=40.0), nodes=2)
    assert found["capacity-block"].usd_per_node_hour == pytest.approx(20.0)


def test_checkpoint_writes_add_to_the_rows_hours_after_its_other_notes():
    """70B parameters x 16 bytes = 1.12 TB every 2 h to 9,600 GiB of FSx at 250 MB/s per TiB
    (9,600 / 1,024 x 250 = 2,343.75 MB/s): 477.9 s each, 5 of them in a 10 h run."""
    workload = spec(
        accelerators="A100-80GB:8",
        hours=None,
        deadline="30d",
        work={"params": "70B", "tokens": "10B", "mfu": 0.4},
        spot={"checkpoint_interval": "2h"},
        file_system={"capacity": "9600GiB", "throughput": 250},
        purchase="on-demand",
    )
    row = rows(workload, offering(provider="aws", region="us-east-1", zone="use1-az1"), nodes=2)["on-demand"]
    assert row.hours == pytest.approx(10.0 + 5 * 1.12e12 / 2343.75e6 / 3600, rel=1e-12)
    assert row.notes[0] == row.storage.describe()
    assert row.notes[1] == (
        "checkpoints: 1.12 TB every 2 h at 2,344 MB/s write (FSx for Lustre, the tier sold): 478 s each, +0.66 h (+6.6%)"
    )
