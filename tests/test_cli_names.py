"""The CLI's small kindnesses of issue 22: the games' own names as aliases
(any case, ``-``, ``_`` and spaces alike), "did you mean" over the aliases
too and for ``--option`` names, and ``--players`` in a game's help giving
that game's real range."""

from __future__ import annotations

import pytest
from conftest import REGISTRY, run_cli


@pytest.mark.parametrize(
    "typed,game",
    [
        ("karuzele", "carrousel"),
        ("Karuzelė", "carrousel"),
        ("karuzela", "carrousel"),
        ("canasta", "canasta"),
        ("CANASTA", "canasta"),
        ("paquet-voleur", "paquet_voleur"),
        ("paquet voleur", "paquet_voleur"),
        ("stealing-bundles", "paquet_voleur"),
        ("Stealing Bundles", "paquet_voleur"),
    ],
)
def test_a_game_by_its_own_names(typed, game):
    assert REGISTRY.game(typed).name == game
    code, out = run_cli("rules", typed)
    assert code == 0 and out.startswith("# " + REGISTRY.game(game).title.split(" (")[0])


def test_did_you_mean_knows_the_aliases_and_the_options():
    code, out = run_cli("rules", "karuzel")
    assert code == 2 and "did you mean 'karuzel" in out and "carrousel" in out
    code, out = run_cli("play", "carrousel", "--option", "dekc=54", "--seat", "0=random")
    assert code == 2 and "did you mean 'deck'" in out and len(out.strip().splitlines()) == 1
    code, out = run_cli("play", "carrousel", "--opton", "deck=54")
    assert code == 2 and "Did you mean '--option'" in out


@pytest.mark.parametrize("command", ["play", "simulate", "serve", "study"])
def test_players_help_gives_the_game_s_range(command):
    for game, spec in REGISTRY.games.items():
        code, out = run_cli(command, game, "--help")
        flat = " ".join(out.split())
        want = f"is played by {spec.min_players} to {spec.max_players} (default {spec.default_players})"
        assert code == 0 and want in flat, (command, game, flat)
    code, out = run_cli(command, "--help")  # no game named: the general line
    assert code == 0 and "within the game's own range" in " ".join(out.split())
    code, out = run_cli(command, "nope", "--help")
    assert code == 0 and "within the game's own range" in " ".join(out.split())
    flat = " ".join(out.split())
    players = flat[flat.index("--players") :][:160]
    assert "<=x<=" not in players
