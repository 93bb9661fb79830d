"""The study's findings in plain words: every test the study makes (each
variant's seats and places by chi-square, each headline difference from the
base game by its bootstrap), corrected together for multiple comparisons by
the Benjamini–Hochberg method (the false discovery rate at 5%: of the
findings said, at most one in twenty expected false), and one sentence
per finding that stands (a corrected p-value below 0.05), in the language
in use. ``findings`` gathers the tests,
``verdicts`` keeps the ones that stand (their ``text`` in English: the JSON's
data is the same in every language), ``say`` writes one in the reader's
language (the terminal table, the report)."""

from __future__ import annotations

from typing import Any

from cardcore.i18n import SOURCE, _, using
from cardcore.study import say as fmt
from cardcore.study.metrics import benjamini_hochberg

LEVEL = 0.05
CORRECTION = "benjamini-hochberg"
# the differences a verdict may name besides the shares (the first player's edge is place 0's share;
# the kinds of move describe, they are not tested: a variant changes many at once)
HEADLINE = (
    "moves_per_deal",
    "decisions_per_deal",
    "choices_per_decision",
    "deals_per_match",
    "margin",
    "spread",
    "lead_changes",
    "deal_lead_changes",
    "comeback_rate",
    "skill_greedy_vs_random",
    "skill_search_vs_greedy",
)
SHARES = ("seat_win_share", "side_win_share", "win_share_from_first")


def _share_metric(sides: list[list[int]]) -> str:
    return "seat_win_share" if all(len(s) == 1 for s in sides) else "side_win_share"


def _items(count: int, diffs: list[Any]) -> list[int]:
    """The items of a share to test: each one, or with two only the one that
    rose (the other fell as much: one finding, not two)."""
    if count == 2:
        return [0 if (diffs[0] or 0) >= 0 else 1]
    return list(range(count))


def findings(result: dict[str, Any], sides: list[list[int]]) -> list[dict[str, Any]]:
    """Every test of the study, with its p-value (unrounded) and its
    corrected one (``p_adjusted``: Benjamini–Hochberg over all of them at once)."""
    out: list[dict[str, Any]] = []
    share = _share_metric(sides)
    nsides = len(sides)
    for v in result["variants"]:
        m = v["metrics"]
        few = set(v.get("few", {}))  # a sample too small to trust: no verdict on it
        if "seat_win_share" in few:  # the deals themselves are too few: nothing stands on them
            continue
        places = v.get("places") or {}
        common = {"variant": v["name"], "sides": sides, "dealer_place": places.get("dealer")}
        fair = 1 / nsides
        got = m.get(share, {})
        p = m.get("fairness_p", {}).get("value")
        if p is not None and got.get("value"):
            vals = got["value"][:nsides] if share == "side_win_share" else got["value"]
            top = max(range(len(vals)), key=lambda i: vals[i])
            ci = got["ci95"][top] if got.get("ci95") else None
            out.append(
                {"kind": "seats", "metric": share, "item": top, "value": vals[top], "ci95": ci}
                | {"fair": fair, "p": p}
                | common
            )
        if places.get("p") is not None:
            tested = places["tested"]
            top = max(range(tested), key=lambda i: places["share"][i])
            ci = places["ci95"][top] if places.get("ci95") else None
            out.append(
                {"kind": "places", "metric": "win_share_from_first", "item": top}
                | {"value": places["share"][top], "ci95": ci, "fair": fair, "p": places["p"]}
                | common
            )
        vs = v.get("vs_base")
        if not vs:
            continue
        for metric, count in ((share, nsides), ("win_share_from_first", nsides)):
            d = vs.get(metric)
            if not d or d.get("p") is None:
                continue
            for i in _items(count, d["diff"]):
                if d["p"][i] is None:
                    continue
                out.append(
                    {"kind": "difference", "metric": metric, "item": i, "value": m[metric]["value"][i]}
                    | {"diff": d["diff"][i], "ci95": d["ci95"][i], "p": d["p"][i]}
                    | common
                )
        base_few = set(result["variants"][0].get("few", {}))
        for metric in HEADLINE:
            if metric == "spread" and nsides == 2:  # the margin itself
                continue
            if metric in few or metric in base_few:
                continue
            d = vs.get(metric)
            if not d or d.get("p") is None or d.get("diff") is None:
                continue
            base = result["variants"][0]["metrics"].get(metric, {}).get("value")
            out.append(
                {"kind": "difference", "metric": metric, "item": None, "value": m[metric]["value"]}
                | {"base": base, "diff": d["diff"], "ci95": d["ci95"], "p": d["p"]}
                | common
            )
    for f, adjusted in zip(out, benjamini_hochberg([f["p"] for f in out]), strict=True):
        f["p_adjusted"] = adjusted
    return out


