"""``ismcts:infer=learned`` (cardcore/infer.py's sampler in the search): deterministic,
the game's sampler where no model is shipped, its options checked, and play without numpy."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from cardcore.infer import load_model
from cardcore.kinds import make_player
from cardcore.runner import play_match
from cardcore.table import Table


def _play(table, spec, seed):
    seats = [
        make_player(table, spec, 0, random.Random(seed)),
        make_player(table, "greedy", 1, random.Random(1)),
    ]
    match, moves = play_match(table, seats, seed, max_deals=1)
    return match.scores, moves


def test_ismcts_with_the_learned_sampler_plays_deterministically(registry):
    table = Table(registry.game("paquet_voleur"), 2)
    assert load_model(table) is not None  # the shipped model
    spec = "ismcts:iterations=24,prior=greedy,rollout=greedy,infer=learned"
    assert _play(table, spec, 4) == _play(table, spec, 4)


def test_without_a_model_infer_learned_is_the_game_s_sampler(registry, monkeypatch):
    table = Table(registry.game("paquet_voleur"), 2)
    plain = _play(table, "ismcts:iterations=16,rollout=greedy", 8)
    monkeypatch.setattr("cardcore.ismcts.load_model", lambda table: None)
    assert _play(table, "ismcts:iterations=16,rollout=greedy,infer=learned", 8) == plain
    canasta = Table(registry.game("canasta"), 3)  # no model shipped for it
    assert load_model(canasta) is None


def test_infer_options_are_checked(registry):
    from cardcore.errors import TableError

    table = Table(registry.game("paquet_voleur"), 2)
    with pytest.raises(TableError, match="infer"):
        make_player(table, "ismcts:infer=maybe", 0, random.Random(0))
    with pytest.raises(TableError, match="model"):
        make_player(table, "ismcts:infer=learned,model=greedy", 0, random.Random(0))


def test_play_needs_no_numpy():
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import random\n"
        "from cardcore.plugins import discover\n"
        "from cardcore.table import Table\n"
        "from cardcore.kinds import make_player\n"
        "from cardcore.runner import play_match\n"
        "t = Table(discover().game('paquet_voleur'), 2)\n"
        "p = [make_player(t, 'ismcts:iterations=8,infer=learned', 0, random.Random(0)),\n"
        "     make_player(t, 'greedy', 1, random.Random(1))]\n"
        "assert p[0].inference is not None\n"
        "play_match(t, p, 1, max_deals=1)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "ok", out.stderr


@pytest.mark.parametrize("game", ["paquet_voleur", "carrousel"])
def test_the_conformance_kit_passes_with_the_learned_sampler(registry, game):
    from cardcore.testing import check_no_leak

    table = Table(registry.game(game), 2)
    stats = check_no_leak(table, 1, seed=3, search="ismcts:iterations=8,infer=learned")
    assert stats.searches >= 5
