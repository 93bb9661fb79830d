"""A table's player kinds: what a seat's ``KIND`` names.

The core's kinds (a person at the terminal, random play, the search and the
levels ``easy`` … ``expert``), the game's bots (``GameSpec.bots``) and any
plugin's, all through ``cardcore_register_players``. Built the first time a
table makes a player (``Table.player_kinds``), never with the table: building
a table, to check a position or score a deal, loads no player, no terminal
(``click``) and no search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardcore.ismcts import IsmctsPlayer
from cardcore.levels import LEVELS, factory
from cardcore.players import PlayerFactory, RandomPlayer
from cardcore.terminal.human import HumanPlayer

if TYPE_CHECKING:
    from cardcore.table import Table


def player_kinds(table: Table) -> dict[str, PlayerFactory]:
    """Every kind of ``table``: the plugins' (``cardcore_register_players``:
    the game's bots, house rules', third parties'), then the core's, which a
    plugin's kind of the same name gives way to."""
    kinds: dict[str, PlayerFactory] = {}
    table.hook.cardcore_register_players(register=kinds.__setitem__)
    kinds["human"] = HumanPlayer
    kinds["random"] = RandomPlayer
    kinds["ismcts"] = IsmctsPlayer  # search over imagined deals: every game
    for level in LEVELS:  # easy … expert: a configuration per game and player count
        kinds[level] = factory(level)
    return kinds
