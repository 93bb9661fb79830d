"""`cardcore arena`: duplicate deals and correct statistics."""

from __future__ import annotations

import os

import pytest
from conftest import cli_json, run_cli

from cardcore.arena import ArenaSpec, Result, bradley_terry, summarize


def test_statistics_on_a_hand_made_run():
    spec = ArenaSpec("carrousel", 2, (), (), ("A", "B"), 1)
    results = [
        Result(0, 0, 0, ("A", "B"), (10, 4)),  # A holds side 0: +6
        Result(0, 0, 1, ("B", "A"), (7, 5)),  # the same deck, sides turned: A -2
    ]
    out = summarize(spec, 1, results, {"A": [0.5, 10], "B": [0.1, 10]})
    a, b = out["bots"]
    assert (a["bot"], a["mean_margin"], b["mean_margin"]) == ("A", 2.0, -2.0)
    assert a["ci95"] == [pytest.approx(-5.84, abs=0.01), pytest.approx(9.84, abs=0.01)]
    assert (a["deal_win_rate"], b["deal_win_rate"]) == (0.5, 0.5)
    assert (a["match_win_rate"], b["match_win_rate"]) == (1.0, 0.0)  # +4 over the duplicate set
    assert (a["seconds_per_decision"], b["seconds_per_decision"]) == (0.05, 0.01)
    assert a["ms_per_decision"] == {"median": 0.0, "p95": 0.0, "decisions": 0}  # none timed one by one
    timed = summarize(spec, 1, results, {"A": [0.5, 10, *range(1, 21)], "B": [0.1, 10, 4.0]})
    assert timed["bots"][0]["ms_per_decision"] == {"median": 10.5, "p95": 20, "decisions": 20}
    assert timed["bots"][1]["ms_per_decision"] == {"median": 4.0, "p95": 4.0, "decisions": 1}
    assert out["ratings"]["A"] > 1500 > out["ratings"]["B"]


def test_bradley_terry_orders_a_cycle_free_tournament():
    wins = {("x", "y"): 8, ("y", "x"): 2, ("y", "z"): 7, ("z", "y"): 3, ("x", "z"): 9, ("z", "x"): 1}
    r = bradley_terry(["x", "y", "z"], wins)
    assert r["x"] > r["y"] > r["z"] and sum(r.values()) / 3 == pytest.approx(1500, abs=0.5)


def test_arena_json_is_duplicate_symmetric_and_the_same_for_any_jobs():
    args = ("arena", "paquet_voleur", "--players", "2", "--bot", "greedy", "--bot", "random", "--deals", "20")
    one = cli_json(*args, "--json", "--jobs", "1")
    two = cli_json(*args, "--json", "--jobs", "2")
    for data in (one, two):
        for row in data["bots"]:
            row.pop("seconds_per_decision")
            assert row.pop("ms_per_decision")["decisions"] > 0
    assert one == two
    g, r = one["bots"]
    assert g["mean_margin"] == -r["mean_margin"] and g["deal_win_rate"] + r["deal_win_rate"] == 1
    assert g["match_win_rate"] + r["match_win_rate"] == 1
    assert g["ci95"][0] <= g["mean_margin"] <= g["ci95"][1]
    assert set(one) == {"game", "players", "deals", "seed", "bots", "ratings"}


def test_arena_refuses_bad_input():
    code, out = run_cli("arena", "carrousel", "--bot", "greedy", "--deals", "2")
    assert code == 2 and "two different bots" in out
    code, out = run_cli("arena", "carrousel", "--bot", "greedy", "--bot", "clever", "--deals", "2")
    assert code == 2 and "unknown player kind 'clever'" in out


def test_progress_counts_every_pairing_and_deck_once():
    from cardcore.arena import run

    spec = ArenaSpec("paquet_voleur", 2, (), (), ("random", "greedy", "ismcts:iterations=2"), 3)
    seen: list[int] = []
    summary = run(spec, 7, on_progress=seen.append)
    assert sum(seen) == 3 * 7  # three pairings of seven decks
    assert len(seen) > 1  # reported as it goes, not once at the end
    assert summary["deals"] == 7


def test_ray_backend_gives_the_same_results():
    """``arena --backend ray`` (a local Ray of two CPUs, as simulate's test):
    the same JSON as one process, but the times."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'cardcore[ray]')")
    args = (
        "arena", "carrousel", "--players", "2", "--bot", "greedy", "--bot", "random",
        "--bot", "hard:iterations=3", "--deals", "6", "--seed", "5", "--json",
    )  # fmt: skip
    local = cli_json(*args, "--jobs", "1")
    try:
        on_ray = cli_json(*args, "--backend", "ray", "--jobs", "2")  # a local Ray (on loopback)
    finally:
        ray.shutdown()
    for data in (local, on_ray):
        for row in data["bots"]:
            row.pop("seconds_per_decision")
            row["ms_per_decision"].pop("median"), row["ms_per_decision"].pop("p95")
    assert local == on_ray and local["bots"][0]["ms_per_decision"]["decisions"] > 0


@pytest.mark.skipif(os.name != "posix", reason="a pseudo-terminal")
def test_json_keeps_stdout_json_and_the_bar_on_a_terminal_s_stderr():
    import json
    import pty
    import subprocess
    import sys
    from pathlib import Path

    main, other = pty.openpty()
    command = [str(Path(sys.executable).parent / "cardcore"), "arena", "carrousel", "--players", "2"]
    command += ["--bot", "greedy", "--bot", "random", "--deals", "6", "--seed", "1", "--json"]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=other, text=True, timeout=120)
    os.close(other)
    shown = os.read(main, 65536).decode(errors="replace")
    os.close(main)
    assert done.returncode == 0 and json.loads(done.stdout)["deals"] == 6
    assert "carrousel arena" in shown and "100%" in shown
