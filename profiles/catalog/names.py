"""What to suggest for an accelerator name the catalog does not spell that way.

One rule for every place that reads an accelerator name (`resolve`'s `accelerators:` through
`profiles.known_names`, `trainstack offers ACCELERATOR`), tried in order:

0. a count written around the name (`8xH100`, `H100 x 8`) is `H100:8`;
1. a memory suffix on a name the catalog lists without one: `A100-40GB` is the catalog's
   `A100` (40 GiB per accelerator), as SkyPilot's catalog names the 40 GB A100 `A100` beside
   `A100-80GB`; a suffix no row has names the variants the catalog does list;
2. a TPU slice or marketed name: `tpu-v5p-8` (SkyPilot's name) is `tpu-v5p:4` (the count is
   chips), `tpu-v5e` is the TPU API's `tpu-v5litepod`; a family: `TPU` or `tpu-v5` names the
   catalog's `tpu-v5p`, `tpu-v5litepod`, ...;
3. a catalog name inside a longer one: `nvidia-h100`, `Tesla-V100` (GCP's and the clouds'
   own spellings) name `H100`, `V100`;
4. otherwise the closest names, compared without case (difflib, as `clouds.words.did_you_mean`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping

from clouds.words import listed
from facts.gcp import tpu_generation_and_chips
from profiles.catalog.offering import Offering

_MEMORY_SUFFIX = re.compile(r"(?i)(.+?)[-_ ]?(\d+)\s*gi?b")
# A count written before or after the name, as people write a node's GPUs: `8xH100`, `H100 x 8`.
_COUNT_FIRST = re.compile(r"\s*(?P<count>\d+)\s*[x×]\s*(?P<name>\S.*?)\s*", re.IGNORECASE)
_COUNT_LAST = re.compile(r"\s*(?P<name>\S.*?)\s*[x×]\s*(?P<count>\d+)\s*", re.IGNORECASE)
# TPU generations by their marketed names -> the TPU API's (facts/gcp.py TPU_GENERATIONS: "v5litepod (v5e)").
_TPU_MARKETED = {"tpu-v5e": "tpu-v5litepod"}


def accelerator_hint(name: str, memory: Mapping[str, float | None]) -> str:
    """`did you mean A100? (40 GiB per accelerator)` for `A100-40GB`, and so on (the module docstring's rules).

    Args:
        name: the name as written (not one of `memory`'s keys in any case).
        memory: every name the catalog lists, as it spells it -> GiB per accelerator (None
            when unknown).

    Returns:
        The hint, without the error's first part: `did you mean X, Y?` or `known: ...`.
    """
    by_fold = {known.casefold(): known for known in memory}
    counted = _COUNT_FIRST.fullmatch(name) or _COUNT_LAST.fullmatch(name)
    if counted and counted.group("name").casefold() in by_fold:  # `8xH100`, `H100 x 8`
        known = by_fold[counted.group("name").casefold()]
        return f"did you mean {known}:{counted.group('count')}? (a count is written NAME:COUNT)"
    tpu = _tpu_hint(name, by_fold)
    if tpu:
        return tpu
    variants = _memory_variants(name, memory, by_fold)
    if variants:
        gib = ", ".join(_gib(memory[known]) for known in variants)
        return f"did you mean {', '.join(variants)}? ({gib} per accelerator)"
    folded = name.casefold().strip()
    family = sorted(known for fold, known in by_fold.items() if fold.startswith(folded) and len(folded) >= 2)
    if family:
        return f"did you mean {_some(family)}?"
    inside = sorted((known for fold, known in by_fold.items() if len(fold) >= 3 and fold in folded), key=len)
    if inside:
        return f"did you mean {inside[-1]}?"
    close = difflib.get_close_matches(folded, list(by_fold), n=3, cutoff=0.4)
    if close:
        return f"did you mean {', '.join(by_fold[fold] for fold in close)}?"
    return f"known: {listed(memory, name)}"


def _tpu_hint(name: str, by_fold: Mapping[str, str]) -> str:
    """A TPU by its marketed name (`tpu-v5e` is the API's `tpu-v5litepod`) or by a slice
    (`tpu-v5p-8`, SkyPilot's accelerator name, is 4 chips of `tpu-v5p`: the count is chips,
    `facts.gcp.tpu_generation_and_chips`), or ""."""
    folded = name.strip().casefold()
    for marketed, api in _TPU_MARKETED.items():
        folded = folded.replace(marketed, api) if folded.startswith(marketed) else folded
    try:
        generation, chips = tpu_generation_and_chips(folded)
    except ValueError:
        generation, chips = folded, 0
    if generation not in by_fold or folded == name.strip().casefold() and not chips:
        return ""
    if chips:
        return f"did you mean {by_fold[generation]}:{chips}? ({name.strip()} is a slice of {chips} chips; a count is chips)"
    return f"did you mean {by_fold[generation]}? (the TPU API's name for {name.strip()})"


def _memory_variants(name: str, memory: Mapping[str, float | None], by_fold: Mapping[str, str]) -> list[str]:
    """`A100-40GB` -> [`A100`] when the catalog's `A100` has 40 GiB; with no row of that
    memory, every variant of the base name."""
    match = _MEMORY_SUFFIX.fullmatch(name.strip())
    if not match:
        return []
    base, gib = match.group(1).casefold(), float(match.group(2))
    family = sorted(
        known
        for fold, known in by_fold.items()
        if fold == base or (fold.startswith(base) and _MEMORY_SUFFIX.fullmatch(known))
    )
    same = [known for known in family if abs((memory[known] or 0.0) - gib) < 1]
    return same or family


def _gib(value: float | None) -> str:
    return "unknown" if value is None else f"{value:g} GiB"


def _some(names: Iterable[str], limit: int = 6) -> str:
    names = list(names)
    more = f", ... ({len(names)} in all)" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def memory_by_name(rows: Iterable[Offering]) -> dict[str, float | None]:
    """Each accelerator name of `rows` -> its GiB per accelerator (the first known memory)."""
    memory: dict[str, float | None] = {}
    for row in rows:
        if memory.get(row.accelerator) is None:
            memory[row.accelerator] = row.accelerator_memory_gib
    return memory
