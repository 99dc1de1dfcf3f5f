import math

import pytest

from profiles.spec.units import not_bool, parse_count, parse_duration_hours, parse_size_gib, too_long_work


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        pytest.param("4800GiB", 4800.0, id="gib"),
        pytest.param("4.8TiB", 4915.2, id="tib"),
        pytest.param("80GB", 80.0, id="marketed-gpu-gb"),
        pytest.param("1000GB", 1e12 / 2**30, id="decimal-gb"),
        pytest.param("2TB", 2e12 / 2**30, id="decimal-tb"),
        pytest.param("110KiB", 110 / 1024**2, id="kib"),
        pytest.param("1PiB", 1024.0**2, id="pib"),
        pytest.param("1 PB", 1e15 / 2**30, id="decimal-pb"),
        pytest.param(0, 0.0, id="zero-needs-no-unit"),
    ],
)
def test_parse_size_gib(text, gib):
    assert parse_size_gib(text) == pytest.approx(gib)


@pytest.mark.parametrize(
    ("text", "hours"),
    [("72h", 72.0), ("3d", 72.0), ("90m", 1.5), ("1w", 168.0), ("2.5 h", 2.5), (0, 0.0)],
)
def test_parse_duration_hours(text, hours):
    assert parse_duration_hours(text) == pytest.approx(hours)


@pytest.mark.parametrize(
    ("parse", "value", "message"),
    [
        pytest.param(parse_size_gib, 4800, "4800 has no unit; write 4800GiB (or TiB, GB, TB)", id="size-int"),
        pytest.param(parse_size_gib, "4800", "4800 has no unit; write 4800GiB (or TiB, GB, TB)", id="size-text"),
        pytest.param(parse_size_gib, 2.5, "2.5 has no unit; write 2.5GiB (or TiB, GB, TB)", id="size-float"),
        pytest.param(parse_duration_hours, 30, "30 has no unit; write 30h, 30d or 30m", id="duration-int"),
        pytest.param(parse_duration_hours, " 30 ", "30 has no unit; write 30h, 30d or 30m", id="duration-text"),
    ],
)
def test_a_bare_number_is_refused_where_the_unit_is_not_implied(parse, value, message):
    with pytest.raises(ValueError) as caught:
        parse(value)
    assert str(caught.value) == message


def test_a_bare_number_of_hours_is_hours_where_the_key_says_so():
    assert parse_duration_hours(12, bare_hours=True) == 12.0
    assert parse_duration_hours("1.5", bare_hours=True) == 1.5


@pytest.mark.parametrize("text", ["big", "3 fortnights", "12 EB", True])
def test_bad_values_name_the_value(text):
    with pytest.raises(ValueError, match="use|write it like|expected"):
        parse_size_gib(text) if text != "3 fortnights" else parse_duration_hours(text)


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        pytest.param("1 hour", 1.0, id="hour"),
        pytest.param("2 hours", 2.0, id="hours"),
        pytest.param("30 minutes", 0.5, id="minutes"),
        pytest.param("1 minute", 1 / 60, id="minute"),
        pytest.param("1 day", 24.0, id="day"),
        pytest.param("2 days", 48.0, id="days"),
        pytest.param("1 week", 168.0, id="week"),
        pytest.param("2weeks", 336.0, id="weeks-no-space"),
        pytest.param("3 hrs", 3.0, id="hrs"),
        pytest.param(".5h", 0.5, id="leading-dot"),
    ],
)
def test_duration_words(text, hours):
    assert parse_duration_hours(text) == pytest.approx(hours)


@pytest.mark.parametrize(
    ("text", "gib"),
    [("4800 GiB", 4800.0), ("4.8 TiB", 4915.2), ("2 TB", 2e12 / 2**30), ("1000 GB", 1e12 / 2**30), ("80 gb", 80.0)],
)
def test_sizes_with_a_space(text, gib):
    assert parse_size_gib(text) == pytest.approx(gib)


