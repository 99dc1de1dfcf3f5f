"""Render a review (`trainstack.review.report.review_json`) as a compact pull-request comment."""

from __future__ import annotations

from typing import Any

MARKER = "<!-- trainstack-plan:{stack} -->"  # lets CI find and update its own comment
ICONS = {"create": "🟢 create", "update": "✏️ update", "replace": "🔁 replace", "delete": "🔴 delete"}
ORDER = ("replace", "delete", "create", "update")
MAX_KEYS = 6


def review_markdown(review: dict[str, Any]) -> str:
    """The whole comment: summary line, changes, cost before -> after, policy results."""
    parts = [MARKER.format(stack=review["stack"]), _title(review), "", _summary_line(review), ""]
    if review["data_loss"]:
        names = ", ".join(f"`{n}`" for n in review["data_loss"])
        parts += [f"> ⚠️ **Data loss risk:** {names} would be replaced or deleted.", ""]
    refused = ", ".join(f"`{c['name']}`" for c in review["changes"] if c.get("refused"))
    if refused:
        parts += [f"> ⛔ **The cloud refuses** the change to {refused}, so `pulumi up` fails there (see its row).", ""]
    kept = [
        (what, review.get(key)) for what, key in (("purchase option", "purchase"), ("instance type", "instance_type"))
    ]
    for what, model in kept:
        parts += _kept_model_line(what, model, review.get("nodes"), review["cost"]["after"])
    parts += [] if any(_keeps_purchase(model) for _, model in kept) else _nodes_line(review.get("nodes"))
    parts += [f"> ℹ️ **{key.capitalize()}:** {line}" + "\n" for key, line in (review.get("job") or {}).items()]
    parts += [f"> ℹ️ {review['runtime']}", ""] if review.get("runtime") else []
    parts += _left_running_line(review.get("left_running"))
    parts += _kept_as_before_line(review.get("kept_as_before"))
    parts += [*_changes(review["changes"]), "", *_cost(review), "", *_policies(review["policies"])]
    return "\n".join(parts).rstrip() + "\n"


def _title(review: dict[str, Any]) -> str:
    if review["against"]:
        against = f" against `{review['against']}`"
    elif review.get("committed"):
        against = (
            " (compared with nothing: every resource shows as new; pass `--against origin/main` to review this change)"
        )
    else:
        against = " (new stack)"
    return f"### trainstack plan: `{review['stack']}`{against}"


def _summary_line(review: dict[str, Any]) -> str:
    counts = review["summary"]
    actions = " · ".join(f"{counts[a]} to {a}" for a in ("create", "update", "replace", "delete"))
    cost = review["cost"]
    before = cost["before"]
    results = review["policies"]["results"]
    statuses = [_status(r) for r in results]
    passed = statuses.count("passed")
    na = f", {statuses.count('n/a')} n/a" if "n/a" in statuses else ""
    icon = "❌" if "failed" in statuses else "✅"
    after = cost["after"]
    if cost["before"] is None:  # a new stack, or nothing compared: no before
        new = "" if review.get("committed") else "new: "
        prices = (
            f"**{new}price unknown**"  # once, not per hour and per job
            if after["usd_per_hour"] is None
            else f"**{new}{_usd(after['usd_per_hour'])}/hour** · **{_usd(after['usd_per_job'])}/job**"
        )
    elif cost.get("delta_note"):  # the two figures are not comparable: no arrow between them
        prices = f"**{_usd(before['usd_per_hour'])}/hour → price unknown** (see Cost)"
    else:
        prices = (
            f"**{_usd(before['usd_per_hour'])} → {_usd(after['usd_per_hour'])}/hour** · "
            f"**{_usd(before['usd_per_job'])} → {_usd(after['usd_per_job'])}/job**"
        )
    return f"**{actions}** ({counts['same']} unchanged) · {prices} · policies {icon} {passed}/{len(results)} passed{na}"


def _usd(value: float | None) -> str:
    return "price unknown" if value is None else f"${value:,.2f}"


def _number(value: float | None) -> str:
    return "unknown" if value is None else f"{value:,.2f}"


