"""A config the component refuses fails with the message naming the field before the
component registers anything (not even itself), for each cloud's refusals in
tests/cases/refused_before_building.yaml; and each cloud's `validate_args` refuses with one line
(tests/cases/validate_refusals.yaml). The other clouds check theirs in their own folders."""

import importlib
import re

import pytest

from components.registry import component_for
from tests.cases import cases
from tests.clusters import example_config
from tests.components.harness import install_mocks

# pulumi_volcengine.ecs imports its deprecated data-source aliases on first use.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:pulumi_volcengine.*")


@pytest.mark.parametrize(
    ("cloud", "changes", "message"), cases("refused_before_building.yaml", "cloud", "changes", "message")
)
def test_invalid_config_fails_before_anything_is_registered(cloud, changes, message):
    config = example_config(cloud, **changes)
    _, monitor = install_mocks(config.region)
    with pytest.raises(ValueError, match=re.escape(message)):
        component_for(cloud)("c", config)
    assert monitor.records() == []


@pytest.mark.parametrize(
    ("cloud", "name", "overrides", "match"), cases("validate_refusals.yaml", "cloud", "name", "overrides", "match")
)
def test_validate_rejects_with_one_line_naming_the_field(cloud, name, overrides, match):
    validate_args = importlib.import_module(f"clouds.{cloud}.validate").validate_args
    with pytest.raises(ValueError, match=match) as info:
        validate_args(example_config(cloud, **overrides), name)
    assert "\n" not in str(info.value)
