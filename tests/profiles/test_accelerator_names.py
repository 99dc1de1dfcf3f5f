"""`profiles.catalog.names.accelerator_hint`: what an unknown accelerator name is answered with,
one rule at a time (a memory suffix, a family, a cloud's longer spelling, a typo)."""

import pytest

from profiles.catalog.names import accelerator_hint, memory_by_name
from tests.profiles.offering_factory import offering

# The catalog's spellings (as SkyPilot's catalog gives them) with their GiB per accelerator.
MEMORY = {
    "A100": 40.0,
    "A100-80GB": 80.0,
    "A10": 24.0,
    "A10G": 24.0,
    "H100": 80.0,
    "V100": 16.0,
    "V100-32GB": 32.0,
    "tpu-v5p": None,
    "tpu-v5litepod": None,
    "tpu-v6e": None,
    "Gaudi HL-205": 32.0,
}


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        # a count around the name, as a node's GPUs are often written
        pytest.param("8xH100", "did you mean H100:8? (a count is written NAME:COUNT)", id="count-first"),
        pytest.param("h100 x 8", "did you mean H100:8?", id="count-last"),
        pytest.param("2xA100-80GB", "did you mean A100-80GB:2?", id="count-first-memory-variant"),
        # the catalog calls the 40 GB A100 `A100`: the suffix names it, with its memory
        pytest.param("A100-40GB", "did you mean A100? (40 GiB per accelerator)", id="memory-suffix"),
        pytest.param("a100 40gb", "did you mean A100? (40 GiB per accelerator)", id="memory-suffix-any-case"),
        pytest.param("V100-16GB", "did you mean V100? (16 GiB per accelerator)", id="memory-suffix-v100"),
        # no row has that memory: every variant of the name, with theirs
        pytest.param(
            "A100-96GB", "did you mean A100, A100-80GB? (40 GiB, 80 GiB per accelerator)", id="memory-not-sold"
        ),
        # a TPU slice (SkyPilot's accelerator name) is chips of its generation: v5p names
        # count TensorCores (2 per chip), v6e and v5litepod count chips (facts/gcp.py)
        pytest.param("tpu-v5p-8", "did you mean tpu-v5p:4? (tpu-v5p-8 is a slice of 4 chips", id="tpu-slice-cores"),
        pytest.param("TPU-v6e-16", "did you mean tpu-v6e:16? (TPU-v6e-16 is a slice of 16 chips", id="tpu-slice-chips"),
        # the marketed name of the TPU API's v5litepod
        pytest.param("tpu-v5e", "did you mean tpu-v5litepod? (the TPU API's name for tpu-v5e)", id="tpu-v5e"),
        pytest.param("tpu-v5e-8", "did you mean tpu-v5litepod:8?", id="tpu-v5e-slice"),
        # a family: every TPU generation, whatever the case
        pytest.param("TPU", "did you mean tpu-v5litepod, tpu-v5p, tpu-v6e?", id="family-upper"),
        pytest.param("tpu-v5", "did you mean tpu-v5litepod, tpu-v5p?", id="family-generation"),
        # a cloud's own longer spelling holds the catalog's name: the longest one inside
        pytest.param("nvidia-h100", "did you mean H100?", id="gcp-spelling"),
        pytest.param("nvidia-tesla-a100", "did you mean A100?", id="gcp-spelling-a100"),
        pytest.param("nvidia-a100-80gb", "did you mean A100-80GB?", id="gcp-spelling-80gb"),
        pytest.param("Tesla V100", "did you mean V100?", id="vendor-prefix"),
        # a typo, compared without case
        pytest.param("h10", "did you mean H100", id="typo-lowercase"),
        pytest.param("gaudi", "did you mean Gaudi HL-205?", id="family-with-space"),
        # nothing close: the names the catalog has
        pytest.param("xyz", "known: ", id="nothing-close"),
    ],
)
def test_hint(name, hint):
    assert accelerator_hint(name, MEMORY).startswith(hint)


def test_memory_by_name_takes_the_first_known_memory():
    rows = [
        offering(accelerator="X", accelerator_memory_gib=None),
        offering(accelerator="X", accelerator_memory_gib=24.0),
    ]
    assert memory_by_name(rows) == {"X": 24.0}
