"""`resolve --plot`: every candidate row, late ones included, is drawn.

Apart from tests/profiles/test_resolver.py so that `make mutate`, which runs the resolver's tests
once per mutant, does not import and draw with matplotlib (about 2 s a mutant) for a check of
the chart, not of the resolver.
"""

from profiles.resolver import resolve
from profiles.spec import parse_spec
from tests.profiles.workloads import PLOTTED


def test_the_plot_draws_every_candidate_under_a_deadline(fixture_catalog, tmp_path):
    from trainstack.cli.plot import write_plot

    spec = parse_spec(PLOTTED)
    resolution = resolve(spec, fixture_catalog.offerings)
    assert write_plot(tmp_path / "c.png", spec, resolution) == resolution.matched == len(resolution.candidates)
