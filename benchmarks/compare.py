"""Before/after in one run: ``bench.py`` on a git revision and on the work tree, taking turns.

    python benchmarks/compare.py HEAD~3                       # every game, 5 rounds
    python benchmarks/compare.py main carrousel --players 4 --rounds 7

The revision is checked out in a temporary git worktree and imported ahead of
the installed package (``cardcore`` and ``cardcore_plugins`` on PYTHONPATH);
the two sides run one after the other, round after round, so that a change in
the machine's load hits both alike.  Each rate is the median over the rounds,
in CPU time (as ``bench.py``).  Extra arguments go to ``bench.py``.

``--together`` runs the two sides at the same time, one on each of two cores
(``taskset``), swapping cores every round, and gives the geometric mean of the
rounds' ratios: on a shared machine whose cores differ in speed from minute to
minute (seen here: one core 1.4× the other for a while), a round's two sides
then see the same moment, and each side sees both cores equally often.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RATES = ("moves_per_second", "deals_per_second", "clones_per_second")


def start_bench(pythonpath: str | None, args: list[str], core: int | None = None) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + os.pathsep + env.get("PYTHONPATH", "")
    pin = ["taskset", "-c", str(core)] if core is not None else []
    return subprocess.Popen(
        [*pin, sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--json", *args],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
        cwd=tempfile.gettempdir(),  # not the work tree: its packages would come first
    )


def rows_of(proc: subprocess.Popen[str]) -> list[dict[str, float]]:
    out, _ = proc.communicate()
    if proc.returncode:
        raise SystemExit(f"bench.py failed (exit code {proc.returncode})")
    rows: list[dict[str, float]] = json.loads(out)
    return rows


def run_bench(pythonpath: str | None, args: list[str]) -> list[dict[str, float]]:
    return rows_of(start_bench(pythonpath, args))


def _declare_builtins(shim: Path, tree: Path) -> None:
    """A revision from before the built-in games were found as folders of
    plugins/ finds them through entry points: a dist-info beside the shim
    declares them (a later revision finds the folders and skips these)."""
    dist = shim / "cardcore_bench_builtins-0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: cardcore-bench-builtins\nVersion: 0\n")
    folders = sorted(p.parent.name for p in (tree / "plugins").glob("*/__init__.py"))
    lines = ["[cardcore.games]", *(f"{g} = cardcore_plugins.{g}" for g in folders), "[cardcore.house_rules]"]
    lines += [
        f"{g} = cardcore_plugins.{g}.house_rules"
        for g in folders
        if (tree / "plugins" / g / "house_rules.py").exists()
    ]
    (dist / "entry_points.txt").write_text("\n".join(lines) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("revision", help="the git revision to compare the work tree with")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument(
        "--together",
        action="store_true",
        help="both sides at once, one per core, cores swapped each round (even rounds)",
    )
    args, rest = ap.parse_known_args()
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), args.revision],
            check=True,
        )
        try:
            shim = Path(tmp) / "path"
            shim.mkdir()
            (shim / "cardcore").symlink_to(tree / "cardcore")
            (shim / "cardcore_plugins").symlink_to(tree / "plugins")
            _declare_builtins(shim, tree)
            runs: dict[str, list[list[dict[str, float]]]] = {"before": [], "after": []}
            for r in range(args.rounds):
                if args.together:
                    core = r % 2
                    before = start_bench(str(shim), rest, core)
                    after = start_bench(None, rest, 1 - core)
                    runs["before"].append(rows_of(before))
                    runs["after"].append(rows_of(after))
                else:
                    runs["before"].append(run_bench(str(shim), rest))
                    runs["after"].append(run_bench(None, rest))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True)
    how = "together on two cores, ratio: geometric mean" if args.together else "one after the other"
    print(f"median of {args.rounds} rounds ({how}), CPU time; before = {args.revision}, after = work tree")
    print(f"{'game':<14} {'':>3} {'rate':<18} {'before':>10} {'after':>10} {'ratio':>6}")
    for i, row in enumerate(runs["after"][0]):
        for rate in RATES:
            before = statistics.median(r[i][rate] for r in runs["before"])
            after = statistics.median(r[i][rate] for r in runs["after"])
            ratio = after / before
            if args.together:
                pairs = zip(runs["after"], runs["before"], strict=True)
                ratio = math.exp(statistics.fmean(math.log(a[i][rate] / b[i][rate]) for a, b in pairs))
            print(
                f"{row['game']:<14} {int(row['players'])}p  {rate:<18} {before:>10,.0f} {after:>10,.0f} "
                f"{ratio:>5.2f}×"
            )


if __name__ == "__main__":
    main()
