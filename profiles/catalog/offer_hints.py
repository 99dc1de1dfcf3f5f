"""What `trainstack offers` says when it has no row to show, or a filter matches nothing: the
clouds without prices, the clouds that do sell an accelerator `--provider` left out, the
per-node counts an accelerator comes in, the regions that list it, and a `--region` that is a
zone or another cloud's region. Pure functions over loaded `Offering`s (`profiles.catalog.offers`
builds the rows)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from clouds.words import did_you_mean, listed
from profiles.catalog.offering import Offering
from profiles.catalog.offers import Ask, OffersError, offer_rows, read_ask


def unpriced_clouds(clouds: Sequence[str], offerings: Sequence[Offering]) -> list[str]:
    """The clouds of `--provider` with no row in the loaded catalog, each as one line
    (`huaweicloud: the catalog has no priced offerings for it; fetch ...`), in `clouds`' order."""
    priced = {o.provider for o in offerings}
    return [
        f"{cloud}: the catalog has no priced offerings for it; fetch prices with "
        f"`trainstack catalog refresh --provider {cloud}`"
        for cloud in clouds
        if cloud not in priced
    ]


def not_sold_by(token: str, clouds: Sequence[str], everywhere: Sequence[Offering]) -> str:
    """Why `--provider` left no `token` when other clouds list it, or "" when none does.

    Args:
        token: ACCELERATOR as written (`H100:8`).
        clouds: the clouds of `--provider`.
        everywhere: every cloud's catalog rows.
    """
    try:
        ask = read_ask(token, everywhere)
    except OffersError:
        return ""
    sellers = sorted({o.provider for o in everywhere if o.accelerator == ask.accelerator} - set(clouds))
    asked = " and ".join(clouds)
    return (
        f"ACCELERATOR: {asked} list{'s' if len(clouds) == 1 else ''} no {ask.accelerator}; "
        f"{', '.join(sellers)} do{'es' if len(sellers) == 1 else ''}: drop --provider or add --provider {sellers[0]}"
    )


SHOWN_COUNTS = 8  # a choice: more sizes than this (TPU slices: about 100) are shown as the first ones and the last


def _counts_words(counts: Sequence[int]) -> str:
    """`4 or 8`, `1, 2, 4 or 8`; a long list as its first sizes, `...`, the last and how many."""
    if len(counts) > SHOWN_COUNTS:
        first = ", ".join(map(str, counts[: SHOWN_COUNTS - 2]))
        return f"{first}, ... or {counts[-1]} ({len(counts)} sizes)"
    return (", ".join(map(str, counts[:-1])) + " or " if len(counts) > 1 else "") + str(counts[-1])


def widen_hint(offerings: Sequence[Offering], ask: Ask, regions: Sequence[str], spot: bool) -> str:
    """What to change when `offer_rows` found nothing: the per-node counts the accelerator
    comes in (as `sky gpus list` shows its quantities), the regions listing it, or `--spot`."""
    where = f" in {', '.join(regions)}" if regions else ""
    if ask.per_node is not None:
        any_count = offer_rows(offerings, ask._replace(per_node=None), regions, spot=spot)
        counts = sorted({r.accelerator_count for r in any_count})
        if counts:
            near = next((c for c in counts if c >= ask.per_node), counts[-1])
            return f"{ask.accelerator} comes {_counts_words(counts)} per node{where}: try {ask.accelerator}:{near}"
    if regions:
        elsewhere = sorted({r.region for r in offer_rows(offerings, ask, (), spot=spot)})
        if elsewhere:
            return f"regions listing it: {listed(elsewhere)}; or drop --region to see every region"
    if spot:
        return "drop --spot to see on-demand prices"
    return "try another accelerator"


def check_regions(regions: Iterable[str], offerings: Sequence[Offering], everywhere: Sequence[Offering] = ()) -> None:
    """Refuse a `--region` no loaded cloud has (naming the closest regions, or the cloud of
    `everywhere`, every cloud's rows, that has it when `--provider` left that cloud out).

    Raises:
        OffersError: `--region NAME: not a region ...; did you mean ...`.
    """
    known = {o.region for o in offerings}
    for region in regions:
        clouds = sorted({o.provider for o in everywhere if o.region == region})
        if region not in known and clouds:
            raise OffersError(
                f"--region {region}: a region of {' and '.join(clouds)}, which --provider leaves out; "
                f"add --provider {clouds[0]} or drop --region {region}"
            )
        if region not in known:
            zone_of = {o.zone: o.region for o in offerings if o.zone != o.region}
            fix = f"write {zone_of[region]} (it is a zone of it)" if region in zone_of else did_you_mean(region, known)
            raise OffersError(f"--region {region}: not a region of the clouds searched; {fix}")
