"""What a study shows: the terminal table, and with ``--out DIR`` the report —
``study.json``, CSV files that load straight into pandas (``deals.csv``,
``matches.csv``, ``skill.csv``, ``metrics.csv``) and ``index.html``, one
self-contained page (plots as inline SVG: no file, script or font fetched
from anywhere; each plot also as a PNG under ``figures/``). The plots need
matplotlib (``pip install 'cardcore[study]'``); without it the page holds the
tables and says how to get them."""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cardcore.i18n import N_, _, _n, language
from cardcore.study import say
from cardcore.study.metrics import NO_INTERVAL, Shape

PLOTS_HINT = "pip install 'cardcore[study]'"

LABELS = {
    "seat_win_share": N_("win share, seat"),
    "side_win_share": N_("win share, side"),
    "win_share_from_first": N_("win share, place from the first player"),
    "first_player_advantage": N_("first-player advantage"),
    # i18n: a p-value: how likely shares this unequal would be if every side won as often
    "fairness_p": N_("equal sides: chi-square p"),
    "moves_per_deal": N_("moves per deal"),
    "decisions_per_deal": N_("decisions per deal (>1 move)"),
    "choices_per_decision": N_("legal moves per decision"),
    "deals_per_match": N_("deals per match"),
    "margin": N_("margin (1st − 2nd)"),
    "spread": N_("spread (1st − last)"),
    "lead_changes": N_("lead changes per match"),
    "deal_lead_changes": N_("lead changes per deal (running score)"),
    "comeback_rate": N_("comeback rate"),
    "skill_greedy_vs_random": N_("skill: greedy − random"),
    "skill_search_vs_greedy": N_("skill: search − greedy"),
    "move_kinds": N_("moves of kind"),
}


def _num(x: Any) -> str:
    """A figure in the reader's language (Babel): 0.489, 0,489 in French."""
    return say.num(x)


def _signed(x: Any) -> str:
    return say.signed(x)


def _value(metric: str, x: Any) -> str:
    """A metric's value as shown: a p-value as "< 0.001" below a thousandth."""
    return say.p_value(x) if metric in NO_INTERVAL else _num(x)


def _ci(ci: Any, signed: bool = False) -> str:
    if not ci:
        return ""
    f = _signed if signed else _num
    return f"[{f(ci[0])}{say.list_sep()}{f(ci[1])}]"


def rows_of(metrics: dict[str, Any], said: bool = False) -> Iterable[tuple[str, str, Any, Any]]:
    """(metric, label, value, ci95) per printed line: a list metric one line
    per seat or place, the move kinds one line per kind; ``said``: the labels
    in the language in use (the terminal's table), else in English (the files)."""
    for m, got in metrics.items():
        value, ci = got.get("value", got.get("diff")), got.get("ci95")
        label = _label(m, said)
        if isinstance(value, list):
            for i, v in enumerate(value):
                yield m, f"{label} {i}", v, ci[i] if ci else None
        elif isinstance(value, dict):
            for k, v in value.items():
                yield m, f"{label} {k}", v, ci.get(k) if ci else None
        else:
            yield m, label, value, ci


def _sig_of(got: dict[str, Any]) -> list[bool] | dict[str, bool] | bool:
    sig: list[bool] | dict[str, bool] | bool = got.get("significant", False)
    return sig


def changes_lines(v: dict[str, Any]) -> list[str]:
    """What a variant changes, in words, in the language in use (its
    ``changes``: options, house rules, the cards of its deck)."""
    from cardcore.cards import parse_card
    from cardcore.i18n import card_text
    from cardcore.study.variants import said

    out = []
    for c in v.get("changes", []):
        if c["kind"] == "option":
            about = said(c.get("said")) if c.get("said") else ""
            line = _("{option}={value} instead of {default}").format(
                option=c["name"], value=c["value"], default=c["default"]
            )
            out.append(f"{line} — {about}" if about else line)
        elif c["kind"] == "house_rule":
            out.append(f"+{c['name']}: {said(c.get('said'))}")
        elif c["kind"] == "cards":
            cards = [", ".join(card_text(parse_card(n)) for n in c[k]) or "—" for k in ("out", "in")]
            if c["in"]:
                said_cards = _("a deck of {n} cards instead of {base}: {out} left out, {added} added")
            else:
                said_cards = _("a deck of {n} cards instead of {base}: {out} left out")
            out.append(
                said_cards.format(
                    n=say.count(c["count"][1]), base=say.count(c["count"][0]), out=cards[0], added=cards[1]
                )
            )
    return out


