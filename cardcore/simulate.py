"""Many bot-only deals or matches, summarised (``cardcore simulate``)."""

from __future__ import annotations

import random
import sys
import time
from typing import IO, Any

import click

from cardcore.game import DealState
from cardcore.log import GameLog
from cardcore.match import DealResult, Match
from cardcore.runner import Listener, make_players, play_match
from cardcore.table import Table


class _Progress(Listener):
    def __init__(self, bar: Any, per_deal: bool) -> None:
        self.bar = bar
        self.per_deal = per_deal

    def deal_end(self, match: Match, state: DealState, result: DealResult) -> None:
        if self.per_deal:
            self.bar.update(1)

    def match_end(self, match: Match) -> None:
        if not self.per_deal:
            self.bar.update(1)


def simulate(
    table: Table,
    kinds: list[str],
    seed: int,
    deals: int | None = None,
    matches: int | None = None,
    log: IO[str] | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Play ``deals`` deals or ``matches`` matches; return the JSON summary.

    Deterministic: the same table, kinds and seed give the same summary (but
    ``seconds``).  Match k's seed comes from a master RNG seeded with ``seed``.
    """
    players = make_players(table, kinds, seed)
    master = random.Random(seed)
    nsides = len(table.sides)
    wins = [0] * nsides
    deal_wins = [0] * nsides
    points_total = [0] * nsides
    deal_points: list[list[int]] = []
    done_deals = done_matches = draws = total_moves = 0
    listeners: list[Listener] = []
    if log is not None:
        listeners.append(GameLog(log, table, kinds, seed))
    total = deals if deals is not None else matches
    bar_cm: Any = None
    if progress:
        bar_cm = click.progressbar(length=total, label=table.game.name, file=sys.stderr)
        listeners.append(_Progress(bar_cm.__enter__(), deals is not None))
    start = time.perf_counter()
    number = 0
    try:
        while (deals is not None and done_deals < deals) or (matches is not None and done_matches < matches):
            number += 1
            budget = None if deals is None else deals - done_deals
            match, n = play_match(
                table, players, master.getrandbits(63), listeners, max_deals=budget, number=number
            )
            total_moves += n
            for result in match.deals:
                pts = result.points
                deal_points.append(pts)
                best = max(pts)
                for i, p in enumerate(pts):
                    points_total[i] += p
                    if p == best:
                        deal_wins[i] += 1
            done_deals += len(match.deals)
            if match.over:
                done_matches += 1
                winners = match.winners()
                if len(winners) > 1:
                    draws += 1
                for w in winners:
                    wins[w] += 1
    finally:
        if bar_cm is not None:
            bar_cm.__exit__(None, None, None)
    seconds = time.perf_counter() - start
    return {
        "game": table.game.name,
        "players": table.players,
        "options": table.options.model_dump(mode="json"),
        "house_rules": [h.name for h in table.house_rules],
        "seats": kinds,
        "sides": [list(s) for s in table.sides],
        "seed": seed,
        "deals": done_deals,
        "matches": done_matches,
        "moves": total_moves,
        "seconds": round(seconds, 3),
        "wins": wins,
        "draws": draws,
        "deal_wins": deal_wins,
        "points_total": points_total,
        "deal_points": deal_points,
    }
