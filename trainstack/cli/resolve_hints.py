"""What `resolve` adds to a no-match error: offerings left out for their currency that would
have fitted, hardware sold only as a managed platform's pools, and the providers to look in."""

from __future__ import annotations


def left_out_message(catalog) -> str:
    currency, count = sorted(catalog.left_out.items())[0]
    return (
        f"catalog: {count} offerings are listed in {currency} and left out of USD comparisons: "
        f"{catalog.left_out_reason(currency)}"
    )


def left_out_hint(catalog, spec) -> str:
    """`; N offerings listed in CUR that would fit are left out: why` per currency, or "" when
    no left-out offering could have fitted the spec (then the rate is not the problem)."""
    if not catalog.left_out:
        return ""
    from profiles.matching import fitting, unpriced_rows

    counts = fitting(spec, unpriced_rows(catalog.left_out, spec.providers or _all_providers()))
    return "".join(
        f"; {count} {'offering' if count == 1 else 'offerings'} listed in {currency} that would fit "
        f"{'is' if count == 1 else 'are'} left out: {catalog.left_out_reason(currency)}"
        for currency, count in sorted(counts.items())
    )


def platform_hint(catalog, spec) -> str:
    """For a VM workload asking for hardware only a managed platform sells (Ascend 910B on
    ModelArts): which platform, and the `platform:` to set; else ""."""
    if spec.platform != "vm":
        return ""
    asked = {name.lower() for name in spec.accelerators}
    sold = {(o.accelerator, o.provider, o.platform) for o in catalog.platform_rows if o.accelerator.lower() in asked}
    return "".join(
        f"; {acc} is sold only as {provider}/{platform} pools: set `platform: {platform}`"
        for acc, provider, platform in sorted(sold)
    )


def _all_providers() -> tuple[str, ...]:
    from profiles.catalog.loader import PROVIDERS

    return PROVIDERS