def variant_title(v: dict[str, Any]) -> str:
    spec = [f"{k}={val}" for k, val in v["options"].items()] + [f"+{h}" for h in v["house_rules"]]
    return f"{v['name']}" + (f" ({', '.join(spec)})" if spec else "")


def _label(metric: str, said: bool) -> str:
    label = LABELS.get(metric, metric)
    return _(label) if said and metric in LABELS else label


def header(result: dict[str, Any]) -> str:
    """The study's first line: what was played."""
    return _n(
        "{game}, {n} player, {deals} deals per variant ({bot} at every seat), {skill} search decks "
        "({search}), seed {seed}",
        "{game}, {n} players, {deals} deals per variant ({bot} at every seat), {skill} search decks "
        "({search}), seed {seed}",
        result["players"],
    ).format(
        game=result["game"],
        n=result["players"],
        deals=say.count(result["deals"]),
        bot=result["bot"],
        skill=say.count(result["skill_deals"]),
        search=result["search_bot"],
        seed=result["seed"],
    )


def verdict_lines(result: dict[str, Any]) -> list[str]:
    """The verdicts in the language in use: one sentence per finding that
    stands, or the line saying there is none; then how they were corrected."""
    from cardcore.study.verdicts import text

    sides = result.get("sides") or [[s] for s in range(result["players"])]
    found = [text(f, sides) for f in result.get("verdicts", [])]
    if not found:
        found = [_("No finding stands: no seat, place or difference from the base game beyond chance.")]
    tests = result.get("tests", 0)
    found.append(
        _n(
            "(Of {n} test, corrected together by the Benjamini–Hochberg method: of the findings said, "
            "at most one in twenty is expected to be chance.)",
            "(Of {n} tests, corrected together by the Benjamini–Hochberg method: of the findings said, "
            "at most one in twenty is expected to be chance.)",
            tests,
        ).format(n=say.count(tests))
    )
    return found


def against_line(var: dict[str, Any]) -> str:
    """How a variant is compared with the base game, in words."""
    alike = say.percent(var.get("same_deals", 0))
    if var.get("paired"):
        # i18n: paired: both played on the same decks, so the cards' luck cancels in the difference
        said = _("{variant} — against the base game, deal by deal on the same decks ({alike} of deals alike)")
    else:
        # i18n: when the variant deals other cards, each game's figures are resampled on their own
        said = _(
            "{variant} — against the base game, each on its own deals ({alike} of deals alike: "
            "too few to pair them, so the interval is wider)"
        )
    return said.format(variant=variant_title(var), alike=alike)


def power_line(result: dict[str, Any]) -> str:
    """Before the figures: how small a change the study's size can find."""
    power = result.get("power") or {}
    if not power:
        return ""
    return _(
        "At {deals} deals per variant, a change of {mde} deals in a hundred in a side's share is found "
        "80% of the time (at the 5% level); a smaller one may go unseen. Variants paired by deck find "
        "smaller ones: see each variant's line."
    ).format(deals=say.count(power["deals"]), mde=say.num(100 * power["share_mde"], 1))


def variant_power_line(result: dict[str, Any], var: dict[str, Any]) -> str:
    """A variant's power from the variance seen: the smallest change in the
    first side's share its comparison finds 80% of the time, and how many
    deals the change seen would need."""
    from cardcore.study.metrics import deals_needed

    d = var.get("vs_base", {}).get("seat_win_share")
    if not d or not d.get("mde") or d["mde"][0] is None:
        return ""
    mde, diff = d["mde"][0], d["diff"][0]
    if not mde:  # every deal played alike: nothing to find
        return ""
    line = _(
        "at this size it finds a change of {mde} deals in a hundred in seat 0's share 80% of the time"
    ).format(mde=say.num(100 * mde, 1))
    need = deals_needed(result["deals"], diff, mde)
    if need is not None and result["deals"] < need <= 100 * result["deals"]:  # beyond: too small to chase
        line += _("; the change seen ({diff}) would need about {need} deals").format(
            diff=say.signed(100 * diff, 1), need=say.count(need)
        )
    return line


def precision_line(result: dict[str, Any]) -> str:
    """With --until-precision: the widest headline interval reached, and at how many deals."""
    got = result["precision"]
    if got["reached"]:
        said = _(
            "--until-precision {asked}: every win share's interval is at most {widest} wide at {deals} deals"
        )
    else:
        said = _(
            "--until-precision {asked}: not reached; the widest win share's interval is {widest} wide "
            "at {deals} deals (the most this study plays)"
        )
    return said.format(
        asked=say.num(got["asked"]), widest=say.num(got["widest"]), deals=say.count(result["deals"])
    )