def _changes(changes: list[dict[str, Any]]) -> list[str]:
    if not changes:
        return ["No resource changes."]
    rows = sorted(changes, key=lambda c: (ORDER.index(c["action"]), c["type"], c["name"]))
    lines = [
        f"<details open><summary>Changes ({len(rows)})</summary>",
        "",
        "| action | type | name | changed inputs |",
        "|---|---|---|---|",
    ]
    for change in rows:
        first = " (the old one is deleted first)" if change.get("delete_first") else ""
        lines.append(
            f"| {ICONS[change['action']]}{first} | `{change['type']}` | `{change['name']}` | {_keys(change)} |"
        )
    return [*lines, "", "</details>"]


def _nodes_line(nodes: dict[str, list[str]] | None) -> list[str]:
    """The lines on running nodes when a node group or its template changes or goes."""
    if not nodes or not (nodes["replaced"] or nodes["kept"] or nodes.get("deleted")):
        return []
    lines = []
    if nodes["replaced"]:
        names = ", ".join(f"`{n}`" for n in nodes["replaced"])
        lines += [f"> ⚠️ **Running nodes are replaced** by the change to {names} (see its row).", ""]
    if nodes.get("deleted"):
        names = ", ".join(f"`{n}`" for n in nodes["deleted"])
        lines += [f"> ⚠️ **Running nodes are deleted** with {names}, and whatever runs on them.", ""]
    if nodes.get("removed"):
        names = ", ".join(f"`{n}`" for n in nodes["removed"])
        lines += [
            f"> ⚠️ **Running nodes are removed**: {names} shrinks and terminates running nodes and whatever runs "
            "on them (see its row); none is replaced.",
            "",
        ]
    if lines:
        return lines
    names = ", ".join(f"`{n}`" for n in nodes["kept"])
    return [f"> ✅ **No running node is replaced**: {names} change without touching running nodes.", ""]


def _left_running_line(left: dict[str, Any] | None) -> list[str]:
    """The warning for TPU slices the stack stops requesting: they keep running and billing."""
    if not left:
        return []
    names = ", ".join(f"`{i}`" for i in left["ids"])
    many = len(left["ids"]) > 1
    count = f"{len(left['ids'])} TPU slice{'s' if many else ''}"
    are, them, they = ("are", "them", "they keep") if many else ("is", "it", "it keeps")
    return [
        f"> ⚠️ **{count} left running:** {names} {are} no longer requested in {left['zone']}, but the controller "
        f"never deletes a running slice and `pulumi up` does not hold {them}: {they} running and billing, and "
        f"{are} not in the after price, until you delete each with `gcloud compute tpus queued-resources delete ID "
        f"--zone {left['zone']} --force` (docs/self-healing.md).",
        "",
    ]


def _kept_as_before_line(kept: dict[str, Any] | None) -> list[str]:
    """The warning for TPU slices whose request changes while they run: the controller keeps them."""
    if not kept:
        return []
    names = ", ".join(f"`{i}`" for i in kept["ids"])
    many = len(kept["ids"]) > 1
    count, keep, are = (f"{len(kept['ids'])} TPU slices", "keep", "are") if many else ("1 TPU slice", "keeps", "is")
    return [
        f"> ⚠️ **{count} {keep} running as {kept['before']}:** {names} {are} requested as {kept['after']} from now "
        "on, but the controller keeps a running queued resource as it is: each becomes "
        f"{kept['after']} only when a preemption or failure makes the controller re-create it, or after you delete "
        f"it with `gcloud compute tpus queued-resources delete ID --zone {kept['zone']} --force` (the controller "
        f"then requests it anew). The after price is for {kept['after']}.",
        "",
    ]


def _keeps_purchase(purchase: dict[str, Any] | None) -> bool:
    return bool(purchase and purchase["running_nodes_keep_it"])


def _kept_model_line(
    what: str, model: dict[str, Any] | None, nodes: dict[str, list[str]] | None, after: dict
) -> list[str]:
    """The warning for a purchase-option or instance-type change that reaches no running node:
    they stay as they are until the group replaces them, and the after price assumes they all
    changed."""
    if not _keeps_purchase(model) or not nodes:
        return []
    assert model is not None
    old, new = model["before"], model["after"]
    names = ", ".join(f"`{n}`" for n in nodes["kept"])
    price = f" ({_usd(after['usd_per_hour'])}/hour)" if after.get("usd_per_hour") is not None else ""
    return [
        f"> ⚠️ **Running nodes stay {old}**: the {what} changes from {old} to {new}, but the change "
        f"to {names} replaces no running node (see its row), so only nodes created from now on are {new}. "
        f"The after price{price} is what every node {new} costs; until the running nodes are replaced "
        f"they stay {old} and are billed as {old}.",
        "",
    ]


