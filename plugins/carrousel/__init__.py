"""Carrousel (Karuzelė / Karuzela): a fishing game with captures by sum, builds,
face cards taken in pairs, jokers worth 20/15/11 and a broom that sweeps the
table.  Rulings C1–C13.
"""

from __future__ import annotations

from collections.abc import Callable

from cardcore.game import GameSpec
from cardcore.hookspecs import hookimpl
from cardcore_plugins.carrousel.game import SPEC


@hookimpl
def cardcore_register_games(register: Callable[[GameSpec], None]) -> None:
    register(SPEC)
