"""Python in three lines (``cardcore.play``) and ``python -m cardcore``."""

from __future__ import annotations

import json
import subprocess
import sys

import cardcore
from cardcore.simulate import SimSpec, play_chunk


def test_play_returns_the_record_simulate_makes():
    record = cardcore.play("paquet_voleur", seats=["normal", "random"], seed=3, log=True)
    spec = SimSpec("paquet_voleur", 2, (), (), ("normal", "random"), 3)
    assert record.deals == play_chunk(spec, 0, 1).records[0].deals
    assert record.over and record.winners
    assert json.loads(record.log[0])["event"] == "match_start"


def test_play_stops_after_deals():
    record = cardcore.play("carrousel", seats=["random"] * 3, seed=1, deals=1)
    assert len(record.deals) == 1 and not record.over


def test_python_m_cardcore_is_the_cli():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardcore",
            "simulate",
            "paquet_voleur",
            "--matches",
            "2",
            "--seed",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out)["matches"] == 2
    usage = subprocess.run(
        [sys.executable, "-m", "cardcore", "--help"], capture_output=True, text=True
    ).stdout
    assert usage.startswith("Usage: cardcore ")


def test_the_core_imports_no_learning_library():
    """cardcore[rl] is optional: a table of every game, a match and its moves load
    no numpy, gymnasium, pettingzoo nor pyspiel (only cardcore.rl imports them)."""
    code = (
        "import sys, cardcore\n"
        "from cardcore.plugins import discover\n"
        "for name in discover().games:\n"
        "    cardcore.play(name, seats=['random'] * discover().game(name).min_players, seed=1, deals=1)\n"
        "import cardcore.rl, cardcore.rl.encoding\n"
        "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_simulate_called_gives_the_deals_as_rows_a_dataframe_takes():
    """Issue 51: ``cardcore.simulate(game, seats=[...], deals=N)`` returns one
    flat row a deal (match, deal, moves, each side's points, the winner): the
    deals ``cardcore simulate`` plays with that seed, whatever ``jobs``."""
    from conftest import cli_json

    import cardcore

    rows = cardcore.simulate("carrousel", seats=["normal", "random"], seed=3, deals=6)
    args = ["carrousel", "--players", "2", "--seat", "0=normal", "--seed", "3", "--deals", "6"]
    summary = cli_json("simulate", *args, "--json")
    assert [[r["side_0"], r["side_1"]] for r in rows] == summary["deal_points"]
    assert sum(r["moves"] for r in rows) == summary["moves"]
    assert all(set(r) == {"match", "deal", "moves", "side_0", "side_1", "winner"} for r in rows)
    assert rows == cardcore.simulate("carrousel", seats=["normal", "random"], seed=3, deals=6, jobs=2)
    import cardcore.simulate as module  # the module itself is still the module

    assert (
        module.SimSpec is not None
        and module(  # and called, the same rows
            "carrousel", seats=["normal", "random"], seed=3, deals=6
        )
        == rows
    )


def test_a_study_in_python_gives_rows_a_dataframe_takes(registry):
    """Issue 51: ``cardcore.study.run(...)`` returns the study's JSON and
    ``cardcore.study.rows(result)`` one flat row a figure (its variant, metric,
    item, value, interval), the numbers of that JSON."""
    import cardcore

    result = cardcore.study.run(
        "paquet_voleur", players=2, variants=["deals2=deals=2"], deals=60, skill_deals=0, greedy_deals=0,
        report=False, registry=registry,
    )  # fmt: skip
    table = cardcore.study.rows(result)
    assert {r["variant"] for r in table} == {"base", "deals2"}
    assert all(set(r) == {"variant", "metric", "item", "value", "low", "high"} for r in table)
    seat = [r for r in table if r["variant"] == "base" and r["metric"] == "seat_win_share"]
    figure = result["variants"][0]["metrics"]["seat_win_share"]
    assert [r["value"] for r in seat] == figure["value"]
    assert [[r["low"], r["high"]] for r in seat] == figure["ci95"]
