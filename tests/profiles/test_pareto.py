from profiles.candidate import Candidate
from profiles.catalog.offering import Offering
from profiles.pareto import pareto_front


def offering(name):
    return Offering("aws", "r", "z", name, "A100", 8, 40, "SXM", 96, 1152, "efa", 4, 400, 10.0, 5.0, "d")


def candidate(name, hours, usd_per_hour):
    return Candidate(offering(name), "on-demand", 1, hours, usd_per_hour)


def test_front_keeps_only_undominated_points_fastest_first():
    fast_dear = candidate("a", 10, 100)  # $1,000
    slow_cheap = candidate("b", 40, 10)  # $400
    middle = candidate("c", 20, 30)  # $600
    dominated = candidate("d", 30, 30)  # $900: slower and dearer than c
    tie = candidate("e", 20, 30)  # same as c: only one kept
    front = pareto_front([dominated, slow_cheap, tie, fast_dear, middle])
    assert [(c.hours, c.usd_total) for c in front] == [(10, 1000), (20, 600), (40, 400)]