def few_note(var: dict[str, Any], metric: str) -> str:
    """A warning beside a figure whose sample is too small to trust its interval."""
    n = var.get("few", {}).get(metric)
    # i18n: beside a figure: its interval rests on too few matches, deals or decks ({n} of them)
    return "" if n is None else " " + _("(too few: {n})").format(n=say.count(n))


def spent_line(result: dict[str, Any]) -> str:
    return _("{wall} s wall, {cpu} s CPU").format(
        wall=say.num(result["seconds"], 1), cpu=say.num(result["cpu_seconds"], 1)
    )


def table_text(result: dict[str, Any]) -> str:
    """The terminal table (in the language in use): the verdicts first, the
    base game's figures with their intervals, then each variant's figures and
    its difference from the base (``*``: the 95% interval of the difference
    excludes zero, before any correction)."""
    out = [header(result)]
    if power_line(result):
        out.append(power_line(result))
    if result.get("precision"):
        out.append(precision_line(result))
    out.append("")
    # i18n: the heading of the findings in plain words
    out.append(_("Verdicts"))
    out += ["  " + line for line in verdict_lines(result)]
    base = result["variants"][0]
    out.append(f"\n{variant_title(base)}")
    for m, label, v, ci in rows_of(base["metrics"], said=True):
        out.append(f"  {label:<42} {_value(m, v):>9}  {_ci(ci)}{few_note(base, m)}")
    for var in result["variants"][1:]:
        out.append("\n" + against_line(var))
        out += ["  " + line for line in changes_lines(var)]
        if variant_power_line(result, var):
            out.append("  " + variant_power_line(result, var))
        vs = var.get("vs_base", {})
        for m, label, v, _ci_unused in rows_of(var["metrics"], said=True):
            d = vs.get(m)
            line = f"  {label:<42} {_value(m, v):>9}"
            if d is not None and d.get("diff") is not None:
                key = label[len(_label(m, True)) + 1 :]
                diff, dci, sig = _pick(d, key)
                mark = " *" if sig else ""
                line += f"  {_signed(diff):>9} {_ci(dci, signed=True)}{mark}"
            out.append(line + few_note(var, m))
    if "seconds" in result:
        out.append("\n" + spent_line(result))
    return "\n".join(out)


def _pick(d: dict[str, Any], key: str) -> tuple[Any, Any, bool]:
    """One line's difference, interval and mark out of a metric's ``vs_base``."""
    diff, ci, sig = d.get("diff"), d.get("ci95"), d.get("significant", False)
    if isinstance(diff, list):
        i = int(key)
        return diff[i], ci[i] if ci else None, bool(sig[i]) if isinstance(sig, list) else False
    if isinstance(diff, dict):
        return (
            diff.get(key),
            ci.get(key) if ci else None,
            bool(sig.get(key)) if isinstance(sig, dict) else False,
        )
    return diff, ci, bool(sig)


