"""Like-for-like storage: what each cloud creates, at its recorded price or an explicit estimate."""

import pytest

from profiles.catalog.offering import Offering
from profiles.cost.storage import ESTIMATE, LIST, THIRD_PARTY, dearest_usd_price, storage_cost
from profiles.resolver import resolve
from profiles.spec import parse_spec

GB = 2**30 / 1e9
FSX_250 = 0.145 * 3.71 / 2.48  # F5's 125 price x FJ1's 250/125 ratio: $0.2169 per GB-month


@pytest.mark.parametrize(
    ("provider", "gib", "mbps", "rate", "created", "per_gb_month", "basis"),
    [
        pytest.param("aws", 4800, 125, None, 4800, 0.145, THIRD_PARTY, id="fsx-125"),
        pytest.param("aws", 4800, 250, None, 4800, FSX_250, THIRD_PARTY, id="fsx-250"),
        pytest.param("aws", 4800, 500, None, 4800, 0.145 * 6.19 / 2.48, THIRD_PARTY, id="fsx-500"),
        pytest.param("aws", 1201, 1000, None, 2400, 0.145 * 11.16 / 2.48, THIRD_PARTY, id="fsx-1000-rounded-up"),
        pytest.param("azure", 4800, 250, None, 8192, FSX_250, ESTIMATE, id="amlfs-8tib-minimum-estimated"),
        pytest.param("gcp", 4800, 250, None, 4864, FSX_250, ESTIMATE, id="filestore-zonal-estimated"),
        pytest.param("huaweicloud", 4800, 250, 0.14, 4915, 1.31 * 0.14, THIRD_PARTY, id="sfs-turbo-cny-at-rate"),
        pytest.param("huaweicloud", 4800, 250, None, 4915, FSX_250, ESTIMATE, id="sfs-turbo-without-rate"),
        pytest.param("tencentcloud", 4800, 250, None, 20480, FSX_250, ESTIMATE, id="cfs-turbo-20tib-minimum"),
    ],
)
def test_each_cloud_prices_the_capacity_it_creates(provider, gib, mbps, rate, created, per_gb_month, basis):
    cost = storage_cost(provider, gib, mbps, rate)
    assert (cost.capacity_gib, cost.basis) == (created, basis)
    assert cost.usd_per_hour == pytest.approx(created * GB * per_gb_month / 730)
    assert cost.usd(730) == pytest.approx(created * GB * per_gb_month)


def test_alibaba_cpfs_200_is_priced_at_its_official_cny_figure():
    # AL1: 1.4 CNY per GiB-month (GiB, not GB); 4,800 GiB at 0.14 USD/CNY / 730 h = $1.2888/h.
    cost = storage_cost("alicloud", 4800, 200, 0.14)
    assert (cost.capacity_gib, cost.basis) == (4800, LIST)
    assert cost.usd_per_hour == pytest.approx(4800 * 1.4 * 0.14 / 730)
    assert cost.reference == (
        "1.400 CNY/GiB-month in cn-hangzhou: Alibaba's official billing example for 2021-10 [source AL1]"
    )
    assert "CPFS" in cost.service and "advance_200" in cost.service


@pytest.mark.parametrize(
    ("mbps", "rate", "why", "per_gb_month"),
    [
        pytest.param(200, None, "no USD/CNY rate", FSX_250, id="200-without-a-rate"),
        pytest.param(100, 0.14, "no alicloud price", 0.145, id="100-unpriced-at-the-125-estimate"),
    ],
)
def test_alibaba_cpfs_without_a_usable_price_is_an_estimate(mbps, rate, why, per_gb_month):
    cost = storage_cost("alicloud", 4800, mbps, rate)
    assert cost.basis == ESTIMATE and cost.reference.startswith(f"{why}; at the dearest recorded")
    assert cost.usd_per_hour == pytest.approx(4800 * GB * per_gb_month / 730)


