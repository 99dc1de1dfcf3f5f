"""The docs list every `speed` value a resolve row can carry, and no other (one list in the code:
`profiles.cost.calibration.SPEED_CLASSES`). Not in tests/profiles/test_calibration.py: that file
is in `make mutate`'s selection, whose copy of the tree holds no docs/."""

from profiles.cost import calibration


def test_the_docs_list_every_speed_a_row_can_say_and_no_other():
    """`calibration.SPEED_CLASSES` is the one list of a row's `speed` values: the measurement
    schema's provenances, the model's own classes and `given`; docs/cli.md (`resolve --json`'s
    `speed`) and docs/benchmarks.md list exactly these."""
    import re
    import typing

    from profiles.measurements.schema import Provenance
    from tests.cli.helpers import ROOT

    assert set(typing.get_args(Provenance)) < set(calibration.SPEED_CLASSES)
    assert {calibration.CALIBRATED, calibration.PEAK, calibration.GIVEN} < set(calibration.SPEED_CLASSES)
    cli = (ROOT / "docs" / "cli.md").read_text()
    listed = re.search(r"`speed` \(where its hours come from:\s+(.*?);", cli, re.DOTALL)
    assert listed, "docs/cli.md no longer lists the speed values"
    assert re.findall(r"`([^`]+)`", listed.group(1)) == list(calibration.SPEED_CLASSES)
    bench = " ".join((ROOT / "docs" / "benchmarks.md").read_text().split())
    assert all(f"`{value}` (" in bench for value in calibration.SPEED_CLASSES)
