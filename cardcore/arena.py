"""``cardcore arena``: bots measured fairly, on duplicate deals.

Every pairing of the bots named plays the same deals: for a deal, one bot
holds one side and the other bot every other side, then the sides turn and
the same shuffled deck (the same seed: the same first dealer, the same cards)
is played again, until each bot has held each side, so that the luck of the
cards cancels. Per bot the arena reports its mean *margin* per deal (its
side's points less the mean of the other sides' points) with a 95%
confidence interval, the share of deals its side won (ties count a half),
the share of *duplicate sets* it won (its margin summed over the rotations of
one deck: positive wins, zero counts a half), its seconds per decision, and
ratings from a Bradley–Terry fit of the duplicate sets of every pairing
(Elo scale, mean 1500).

The work is a list of (pairing, deal) tasks of plain data: ``--jobs N`` plays
them on N processes, ``--backend ray`` as Ray tasks (a local Ray when no
cluster is named), and the results, merged in task order, are the same.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from cardcore.players import pass_witness
from cardcore.runner import Listener, make_players, play_deal


@dataclass(frozen=True)
class ArenaSpec:
    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    house_rules: tuple[str, ...]
    bots: tuple[str, ...]
    seed: int


@dataclass
class Result:
    """One deal of one rotation: the bot of each side and the points."""

    pairing: int
    deal: int
    rotation: int
    bot_of_side: tuple[str, ...]
    points: tuple[int, ...]


class _Timed:
    """A player whose decisions are timed in CPU time: ``clock[name]`` is
    [seconds, decisions, then the milliseconds of each decision that had more
    than one legal move] (for the seconds per decision, and the median and
    95th percentile of a real choice)."""

    def __init__(self, inner: Any, clock: dict[str, list[float]], name: str) -> None:
        self.inner = inner
        self.needs_observation = inner.needs_observation
        self.clock = clock
        pass_witness(self, inner)  # a bot that follows the game (ismcts:model=…)
        self.name = name

    def choose(self, observation: Any, moves: Any, decision: Any = None) -> Any:
        start = time.process_time()
        move = self.inner.choose(observation, moves, decision)
        took = time.process_time() - start
        spent = self.clock.setdefault(self.name, [0.0, 0.0])
        spent[0] += took
        spent[1] += 1
        if len(moves) > 1:
            spent.append(round(1000 * took, 2))
        return move


def pairings(bots: tuple[str, ...]) -> list[tuple[str, str]]:
    return list(combinations(bots, 2))


def deal_seed(seed: int, deal: int) -> int:
    return random.Random(f"{seed}/arena/{deal}").getrandbits(63)


def play_tasks(spec: ArenaSpec, tasks: list[tuple[int, int]]) -> tuple[list[Result], dict[str, list[float]]]:
    """Play the deals of ``tasks`` ((pairing, deal) each) in every rotation."""
    from cardcore.simulate import _table

    table = _table(spec.game, spec.players, spec.options, spec.house_rules)
    sides = table.sides
    out: list[Result] = []
    clock: dict[str, list[float]] = {}
    for pairing, deal in tasks:
        first, second = pairings(spec.bots)[pairing]
        seed = deal_seed(spec.seed, deal)
        for rotation in range(len(sides)):
            bot_of_side = tuple(first if i == rotation else second for i in range(len(sides)))
            kinds = [""] * table.players
            for i, seats in enumerate(sides):
                for s in seats:
                    kinds[s] = bot_of_side[i]
            players = make_players(table, kinds, f"{seed}/{rotation}")
            timed = [_Timed(p, clock, kinds[s]) for s, p in enumerate(players)]
            match = table.new_match(seed)  # the same first dealer and deck in every rotation
            _, result, _ = play_deal(table, match, timed, [Listener()])
            out.append(Result(pairing, deal, rotation, bot_of_side, tuple(result.points)))
    return out, clock


def run(
    spec: ArenaSpec,
    deals: int,
    jobs: int = 1,
    on_progress: Callable[[int], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> dict[str, Any]:
    """Play the arena; return its JSON summary (the same for every ``jobs``
    and backend, but the times).

    ``on_progress(n)`` is called as each chunk of ``n`` (pairing, deck) tasks
    ends. ``backend="ray"`` plays the chunks as Ray tasks, on the cluster at
    ``address`` (or ``RAY_ADDRESS``), else on a local Ray of ``jobs`` CPUs (as
    ``simulate --backend ray``: ``cardcore.simulate.RayBackend``).
    """
    tasks = [(p, d) for p in range(len(pairings(spec.bots))) for d in range(deals)]
    results: list[Result] = []
    clock: dict[str, list[float]] = {}
    ray_backend = None
    if backend == "ray":
        from cardcore.simulate import RayBackend

        ray_backend = RayBackend(address or os.environ.get("RAY_ADDRESS"), jobs or None)
        jobs = max(2, ray_backend.workers)
    size = max(1, len(tasks) // (jobs * 4)) if jobs > 1 else max(1, min(len(tasks) // 20, 50))
    chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]

    def take(got: list[Result], spent: dict[str, list[float]], n: int) -> None:
        results.extend(got)
        for k, (sec, count, *ms) in spent.items():
            total = clock.setdefault(k, [0.0, 0.0])
            total[0] += sec
            total[1] += count
            total.extend(ms)
        if on_progress is not None:
            on_progress(n)

    if ray_backend is not None:
        ray = ray_backend.ray
        task = ray.remote(play_tasks)
        refs = [task.remote(spec, chunk) for chunk in chunks]  # the cluster schedules them
        for chunk, ref in zip(chunks, refs, strict=True):
            got, spent = ray.get(ref)
            take(got, spent, len(chunk))
    elif jobs == 1:
        for chunk in chunks:
            take(*play_tasks(spec, chunk), len(chunk))
    else:
        from cardcore.simulate import worker_start

        with ProcessPoolExecutor(max_workers=jobs, initializer=worker_start) as pool:
            done = pool.map(play_tasks, [spec] * len(chunks), chunks)
            for chunk, (got, spent) in zip(chunks, done, strict=True):
                take(got, spent, len(chunk))
    return summarize(spec, deals, results, clock)


def summarize(
    spec: ArenaSpec, deals: int, results: list[Result], clock: dict[str, list[float]]
) -> dict[str, Any]:
    margins: dict[str, list[float]] = {b: [] for b in spec.bots}
    deal_wins: dict[str, list[float]] = {b: [] for b in spec.bots}
    sets: dict[tuple[int, int], dict[str, float]] = {}
    for r in results:
        best = max(r.points)
        winners = [i for i, p in enumerate(r.points) if p == best]
        for bot in set(r.bot_of_side):
            mine = [i for i, b in enumerate(r.bot_of_side) if b == bot]
            side = mine[0]
            others = [p for i, p in enumerate(r.points) if i != side]
            margin = r.points[side] - (sum(others) / len(others) if others else 0.0)
            margins[bot].append(margin)
            won = sum(1 for i in mine if i in winners) / len(mine)
            deal_wins[bot].append(1.0 if won and len(winners) == 1 else 0.5 if won else 0.0)
            sets.setdefault((r.pairing, r.deal), {}).setdefault(bot, 0.0)
            sets[(r.pairing, r.deal)][bot] += margin
    match_wins: dict[str, list[float]] = {b: [] for b in spec.bots}
    pair_scores: dict[tuple[str, str], float] = {}
    for (pairing, _), by_bot in sets.items():
        first, second = pairings(spec.bots)[pairing]
        a, b = by_bot.get(first, 0.0), by_bot.get(second, 0.0)
        score = 1.0 if a > b else 0.0 if a < b else 0.5
        match_wins[first].append(score)
        match_wins[second].append(1 - score)
        pair_scores[(first, second)] = pair_scores.get((first, second), 0.0) + score
        pair_scores[(second, first)] = pair_scores.get((second, first), 0.0) + 1 - score
    rows = []
    for bot in spec.bots:
        ms = margins[bot]
        mean = sum(ms) / len(ms) if ms else 0.0
        sd = math.sqrt(sum((m - mean) ** 2 for m in ms) / (len(ms) - 1)) if len(ms) > 1 else 0.0
        half = 1.96 * sd / math.sqrt(len(ms)) if ms else 0.0
        sec, n, *times = clock.get(bot, [0.0, 0.0])
        times.sort()
        rows.append(
            {
                "bot": bot,
                "mean_margin": round(mean, 3),
                "ci95": [round(mean - half, 3), round(mean + half, 3)],
                "deal_win_rate": _rate(deal_wins[bot]),
                "match_win_rate": _rate(match_wins[bot]),
                "seconds_per_decision": round(sec / n, 6) if n else 0.0,
                # CPU ms of the decisions with more than one legal move
                "ms_per_decision": {
                    "median": round(statistics.median(times), 2) if times else 0.0,
                    "p95": round(times[min(len(times) - 1, int(0.95 * len(times)))], 2) if times else 0.0,
                    "decisions": len(times),
                },
            }
        )
    return {
        "game": spec.game,
        "players": spec.players,
        "deals": deals,
        "seed": spec.seed,
        "bots": rows,
        "ratings": bradley_terry(list(spec.bots), pair_scores),
    }


def _rate(scores: list[float]) -> float:
    return round(sum(scores) / len(scores), 4) if scores else 0.0


def bradley_terry(bots: list[str], wins: dict[tuple[str, str], float], rounds: int = 200) -> dict[str, float]:
    """Strengths from pairwise scores (MM algorithm, a half win added to each
    pair so that a clean sweep stays finite), on the Elo scale, mean 1500."""
    strength = dict.fromkeys(bots, 1.0)
    for _ in range(rounds):
        new = {}
        for i in bots:
            won = sum(wins.get((i, j), 0.0) + 0.5 for j in bots if j != i)
            denom = sum(
                (wins.get((i, j), 0.0) + wins.get((j, i), 0.0) + 1.0) / (strength[i] + strength[j])
                for j in bots
                if j != i
            )
            new[i] = won / denom if denom else 1.0
        scale = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {k: v / scale for k, v in new.items()}
    return {b: round(1500 + 400 * math.log10(strength[b]), 1) for b in bots}