def test_a_cloud_that_cannot_create_it_has_no_cost():
    assert storage_cost("baiducloud", 4800, 250) is None


@pytest.mark.parametrize(
    ("mbps", "tier"),
    [
        pytest.param(250, 250, id="same-tier"),
        pytest.param(40, 125, id="nearest-higher-tier"),
        pytest.param(200, 250, id="between-tiers"),
        pytest.param(2000, 1000, id="above-all-the-dearest"),
    ],
)
def test_estimates_use_the_dearest_recorded_price(mbps, tier):
    assert dearest_usd_price(mbps)[0] == tier


def test_list_basis_is_named():
    assert LIST == "list price"


def _offering(provider, instance_type, accelerator, zone, spot):
    return Offering(
        provider,
        zone[:-1] if provider == "azure" else "us-east-1",
        zone,
        instance_type,
        accelerator,
        8,
        48.0,
        "PCIe",
        192,
        1536,
        "ethernet",
        0,
        400,
        spot * 3,
        spot,
        "2026-01-01",
    )


def test_no_row_wins_for_lack_of_a_storage_price():
    # Azure spot $9.80/node-h beats AWS's $10.00 on compute (2 nodes x 10 h: $196 vs $200), but
    # Azure creates an 8 TiB AMLFS whose price is unknown: ranked at FSx's 250 price it costs
    # 8,192 GiB x $0.2169/GB / 730 = $2.61/h, against FSx's 4,800 GiB at $1.53/h.
    offerings = [
        _offering("azure", "Standard_X", "L40S", "eastus1", 9.8),
        _offering("aws", "g6e.48xlarge", "L40S", "use1-az1", 10.0),
    ]
    spec = parse_spec(
        {
            "accelerators": "L40S",
            "nodes": 2,
            "hours": 10,
            "purchase": "spot",
            "spot": {"checkpoint_interval": "1h", "interruptions_per_node_month": 0},
            "file_system": {"capacity": "4800GiB", "throughput": 250},
        }
    )
    resolution = resolve(spec, offerings)
    aws, azure = resolution.choice.candidate, resolution.alternatives[0].candidate
    assert aws.offering.provider == "aws"
    assert aws.usd_total == pytest.approx(200 + 4800 * GB * FSX_250 / 730 * 10)
    assert azure.usd_total == pytest.approx(196 + 8192 * GB * FSX_250 / 730 * 10)
    assert azure.storage.basis == ESTIMATE and azure.storage.capacity_gib == 8192
    assert "estimate: no azure price" in azure.notes[0]


@pytest.mark.parametrize(
    ("provider", "mbps", "rate", "reference"),
    [
        pytest.param(
            "aws",
            125,
            None,
            "0.145 USD/GB-month in us-east-1: a third-party cost estimator's price, undated [source F5]",
            id="fsx-125",
        ),
        pytest.param(
            "aws",
            250,
            None,
            "0.217 USD/GB-month in us-east-1: the undated 125 MB/s/TiB price x the 250/125 ratio of a third-party "
            "tier table dated 2022-09-03 [source F5, FJ1]",
            id="fsx-250-derived",
        ),
        pytest.param(
            "huaweicloud",
            125,
            0.14,
            "0.900 CNY/GB-month in cn-north-4: a third-party copy of the official price page, 2026-07 [source H1]",
            id="huawei",
        ),
    ],
)
def test_a_price_says_what_it_is_and_cites_its_source_last(provider, mbps, rate, reference):
    """User text says what the figure is; the internal source id stays a trailing citation."""
    assert storage_cost(provider, 4800, mbps, rate).reference == reference


def test_a_price_without_a_basis_shows_its_date_and_source():
    from facts.storage_prices import StoragePrice

    price = StoragePrice("CPFS", 1.4, "CNY", "GiB", "cn-hangzhou", "AL1", "2021-10", False)
    assert price.describe() == "1.400 CNY/GiB-month in cn-hangzhou, observed 2021-10 [source AL1]"
