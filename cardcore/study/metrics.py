"""The study's measures: what one match (or one duplicate deck) adds up to,
the metrics those sums give, and their 95% intervals.

Every metric is a ratio of sums over *units* (a match of the main deals, a
deck of the skill deals): the share of deals seat 0's side won is the wins
summed over the matches over the deals summed over them. So one record per
unit, ``unit_sums``, holds every sum, and the intervals come from resampling
units (a bootstrap: blocks of consecutive units, at most ``BLOCKS`` of them,
resampled with replacement ``RESAMPLES`` times, percentiles 2.5 and 97.5).
A variant against the base game: the difference of each metric, its interval
from the *same* resampled blocks for both when the variant keeps the deals
(match k of every variant is dealt from the same seed: paired by deck), from
independent resamples otherwise. Definitions: docs/STUDY.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import mul
from typing import Any

BLOCKS = 200
# the smallest true change found 80% of the time at the 5% level: (1.96 + 0.84) standard errors
POWER_Z = 2.8
RESAMPLES = 1000
LEVEL = 0.95

# ---- per-deal and per-match facts ------------------------------------------------


def win_shares(points: Sequence[int]) -> list[float]:
    """Each side's share of one deal's win: 1 to the side with most points,
    split equally among sides tied for most."""
    best = max(points)
    top = [i for i, p in enumerate(points) if p == best]
    return [1.0 / len(top) if i in top else 0.0 for i in range(len(points))]


def deal_margin(points: Sequence[int]) -> float:
    """Decisiveness: the best side's points less the second best's (0 on a tie)."""
    ordered = sorted(points, reverse=True)
    return float(ordered[0] - ordered[1]) if len(ordered) > 1 else 0.0


def deal_spread(points: Sequence[int]) -> float:
    """Spread: the best side's points less the worst side's."""
    return float(max(points) - min(points))


def leaders(totals: Sequence[Sequence[int]]) -> list[int | None]:
    """The side ahead after each deal (running totals), None while tied for the lead."""
    out: list[int | None] = []
    for t in totals:
        best = max(t)
        top = [i for i, p in enumerate(t) if p == best]
        out.append(top[0] if len(top) == 1 else None)
    return out


def lead_changes(deal_points: Sequence[Sequence[int]]) -> int:
    """How often the match's leader (on the running totals after each deal)
    changed: a tie for the lead in between is no leader and no change; the
    first leader is no change."""
    totals = running_totals(deal_points)
    changes = 0
    last: int | None = None
    for lead in leaders(totals):
        if lead is None:
            continue
        if last is not None and lead != last:
            changes += 1
        last = lead
    return changes


def running_totals(deal_points: Sequence[Sequence[int]]) -> list[list[int]]:
    totals: list[list[int]] = []
    now = [0] * (len(deal_points[0]) if deal_points else 0)
    for points in deal_points:
        now = [a + b for a, b in zip(now, points, strict=True)]
        totals.append(now)
    return totals


def comeback(deal_points: Sequence[Sequence[int]], winners: Sequence[int]) -> bool | None:
    """Whether a side behind at half-way won the match: the leader after deal
    ⌊n/2⌋ of n is not among the winners. None when it cannot be said: fewer
    than two deals, or no single leader at half-way."""
    n = len(deal_points)
    if n < 2 or not winners:
        return None
    lead = leaders(running_totals(deal_points))[n // 2 - 1]
    if lead is None:
        return None
    return lead not in winners


# ---- units: one match's sums -------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """What the sums of a table are indexed by."""

    players: int
    sides: tuple[tuple[int, ...], ...]

    def side_of(self, seat: int) -> int:
        return next(i for i, s in enumerate(self.sides) if seat in s)


def match_sums(shape: Shape, record: dict[str, Any]) -> dict[str, float]:
    """Every sum one match adds (``record``: the study's match record, see
    ``cardcore.study.play_study_chunk``)."""
    out: dict[str, float] = {}

    def add(key: str, value: float) -> None:
        out[key] = out.get(key, 0.0) + value

    nsides = len(shape.sides)
    for deal in record["deals"]:
        pts = deal["points"]
        shares = win_shares(pts)
        add("deals", 1)
        for s in range(nsides):
            add(f"side_win:{s}", shares[s])
        first = deal["first"]
        add("first_win", shares[shape.side_of(first)])
        for r in range(shape.players):
            add(f"pos_win:{r}", shares[shape.side_of((first + r) % shape.players)])
        if "dealer" in deal:
            add(f"dealer_place:{(deal['dealer'] - first) % shape.players}", 1)
        add("moves", deal["moves"])
        add("decisions", deal["decisions"])
        add("choices", deal["choices"])
        add("margin", deal_margin(pts))
        add("spread", deal_spread(pts))
        for kind, n in deal["kinds"].items():
            add(f"kind:{kind}", n)
        if deal.get("leads") is not None:  # None: the game's score cannot be read mid-deal (or older chunks)
            add("deal_leads", deal["leads"])
            add("deal_leads_known", 1)
    if record["over"]:
        points = [d["points"] for d in record["deals"]]
        add("matches", 1)
        add("match_deals", len(points))
        add("lead_changes", lead_changes(points))
        came = comeback(points, record["winners"])
        if came is not None:
            add("comeback_known", 1)
            add("comeback", 1 if came else 0)
    return out


def skill_sums(margins: Sequence[float]) -> dict[str, float]:
    """One duplicate deck: the first bot's margin in each rotation (its side's
    points less the mean of the other sides'), averaged over the rotations."""
    return {"decks": 1.0, "skill": sum(margins) / len(margins)} if margins else {}


