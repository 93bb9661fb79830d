"""How often a bot plays one of a model bot's best moves: the share that sets
``ismcts``'s ``doubt`` when it reads the other seats' play (``model=greedy``).

    python benchmarks/agreement.py carrousel hard --deals 4
    python benchmarks/agreement.py paquet_voleur hard --model greedy --deals 3 --players 2

Every seat plays the bot; at each of its decisions with more than one legal
move, the model bot is asked with the bot's move listed first: it "counts it
among its best" when it picks it (as ``cardcore/reads.py`` asks). Prints the
decisions, the share counted among the model's best, and the mean number of
legal moves. Deals from ``--seed`` on, one deal each.
"""

from __future__ import annotations

import argparse
import random
from typing import Any


def agreement(game: str, bot: str, model: str, players: int, deals: int, seed: int) -> dict[str, Any]:
    from cardcore.players import pass_witness
    from cardcore.plugins import discover
    from cardcore.reads import seat_bots
    from cardcore.runner import make_player, play_match
    from cardcore.table import Table

    table = Table(discover().game(game), players)
    models = seat_bots(table, model, random.Random(0))
    counts = {"decisions": 0, "liked": 0, "moves": 0}

    class Watched:
        def __init__(self, inner: Any) -> None:
            self.inner = inner
            self.needs_observation = inner.needs_observation
            pass_witness(self, inner)  # a bot that follows the game (ismcts:model=…)

        def choose(self, observation: Any, moves: Any, decision: Any = None) -> Any:
            move = self.inner.choose(observation, moves, decision)
            if len(moves) > 1:
                state = decision._state  # the true deal: a measurement, not a player
                rest = [m for m in moves if m != move]
                counts["decisions"] += 1
                counts["liked"] += models[state.to_act](state, [move, *rest]) == move
                counts["moves"] += len(moves)
            return move

    for deal in range(deals):
        seats = [
            Watched(make_player(table, bot, s, random.Random(f"{seed}/{deal}/{s}"))) for s in range(players)
        ]
        play_match(table, seats, seed + deal, max_deals=1)
    n = counts["decisions"]
    return {
        "game": game,
        "players": players,
        "bot": bot,
        "model": model,
        "decisions": n,
        "model_best_share": round(counts["liked"] / n, 3) if n else None,
        "mean_legal_moves": round(counts["moves"] / n, 2) if n else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("bot")
    parser.add_argument("--model", default="greedy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(agreement(args.game, args.bot, args.model, args.players, args.deals, args.seed))


if __name__ == "__main__":
    main()
