"""Spec errors say what the field means and how to fix it, never pydantic's raw text, and
name the key the user wrote; absurd sizes are refused against the clouds' own maxima."""

from __future__ import annotations

import pytest

from profiles.spec import SpecError, parse_spec

BASE = {"accelerators": ["A100:8"], "hours": "72h"}
RAW = ("Input should be", "String should match", "Extra inputs are not permitted", "Value error")


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        pytest.param({"nodes": 0}, "nodes: 0 is too small: the number of nodes", id="nodes-0"),
        pytest.param({"nodes": 100_000}, "nodes: 100000 is too large", id="nodes-huge"),
        pytest.param({"name": "My Job"}, "lowercase letters, digits and '-'", id="name-pattern"),
        pytest.param(
            {"purchase": "cheap"},
            "purchase: 'cheap' is not a valid purchase option; write one of any, spot, on-demand",
            id="purchase-literal",
        ),
        pytest.param({"interconnect": "rdmaa"}, "(did you mean rdma?)", id="interconnect-near"),
        pytest.param({"nodes": "two"}, "nodes: 'two' is not a whole number", id="nodes-text"),
        pytest.param(
            {"file_system": {"capacity": "1TiB", "throughput": 0}},
            "file_system.throughput: 0 is too small",
            id="throughput-0",
        ),
        pytest.param({"bogus": 1}, "bogus: unknown key; valid keys:", id="unknown-key"),
    ],
)
def test_messages_name_the_meaning_and_a_fix(extra, says):
    with pytest.raises(SpecError) as err:
        parse_spec({**BASE, **extra}, "w.yaml")
    message = str(err.value)
    assert says in message
    assert not any(raw in message for raw in RAW)
    assert "\n" not in message


@pytest.mark.parametrize("accelerators", [["A100:80"], ["A100:0"], "H100:128"])
def test_a_count_written_in_accelerators_is_blamed_on_accelerators(accelerators):
    with pytest.raises(SpecError) as err:
        parse_spec({**BASE, "accelerators": accelerators}, "w.yaml")
    assert "w.yaml: accelerators:" in str(err.value) and "gpus_per_node" not in str(err.value)


def test_gpus_per_node_written_by_the_user_is_named_as_written():
    with pytest.raises(SpecError, match="gpus_per_node: 80 is too large"):
        parse_spec({"accelerators": ["A100"], "gpus_per_node": 80, "hours": 1}, "w.yaml")


def test_the_spec_remembers_which_key_set_the_gpu_count():
    assert parse_spec(BASE).gpus_key == "accelerators"
    assert parse_spec({"accelerators": ["A100"], "gpus_per_node": 8, "hours": 1}).gpus_key == "gpus_per_node"


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        pytest.param({"hours": "1000000000h"}, "hours: '1000000000h' is 114,155 years", id="hours"),
        pytest.param({"hours": "26281h"}, "up to 26,280 h", id="hours-just-over"),
        pytest.param({"deadline": "2000w"}, "deadline: '2000w' is 38 years", id="deadline"),
        pytest.param(
            {"file_system": {"capacity": "104857601GiB"}}, "more than any cloud's largest", id="capacity-just-over"
        ),
        pytest.param(
            {"file_system": {"capacity": "99999999TiB"}}, "more than any cloud's largest file system", id="capacity"
        ),
    ],
)
def test_absurd_sizes_are_refused(extra, says):
    with pytest.raises(SpecError, match=None) as err:
        parse_spec({**BASE, **extra}, "w.yaml")
    assert says in str(err.value)


def test_the_longest_priced_term_is_still_accepted():
    assert parse_spec({**BASE, "hours": "26280h"}).hours == 26280
    assert parse_spec({**BASE, "file_system": {"capacity": "100TiB"}}).file_system.capacity_gib == 102_400
    assert parse_spec({**BASE, "file_system": {"capacity": "104857600GiB"}}).file_system.capacity_gib == 104_857_600


@pytest.mark.parametrize("written", ["CN-Mainland", " cn-mainland ", "CN-MAINLAND"])
def test_jurisdiction_is_read_in_any_case(written):
    assert parse_spec({**BASE, "jurisdiction": written}).jurisdiction == "cn-mainland"


def test_an_unknown_jurisdiction_reads_as_a_sentence():
    with pytest.raises(SpecError) as caught:
        parse_spec({**BASE, "jurisdiction": "china"})
    assert str(caught.value).endswith(
        "jurisdiction: 'china' is not a valid jurisdiction the data must stay in; write one of any, cn-mainland"
    )


