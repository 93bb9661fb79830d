"""The legal-move regression corpus (tests/perft/<game>.yaml, made by
tools/perft.py): every position lists exactly the moves recorded, for every
installed game (a game without a corpus fails: `python tools/perft.py
generate --game NAME` writes its first). A failure is a change in move
generation: review it against the game's rulings (its rules page), then
regenerate with `python tools/perft.py generate --game NAME` if it is intended."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import GAMES

sys.path.insert(0, str(Path(__file__).parent.parent / "tools"))

from perft import CORPUS, MIN_CORPUS, differences, load


@pytest.mark.parametrize("game", GAMES)
def test_corpus(registry, game):
    if not (CORPUS / f"{game}.yaml").exists():
        pytest.fail(f"{game} has no legal-move corpus: python tools/perft.py generate --game {game}")
    items = load(game)
    assert len(items) >= MIN_CORPUS
    problems = [d for d in (differences(registry, item) for item in items) if d]
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("game", GAMES)
def test_corpus_covers_every_player_count_and_house_rule(registry, game):
    if (CORPUS / f"{game}.yaml").exists():
        covers = {t for item in load(game) for t in item["covers"]}
        spec = registry.game(game)
        for players in range(spec.min_players, spec.max_players + 1):
            assert f"{players}p" in covers, (game, players)
        for name, hr in registry.house_rules.items():
            if hr.game == game:
                assert f"house:{name}" in covers, name


def test_a_changed_move_shows_up(registry):
    item = dict(load("carrousel")[0])
    item["moves"] = item["moves"][1:]
    assert "extra" in differences(registry, item)