# ---- metrics from sums ------------------------------------------------------------

Value = float | list[float] | dict[str, float] | None


def _ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def chi2_sf(x: float, df: int) -> float:
    """P(X ≥ x) for a chi-square variable of ``df`` degrees of freedom (df ≥ 1)."""
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term = math.exp(-half)
        total = term
        for k in range(1, df // 2):
            term *= half / k
            total += term
        return min(1.0, total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(2 * x / math.pi) * math.exp(-half)  # (x/2)^(1/2) e^(-x/2) / Γ(3/2)
    for k in range(1, (df - 1) // 2 + 1):
        total += term
        term *= half / (k + 0.5)
    return min(1.0, total)


def fairness_p(side_wins: Sequence[float], seats_per_side: Sequence[int] | None = None) -> float | None:
    """The p-value of the chi-square test that every side wins an equal share
    of the deals (ties split): sum of (observed − expected)² / expected over
    the sides, with sides − 1 degrees of freedom."""
    n = sum(side_wins)
    k = len(side_wins)
    if k < 2 or n <= 0:
        return None
    expected = n / k
    x = sum((w - expected) ** 2 / expected for w in side_wins)
    return chi2_sf(x, k - 1)


def tested_places(shape: Shape) -> int:
    """How many places of the turn order the chi-square over places counts:
    every place when each side is one seat, else the first ``sides`` places
    (the sides take turns: a later place is the partner of one of these, its
    share the same)."""
    return len(shape.sides)


def places_p(shape: Shape, t: dict[str, float]) -> float | None:
    """The p-value of the chi-square test that every place in the turn order
    (first to play, second, …) wins an equal share of the deals (ties split),
    ``tested_places`` of them, as ``fairness_p`` tests the sides."""
    return fairness_p([t.get(f"pos_win:{r}", 0.0) for r in range(tested_places(shape))])


def dealer_place(shape: Shape, t: dict[str, float]) -> int | None:
    """The place in the turn order (0: first to play) the dealer held in
    every deal, or None when it moved (or is not known)."""
    held = [r for r in range(shape.players) if t.get(f"dealer_place:{r}")]
    return held[0] if len(held) == 1 and t.get(f"dealer_place:{held[0]}") == t.get("deals") else None


def normal_p(diff: float, se: float) -> float:
    """The two-sided p-value of ``diff`` against zero for a normal estimate of
    standard error ``se`` (the bootstrap's): P(|Z| ≥ |diff| / se)."""
    if se <= 0:
        return 1.0 if diff == 0 else 0.0
    return math.erfc(abs(diff) / se / math.sqrt(2))


def benjamini_hochberg(ps: Sequence[float]) -> list[float]:
    """The Benjamini–Hochberg adjustment of ``ps`` (the false discovery
    rate held at the level: of the findings kept, at most that share expected
    false): the i-th smallest of m times m / i, then the least of those from
    it upwards, at most 1. The order of ``ps`` is kept."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [1.0] * m
    running = 1.0
    for rank in range(m - 1, -1, -1):
        i = order[rank]
        running = min(running, ps[i] * m / (rank + 1))
        out[i] = min(1.0, running)
    return out


def metrics_from(shape: Shape, t: dict[str, float]) -> dict[str, Value]:
    """The metrics of summed units ``t`` (see ``match_sums``, ``skill_sums``)."""
    g = t.get
    deals = g("deals", 0.0)
    nsides = len(shape.sides)
    out: dict[str, Value] = {}
    if deals:
        side_win = [g(f"side_win:{s}", 0.0) / deals for s in range(nsides)]
        out["seat_win_share"] = [side_win[shape.side_of(seat)] for seat in range(shape.players)]
        out["side_win_share"] = side_win
        out["win_share_from_first"] = [g(f"pos_win:{r}", 0.0) / deals for r in range(shape.players)]
        out["first_player_advantage"] = g("first_win", 0.0) / deals - 1.0 / nsides
        out["fairness_p"] = fairness_p([g(f"side_win:{s}", 0.0) for s in range(nsides)])
        out["moves_per_deal"] = g("moves", 0.0) / deals
        out["decisions_per_deal"] = g("decisions", 0.0) / deals
        out["choices_per_decision"] = _ratio(g("choices", 0.0), g("decisions", 0.0))
        out["margin"] = g("margin", 0.0) / deals
        out["spread"] = g("spread", 0.0) / deals
        moves = g("moves", 0.0)
        kinds = sorted(k[5:] for k in t if k.startswith("kind:"))
        out["move_kinds"] = {k: g(f"kind:{k}", 0.0) / moves for k in kinds} if moves else {}
        out["deals_per_match"] = _ratio(g("match_deals", 0.0), g("matches", 0.0))
        # matches of one deal each (Paquet voleur's default, P8): no lead to change between deals
        single = g("matches", 0.0) > 0 and g("match_deals", 0.0) == g("matches", 0.0)
        out["lead_changes"] = None if single else _ratio(g("lead_changes", 0.0), g("matches", 0.0))
        out["deal_lead_changes"] = _ratio(g("deal_leads", 0.0), g("deal_leads_known", 0.0))
        out["comeback_rate"] = _ratio(g("comeback", 0.0), g("comeback_known", 0.0))
    if g("decks"):
        out["skill"] = g("skill", 0.0) / g("decks", 1.0)
    return out


NO_INTERVAL = {"fairness_p"}  # a p-value: reported, not resampled


# ---- the bootstrap -----------------------------------------------------------------


class Blocks:
    """Units summed in blocks of consecutive unit numbers (the same blocks for
    every variant: unit k falls in block k // size)."""

    def __init__(self, units: dict[int, dict[str, float]], size: int, count: int) -> None:
        self.keys = sorted({k for u in units.values() for k in u})
        cols = {k: [0.0] * count for k in self.keys}
        for number, sums in units.items():
            b = min(number // size, count - 1)
            for k, v in sums.items():
                cols[k][b] += v
        self.cols = cols
        self.count = count

    def total(self, weights: Sequence[int] | None = None) -> dict[str, float]:
        if weights is None:
            return {k: sum(c) for k, c in self.cols.items()}
        return {k: sum(map(mul, weights, c)) for k, c in self.cols.items()}


def block_layout(units: int) -> tuple[int, int]:
    """(units per block, blocks) for unit numbers 0 … units − 1."""
    size = max(1, -(-units // BLOCKS))
    return size, max(1, -(-units // size))


def resample_weights(rng: random.Random, count: int) -> list[int]:
    """How many times each of ``count`` blocks is drawn in one resample."""
    w = [0] * count
    for i in rng.choices(range(count), k=count):
        w[i] += 1
    return w


def _flatten(value: Value) -> dict[str, float | None]:
    """A metric's value as named numbers (a list by index, a dict by key)."""
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return dict(value)
    return {"": value}


def deals_needed(deals: int, diff: float, mde: float) -> int | None:
    """How many deals would find a change of ``diff`` 80% of the time, from
    the smallest change ``mde`` that ``deals`` can find (the standard error
    falls as one over the square root of the deals): deals × (mde / diff)²."""
    if not diff or not mde:
        return None
    return math.ceil(deals * (mde / diff) ** 2)


def binomial_mde(deals: int, sides: int) -> float:
    """Before any deal is played: the smallest change in a side's share of
    the deals that ``deals`` deals per variant find 80% of the time, on two
    independent samples of a fair share (1/sides): 2.8 × √(2 p (1 − p) / deals).
    Pairing by deck only lowers it."""
    p = 1 / sides
    return POWER_Z * math.sqrt(2 * p * (1 - p) / deals)


def _sd(xs: list[float]) -> float:
    mean = sum(xs) / len(xs)
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / max(1, len(xs) - 1))


def _percentiles(xs: list[float]) -> list[float] | None:
    if not xs:
        return None
    xs = sorted(xs)
    lo = xs[math.floor((1 - LEVEL) / 2 * (len(xs) - 1))]
    hi = xs[math.ceil((1 + LEVEL) / 2 * (len(xs) - 1))]
    return [lo, hi]


def _shape_like(value: Value, per: dict[str, Any]) -> Any:
    """``per`` (by flattened name) back in the shape of ``value``."""
    if isinstance(value, list):
        return [per.get(str(i)) for i in range(len(value))]
    if isinstance(value, dict):
        return {k: per.get(k) for k in value}
    return per.get("")


def _round(x: Any, digits: int = 6) -> Any:
    if isinstance(x, float):
        return round(x, digits)
    if isinstance(x, list):
        return [_round(v, digits) for v in x]
    if isinstance(x, dict):
        return {k: _round(v, digits) for k, v in x.items()}
    return x


MetricFn = Callable[[dict[str, float]], dict[str, Value]]


def with_intervals(blocks: Blocks, fn: MetricFn, seed: str) -> dict[str, dict[str, Any]]:
    """``{metric: {"value", "ci95"}}``: the value on every unit, the interval
    from resampled blocks (seeded: the same data give the same intervals)."""
    point = fn(blocks.total())
    rng = random.Random(seed)
    draws: dict[str, dict[str, list[float]]] = {m: {} for m in point if m not in NO_INTERVAL}
    for _ in range(RESAMPLES):
        got = fn(blocks.total(resample_weights(rng, blocks.count)))
        for m in draws:
            for name, v in _flatten(got.get(m)).items():
                if v is not None:
                    draws[m].setdefault(name, []).append(v)
    out: dict[str, dict[str, Any]] = {}
    for m, value in point.items():
        ci = None
        if m in draws:
            ci = _shape_like(value, {n: _percentiles(xs) for n, xs in draws[m].items()})
        out[m] = {"value": value if m in NO_INTERVAL else _round(value), "ci95": _round(ci)}
    return out


def differences(
    base: Blocks, variant: Blocks, fn: MetricFn, paired: bool, seed: str
) -> dict[str, dict[str, Any]]:
    """``{metric: {"diff", "ci95", "significant"}}``: variant less base; the
    interval from the same resampled blocks for both (``paired``) or from
    independent resamples; significant when the interval excludes zero."""
    pb, pv = fn(base.total()), fn(variant.total())
    rng = random.Random(seed)
    draws: dict[str, dict[str, list[float]]] = {}
    for _ in range(RESAMPLES):
        wb = resample_weights(rng, base.count)
        wv = wb if paired and variant.count == base.count else resample_weights(rng, variant.count)
        gb, gv = fn(base.total(wb)), fn(variant.total(wv))
        for m in pv:
            if m in NO_INTERVAL or m not in pb:
                continue
            fb, fv = _flatten(gb.get(m)), _flatten(gv.get(m))
            for name in set(fb) | set(fv):
                a, b = fv.get(name, 0.0), fb.get(name, 0.0)
                if a is not None and b is not None:
                    draws.setdefault(m, {}).setdefault(name, []).append(a - b)
    out: dict[str, dict[str, Any]] = {}
    for m, value in pv.items():
        if m not in pb:
            continue
        fb, fv = _flatten(pb[m]), _flatten(value)
        names = list(dict.fromkeys([*fv, *fb]))
        if isinstance(value, dict):  # a kind of move one of them never played: a share of 0
            diff = {
                n: (fv.get(n) or 0.0) - (fb.get(n) or 0.0)
                if fv.get(n) is not None or fb.get(n) is not None
                else None
                for n in names
            }
        else:  # a figure one of them does not have (no match of two deals …): no difference
            diff = {}
            for n in names:
                a, b = fv.get(n), fb.get(n)
                diff[n] = a - b if a is not None and b is not None else None
        shape_of: Value = value
        if isinstance(value, dict):
            shape_of = dict.fromkeys(names, 0.0)
        if m in NO_INTERVAL:  # a p-value: the difference of two p-values means nothing
            out[m] = {"diff": None, "ci95": None, "significant": False, "p": None}
            continue
        if m not in draws:
            out[m] = {"diff": _round(_shape_like(shape_of, diff)), "ci95": None, "significant": False}
            out[m]["p"] = None
            continue
        cis = {n: _percentiles(draws[m].get(n, [])) for n in names}
        sig = {n: bool(ci and (ci[0] > 0 or ci[1] < 0)) for n, ci in cis.items()}
        ps: dict[str, float | None] = {}
        for n in names:
            d, xs = diff[n], draws[m].get(n)
            ps[n] = normal_p(d, _sd(xs)) if d is not None and xs else None
        mde = {n: POWER_Z * _sd(draws[m][n]) if draws[m].get(n) else None for n in names}
        out[m] = {
            "diff": _round(_shape_like(shape_of, diff)),
            "ci95": _round(_shape_like(shape_of, cis)),
            "significant": _shape_like(shape_of, sig),
            "p": _shape_like(shape_of, ps),
            "mde": _round(_shape_like(shape_of, mde)),
        }
    return out
