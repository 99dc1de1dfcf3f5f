"""TPU slice names: SkyPilot catalog names -> TPU API accelerator types, chips, runtimes.

Naming (shared/reference-catalog/README.md, "TPUs are different"; accelerators.md S15-S18):
the number in a v2, v3, v4 or v5p name counts TensorCores, 2 per chip (`tpu-v4-8` = 4
chips); in a v5litepod (v5e) or v6e name it counts chips (`tpu-v5litepod-8` = 8 chips).
The TPU API takes the same name without the `tpu-` prefix (`v5p-8`, `v5litepod-16`).

Capacity (Google's "Manage queued resources", cloud.google.com/tpu/docs/queued-resources:
on-demand quota "does not guarantee" enough TPUs, "for more reliable obtainability ...
consider purchasing a reservation"; "Cloud TPU quotas": reserved, on-demand and spot quota
types, a reserved TPU created with `--reserved`; "Consume a reservation": a specific one
through a queued resource's `--reservation`). That v5p and v6e are the generations where an
on-demand create usually finds no capacity is the field report's, unsourced here.
`capacity_note` says so on an on-demand pick.

Runtime (software) versions come from Google's "TPU software versions" page
(cloud.google.com/tpu/docs/runtimes, read via the docs index in this session; not in
shared/reference-facts): v6e `v2-alpha-tpuv6e`, v5p `v2-alpha-tpuv5`, v5e
`v2-alpha-tpuv5-lite`, v4 and older `tpu-ubuntu2204-base`.
"""

from __future__ import annotations

import re

PREFIX = "tpu-"
# generation -> how many name units one chip counts for (2 = TensorCores, 1 = chips).
UNITS_PER_CHIP: dict[str, int] = {"v2": 2, "v3": 2, "v4": 2, "v5p": 2, "v5litepod": 1, "v6e": 1}
RUNTIME_VERSIONS: dict[str, str] = {
    "v2": "tpu-ubuntu2204-base",
    "v3": "tpu-ubuntu2204-base",
    "v4": "tpu-ubuntu2204-base",
    "v5p": "v2-alpha-tpuv5",
    "v5litepod": "v2-alpha-tpuv5-lite",
    "v6e": "v2-alpha-tpuv6e",
}
# Friendly generation names -> the API's name.
_ALIASES = {"v5e": "v5litepod", "v5lite": "v5litepod", "trillium": "v6e"}
_NAME = re.compile(r"^(?:tpu-)?(v2|v3|v4|v5p|v5litepod|v6e)-(\d+)$")


def is_tpu(instance_type: str) -> bool:
    """Whether a catalog instance type is a TPU slice (`tpu-v5p-8`)."""
    return instance_type.startswith(PREFIX)


def _parse(name: str) -> tuple[str, int]:
    match = _NAME.match(name.strip().lower())
    if not match or int(match.group(2)) <= 0:
        valid = ", ".join(UNITS_PER_CHIP)
        raise ValueError(f"instance_type: '{name}' is not a TPU slice name like tpu-v5p-8 (generations: {valid})")
    generation, count = match.group(1), int(match.group(2))
    if count % UNITS_PER_CHIP[generation]:
        raise ValueError(f"instance_type: '{name}' counts TensorCores, 2 per chip, so the number must be even")
    return generation, count


def tpu_generation(name: str) -> str:
    """The generation of a slice name: `tpu-v5litepod-16` -> `v5litepod`.

    Raises:
        ValueError: for a name that is not a known TPU slice.
    """
    return _parse(name)[0]


def tpu_accelerator_type(name: str) -> str:
    """The TPU API accelerator type: `tpu-v5p-8` -> `v5p-8`, `tpu-v4-32` -> `v4-32`.

    Raises:
        ValueError: for a name that is not a known TPU slice.
    """
    generation, count = _parse(name)
    return f"{generation}-{count}"


def tpu_chips(name: str) -> int:
    """Chips in a slice: `tpu-v4-8` -> 4, `tpu-v5p-8` -> 4, `tpu-v5litepod-8` -> 8.

    Raises:
        ValueError: for a name that is not a known TPU slice.
    """
    generation, count = _parse(name)
    return count // UNITS_PER_CHIP[generation]


def tpu_name_for_chips(generation: str, chips: int) -> str:
    """The TPU API name of a slice with `chips` chips: (`v5p`, 4) -> `v5p-8`,
    (`v5e`, 8) -> `v5litepod-8`.

    Args:
        generation: `v2`, `v3`, `v4`, `v5p`, `v5litepod` (or `v5e`), `v6e`; a `tpu-`
            prefix is accepted.
        chips: chips in the slice (> 0). Whether Google sells that size is not checked.

    Raises:
        ValueError: for an unknown generation or a non-positive chip count.
    """
    key = generation.strip().lower().removeprefix(PREFIX)
    key = _ALIASES.get(key, key)
    if key not in UNITS_PER_CHIP:
        valid = ", ".join([*UNITS_PER_CHIP, "v5e"])
        raise ValueError(f"generation: '{generation}' unknown; valid: {valid}")
    if chips <= 0:
        raise ValueError(f"chips: {chips} must be > 0")
    return f"{key}-{chips * UNITS_PER_CHIP[key]}"


# Generations whose capacity usually needs a reservation or a queued resource (see above).
RESERVATION_BOUND = ("v5p", "v6e")


def capacity_note(name: str, purchase: str) -> str | None:
    """What an on-demand pick of a v5p or v6e slice should tell the user; None otherwise.

    Args:
        name: the slice name (`tpu-v5p-32`); any other instance type gives None.
        purchase: `on-demand`, `spot`, `reserved-1y`, ...
    """
    if purchase != "on-demand" or not is_tpu(name):
        return None
    try:
        generation = tpu_generation(name)
    except ValueError:
        return None
    if generation not in RESERVATION_BOUND:
        return None
    return (
        f"TPU {generation} on-demand capacity usually needs a reservation or a queued resource: reserve it "
        "(then set reservation: {id: NAME}; the slice is created with reserved: true) or set "
        "queued_resource: true in the stack (the cluster's controller VM then requests each slice as a "
        "queued resource and re-requests it when lost)"
    )


# A TPU VM's metadata: OS Login only (the TPU runtime image needs no driver install).
TPU_METADATA: dict[str, str] = {"enable-oslogin": "TRUE"}


def scheduling_config(purchase: str, reservation: str | None) -> dict[str, bool] | None:
    """A TPU VM's `scheduling_config`: spot, reserved (consumes the project's matching TPU
    reservation in the zone, as `gcloud compute tpus tpu-vm create --reserved` does), or None."""
    if purchase == "spot":
        return {"spot": True}
    if reservation:
        return {"reserved": True}
    return None


def tpu_runtime_version(name: str) -> str:
    """The TPU software version for a slice's generation (see module docstring).

    Raises:
        ValueError: for a name that is not a known TPU slice.
    """
    return RUNTIME_VERSIONS[tpu_generation(name)]
