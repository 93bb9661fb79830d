"""The report's plots, drawn with matplotlib (the ``study`` extra) as inline
SVG, their words (titles, axis labels, legends) in the language in use; the
PNG files are named after the English titles, whatever the language. Without
matplotlib, ``figures`` returns the line that says how to get them (in
English: the page says it), and the report keeps its tables."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from cardcore.i18n import N_, _
from cardcore.study.metrics import Shape, deal_margin, lead_changes
from cardcore.study.report import _label

# i18n: {command} is the command that installs matplotlib
HINT = N_("The plots need matplotlib: {command} (the tables below are complete without it).")


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", title.lower().split("(")[0]).strip("_")[:40]


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    start = text.find("<svg")
    text = text[start:]
    # the metadata block names its vocabulary by URL (a namespace, fetched by nothing): left out
    return re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.S)


def _grid(n: int) -> tuple[int, int]:
    cols = min(n, 3)
    return -(-n // cols), cols


def figures(
    result: dict[str, Any],
    shape: Shape,
    main: dict[str, list[dict[str, Any]]],
    greedy: dict[str, list[dict[str, Any]]],
    png_dir: Path | None = None,
) -> list[tuple[str, str]] | str:
    """(title, SVG) of each plot, the title in the language in use, or the
    note saying how to get them; with ``png_dir``, each plot also as a PNG
    file there (for documents), named after its English title."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return HINT
    plt.rcParams.update({"font.size": 9, "svg.hashsalt": "cardcore-study"})
    variants = result["variants"]
    names = [v["name"] for v in variants]
    out: list[tuple[str, str]] = []

    def keep(title: str, fig: Any) -> None:
        """``title``: the English (``N_``), said here; the PNG file named after the English."""
        out.append((_(title), _svg(fig)))
        if png_dir is not None:
            png_dir.mkdir(parents=True, exist_ok=True)
            fig.savefig(png_dir / f"{len(out)}_{_slug(title)}.png", dpi=110, bbox_inches="tight")
        plt.close(fig)

    def shares(metric: str, count: int, label_of: Any, title: str) -> None:
        """Win share of each seat (place) with its intervals: points and bars
        around the fair share (no bar from zero)."""
        fig, ax = plt.subplots(figsize=(7.5, 3.2))
        width = 0.8 / max(1, count)
        fair = 1 / len(shape.sides)
        reach = [0.01]
        for item in range(count):
            xs = [i + (item - (count - 1) / 2) * width for i in range(len(variants))]
            vals = [v["metrics"][metric]["value"][item] for v in variants]
            cis = [v["metrics"][metric]["ci95"] for v in variants]
            lo = [val - (ci[item][0] if ci else val) for val, ci in zip(vals, cis, strict=True)]
            hi = [(ci[item][1] if ci else val) - val for val, ci in zip(vals, cis, strict=True)]
            reach += [abs(val - fair) + max(a, b) for val, a, b in zip(vals, lo, hi, strict=True)]
            ax.errorbar(xs, vals, yerr=[lo, hi], fmt="o", capsize=3, ms=4, label=label_of(item))
        ax.axhline(fair, color="#444", lw=0.8, ls="--")
        ax.set_ylim(fair - 1.25 * max(reach), fair + 1.6 * max(reach))  # room for the legend
        ax.set_xticks(range(len(variants)), names)
        ax.set_ylabel(_("share of deals won"))
        ax.legend(ncol=count, fontsize=8, loc="best")
        keep(title, fig)

    shares(
        "seat_win_share",
        shape.players,
        lambda seat: _("seat {seat}").format(seat=seat),
        N_("Win share by seat (95% intervals; dashed: the fair share)"),
    )
    from cardcore.study.report import place_name

    dealer = (variants[0].get("places") or {}).get("dealer")
    shares(
        "win_share_from_first",
        shape.players,
        lambda r: place_name(r, dealer),
        N_("Win share by place in the turn order (95% intervals; dashed: the fair share)"),
    )

    # differences against the base, scalar metrics
    # the seat's (side's) share and each place's first: what fairness is about; then the rest
    share = "seat_win_share" if all(len(x) == 1 for x in shape.sides) else "side_win_share"
    keys: list[Any] = [(share, i) for i in range(len(shape.sides))]
    keys += [("win_share_from_first", r) for r in range(len(shape.sides))]
    keys += [
        "moves_per_deal",
        "choices_per_decision",
        "deals_per_match",
        "margin",
        "lead_changes",
        "deal_lead_changes",
        "comeback_rate",
        "skill_greedy_vs_random",
        "skill_search_vs_greedy",
    ]
    others = variants[1:]
    stands = {(f["variant"], f["metric"], f.get("item")) for f in result.get("verdicts", [])}

    def diff_of(v: dict[str, Any], key: Any) -> tuple[Any, Any, bool]:
        """(difference, interval, whether a verdict names it) of one panel."""
        metric, item = key if isinstance(key, tuple) else (key, None)
        d = v.get("vs_base", {}).get(metric)
        if not d or d.get("diff") is None:
            return None, None, False
        diff, ci = d["diff"], d.get("ci95")
        if item is not None:
            diff, ci = diff[item], ci[item] if ci else None
        said = (v["name"], metric, item) in stands or (
            item is not None and len(shape.sides) == 2 and (v["name"], metric, 1 - item) in stands
        )
        return diff, ci, said

    def title_of(key: Any) -> str:
        if isinstance(key, tuple):
            metric, item = key
            return f"{_label(metric, said=True)} {item}"
        return _label(key, said=True)

    def shows(key: Any) -> bool:
        """Whether a panel shows anything: a difference, or an interval, not zero everywhere."""
        for v in others:
            diff, ci, _said = diff_of(v, key)
            if diff is not None and (diff != 0 or (ci and ci[0] != ci[1])):
                return True
        return False

    # left out: a panel no variant has a figure for (no search decks), or zero everywhere (48 moves a deal)
    keys = [k for k in keys if shows(k)]
    if others and keys:
        rows = -(-len(keys) // 3)
        fig, grid = plt.subplots(
            rows, 3, figsize=(11, rows * (0.9 + 0.32 * len(others))), sharey=True, squeeze=False
        )
        axes = [a for row in grid for a in row]
        for ax, key in zip(axes, keys, strict=False):
            for j, v in enumerate(others):
                diff, ci, said = diff_of(v, key)
                if diff is None:
                    continue
                color = "#a30" if said else "#357"
                if ci:
                    ax.plot(ci, [j, j], color=color, lw=2)
                ax.plot([diff], [j], "o", color=color, ms=4)
            ax.axvline(0, color="#444", lw=0.8)
            ax.set_title(title_of(key), fontsize=8)
            ax.tick_params(labelsize=7)
            ax.set_ylim(len(others) - 0.5, -0.5)
        for ax in axes[len(keys) :]:
            ax.axis("off")
        for row in grid:
            row[0].set_yticks(range(len(others)), [v["name"] for v in others])
        fig.tight_layout()
        keep(N_("Each variant less the base (95% intervals; red: a verdict stands)"), fig)

    def small_multiples(
        title: str, values_of: Any, xlabel: str, bins: Any = 30, discrete: bool = False
    ) -> None:
        rows, cols = _grid(len(variants))
        every = {name: values_of(name) for name in names}
        seen = [x for xs in every.values() for x in xs]
        if not seen or min(seen) == max(seen):  # nothing to draw, or one value everywhere: said in the table
            return
        fig, axes = plt.subplots(
            rows, cols, figsize=(3.6 * cols, 2.3 * rows), sharex=True, sharey=True, squeeze=False
        )
        edges: Any = bins
        if seen:
            lo, hi = min(seen), max(seen)
            if discrete and hi - lo <= 60:  # one bar per value
                edges = [b - 0.5 for b in range(int(lo), int(hi) + 2)]
            else:  # a wide range (Canasta's points): the same 30 bins in every panel
                step = (hi - lo) / 30 or 1.0
                edges = [lo + step * i for i in range(31)]
        for i, name in enumerate(names):
            ax = axes[i // cols][i % cols]
            if every[name]:
                ax.hist(every[name], bins=edges, color="#357")
            ax.set_title(name, fontsize=8)
            ax.set_xlabel(_(xlabel), fontsize=7)
        for j in range(len(variants), rows * cols):
            axes[j // cols][j % cols].axis("off")
        keep(title, fig)

    def margins(name: str) -> list[float]:
        return [deal_margin(d["points"]) for r in main[name] for d in r["deals"]]

    def moves(name: str) -> list[int]:
        return [d["moves"] for r in main[name] for d in r["deals"]]

    def match_length(name: str) -> list[int]:
        return [len(r["deals"]) for r in main[name] if r["over"]]

    def changes(name: str) -> list[int]:
        return [lead_changes([d["points"] for d in r["deals"]]) for r in main[name] if r["over"]]

    # i18n: the x axis of the histograms: what each bar counts (points, lead changes, moves, deals)
    points, n_changes, n_moves, n_deals = N_("points"), N_("changes"), N_("moves"), N_("deals")
    small_multiples(N_("Margin of each deal (first side less second)"), margins, points, discrete=True)
    small_multiples(N_("Lead changes in a match"), changes, n_changes, discrete=True)
    small_multiples(N_("Moves per deal"), moves, n_moves, discrete=True)
    small_multiples(N_("Deals per match"), match_length, n_deals, discrete=True)
    if greedy:

        def skill(name: str) -> list[float]:
            return [sum(r["margins"]) / len(r["margins"]) for r in greedy.get(name, []) if r["margins"]]

        small_multiples(N_("Greedy less random on each duplicate deck (margin)"), skill, points)
    return out
