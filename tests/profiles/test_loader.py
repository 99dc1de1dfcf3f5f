import pytest

from profiles.catalog.loader import CatalogError, load_catalog, load_provider
from profiles.catalog.offering import COLUMNS


def test_fixture_catalog_loads_priced_rows_only(fixture_catalog):
    keys = [(o.instance_type, o.zone) for o in fixture_catalog.offerings]
    # p4de in usw2-az2 has both prices 0: never an offering, never "$0".
    assert ("p4de.24xlarge", "usw2-az2") not in keys
    # The repeated a3-highgpu-8g row keeps the first one (43.0), not the $1 copy.
    (a3,) = [o for o in fixture_catalog.offerings if o.instance_type == "a3-highgpu-8g"]
    assert a3.on_demand_usd_per_hour == 43.0
    assert len(fixture_catalog.offerings) == 10
    assert fixture_catalog.version == "fixture-1"


def test_missing_spot_price_is_none(fixture_catalog):
    (row,) = [o for o in fixture_catalog.offerings if o.zone == "use1-az2"]
    assert row.spot_usd_per_hour is None
    assert row.price("spot") is None
    assert row.price("on-demand") == 32.0


def test_provider_filter(fixture_catalog):
    from tests.profiles.conftest import FIXTURE_CATALOG

    gcp_only = load_catalog(FIXTURE_CATALOG, providers=("gcp",))
    assert {o.provider for o in gcp_only.offerings} == {"gcp"}


@pytest.mark.parametrize("bad", ["0", "-3", "abc", "nan", "inf", ""])
def test_bad_prices_load_as_unknown(tmp_path, bad):
    path = tmp_path / "aws.csv"
    row = f"aws,r,z,t,A100,8,40,SXM,1,1,efa,4,400,{bad},2.5,2026-01-01,test"
    path.write_text(",".join(COLUMNS) + "\n" + row + "\n")
    (offering,) = load_provider(path)
    assert offering.on_demand_usd_per_hour is None
    assert offering.spot_usd_per_hour == 2.5


def test_bad_header_and_malformed_row_raise_catalog_error(tmp_path):
    path = tmp_path / "aws.csv"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(CatalogError, match="unexpected header"):
        load_provider(path)
    path.write_text(",".join(COLUMNS) + "\naws,r,z,t,A100,eight,40,SXM,1,1,efa,4,400,1,1,d,test\n")
    with pytest.raises(CatalogError, match=r"aws\.csv:2: malformed row"):
        load_provider(path)


def test_missing_metadata_raises(tmp_path):
    with pytest.raises(CatalogError, match="catalog.json"):
        load_catalog(tmp_path)


def test_real_catalog_has_five_clouds_and_no_zero_prices(real_catalog):
    providers = {o.provider for o in real_catalog.offerings}
    assert providers == {"aws", "azure", "gcp", "alicloud", "tencentcloud"}  # CNY rows at the recorded rate
    for o in real_catalog.offerings:
        assert o.on_demand_usd_per_hour is None or o.on_demand_usd_per_hour > 0
        assert o.spot_usd_per_hour is None or o.spot_usd_per_hour > 0
        assert o.on_demand_usd_per_hour or o.spot_usd_per_hour