@pytest.mark.parametrize("scheme", ["cos", "obs", "tos", "bos"])
def test_a_bucket_no_cloud_links_says_which_kinds_are_linked(scheme):
    source = f"{scheme}://team-data-1250000000/imagenet"
    with pytest.raises(SpecError) as caught:
        parse_spec({**BASE, "data": {"source": source, "size": "2TiB"}})
    text = str(caught.value)
    assert f"data.source: no trainstack cloud links {scheme}:// buckets yet" in text
    for kind in ("s3://BUCKET/PREFIX", "gs://BUCKET/PREFIX", "blob.core.windows.net", "oss://BUCKET/PREFIX"):
        assert kind in text
    assert "copy the data onto the file system yourself and drop `data`" in text and "aws can link" not in text


@pytest.mark.parametrize("word", ["reserved", "Reserved", "savings plan", "RI", "committed-use", "cud"])
def test_a_reserved_purchase_points_at_commitment(word):
    with pytest.raises(SpecError) as err:
        parse_spec({**BASE, "purchase": word}, "w.yaml")
    assert f"purchase: '{word}' is not a purchase option" in str(err.value)
    assert "`commitment: 1y` (or 3y) beside `purchase: on-demand`" in str(err.value)
    assert "reservations:" not in str(err.value)


@pytest.mark.parametrize(
    ("word", "fix"),
    [
        # a term written with its length: the commitment of that length
        pytest.param("reserved-1y", "`commitment: 1y` beside `purchase: on-demand`", id="reserved-1y"),
        pytest.param("Reserved 3 years", "`commitment: 3y` beside `purchase: on-demand`", id="reserved-3-years"),
        pytest.param("1y", "`commitment: 1y` beside `purchase: on-demand`", id="bare-term"),
        pytest.param("3yr", "`commitment: 3y` beside `purchase: on-demand`", id="bare-term-yr"),
        # held capacity is `reservations:` (the resolver's `reservation` / `capacity-block` rows)
        pytest.param(
            "capacity-block", "a Capacity Block, a GCP reservation) is listed under `reservations:`", id="block"
        ),
        pytest.param("Capacity Reservation", "is listed under `reservations:`; see", id="odcr-words"),
        pytest.param("ODCR", "is listed under `reservations:`; see", id="odcr"),
        # "reservation" is either: both keys
        pytest.param(
            "reservation", "under `reservations:`; a reserved term is priced with `commitment: 1y`", id="both"
        ),
        # the clouds' other names for spot, and dstack's auto
        pytest.param("preemptible", "are `purchase: spot`, or `any` to allow on-demand too", id="gcp-preemptible"),
        pytest.param("low_priority", "are `purchase: spot`, or `any`", id="azure-low-priority"),
        pytest.param("auto", "is `purchase: any` (dstack's spot_policy: auto)", id="dstack-auto"),
    ],
)
def test_other_ways_to_pay_name_the_key_that_expresses_them(word, fix):
    with pytest.raises(SpecError) as err:
        parse_spec({**BASE, "purchase": word}, "w.yaml")
    text = str(err.value)
    assert text.startswith(f"w.yaml: purchase: '{word}' is not a purchase option (any, spot, on-demand, flex-start): ")
    assert fix in text and "\n" not in text


@pytest.mark.parametrize(("word", "read"), [("ondemand", "on-demand"), ("Spot_Allowed", "any"), ("DWS", "flex-start")])
def test_purchase_aliases_are_read(word, read):
    assert (
        parse_spec(
            {**BASE, "purchase": word, "spot": {"checkpoint_interval": "1h"}, "file_system": {"capacity": "1TiB"}}
        ).purchase
        == read
    )


@pytest.mark.parametrize(
    ("written", "term"),
    [
        ("1y", "1y"),
        ("1Y", "1y"),
        ("1yr", "1y"),
        ("1 year", "1y"),
        ("3-year", "3y"),
        ("3 years", "3y"),
        ("12mo", "1y"),
        ("36 months", "3y"),
    ],
)
def test_a_commitment_term_is_read_as_it_is_written(written, term):
    # the clouds sell 1- and 3-year terms; `1Y` or `1 year` was refused ("write one of 1y, 3y")
    assert parse_spec({**BASE, "purchase": "on-demand", "commitment": written}).commitment.term == term
    assert parse_spec({**BASE, "purchase": "on-demand", "commitment": {"term": written}}).commitment.term == term


@pytest.mark.parametrize("written", ["2y", "24mo", "1 decade"])
def test_a_term_the_clouds_do_not_sell_is_refused_with_the_ones_they_do(written):
    with pytest.raises(SpecError) as err:
        parse_spec({**BASE, "purchase": "on-demand", "commitment": written}, "w.yaml")
    assert f"commitment.term: '{written}' is not a valid term length" in str(err.value)
    assert "write one of 1y, 3y" in str(err.value)
