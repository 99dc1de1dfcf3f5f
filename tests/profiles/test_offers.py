"""`profiles.catalog.offers`: the accelerator read as the workload spec reads it, rows grouped
per cloud, region and type, priced over their zones for N nodes, ranked, hand-computed."""

import pytest

from profiles.catalog.offer_hints import _counts_words, check_regions, not_sold_by, unpriced_clouds, widen_hint
from profiles.catalog.offers import Ask, OffersError, offer_rows, read_ask
from tests.profiles.offering_factory import aws_node, offering

# Two zones of one AWS region (on-demand the same, spot 12 and 15), one Azure region priced per
# region, a 4-GPU row and an H100 row that must never match `A100-80GB:8`.
ROWS = [
    aws_node(zone="use1-az1", spot_usd_per_hour=15.0, catalog_date="2026-10-01"),
    aws_node(zone="use1-az2", spot_usd_per_hour=12.0, catalog_date="2026-11-01"),
    offering(),  # azure eastus: $30 on-demand, $10 spot
    offering(region="westus", zone="westus", on_demand_usd_per_hour=None, spot_usd_per_hour=9.0),
    offering(region="westus2", zone="westus2", accelerator_count=4, instance_type="Standard_4"),
    offering(region="westus3", zone="westus3", accelerator="H100", instance_type="Standard_H"),
]


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        pytest.param("A100-80GB:8", Ask("A100-80GB", 8), id="name-count"),
        pytest.param("a100-80gb:8", Ask("A100-80GB", 8), id="case-as-catalog"),
        pytest.param("H100", Ask("H100", None), id="any-count"),
        pytest.param(" H100 : 8 ", Ask("H100", 8), id="spaces-as-spec"),
    ],
)
def test_reads_the_spec_shorthands(token, expected):
    assert read_ask(token, ROWS) == expected


@pytest.mark.parametrize(
    ("token", "message"),
    [
        pytest.param("H100:x", "ACCELERATOR: cannot read 'H100:x'; write NAME or NAME:COUNT", id="bad-count"),
        pytest.param("H100:0", "'H100:0' asks for 0 accelerators per node", id="zero"),
        pytest.param("H10:8", "the catalog has no 'H10' (in 'H10:8'); did you mean H100", id="typo"),
        pytest.param("[A100]", "cannot read '[A100]'", id="not-a-name"),
    ],
)
def test_refuses_a_token_naming_it(token, message):
    with pytest.raises(OffersError, match=None) as caught:
        read_ask(token, ROWS)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_one_row_per_region_and_type_with_zone_range_cheapest_on_demand_first():
    rows = offer_rows(ROWS, Ask("A100-80GB", 8))
    assert [(r.provider, r.region) for r in rows] == [("azure", "eastus"), ("aws", "us-east-1"), ("azure", "westus")]
    aws = rows[1]
    assert aws.zones == ("use1-az1", "use1-az2")
    assert (aws.on_demand, aws.on_demand_max, aws.spot, aws.spot_max) == (40.0, 40.0, 12.0, 15.0)
    assert aws.observed == "2026-10-01"  # the oldest of its zones' dates
    assert rows[2].on_demand is None and rows[2].spot == 9.0  # only spot-priced: last when ranking on-demand


def test_spot_ranks_by_spot_and_drops_rows_without_one_and_nodes_multiply():
    rows = offer_rows(ROWS, Ask("A100-80GB", 8), nodes=3, spot=True)
    assert [(r.region, r.spot) for r in rows] == [("westus", 27.0), ("eastus", 30.0), ("us-east-1", 36.0)]
    assert rows[2].spot_max == 45.0 and rows[1].on_demand == 90.0 and all(r.nodes == 3 for r in rows)


def test_count_and_region_filters():
    assert [r.accelerator_count for r in offer_rows(ROWS, Ask("A100-80GB", None))] == [
        8,
        4,
        8,
        8,
    ]  # $30, $30 (tie: by region), $40, spot only
    assert [r.region for r in offer_rows(ROWS, Ask("A100-80GB", 8), regions=("westus",))] == ["westus"]
    assert offer_rows(ROWS, Ask("A100-80GB", 2)) == []


def test_an_unknown_region_is_refused_and_a_zone_named_as_such():
    check_regions(["us-east-1", "westus"], ROWS)
    aws = [r for r in ROWS if r.provider == "aws"]
    with pytest.raises(OffersError) as caught:  # `--provider aws --region westus`: azure's region
        check_regions(["westus"], aws, ROWS)
    assert str(caught.value) == (
        "--region westus: a region of azure, which --provider leaves out; add --provider azure or drop --region westus"
    )
    with pytest.raises(OffersError, match=r"--region us-east-9: .*did you mean us-east-1"):
        check_regions(["us-east-9"], ROWS)
    with pytest.raises(OffersError, match="write us-east-1"):
        check_regions(["use1-az1"], ROWS)