# ---- files ------------------------------------------------------------------------
def _write_csv(path: Path, header: list[str], rows: Iterable[list[Any]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def write_csvs(
    out: Path,
    result: dict[str, Any],
    shape: Shape,
    main: dict[str, list[dict[str, Any]]],
    greedy: dict[str, list[dict[str, Any]]],
    search: dict[str, list[dict[str, Any]]],
) -> None:
    nsides = len(shape.sides)
    deal_rows = []
    match_rows = []
    for name, records in main.items():
        for r in records:
            for i, d in enumerate(r["deals"]):
                deal_rows.append(
                    [
                        name,
                        r["k"],
                        i + 1,
                        d["dealer"],
                        d["first"],
                        *d["points"],
                        d["moves"],
                        d["decisions"],
                        d["choices"],
                        "" if d.get("leads") is None else d["leads"],
                        json.dumps(d["kinds"], sort_keys=True),
                    ]
                )
            totals = [sum(d["points"][s] for d in r["deals"]) for s in range(nsides)]
            match_rows.append(
                [name, r["k"], len(r["deals"]), int(r["over"]), *totals, " ".join(map(str, r["winners"]))]
            )
    sides = [f"points_{s}" for s in range(nsides)]
    _write_csv(
        out / "deals.csv",
        [
            "variant",
            "match",
            "deal",
            "dealer",
            "first",
            *sides,
            "moves",
            "decisions",
            "choices",
            "leads",
            "kinds",
        ],
        deal_rows,
    )
    _write_csv(out / "matches.csv", ["variant", "match", "deals", "over", *sides, "winners"], match_rows)
    skill_rows = []
    for which, found in (("greedy_vs_random", greedy), ("search_vs_greedy", search)):
        for name, records in found.items():
            for r in records:
                m = r["margins"]
                skill_rows.append([name, which, r["k"], sum(m) / len(m) if m else ""])
    _write_csv(out / "skill.csv", ["variant", "pairing", "deck", "margin"], skill_rows)
    metric_rows = []
    for v in result["variants"]:
        vs = v.get("vs_base", {})
        for m, label, value, ci in rows_of(v["metrics"]):
            key = label[len(LABELS.get(m, m)) + 1 :]
            diff, dci, sig = _pick(vs[m], key) if m in vs else (None, None, False)
            metric_rows.append(
                [
                    v["name"],
                    m,
                    key,
                    value,
                    *(ci or ["", ""]),
                    "" if diff is None else diff,
                    *(dci or ["", ""]),
                    int(sig) if m in vs else "",
                ]
            )
    _write_csv(
        out / "metrics.csv",
        [
            "variant",
            "metric",
            "item",
            "value",
            "ci_low",
            "ci_high",
            "diff",
            "diff_low",
            "diff_high",
            "significant",
        ],
        metric_rows,
    )


def write_report(
    out: Path,
    result: dict[str, Any],
    shape: Shape,
    main: dict[str, list[dict[str, Any]]],
    greedy: dict[str, list[dict[str, Any]]],
    search: dict[str, list[dict[str, Any]]],
    domain: str = "cardcore",
) -> Path:
    """``study.json``, the CSV files and ``index.html`` under ``out``; returns
    the page's path. The page in the language in use (``domain``: the game's
    catalog, which names its kinds of move), the files in English."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "study.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    write_csvs(out, result, shape, main, greedy, search)
    from cardcore.study.plots import figures

    page = render_page(result, figures(result, shape, main, greedy, png_dir=out / "figures"), domain)
    path = out / "index.html"
    path.write_text(page, encoding="utf-8")
    return path


def place_name(r: int, dealer: int | None) -> str:
    """A place in the turn order, in words (1: the first to play)."""
    if r == 0:
        return _("first to play")
    if r == dealer:
        # i18n: {place} counts from 1 (the first to play is 1)
        return _("dealer (place {place})").format(place=r + 1)
    return _("place {place}").format(place=r + 1)


def places_table(result: dict[str, Any]) -> str:
    """Each variant's win share by place in the turn order, with intervals,
    the chi-square over places (its p-value) and the place with the edge."""
    e = html.escape
    rows = []
    for v in result["variants"]:
        pl = v.get("places")
        if not pl:
            continue
        cells = [
            f"{say.percent(x, 1)}<br><span class=note>{_ci_percent(ci)}</span>"
            for x, ci in zip(pl["share"], pl["ci95"] or [None] * len(pl["share"]), strict=True)
        ]
        edge = "—" if pl.get("edge") is None else place_name(pl["edge"], pl.get("dealer"))
        row = [e(v["name"]), *cells, e(say.p_value(pl["p"])), e(edge)]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>")
    if not rows:
        return ""
    dealer = result["variants"][0].get("places", {}).get("dealer")
    heads = [_("variant")] + [place_name(r, dealer) for r in range(result["players"])]
    # i18n: the p-value of the chi-square test that every place in the turn order wins as often
    heads += [_("p (places equal)"), _("edge")]
    # i18n: the heading of the table of win shares by place in the turn order
    title = _("Win share by place in the turn order")
    head = "".join(f"<th>{e(h)}</th>" for h in heads)
    return f"<h2>{e(title)}</h2><table><tr>{head}</tr>" + "".join(rows) + "</table>"


def _ci_percent(ci: Any) -> str:
    return f"[{say.percent(ci[0], 1)}{say.list_sep()}{say.percent(ci[1], 1)}]" if ci else ""


CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}
table{border-collapse:collapse;font-size:.9em;margin:.5em 0}
td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:right}
td:first-child,th:first-child{text-align:left}
.sig{font-weight:bold;color:#a30}.note{color:#555;font-size:.9em}
figure{margin:1em 0}figure svg{max-width:100%;height:auto}
"""


def render_page(result: dict[str, Any], figs: list[tuple[str, str]] | str, domain: str = "cardcore") -> str:
    """The report's HTML, in the language in use: a summary, the plots
    (``figs``: (title, inline SVG) pairs, their titles already said, or the
    English note saying why there are none) and every figure's table (the
    kinds of move in the words of the game's catalog, ``domain``)."""
    from cardcore.render import label as say_key

    e = html.escape
    title = _n("{game} study, {n} player", "{game} study, {n} players", result["players"]).format(
        game=result["game"], n=result["players"]
    )
    # i18n: the report's first paragraph; {sig}…{end} wrap the word shown in bold (keep both)
    intro = _(
        "{deals} deals per variant ({bot} at every seat), greedy against random on as many duplicate "
        "decks, {search} against greedy on {skill_deals} decks; seed {seed}. Every variant is dealt "
        "the same seeded decks. Intervals are 95% bootstrap intervals; a difference in {sig}bold{end} "
        "excludes zero. Definitions: {doc} of cardcore."
    )
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{e(language())}"><head><meta charset="utf-8">',
        f"<title>{e(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{e(title)}</h1>",
        "<p>"
        + e(intro).format(
            deals=say.count(result["deals"]),
            bot=e(result["bot"]),
            search=e(result["search_bot"]),
            skill_deals=say.count(result["skill_deals"]),
            seed=result["seed"],
            sig="<span class=sig>",
            end="</span>",
            doc="docs/STUDY.md",
        )
        + "</p>",
    ]
    if "seconds" in result:
        parts.append(f"<p class=note>{e(spent_line(result))}.</p>")
    if power_line(result):
        parts.append(f"<p class=note>{e(power_line(result))}</p>")
    if result.get("precision"):
        parts.append(f"<p class=note>{e(precision_line(result))}</p>")
    # i18n: the heading of the findings in plain words
    parts.append(f"<h2>{e(_('Verdicts'))}</h2>")
    lines = verdict_lines(result)
    parts.append("<ul>" + "".join(f"<li>{e(line)}</li>" for line in lines[:-1]) + "</ul>")
    parts.append(f"<p class=note>{e(lines[-1])}</p>")
    parts.append(places_table(result))
    specs = "".join(
        f"<li>{e(variant_title(v))}"
        + "".join(
            f"<br><span class=note>{e(line)}</span>"
            for line in [*changes_lines(v), variant_power_line(result, v)]
            if line
        )
        + "</li>"
        for v in result["variants"]
    )
    # i18n: the heading of the list of the study's variants (the base game and each one measured)
    variants = _("Variants")
    parts.append(f"<h2>{e(variants)}</h2><ul>{specs}</ul>")
    if isinstance(figs, str):
        parts.append(f"<p class=note>{e(_(figs).format(command=PLOTS_HINT))}</p>")
    else:
        for fig_title, svg in figs:
            parts.append(f"<h2>{e(fig_title)}</h2><figure>{svg}</figure>")
    # i18n: the heading of the report's table of every figure
    every = _("Every figure")
    parts.append(f"<h2>{e(every)}</h2>")
    names = [v["name"] for v in result["variants"]]
    # i18n: the heading of the report table's first column (the metrics' names)
    head = "<th>" + e(_("metric")) + "</th>"
    parts.append("<table><tr>" + head + "".join(f"<th>{e(n)}</th>" for n in names) + "</tr>")
    base = result["variants"][0]
    for m, english, value, ci in rows_of(base["metrics"]):
        key = english[len(LABELS.get(m, m)) + 1 :]
        item = say_key(key, domain, "move kind") if m == "move_kinds" else key
        label = f"{_label(m, True)} {item}" if key else _label(m, True)
        cells = [f"{_value(m, value)}<br><span class=note>{_ci(ci)}{e(few_note(base, m))}</span>"]
        for v in result["variants"][1:]:
            got = v["metrics"].get(m, {})
            vv = _pick({"diff": got.get("value"), "ci95": got.get("ci95")}, key)[0] if got else None
            d = v.get("vs_base", {}).get(m)
            if d is None or d.get("diff") is None:
                cells.append(_value(m, vv))
                continue
            diff, dci, sig = _pick(d, key)
            cls = " class=sig" if sig else ""
            cells.append(
                f"{_num(vv)}<br><span{cls}>{_signed(diff)} {_ci(dci, signed=True)}</span>"
                f"<span class=note>{e(few_note(v, m))}</span>"
            )
        parts.append(f"<tr><td>{e(label)}</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    parts.append("</table>")
    files = e(_("Files beside this page: {study} (the {option} output), {tables} ({reader}).")).format(
        study="study.json",
        option="<code>--json</code>",
        tables="metrics.csv, deals.csv, matches.csv, skill.csv",
        reader="<code>pandas.read_csv</code>",
    )
    parts.append(f"<p class=note>{files}</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
