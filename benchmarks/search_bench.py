"""Search benchmark: CPU milliseconds per decision and iterations per CPU second.

    python benchmarks/search_bench.py                  # every game and player count, hard and expert
    python benchmarks/search_bench.py canasta --players 2 --bot hard --bot ismcts:iterations=40
    python benchmarks/search_bench.py --check          # exit 1 when a level is past its budget
    python benchmarks/search_bench.py --compare main   # before/after in one run (REV, then the work tree)
    python benchmarks/search_bench.py --random         # random play, compiled modules and pure
    python benchmarks/search_bench.py --pure           # the searches, the hot modules forced pure
    python benchmarks/search_bench.py canasta --players 2 --play hard   # positions from hard's own games

The positions are fixed: for each game and player count, deals dealt from
``--seed`` (then the next seeds) and played by ``greedy`` on every seat (or
by ``--play KIND``, e.g. ``--play hard``: a level's own games, whose positions
may cost a search more than a greedy game's);
every ``--every``-th decision with more than one legal move, up to
``--positions`` of them (50 by default: the 95th percentile is then one,
interpolated, not the slowest decision). Each
bot is made afresh at each position (its RNG from the seed and the position)
and asked once; its ``choose`` is timed in CPU time (``time.process_time``).
Rows: the median and 95th percentile of the milliseconds a decision, and the
search's iterations per CPU second (for a kind that searches).

``--check`` compares each level's 95th percentile with its budget
(``BUDGETS``: ``hard`` 300 ms, ``expert`` 1,000 ms; the hint, the game's ``hint_level``:
``hard``, Carrousel's and Paquet voleur's ``expert``, 500 ms)
and exits 1 if one is over: the levels' calibration on this machine, not a test
(the machines are shared; a figure moves by a third from one minute to the
next). ``--compare REV`` runs this script's measurement on a git revision
(checked out in a temporary worktree, as ``compare.py`` does) and on the work
tree, in turns, ``--rounds`` times; medians of the rounds. ``--random`` runs
``bench.py``'s random play twice, with the compiled modules (``tools/compile.py
--status`` says which are) and with the pure Python ones forced.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BUDGETS = {"hard": 300.0, "expert": 1000.0}  # CPU ms a decision (95th percentile)
HINT_BUDGET = 500.0  # the level that gives the game's hint (GamePlugin.hint_level)


def positions(
    table: Any, seed: int, count: int, every: int, play: str | None = None
) -> list[tuple[Any, Any, int, list[Any]]]:
    """(match, state, seat, the moves before) at fixed decisions of deals
    played by ``play`` at every seat (a kind or a level: ``greedy`` by
    default, a searching level's own games with ``--play hard``), dealt from
    ``seed``, then ``seed + 1`` … until ``count`` are found; the moves before
    are (state, seat, move) from the deal's first."""
    from cardcore.decision import Decision
    from cardcore.runner import bot_rng, make_player

    kind = play or ("greedy" if "greedy" in table.player_kinds else "random")
    out: list[tuple[Any, Any, int, list[Any]]] = []
    seen = 0
    for deal_seed in range(seed, seed + 1000):
        if len(out) >= count:
            break
        match = table.new_match(deal_seed)
        state = match.start_deal()
        bots = [make_player(table, kind, s, bot_rng(deal_seed, s)) for s in range(table.players)]
        history: list[tuple[Any, int, Any]] = []
        while not table.is_deal_over(state) and len(out) < count:
            moves = table.legal_moves(state)
            seat = state.to_act
            if len(moves) > 1:
                if seen % every == 0:
                    out.append((match, state.clone(), seat, list(history)))
                seen += 1
            bot = bots[seat]
            decision = Decision(table, match, state.clone(), seat, 1, len(history))  # a search needs one
            observation = table.observe(state, seat) if bot.needs_observation else None
            move = bot.choose(observation, tuple(moves), decision)
            history.append((state.clone(), seat, move))
            table.apply(state, move, moves)
    return out


def percentile(values: list[float], q: int) -> float:
    """The ``q``-th percentile of ``values`` (interpolated between the two
    nearest, as numpy's default: over 50 decisions the 95th is no maximum)."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def follow(table: Any, player: Any, match: Any, seat: int, history: list[Any], rng: Any) -> None:
    """A bot that reads the others' play (``ismcts:model=…``) is shown the deal
    so far as a game would show it: every move's public record, and at its own
    moves the deal it kept (not timed)."""
    from cardcore.decision import Decision

    witness = getattr(player, "witness", None)
    reader = getattr(getattr(player, "inner", player), "reader", None)
    if witness is None or reader is None:
        return
    witness({"event": "deal_start", "dealer": match.dealer})
    for k, (state, s, move) in enumerate(history):
        if s == seat:
            reader.moved(Decision(table, match, state.clone(), s, 1, k), move, rng)
        witness({"event": "move", "seat": s, "move": table.move_json(move)})


def measure(table: Any, spec: str, where: list[tuple[Any, Any, int, list[Any]]], seed: int) -> dict[str, Any]:
    from cardcore.decision import Decision
    from cardcore.runner import make_player

    ms: list[float] = []
    iterations = 0
    seconds = 0.0
    for i, (match, state, seat, history) in enumerate(where):
        player = make_player(table, spec, seat, random.Random(f"{seed}/bench/{i}"))
        follow(table, player, match, seat, history, random.Random(f"{seed}/follow/{i}"))
        moves = tuple(table.legal_moves(state))
        decision = Decision(table, match, state.clone(), seat, 1, 0)
        inner = getattr(player, "inner", player)
        start = time.process_time()
        observation = table.observe(state, seat) if player.needs_observation else None
        player.choose(observation, moves, decision)
        spent = time.process_time() - start
        ms.append(1000 * spent)
        done = getattr(inner, "last_iterations", None)
        if done is None and not getattr(inner, "ms", 1):  # (an older revision: its fixed budget)
            done = getattr(inner, "iterations", None)
        if done is not None:
            iterations += done
            seconds += spent
    ms.sort()
    return {
        "bot": spec,
        "decisions": len(ms),
        "median_ms": round(statistics.median(ms), 1),
        "p95_ms": round(percentile(ms, 95), 1),
        "max_ms": round(ms[-1], 1),
        "iterations_per_second": round(iterations / seconds) if seconds else None,
    }


def tables(reg: Any, games: list[str], players: int | None) -> list[Any]:
    from cardcore.table import Table

    out = []
    for name in games or sorted(reg.games):
        game = reg.game(name)
        counts = [players] if players else range(game.min_players, game.max_players + 1)
        out.extend(Table(game, n) for n in counts)
    return out


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    from cardcore.plugins import discover

    reg = discover()
    rows = []
    for table in tables(reg, args.games, args.players):
        where = positions(table, args.seed, args.positions, args.every, args.play)
        hint = getattr(table.plugin, "hint_level", "hard")
        for spec in args.bots or [*BUDGETS, *([hint] if hint not in BUDGETS else [])]:
            if spec.partition(":")[0] not in table.player_kinds:
                continue  # (an older revision, before the levels)
            row = {
                "game": table.game.name,
                "players": table.players,
                **measure(table, spec, where, args.seed),
            }
            if spec == hint:
                row["hint"] = True  # (a level, or a level with options: ``expert:iterations=1000``)
            rows.append(row)
            if not args.json and not args.quiet:
                show(row)
    return rows


def show(row: dict[str, Any], before: dict[str, Any] | None = None) -> None:
    rate = row["iterations_per_second"]
    line = (
        f"{row['game']:<14} {row['players']}p  {row['bot']:<44} median {row['median_ms']:>7.1f} ms  "
        f"p95 {row['p95_ms']:>7.1f} ms  " + (f"{rate:>6,} it/s" if rate else "")
    )
    if before is not None:
        line += f"   before: median {before['median_ms']:.1f} ms, p95 {before['p95_ms']:.1f} ms"
        if before["iterations_per_second"] and rate:
            line += (
                f", {before['iterations_per_second']:,} it/s ({rate / before['iterations_per_second']:.2f}×)"
            )
    print(line, flush=True)


def budget(row: dict[str, Any]) -> float:
    """The CPU ms a decision a level's 95th percentile may take: its own, or the hint's."""
    own = BUDGETS.get(row["bot"], HINT_BUDGET)
    return min(own, HINT_BUDGET) if row.get("hint") else own


def check(rows: list[dict[str, Any]]) -> int:
    over = [r for r in rows if (r["bot"] in BUDGETS or r.get("hint")) and r["p95_ms"] > budget(r)]
    for r in over:
        print(
            f"over budget: {r['game']} {r['players']}p {r['bot']}{' (the hint)' if r.get('hint') else ''}: "
            f"p95 {r['p95_ms']} ms > {budget(r):.0f} ms"
        )
    print("every level within its budget" if not over else f"{len(over)} over budget")
    return 1 if over else 0


def compare(args: argparse.Namespace, argv: list[str]) -> None:
    """This script on REV (a temporary worktree) and on the work tree, in turns."""
    rest = [a for a in argv if a not in ("--compare", args.compare)]
    rest = [*rest, "--json", "--quiet"]
    runs: dict[str, list[list[dict[str, Any]]]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), args.compare], check=True
        )
        try:
            shim = Path(tmp) / "path"
            shim.mkdir()
            (shim / "cardcore").symlink_to(tree / "cardcore")
            (shim / "cardcore_plugins").symlink_to(tree / "plugins")
            for _ in range(args.rounds):
                for side, path in (("before", str(shim)), ("after", None)):
                    env = dict(os.environ)
                    if path:
                        env["PYTHONPATH"] = path + os.pathsep + env.get("PYTHONPATH", "")
                    out = subprocess.run(
                        [sys.executable, str(Path(__file__).resolve()), *rest],
                        env=env, capture_output=True, text=True, check=True, cwd=tmp,
                    )  # fmt: skip
                    runs[side].append(json.loads(out.stdout))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True)
    print(f"median of {args.rounds} rounds, CPU time; before = {args.compare}, after = work tree")
    key = ("game", "players", "bot")
    before_rows = {tuple(r[k] for k in key): r for r in _medians(runs["before"])}
    for row in _medians(runs["after"]):
        show(row, before_rows.get(tuple(row[k] for k in key)))


def _medians(rounds: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    out = []
    for i, row in enumerate(rounds[0]):
        merged = dict(row)
        for k in ("median_ms", "p95_ms", "max_ms", "iterations_per_second"):
            values = [r[i][k] for r in rounds if r[i][k] is not None]
            merged[k] = round(statistics.median(values), 1) if values else None
        out.append(merged)
    return out


def hot_modules() -> list[str]:
    """The modules ``tools/compile.py`` compiles, as imported
    (``cardcore_plugins.canasta.movegen``): its own list, so that the pure
    run forces every one of them."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import compile as compile_tool
    finally:
        sys.path.pop(0)
    return ["cardcore_plugins." + p.removesuffix(".py").replace("/", ".") for p in compile_tool.HOT]


# run first in the pure process: the hot modules imported from their sources
PURE = (
    f"HOT_MODULES = {hot_modules()!r}\n"
    + """
import importlib.machinery, importlib.util, sys
HOT = set(HOT_MODULES)
class Pure:
    def find_spec(self, name, path=None, target=None):
        if name not in HOT:
            return None
        for entry in path or ():
            source = entry + "/" + name.rsplit(".", 1)[1] + ".py"
            try:
                open(source).close()
            except OSError:
                continue
            return importlib.util.spec_from_file_location(name, source)
        return None
sys.meta_path.insert(0, Pure())
"""
)


def random_play(args: argparse.Namespace) -> None:
    """bench.py's random play, as the modules are, then with the pure ones forced."""
    status = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "compile.py"), "--status"], capture_output=True, text=True
    ).stdout
    print(status.strip())
    bench = ROOT / "benchmarks" / "bench.py"
    extra = [*args.games, *(["--players", str(args.players)] if args.players else []), "--json"]
    results = {}
    for label, prelude in (("as built", ""), ("pure", PURE)):
        code = (
            prelude
            + f"import runpy, sys; sys.argv = {[str(bench), *extra]!r}; "
            + f"runpy.run_path({str(bench)!r}, run_name='__main__')"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        results[label] = json.loads(out.stdout)
    for built, pure in zip(results["as built"], results["pure"], strict=True):
        ratio = built["moves_per_second"] / pure["moves_per_second"]
        print(
            f"{built['game']:<14} {built['players']}p  as built {built['moves_per_second']:>9,} moves/s  "
            f"pure {pure['moves_per_second']:>9,} moves/s  {ratio:.2f}×"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help="games to measure (default: all installed)")
    ap.add_argument("--players", type=int, help="one player count (default: each the game allows)")
    ap.add_argument(
        "--bot", dest="bots", action="append", default=[], help="a kind spec (default: hard, expert)"
    )
    ap.add_argument(
        "--positions", type=int, default=50, help="decisions per game and player count (for a true p95)"
    )
    ap.add_argument("--every", type=int, default=3, help="take every N-th decision of the deal")
    ap.add_argument(
        "--play",
        metavar="KIND",
        help="the kind or level that plays the deals the positions come from (default: greedy, "
        "else random; with --compare each revision's own)",
    )
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--check", action="store_true", help="exit 1 when a level's p95 is past its budget")
    ap.add_argument("--compare", metavar="REV", help="before (REV) and after (the work tree) in one run")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of --compare")
    ap.add_argument("--random", action="store_true", help="random play, compiled and pure")
    ap.add_argument("--pure", action="store_true", help="the hot modules forced pure")
    args = ap.parse_args()
    if args.pure:
        exec(PURE, {})  # before any game is imported: the hot modules from their sources
    if args.random:
        random_play(args)
        return
    if args.compare:
        compare(args, sys.argv[1:])
        return
    rows = run(args)
    if args.json:
        print(json.dumps(rows))
    if args.check:
        raise SystemExit(check(rows))


if __name__ == "__main__":
    main()
