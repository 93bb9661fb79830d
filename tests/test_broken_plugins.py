"""Plugins that fail, fail alone: six broken packages, installed beside the
built-in games, are each reported in one line naming them, and the other
games still play."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PACKAGES = {
    # name: (entry-point group, module source)
    "broken_import": (
        "cardcore.games",
        "raise ImportError('a dependency is missing')\n",
    ),
    "broken_name": (
        "cardcore.games",
        """
        import dataclasses
        from cardcore import hookimpl
        from cardcore_plugins.paquet_voleur.game import SPEC

        @hookimpl
        def cardcore_register_games(register):
            register(dataclasses.replace(SPEC, name="canasta"))  # a built-in's name
        """,
    ),
    "broken_raise": (
        "cardcore.house_rules",
        """
        from cardcore import HouseRuleSpec, hookimpl

        class Raise:
            @hookimpl
            def cardcore_score_deal(self, state):
                raise ZeroDivisionError("no score today")

        @hookimpl
        def cardcore_register_house_rules(register):
            register(HouseRuleSpec("broken_raise.pv", "paquet_voleur", "raises", Raise()))
        """,
    ),
    "broken_type": (
        "cardcore.house_rules",
        """
        from cardcore import HouseRuleSpec, hookimpl

        class Nothing:
            @hookimpl
            def cardcore_legal_moves(self, state):
                return "no moves"

        @hookimpl
        def cardcore_register_house_rules(register):
            register(HouseRuleSpec("broken_type.pv", "paquet_voleur", "wrong type", Nothing()))
        """,
    ),
    "broken_loop": (
        "cardcore.house_rules",
        """
        from cardcore import HouseRuleSpec, hookimpl

        class Forever:
            @hookimpl(wrapper=True)
            def cardcore_apply_move(self, state, move):
                seat = state.to_act
                result = yield
                state.hands[seat].append(move.card)  # the card comes back: no end
                return result

        @hookimpl
        def cardcore_register_house_rules(register):
            register(HouseRuleSpec("broken_loop.pv", "paquet_voleur", "endless", Forever()))
        """,
    ),
    "broken_cards": (
        "cardcore.house_rules",
        """
        from cardcore import HouseRuleSpec, hookimpl

        class Lose:
            @hookimpl(wrapper=True)
            def cardcore_apply_move(self, state, move):
                result = yield
                if state.board:
                    state.board.pop()  # a card vanishes
                return result

        @hookimpl
        def cardcore_register_house_rules(register):
            register(HouseRuleSpec("broken_cards.pv", "paquet_voleur", "loses cards", Lose()))
        """,
    ),
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The six packages, laid out as pip installs them (module + dist-info)."""
    root = tmp_path_factory.mktemp("site")
    for name, (group, source) in PACKAGES.items():
        (root / f"{name}.py").write_text(textwrap.dedent(source))
        dist = root / f"{name}-0.1.dist-info"
        dist.mkdir()
        dist_name = name.replace("_", "-")
        (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist_name}\nVersion: 0.1\n")
        (dist / "entry_points.txt").write_text(f"[{group}]\n{name} = {name}\n")
        (dist / "top_level.txt").write_text(f"{name}\n")
        (dist / "RECORD").write_text(f"{name}.py,,\n")
    return root


def cardcore(site: Path, *args: str) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("CARDCORE_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-m", "cardcore.cli", *args], env=env, capture_output=True, text=True, timeout=120
    )
    return done.returncode, done.stdout, done.stderr


def test_plugins_that_cannot_load_are_named_and_the_others_play(site):
    code, out, err = cardcore(site, "games")
    assert code == 0
    warnings = [line for line in err.splitlines() if line]
    assert len(warnings) == 2 and "Traceback" not in err
    assert any("broken_import" in w and "cannot be imported" in w and "ImportError" in w for w in warnings)
    assert any("broken_name" in w and "'canasta', a name already taken" in w for w in warnings)
    assert all("CARDCORE_DISABLE_PLUGINS=" in w and "package broken-" in w for w in warnings)
    for game in ("canasta", "carrousel", "paquet_voleur"):
        assert game in out
    code, out, err = cardcore(site, "simulate", "canasta", "--deals", "2", "--seed", "1", "--json")
    assert code == 0 and '"game": "canasta"' in out  # the built-in, not the impostor


def test_the_switch_leaves_a_plugin_out_quietly(site):
    os.environ["CARDCORE_DISABLE_PLUGINS"] = "broken_import,broken_name"
    try:
        code, _, err = cardcore(site, "games")
    finally:
        del os.environ["CARDCORE_DISABLE_PLUGINS"]
    assert code == 0 and err == ""


@pytest.mark.parametrize(
    "rule,needle",
    [
        ("broken_raise.pv", "in plugin code (broken_raise, package broken-raise"),
        ("broken_type.pv", "the rules of paquet_voleur with broken_type.pv: no list of legal moves"),
        ("broken_loop.pv", "the rules of paquet_voleur with broken_loop.pv: a deal went past 50,000 moves"),
        ("broken_cards.pv", "with broken_cards.pv: deal 1 ended with cards not conserved"),
    ],
)
def test_faults_inside_a_plugin_are_one_line_naming_it(site, rule, needle):
    args = ("simulate", "paquet_voleur", "--deals", "2", "--seed", "1", "--check", "--house-rule", rule)
    code, _, err = cardcore(site, *args)
    lines = [line for line in err.splitlines() if not line.startswith("warning: ")]
    assert code == 1, err
    assert len(lines) == 1 and lines[0].startswith("error: internal error in `cardcore simulate`")
    assert needle in lines[0] and "Traceback" not in err
    # the other games, and the game without the rule, still play
    code, _, _ = cardcore(site, "simulate", "paquet_voleur", "--deals", "2", "--seed", "1", "--check")
    assert code == 0
