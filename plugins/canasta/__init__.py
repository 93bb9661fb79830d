"""Canasta: the classic partnership rummy game for 4 players, with the 2- and
3-player games.  Two decks and four jokers; melds of a rank, canastas of seven,
red threes, the frozen pile, going out.  Rulings N1–N18.
"""

from __future__ import annotations

from collections.abc import Callable

from cardcore.game import GameSpec
from cardcore.hookspecs import hookimpl
from cardcore_plugins.canasta.game import SPEC


@hookimpl
def cardcore_register_games(register: Callable[[GameSpec], None]) -> None:
    register(SPEC)
