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
from cardcore.study.metrics import Shape

PLOTS_HINT = "pip install 'cardcore[study]'"

LABELS = {
    "seat_win_share": N_("win share, seat"),
    "side_win_share": N_("win share, side"),
    "win_share_from_first": N_("win share, place from the first player"),
    "first_player_advantage": N_("first-player advantage"),
    "fairness_p": N_("fairness p (equal shares)"),
    "moves_per_deal": N_("moves per deal"),
    "decisions_per_deal": N_("decisions per deal (>1 move)"),
    "choices_per_decision": N_("legal moves per decision"),
    "deals_per_match": N_("deals per match"),
    "margin": N_("margin (1st − 2nd)"),
    "spread": N_("spread (1st − last)"),
    "lead_changes": N_("lead changes per match"),
    "deal_lead_changes": N_("lead changes per deal (standing)"),
    "comeback_rate": N_("comeback rate"),
    "skill_greedy_vs_random": N_("skill: greedy − random"),
    "skill_search_vs_greedy": N_("skill: search − greedy"),
    "move_kinds": N_("moves of kind"),
}


def _num(x: Any) -> str:
    if x is None:
        return "—"
    if isinstance(x, bool):
        return str(x)
    ax = abs(x)
    if 0 < ax < 0.001:
        return f"{x:.1e}"  # a shift too small for three decimals, yet there
    return f"{x:.3f}" if ax < 10 else f"{x:.2f}" if ax < 1000 else f"{x:,.0f}"


def _signed(x: Any) -> str:
    if x is None:
        return "—"
    s = _num(x)
    return s if s.startswith("-") else "+" + s


def _ci(ci: Any, signed: bool = False) -> str:
    if not ci:
        return ""
    f = _signed if signed else _num
    return f"[{f(ci[0])}, {f(ci[1])}]"


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


def variant_title(v: dict[str, Any]) -> str:
    spec = [f"{k}={val}" for k, val in v["options"].items()] + [f"+{h}" for h in v["house_rules"]]
    return f"{v['name']}" + (f" ({', '.join(spec)})" if spec else "")


def _label(metric: str, said: bool) -> str:
    label = LABELS.get(metric, metric)
    return _(label) if said and metric in LABELS else label


def table_text(result: dict[str, Any]) -> str:
    """The terminal table (in the language in use): the base game's figures
    with their intervals, then each variant's figures and its difference from
    the base (``*``: the 95% interval of the difference excludes zero)."""
    out = [
        _n(
            "{game}, {n} player, {deals} deals per variant ({bot} at every seat), {skill} search decks "
            "({search}), seed {seed}",
            "{game}, {n} players, {deals} deals per variant ({bot} at every seat), {skill} search decks "
            "({search}), seed {seed}",
            result["players"],
        ).format(
            game=result["game"],
            n=result["players"],
            deals=f"{result['deals']:,}",
            bot=result["bot"],
            skill=f"{result['skill_deals']:,}",
            search=result["search_bot"],
            seed=result["seed"],
        )
    ]
    base = result["variants"][0]
    out.append(f"\n{variant_title(base)}")
    for _m, label, v, ci in rows_of(base["metrics"], said=True):
        out.append(f"  {label:<42} {_num(v):>9}  {_ci(ci)}")
    for var in result["variants"][1:]:
        alike = f"{var.get('same_deals', 0):.0%}"
        if var.get("paired"):
            against = _("{variant} — against base (paired by deck, {alike} of deals alike)")
        else:
            against = _("{variant} — against base (independent bootstrap, {alike} of deals alike)")
        out.append("\n" + against.format(variant=variant_title(var), alike=alike))
        vs = var.get("vs_base", {})
        for m, label, v, _ci_unused in rows_of(var["metrics"], said=True):
            d = vs.get(m)
            line = f"  {label:<42} {_num(v):>9}"
            if d is not None:
                key = label[len(_label(m, True)) + 1 :]
                diff, dci, sig = _pick(d, key)
                mark = " *" if sig else ""
                line += f"  {_signed(diff):>9} {_ci(dci, signed=True)}{mark}"
            out.append(line)
    if "seconds" in result:
        wall, cpu = f"{result['seconds']:.1f}", f"{result['cpu_seconds']:.1f}"
        out.append("\n" + _("{wall} s wall, {cpu} s CPU").format(wall=wall, cpu=cpu))
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
            deals=f"{result['deals']:,}",
            bot=e(result["bot"]),
            search=e(result["search_bot"]),
            skill_deals=f"{result['skill_deals']:,}",
            seed=result["seed"],
            sig="<span class=sig>",
            end="</span>",
            doc="docs/STUDY.md",
        )
        + "</p>",
    ]
    if "seconds" in result:
        wall, cpu = f"{result['seconds']:.1f}", f"{result['cpu_seconds']:.1f}"
        spent = _("{wall} s wall, {cpu} s CPU").format(wall=wall, cpu=cpu)
        parts.append(f"<p class=note>{e(spent)}.</p>")
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
        cells = [f"{_num(value)}<br><span class=note>{_ci(ci)}</span>"]
        for v in result["variants"][1:]:
            got = v["metrics"].get(m, {})
            vv = _pick({"diff": got.get("value"), "ci95": got.get("ci95")}, key)[0] if got else None
            d = v.get("vs_base", {}).get(m)
            if d is None:
                cells.append(_num(vv))
                continue
            diff, dci, sig = _pick(d, key)
            cls = " class=sig" if sig else ""
            cells.append(f"{_num(vv)}<br><span{cls}>{_signed(diff)} {_ci(dci, signed=True)}</span>")
        parts.append(f"<tr><td>{e(label)}</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    parts.append("</table>")
    specs = "".join(f"<li>{e(variant_title(v))}</li>" for v in result["variants"])
    # i18n: the heading of the list of the study's variants (the base game and each one measured)
    variants = _("Variants")
    parts.append(f"<h2>{e(variants)}</h2><ul>{specs}</ul>")
    files = e(_("Files beside this page: {study} (the {option} output), {tables} ({reader}).")).format(
        study="study.json",
        option="<code>--json</code>",
        tables="metrics.csv, deals.csv, matches.csv, skill.csv",
        reader="<code>pandas.read_csv</code>",
    )
    parts.append(f"<p class=note>{files}</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
