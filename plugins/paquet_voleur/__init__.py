"""Paquet voleur (Stealing Bundles): pair a hand card with a table card of the
same rank, or steal an opponent's whole pile whose top card matches your card;
trail only when you can do neither.  Most cards wins.  Rulings P1–P8.
"""

from __future__ import annotations

from collections.abc import Callable

from cardcore.game import GameSpec
from cardcore.hookspecs import hookimpl
from cardcore_plugins.paquet_voleur.game import SPEC


@hookimpl
def cardcore_register_games(register: Callable[[GameSpec], None]) -> None:
    register(SPEC)
