"""cardcore's engine beside RLCard's gin rummy, random play, in one run.

    pip install rlcard                              # benchmark-only: not a dependency
    python benchmarks/rlcard_compare.py             # the modules as built (compiled where they are)
    python benchmarks/rlcard_compare.py --pure      # the hot modules forced pure
    python benchmarks/rlcard_compare.py --rounds 3 --seconds 5

Decisions per second of CPU time (``time.process_time``), each engine
playing uniformly random legal moves from its own API: RLCard's
``gin-rummy`` environment (``env.reset``, ``state["legal_actions"]``,
``env.step``, which returns the next player's state), and each cardcore game
through ``Table.observe``, ``Table.legal_moves`` and ``Table.apply`` (a
"decision": the player's view, the listing of his legal moves and one move
applied, as RLCard gives each step's player). The engines take
turns, ``--rounds`` times, so that the load of a shared machine falls on both
alike: the ratios are the figures to keep, and the medians of the rounds are
printed. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = (("carrousel", 4), ("carrousel", 2), ("canasta", 4), ("canasta", 2), ("paquet_voleur", 3))


def rlcard_gin(seconds: float, seed: int) -> float:
    """RLCard's gin rummy: decisions per CPU second, random legal actions."""
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = random.Random(seed)
    decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            action = rng.choice(list(state["legal_actions"]))
            state, _ = env.step(action)
            decisions += 1
    return decisions / (time.process_time() - start)


def cardcore_game(game: str, players: int, seconds: float, seed: int) -> float:
    """A cardcore game: decisions (the player's view, a listing of the legal
    moves and a move applied) per CPU second, random legal moves, deal after deal."""
    from cardcore.plugins import discover
    from cardcore.table import Table

    table = Table(discover().game(game), players)
    rng = random.Random(seed)
    decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        match = table.new_match(rng.getrandbits(63))
        state = match.start_deal()
        while not table.is_deal_over(state):
            table.observe(state, state.to_act)  # what the player sees, as RLCard's step returns it
            moves = table.legal_moves(state)
            table.apply(state, moves[rng.randrange(len(moves))], moves)
            decisions += 1
    return decisions / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds an engine a round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pure", action="store_true", help="force the pure Python hot modules")
    args = ap.parse_args()
    if args.pure:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        import search_bench

        exec(search_bench.PURE, {})  # the hot modules from their sources from here on
    rates: dict[str, list[float]] = {"gin rummy (RLCard)": []}
    for game, players in TABLES:
        rates[f"{game} {players}p"] = []
    for r in range(args.rounds):
        rates["gin rummy (RLCard)"].append(rlcard_gin(args.seconds, args.seed + r))
        for game, players in TABLES:
            rates[f"{game} {players}p"].append(cardcore_game(game, players, args.seconds, args.seed + r))
    gin = statistics.median(rates["gin rummy (RLCard)"])
    build = "pure (forced)" if args.pure else "as built"
    print(f"random play, decisions per CPU second, medians of {args.rounds} rounds; cardcore {build}")
    for name, values in rates.items():
        rate = statistics.median(values)
        print(f"  {name:<22} {rate:>10,.0f}   {rate / gin:5.2f}× gin rummy")


if __name__ == "__main__":
    main()