@pytest.mark.parametrize(
    ("parse", "value"),
    [
        pytest.param(parse_duration_hours, math.inf, id="duration-inf"),
        pytest.param(parse_duration_hours, math.nan, id="duration-nan"),
        pytest.param(parse_size_gib, math.inf, id="size-inf"),
        pytest.param(parse_size_gib, -math.inf, id="size-minus-inf"),
        pytest.param(parse_count, math.inf, id="count-inf"),
        pytest.param(parse_count, math.nan, id="count-nan"),
        pytest.param(parse_count, "1e999", id="count-overflows"),
        pytest.param(parse_size_gib, f"2{'0' * 305}TiB", id="size-overflows-in-conversion"),
        pytest.param(parse_duration_hours, f"2{'0' * 306}w", id="duration-overflows-in-conversion"),
    ],
)
def test_non_finite_numbers_are_refused(parse, value):
    with pytest.raises(ValueError, match="not a finite number"):
        parse(value)


@pytest.mark.parametrize("parse", [parse_duration_hours, parse_size_gib, parse_count])
def test_yes_no_values_are_refused(parse):
    with pytest.raises(ValueError, match="got true"):
        parse(True)


def test_not_bool_passes_numbers_and_refuses_bools():
    assert not_bool(2) == 2 and not_bool(None) is None
    with pytest.raises(ValueError, match="expected a number, got false"):
        not_bool(False)


def test_unknown_duration_unit_lists_the_words():
    with pytest.raises(ValueError, match=r"unknown duration unit in '3 fortnights'; use m, h, d, w or mo \(or minutes"):
        parse_duration_hours("3 fortnights")


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        pytest.param("6 months", 4380.0, id="months"),
        pytest.param("1mo", 730.0, id="mo"),
        pytest.param("1 month", 730.0, id="month"),
        pytest.param("90m", 1.5, id="m-stays-minutes"),
    ],
)
def test_months_are_730_hours(text, hours):
    assert parse_duration_hours(text) == pytest.approx(hours)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # months to ISO 8601 (P6M) and moment.js, minutes to others: neither is guessed
        pytest.param("6M", "'6M' could be minutes or months; write 6m (minutes) or 6mo (months)", id="capital-m"),
        pytest.param(
            "1.5 M", "'1.5 M' could be minutes or months; write 1.5m (minutes) or 1.5mo (months)", id="spaced"
        ),
        # years are written in months (a month is 730 h, so a year 8,760 h)
        pytest.param("1y", "'1y': years are written in months; write 12mo (8,760 h)", id="y"),
        pytest.param("2 years", "'2 years': years are written in months; write 24mo (17,520 h)", id="years"),
    ],
)
def test_ambiguous_and_year_units_are_refused_with_the_spelling_read(text, message):
    with pytest.raises(ValueError) as caught:
        parse_duration_hours(text)
    assert str(caught.value) == message
    assert parse_duration_hours("6m") == pytest.approx(0.1) and parse_duration_hours("6mo") == 6 * 730


@pytest.mark.parametrize(
    ("hours", "nodes", "fix"),
    [
        # a fixed count: the fewest nodes that could end within 26,280 h at linear scaling
        (50_156, 2, " or run on more nodes: at least 4 at linear scaling (`nodes: auto` picks the fewest"),
        (26_281, 64, " or run on more nodes: at least 65 at linear scaling (`nodes: 65`)"),  # beyond auto's 64
        (26_280 * 10_000 + 1, 1, ""),  # more than a workload may ask for: units only
        (50_156, None, ""),  # a range or auto already tried its largest count
    ],
)
def test_work_too_long_names_more_nodes_for_a_fixed_count_when_nodes_could_help(hours, nodes, fix):
    message = too_long_work(hours, "2 x p5.48xlarge", nodes, 64)
    assert "; check the units of work (tokens: 300B, images: 1.28M)" in message
    if fix:
        assert fix in message
    else:
        assert message.endswith("check the units of work (tokens: 300B, images: 1.28M)")
