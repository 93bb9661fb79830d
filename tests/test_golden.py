"""The public JSON outputs stay as they are: `cardcore moves` and `cardcore
score` on every position file of a game (tests/positions/<game>/) and
`cardcore simulate --json` on a few of its tables are compared with the
game's file, tests/golden/<game>.json, for every installed game.

After an intended change of these outputs — or for a new game, or a new
position file — regenerate that game's file and review the diff:

    CARDCORE_REGEN_GOLDEN=canasta python -m pytest tests/test_golden.py   # one game (or a,b)
    CARDCORE_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py         # every game

A new game's file gets one simulation per example table (``GameSpec.tables()``);
the simulations a file holds are kept when it is regenerated (each key is the
command line)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import GAMES, POSITIONS, REGISTRY, run_cli

GOLDEN = Path(__file__).parent / "golden"
SIMULATE = "--deals 12 --seed 5 --json"


def _value(v: object) -> str:
    return v if isinstance(v, str) else json.dumps(v)


def default_simulations(game: str) -> list[str]:
    """One `simulate` command line per example table of ``game``, a greedy bot at seat 0."""
    out = []
    for players, options in REGISTRY.games[game].tables():
        opts = "".join(f" --option {k}={_value(v)}" for k, v in options.items())
        out.append(f"simulate {game} --players {players}{opts} {SIMULATE} --seat 0=greedy")
    return out


def outputs(game: str, simulations: list[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for path in sorted((POSITIONS / game).glob("*.yaml")):
        name = str(path.relative_to(POSITIONS))
        for command in ("moves", "score"):
            code, text = run_cli(command, str(path), "--json")
            failed = {"exit": code, "error": text.strip()}
            out[f"{command} {name}"] = json.loads(text) if code == 0 else failed
    for line in simulations:
        code, text = run_cli(*line.split())
        assert code == 0, text
        data = json.loads(text)
        data.pop("seconds", None)
        data.pop("cpu_seconds", None)
        out[line] = data
    return out


def _regenerate(game: str) -> bool:
    wanted = os.environ.get("CARDCORE_REGEN_GOLDEN", "")
    return wanted == "1" or game in wanted.split(",")


@pytest.mark.parametrize("game", GAMES)
def test_cli_outputs_unchanged(game):
    path = GOLDEN / f"{game}.json"
    kept = json.loads(path.read_text()) if path.exists() else None
    simulations = [k for k in kept if k.startswith("simulate ")] if kept else default_simulations(game)
    got = outputs(game, simulations)
    if _regenerate(game):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        kept = got
    if kept is None:
        pytest.fail(f"{game} has no golden outputs: CARDCORE_REGEN_GOLDEN={game} python -m pytest {__file__}")
    changed = [k for k in kept if got.get(k) != kept[k]] + [k for k in got if k not in kept]
    assert not changed, f"outputs changed (or new, not in {path.name}): {changed[:10]}"
