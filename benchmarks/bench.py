"""Engine benchmark: random-play moves per second and deals per second.

    python benchmarks/bench.py                    # every installed game, defaults
    python benchmarks/bench.py carrousel --players 2 --seconds 5

A "move" is one legal_moves() + one apply() of the random bot's choice, the
engine's inner loop; a "deal" is a whole deal including the deal and scoring.
Also reports clones per second.  Rates are per second of CPU time
(``time.process_time``): the machines are shared and wall time misleads.
Numbers go in closing notes, never in tests.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from cardcore.plugins import discover
from cardcore.runner import make_players, play_deal
from cardcore.table import Table


def bench(table: Table, seconds: float, seed: int) -> dict[str, float]:
    players = make_players(table, ["random"] * table.players, seed)
    master = random.Random(seed)
    match = table.new_match(master.getrandbits(63))
    deals = moves = 0
    sample = None
    start = time.process_time()
    while time.process_time() - start < seconds:
        if match.over:
            match = table.new_match(master.getrandbits(63))
        state, _, n = play_deal(table, match, players)
        sample = state
        deals += 1
        moves += n
    elapsed = time.process_time() - start
    # clones of a freshly dealt state
    m2 = table.new_match(1)
    s = m2.start_deal()
    t0 = time.process_time()
    clones = 0
    while time.process_time() - t0 < min(1.0, seconds / 3):
        for _ in range(1000):
            s.clone()
        clones += 1000
    clone_rate = clones / (time.process_time() - t0)
    del sample
    return {
        "deals": deals,
        "moves": moves,
        "seconds": round(elapsed, 3),
        "deals_per_second": round(deals / elapsed, 1),
        "moves_per_second": round(moves / elapsed),
        "clones_per_second": round(clone_rate),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help="games to measure (default: all installed)")
    ap.add_argument("--players", type=int, help="player count (default: each game's default)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    reg = discover()
    options = dict(o.split("=", 1) for o in args.option)
    rows = []
    for name in args.games or sorted(reg.games):
        table = Table.from_names(reg, name, args.players, options)
        row = {"game": name, "players": table.players, **bench(table, args.seconds, args.seed)}
        rows.append(row)
        if not args.json:
            print(
                f"{name:<14} {table.players}p  {row['moves_per_second']:>9,} moves/s  "
                f"{row['deals_per_second']:>8,} deals/s  {row['clones_per_second']:>9,} clones/s"
            )
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
