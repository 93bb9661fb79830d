"""Where a bot leaves another bot's move: the decisions of a search against greedy's.

    python tools/deviations.py canasta --players 4 --bot hard --deals 3
    python tools/deviations.py carrousel --bot ismcts:iterations=400 --reference greedy --json

Plays ``--deals`` deals (decks from ``--seed``, as the arena deals them) with
``--bot`` on the first side's seats and ``--reference`` (default ``greedy``)
on the others. At each of ``--bot``'s decisions with more than one legal move
it also asks a ``--reference`` bot of that seat what it would play (the same
observation; its answer is not played) and counts the pair of move kinds:
``meld -> discard`` is a decision where greedy would meld and the bot
discarded. The kinds of the moves both chose are counted apart. A look at how
a search spends its budget (the Canasta four-player search left greedy's move
at two decisions in three, docs/BOTS.md), not a measure of strength: for that,
``cardcore arena``.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from cardcore.arena import deal_seed
from cardcore.players import pass_witness
from cardcore.plugins import discover
from cardcore.runner import Listener, make_player, make_players, play_deal
from cardcore.table import Table


class _Spy:
    """A seat's player that also asks the reference bot, and counts."""

    def __init__(self, inner: Any, reference: Any, counts: dict[str, collections.Counter[str]]) -> None:
        self.inner, self.reference, self.counts = inner, reference, counts
        self.needs_observation = True
        pass_witness(self, inner)  # a bot that follows the game (ismcts:model=…)

    def choose(self, observation: Any, moves: Sequence[Any], decision: Any = None) -> Any:
        ref_obs = observation if self.reference.needs_observation else None
        wanted = self.reference.choose(ref_obs, tuple(moves))
        inner_obs = observation if self.inner.needs_observation else None
        move = self.inner.choose(inner_obs, moves, decision)
        if len(moves) > 1:
            if move == wanted:
                self.counts["same"][wanted.kind] += 1
            else:
                self.counts["left"][f"{wanted.kind} -> {move.kind}"] += 1
        return move


def deviations(
    game: str, players: int | None, bot: str, reference: str, deals: int, seed: int
) -> dict[str, Any]:
    """Play the deals; return the counts (``same``: kind → count, ``left``:
    ``"reference kind -> bot kind"`` → count) and each deal's points."""
    table = Table.from_names(discover(), game, players)
    first = set(table.sides[0])
    counts: dict[str, collections.Counter[str]] = {
        "same": collections.Counter(),
        "left": collections.Counter(),
    }
    points = []
    for d in range(deals):
        deck = deal_seed(seed, d)
        kinds = [bot if s in first else reference for s in range(table.players)]
        made = make_players(table, kinds, f"{deck}/0")
        seated = [
            _Spy(p, make_player(table, reference, s, random.Random(f"{deck}/{s}")), counts)
            if s in first
            else p
            for s, p in enumerate(made)
        ]
        _, result, _ = play_deal(table, table.new_match(deck), seated, [Listener()])
        points.append(list(result.points))
    decisions = sum(counts["same"].values()) + sum(counts["left"].values())
    return {
        "game": game,
        "players": table.players,
        "bot": bot,
        "reference": reference,
        "deals": deals,
        "seed": seed,
        "decisions": decisions,
        "same": dict(counts["same"].most_common()),
        "left": dict(counts["left"].most_common()),
        "points": points,
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument(
        "--bot", required=True, help="the bot looked at (a kind spec: hard, ismcts:iterations=400)"
    )
    ap.add_argument("--reference", default="greedy", help="the bot it is compared with (default greedy)")
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--seed", type=int, default=4040)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = deviations(args.game, args.players, args.bot, args.reference, args.deals, args.seed)
    if args.json:
        json.dump(out, sys.stdout)
        print()
        return 0
    left = sum(out["left"].values())
    print(f"{out['game']} {out['players']}p: {out['bot']} against {out['reference']}, {out['deals']} deals")
    print(f"decisions with a choice: {out['decisions']}; left the reference's move: {left}")
    for pair, n in out["left"].items():
        print(f"  {pair:<28} {n}")
    print("same move: " + ", ".join(f"{k} {n}" for k, n in out["same"].items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
