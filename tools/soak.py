"""Soak test: the conformance suite (cardcore/testing.py, no dead ends
included) over every game, player count, option set, house-rule combination
and bot mix, on every core.

    python tools/soak.py                         # every installed game, 20,000 deals each
    python tools/soak.py canasta --deals 10000 --jobs 2

A game's configurations are its ``GameSpec.configurations()`` (its
``test_configs``, else every example table with and without its house
rules). Deals are split evenly over them; each configuration runs in its own
process with its own seed, so a run is reproducible. Prints one line per
configuration, the totals and, for a game with its own invariants
(``GameSpec.checks``, e.g. Canasta's ``plugins/canasta/checks.py``), how its
deals ended. Exit code 1 if any check failed.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardcore.plugins import discover
from cardcore.table import Table
from cardcore.testing import ConformanceError, check_random_playouts

BOTS = {"random": ["random"] * 4, "greedy": ["greedy"] * 4, "mixed": ["greedy", "random"] * 2}


def configs(game: str) -> list[tuple[int, dict[str, Any], tuple[str, ...]]]:
    """(players, options, house rules) for every combination worth a run: the
    game's ``GameSpec.configurations()``."""
    registry = discover()
    return registry.game(game).configurations(list(registry.house_rules.values()))


def run_one(job: tuple[str, int, dict[str, Any], tuple[str, ...], str, int, int]) -> dict[str, Any]:
    game, players, options, house_rules, bots, deals, seed = job
    table = Table.from_names(discover(), game, players, options, list(house_rules))
    ends = table.game.checks() if table.game.checks is not None else None
    on_deal = on_move = None
    if ends is not None:
        on_deal, on_move = ends.on_deal, ends.on_move
    start = time.process_time()
    row: dict[str, Any] = {"game": game, "players": players, "options": options, "house_rules": house_rules}
    row["bots"] = bots
    try:
        stats = check_random_playouts(
            table, deals, seed, BOTS[bots][:players], on_deal=on_deal, on_move=on_move
        )
        row.update(deals=stats.deals, moves=stats.moves, searched=stats.turn_searches, error=None)
    except (ConformanceError, AssertionError) as err:
        row.update(deals=getattr(ends, "deals", 0), moves=0, searched=0, error=str(err))
    row["cpu_seconds"] = round(time.process_time() - start, 2)
    if ends is not None:
        row["ends"] = {k: v for k, v in vars(ends).items() if k != "problems"}
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help="games to soak (default: every installed game)")
    ap.add_argument("--deals", type=int, default=20_000, help="deals per game (default 20000)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    jobs = []
    for game in args.games or sorted(discover().games):
        cfgs = [(p, o, h, b) for (p, o, h) in configs(game) for b in BOTS]
        each, extra = divmod(args.deals, len(cfgs))
        for i, (p, o, h, b) in enumerate(cfgs):
            n = each + (1 if i < extra else 0)
            if n:
                jobs.append((game, p, o, h, b, n, args.seed * 1000 + len(jobs)))
    start = time.time()
    failures = 0
    totals: dict[str, dict[str, Any]] = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for row in pool.map(run_one, jobs):
            hr = ",".join(h.split(".", 1)[1] for h in row["house_rules"]) or "-"
            opts = ",".join(f"{k}={v}" for k, v in row["options"].items()) or "-"
            status = "ok" if row["error"] is None else f"FAIL {row['error']}"
            print(
                f"{row['game']:<13} {row['players']}p {opts:<22} {hr:<40} {row['bots']:<6} "
                f"{row['deals']:>5} deals {row['moves']:>8} moves {row['cpu_seconds']:>7}s cpu  {status}",
                flush=True,
            )
            failures += row["error"] is not None
            t = totals.setdefault(row["game"], {"deals": 0, "moves": 0, "cpu_seconds": 0.0, "failures": 0})
            t["deals"] += row["deals"]
            t["moves"] += row["moves"]
            t["cpu_seconds"] += row["cpu_seconds"]
            t["failures"] += row["error"] is not None
            if "ends" in row:
                e = t.setdefault("ends", {})
                for k, v in row["ends"].items():
                    e[k] = e.get(k, 0) + v
    print(f"wall {time.time() - start:.0f}s")
    for game, t in totals.items():
        print(
            f"{game}: {t['deals']} deals, {t['moves']} moves, {t['cpu_seconds']:.0f}s cpu, "
            f"{t['failures']} failures" + (f", ends {t['ends']}" if "ends" in t else "")
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
