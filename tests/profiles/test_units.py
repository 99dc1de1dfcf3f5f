import pytest

from profiles.units import parse_duration_hours, parse_size_gib


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        pytest.param("4800GiB", 4800.0, id="gib"),
        pytest.param("4.8TiB", 4915.2, id="tib"),
        pytest.param("80GB", 80.0, id="marketed-gpu-gb"),
        pytest.param("1000GB", 1e12 / 2**30, id="decimal-gb"),
        pytest.param("2TB", 2e12 / 2**30, id="decimal-tb"),
        pytest.param(1200, 1200.0, id="bare-number"),
    ],
)
def test_parse_size_gib(text, gib):
    assert parse_size_gib(text) == pytest.approx(gib)


@pytest.mark.parametrize(
    ("text", "hours"),
    [("72h", 72.0), ("3d", 72.0), ("90m", 1.5), ("1w", 168.0), (12, 12.0), ("2.5 h", 2.5)],
)
def test_parse_duration_hours(text, hours):
    assert parse_duration_hours(text) == pytest.approx(hours)


@pytest.mark.parametrize("text", ["big", "3 fortnights", "12 PB", True])
def test_bad_values_name_the_value(text):
    with pytest.raises(ValueError, match="use|write it like|expected"):
        parse_size_gib(text) if text != "3 fortnights" else parse_duration_hours(text)
