"""The docs tell the truth: the complete minimal game of docs/PLUGINS.md
("A whole game in a few dozen lines") is taken from the page as it is,
imported, put through the conformance suite, played by the search bot and,
installed through an entry point, simulated and replayed by the CLI."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from cardcore.plugins import discover
from cardcore.runner import make_players, play_match
from cardcore.table import Table
from cardcore.testing import check_table

ROOT = Path(__file__).parent.parent
PAGE = ROOT / "docs" / "PLUGINS.md"


def minimal_game_source() -> str:
    text = PAGE.read_text(encoding="utf-8")
    after = text.split("### A whole game in a few dozen lines", 1)[1]
    return after.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.fixture(scope="module")
def game_module(tmp_path_factory):
    folder = tmp_path_factory.mktemp("minimal_game")
    path = folder / "cardcore_matching_doc.py"
    path.write_text(minimal_game_source(), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("cardcore_matching_doc", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_minimal_game_is_short():
    lines = [line for line in minimal_game_source().splitlines() if line.strip()]
    assert len(lines) < 100


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_minimal_game_passes_the_conformance_suite(game_module, players):
    registry = discover(plugins=[game_module], use_entry_points=False)
    table = Table.from_names(registry, "matching", players)
    report = check_table(table, deals=6, seed=players)
    assert report.playouts.deals == 6 and report.views > 0 and report.sampling.samples > 0


def test_the_search_bot_plays_the_minimal_game(game_module):
    registry = discover(plugins=[game_module], use_entry_points=False)
    table = Table.from_names(registry, "matching", 2)
    players = make_players(table, ["ismcts:iterations=8", "random"], 3)
    match, moves = play_match(table, players, random.Random(1).getrandbits(32))
    assert match.over and moves == 48


def test_the_cli_plays_the_minimal_game_from_an_entry_point(tmp_path):
    """Installed as a third-party package would be (a module and its entry
    point), the game needs no more code for `simulate`, its log and `replay`."""
    (tmp_path / "cardcore_matching_doc.py").write_text(minimal_game_source(), encoding="utf-8")
    dist = tmp_path / "cardcore_matching_doc-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: cardcore-matching-doc\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[cardcore.games]\nmatching = cardcore_matching_doc\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    log = tmp_path / "m.jsonl"

    def cli(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "cardcore.cli", *args], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    data = json.loads(cli("simulate", "matching", "--players", "3", "--deals", "5", "--seed", "2", "--json",
                          "--log", str(log)))  # fmt: skip
    assert data["deals"] == 5 and sum(data["points_total"]) <= 5 * 52
    said = cli("replay", str(log), "--check")
    assert "OK" in said and "5 deal(s)" in said and "log complete" in said