def test_a_row_the_catalogs_price_check_doubts_carries_the_check_resolve_gives_it():
    # Azure eastus $30/h and westus2 $60/h for one type: 2x apart in one continent, beyond the
    # 1.8x the check allows (`profiles.catalog.sanity.REGION_RATIO`); both sides are doubted, the
    # other type (H100) and AWS are not; a 1.5x gap passes.
    rows = [
        offering(),
        offering(region="westus2", zone="westus2", on_demand_usd_per_hour=60.0),
        offering(region="westus3", zone="westus3", accelerator="H100", instance_type="Standard_H"),
        aws_node(),
    ]
    found = {(r.provider, r.region): r.price_checks for r in offer_rows(rows, Ask("A100-80GB", 8))}
    assert set(found) == {("azure", "eastus"), ("azure", "westus2"), ("aws", "us-east-1")}
    assert found[("aws", "us-east-1")] == ()
    (check,) = found[("azure", "eastus")]
    assert (
        check.startswith("price check: Standard_X (8 x A100-80GB) $30.00/h in eastus")
        and "$60.00/h in westus2" in check
    )
    assert "more than 1.8x" in check and len(found[("azure", "westus2")]) == 1
    closer = [offering(), offering(region="westus2", zone="westus2", on_demand_usd_per_hour=45.0)]
    assert all(r.price_checks == () for r in offer_rows(closer, Ask("A100-80GB", 8)))


@pytest.mark.parametrize(
    ("ask", "regions", "spot", "hint"),
    [
        # the counts the accelerator comes in, as `sky gpus list` shows its quantities
        pytest.param(Ask("A100-80GB", 2), (), False, "A100-80GB comes 4 or 8 per node: try A100-80GB:4", id="count"),
        pytest.param(Ask("A100-80GB", 16), (), False, "comes 4 or 8 per node: try A100-80GB:8", id="count-too-big"),
        # within the regions asked; spot: only the counts with a spot price
        pytest.param(
            Ask("A100-80GB", 4), ("us-east-1",), False, "comes 8 per node in us-east-1: try A100-80GB:8", id="in-region"
        ),
        pytest.param(Ask("A100-80GB", 4), (), True, "comes 8 per node: try A100-80GB:8", id="spot-counts"),
        # no count of it there: the regions that list it
        pytest.param(
            Ask("H100", 8), ("eastus",), False, "regions listing it: westus3; or drop --region", id="other-region"
        ),
        pytest.param(Ask("H100", None), (), True, "drop --spot to see on-demand prices", id="no-spot-price"),
    ],
)
def test_widen_hint_names_what_to_change(ask, regions, spot, hint):
    # ROWS with no spot price on the 4-GPU and the H100 rows
    rows = [r._replace(spot_usd_per_hour=None) if r.region in ("westus2", "westus3") else r for r in ROWS]
    assert offer_rows(rows, ask, regions, spot=spot) == []
    assert hint in widen_hint(rows, ask, regions, spot)


def test_a_cloud_that_does_not_sell_it_is_named_with_the_ones_that_do():
    # `--provider aws` has no H100 in ROWS; azure does: the line says so, not "no such name"
    assert not_sold_by("H100:8", ["aws"], ROWS) == (
        "ACCELERATOR: aws lists no H100; azure does: drop --provider or add --provider azure"
    )
    assert not_sold_by("B100:8", ["aws"], ROWS) == ""  # sold nowhere: the unknown-name error stands


def test_unpriced_clouds_are_named_in_the_order_asked():
    assert unpriced_clouds(["huaweicloud", "aws", "volcengine"], ROWS) == [
        "huaweicloud: the catalog has no priced offerings for it; fetch prices with "
        "`trainstack catalog refresh --provider huaweicloud`",
        "volcengine: the catalog has no priced offerings for it; fetch prices with "
        "`trainstack catalog refresh --provider volcengine`",
    ]


def test_a_spot_price_resolve_does_not_believe_is_left_out_and_named():
    # p4de-like rows in three us-east-1 zones at $40 on-demand: spot 4 (27 % of $15, the upper median of $14-15,
    # below half their median: an outlier, as issue #27's use1-az1), 14 and 15.
    zones = [
        aws_node(zone=z, spot_usd_per_hour=p) for z, p in (("use1-az1", 4.0), ("use1-az2", 14.0), ("use1-az4", 15.0))
    ]
    (row,) = offer_rows(zones, Ask("A100-80GB", 8), spot=True)
    assert (row.spot, row.spot_max, row.spot_doubted) == (14.0, 15.0, False)  # over the believed zones
    (check,) = row.spot_checks
    assert check.startswith("spot $4/h in use1-az1 is 27% of the $14-15/h in the other us-east-1 zones; capacity risk")
    # a region whose only spot price is doubted (at AWS's deepest discount, 90 % off) ranks after the others
    deepest = aws_node(region="us-west-2", zone="usw2-az1", spot_usd_per_hour=4.0)
    ranked = offer_rows([*zones, deepest], Ask("A100-80GB", 8), spot=True)
    assert [(r.region, r.spot, r.spot_doubted) for r in ranked] == [
        ("us-east-1", 14.0, False),
        ("us-west-2", 4.0, True),
    ]
    assert (
        ranked[1].spot_checks[0].startswith("spot $4/h is 10% of on-demand, at aws's deepest published discount (90%")
    )


@pytest.mark.parametrize(
    ("counts", "words"),
    [
        ((8,), "8"),
        ((4, 8), "4 or 8"),
        ((1, 2, 4, 8), "1, 2, 4 or 8"),
        (tuple(range(1, 9)), "1, 2, 3, 4, 5, 6, 7 or 8"),  # eight: all of them
        ((4, 8, 16, 32, 64, 128, 192, 256, 6144), "4, 8, 16, 32, 64, 128, ... or 6144 (9 sizes)"),
    ],
)
def test_the_sizes_an_accelerator_comes_in_stay_one_short_line(counts, words):
    # a TPU generation comes in about 100 slice sizes: the hint lists the first ones and the last
    assert _counts_words(counts) == words