def verdicts(result: dict[str, Any], sides: list[list[int]]) -> list[dict[str, Any]]:
    """The findings that stand (corrected p below 0.05), each with its
    ``text`` in English; the variants' ``places`` get their ``edge`` (the
    place a standing chi-square over places names, else null)."""
    out = []
    every = findings(result, sides)
    result["tests"] = len(every)
    for f in every:
        if f["p_adjusted"] >= LEVEL:
            continue
        del f["sides"]
        with using(SOURCE):
            f["text"] = text(f, sides)
        out.append(f)
        if f["kind"] == "places":
            v = next(v for v in result["variants"] if v["name"] == f["variant"])
            v["places"]["edge"] = f["item"]
    return out


def _who(f: dict[str, Any], sides: list[list[int]]) -> str:
    i = f["item"]
    if f["metric"] == "win_share_from_first":
        if i == 0:
            return _("the first to play")
        if i == f.get("dealer_place"):
            # i18n: {place} counts from 1 (the first to play is 1)
            return _("the dealer (place {place} in the turn order)").format(place=i + 1)
        return _("the player in place {place} of the turn order").format(place=i + 1)
    if f["metric"] == "side_win_share":
        seats = ", ".join(str(s) for s in sides[i])
        return _("side {side} (seats {seats})").format(side=i, seats=seats)
    return _("seat {seat}").format(seat=i)


def _short(f: dict[str, Any], sides: list[list[int]]) -> str:
    """The place named again in the same sentence: the dealer as such."""
    if f["metric"] == "win_share_from_first" and f["item"] and f["item"] == f.get("dealer_place"):
        return _("the dealer")
    return _who(f, sides)


def _variant(name: str) -> str:
    # i18n: said in the verdicts after "In" ("In the base game, the dealer wins …"): the form that fits there
    return _("the base game") if name == "base" else name


def _hundred(x: float) -> str:
    return fmt.num(100 * x, 1)


def text(f: dict[str, Any], sides: list[list[int]]) -> str:
    """One finding in plain words, in the language in use."""
    from cardcore.study.report import _label

    who = _who(f, sides) if f["item"] is not None else ""
    ci = f.get("ci95") or [None, None]
    p = fmt.p_value(f["p_adjusted"])
    p = p if p.startswith("<") else "= " + p
    if f["kind"] in ("seats", "places"):
        lo, hi = (_hundred(ci[0]), _hundred(ci[1])) if ci[0] is not None else ("—", "—")
        args = {"variant": _variant(f["variant"]), "who": who, "share": _hundred(f["value"])}
        args |= {"lo": lo, "hi": hi, "fair": _hundred(f["fair"]), "p": p, "short": _short(f, sides)}
        if f["kind"] == "seats":
            return _(
                "In {variant}, {who} wins {share} deals in a hundred (95%: {lo} to {hi}) where equal "
                "seats would win {fair} — the seats are not equal (chi-square over the sides, "
                "corrected p {p})."
            ).format(**args)
        return _(
            "In {variant}, {who} wins {share} deals in a hundred (95%: {lo} to {hi}) where an order of "
            "play that did not matter would give {fair} — the order of play favours {short} "
            "(chi-square over the places, corrected p {p})."
        ).format(**args)
    d = f["diff"]
    if f["metric"] in SHARES:
        mag, lo, hi = abs(d), ci[0], ci[1]
        if d < 0:
            lo, hi = -hi, -lo
        args = {"variant": f["variant"], "who": who, "diff": _hundred(mag), "short": _short(f, sides)}
        args |= {"lo": _hundred(lo), "hi": _hundred(hi), "p": p}
        if d >= 0:
            return _(
                "With {variant}, {who} wins {diff} more deals in a hundred (95%: {lo} to {hi}) — "
                "this variant favours {short} (corrected p {p})."
            ).format(**args)
        return _(
            "With {variant}, {who} wins {diff} fewer deals in a hundred (95%: {lo} to {hi}) — "
            "this variant works against {short} (corrected p {p})."
        ).format(**args)
    return _(
        "With {variant}, {metric} goes from {base} to {value} ({diff}; 95%: {lo} to {hi}; corrected p {p})."
    ).format(
        variant=f["variant"],
        metric=_label(f["metric"], True),
        base=fmt.num(f.get("base")),
        value=fmt.num(f["value"]),
        diff=fmt.signed(d),
        lo=fmt.signed(ci[0]),
        hi=fmt.signed(ci[1]),
        p=p,
    )
