"""The size rule every cloud's fixed-size node group shares (`components.node_group`)."""

import pytest

from components.node_group import fixed_size

KEYS = ("min_size", "max_size", "desired_capacity")


@pytest.mark.parametrize(
    ("nodes", "most", "expected"),
    [
        pytest.param(1, 100, {"min_size": 1, "max_size": 1, "desired_capacity": 1}, id="one-node"),
        pytest.param(100, 100, {"min_size": 100, "max_size": 100, "desired_capacity": 100}, id="at-the-limit"),
    ],
)
def test_a_fixed_group_keeps_exactly_the_nodes(nodes, most, expected):
    assert fixed_size(nodes, most, "a group", KEYS) == expected


@pytest.mark.parametrize("nodes", [pytest.param(0, id="none"), pytest.param(101, id="above-the-limit")])
def test_a_size_outside_the_groups_range_is_refused_naming_it(nodes):
    with pytest.raises(ValueError, match=rf"^nodes: {nodes} is outside 1-100, the sizes a test group takes$"):
        fixed_size(nodes, 100, "a test group", KEYS)