def _keys(change: dict[str, Any]) -> str:
    replacing = set(change["replace_keys"])
    keys = sorted(change["changed"], key=lambda k: (k not in replacing, k))
    shown = [f"`{k}` (replaces)" if k in replacing else f"`{k}`" for k in keys[:MAX_KEYS]]
    if len(keys) > MAX_KEYS:
        shown.append(f"+{len(keys) - MAX_KEYS} more")
    if change["action"] == "delete" and change["protect"]:
        shown.append("protected: `pulumi up` will refuse")
    text = ", ".join(shown)
    if change.get("nodes"):
        text += f"<br>nodes: {_cell(change['nodes'])}"
    if change.get("refused"):
        text += ("<br>" if text else "") + f"⛔ refused: {_cell(change['refused'])}"
    return text


def _cost(review: dict[str, Any]) -> list[str]:
    cost = review["cost"]
    before, after = cost["before"], cost["after"]
    hours = f" ({after['hours']:,.1f} h)" if after["hours"] else ""
    lines = ["#### Cost", "", "| | before | after | change |", "|---|---:|---:|---:|"]
    for label, key, delta in (
        ("USD/hour", "usd_per_hour", cost["delta_usd_per_hour"]),
        (f"USD/job{hours}", "usd_per_job", cost["delta_usd_per_job"]),
    ):
        old = _number(before[key]) if before else "–"
        change = "–" if delta is None else f"{delta:+,.2f}"
        lines.append(f"| {label} | {old} | {_number(after[key])} | {change} |")
    if cost.get("delta_note"):
        lines += ["", f"⚠️ Change unknown: {cost['delta_note']}."]
    if after.get("usd_storage") is not None:
        lines += ["", f"USD/hour and USD/job include ${after['usd_storage']:,.2f} of file-system storage."]
    if after.get("usd_requests") is not None:
        lines += ["", f"USD/job includes ${after['usd_requests']:,.2f} of bucket requests."]
    if after.get("price_note"):
        lines += ["", f"⚠️ Price: {after['price_note']}."]
    lines += [f"⚠️ Caveat: {caveat}." for caveat in after.get("price_caveats", [])]
    lines += [f"⚠️ Size: {warning.removeprefix('warning: ')}." for warning in review.get("warnings", [])]
    if after.get("deadline_note"):
        lines += ["", f"❌ Deadline: {after['deadline_note']}."]
    if review["budget_usd_per_hour"] is not None:
        lines += ["", f"Budget: ${review['budget_usd_per_hour']:,.2f}/hour (`trainstack:max_usd_per_hour`)."]
    return lines


def _policies(policies: dict[str, Any]) -> list[str]:
    """One row per passed rule, per violation and per n/a item (what a rule could not check)."""
    lines = ["#### Policies", "", "| | rule | result |", "|---|---|---|"]
    for result in policies["results"]:
        rule = f"`{result['rule']}`"
        if _status(result) == "passed":
            partly = " (what it can check; the rest is n/a below)" if result.get("not_applicable") else ""
            lines.append(f"| ✅ | {rule} | {_cell(result['description'])}{partly} |")
        for violation in result["violations"]:
            lines.append(f"| ❌ | {rule} | {_where(violation)}{_cell(violation['message'])} |")
        for item in result.get("not_applicable") or []:
            lines.append(f"| ➖ n/a | {rule} | {_where(item)}{_cell(item['message'])} |")
    return lines


def _status(result: dict[str, Any]) -> str:
    """`passed`, `failed` or `n/a`; a review without `status` knows only passed and failed."""
    return result.get("status") or ("passed" if result["passed"] else "failed")


def _where(item: dict[str, Any]) -> str:
    return f"`{item['resource']}`: " if item.get("resource") else ""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
