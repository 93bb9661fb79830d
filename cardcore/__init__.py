"""cardcore: a framework for fishing and rummy card games, and the CLI that plays them.

The core knows cards, decks, seats, turns, matches, logs and players; every
rule comes from a game plugin (see ``cardcore.hookspecs``).
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardcore.cards import Card, card, parse_card, parse_cards
    from cardcore.game import DealState, GameSpec, HouseRuleSpec, Observation, SideScore
    from cardcore.hookspecs import hookimpl, hookspec
    from cardcore.moves import Move, make_move
    from cardcore.quick import play

# the public names, imported on first use (so that `cardcore --help` stays quick)
_WHERE = {
    "Card": "cardcore.cards",
    "card": "cardcore.cards",
    "parse_card": "cardcore.cards",
    "parse_cards": "cardcore.cards",
    "DealState": "cardcore.game",
    "GameSpec": "cardcore.game",
    "HouseRuleSpec": "cardcore.game",
    "Observation": "cardcore.game",
    "SideScore": "cardcore.game",
    "hookimpl": "cardcore.hookspecs",
    "hookspec": "cardcore.hookspecs",
    "Move": "cardcore.moves",
    "make_move": "cardcore.moves",
    "play": "cardcore.quick",
}


def __getattr__(name: str) -> Any:
    if name in ("simulate", "study"):  # a module, called (``cardcore.simulate(...)``) or used
        import importlib

        return importlib.import_module(f"cardcore.{name}")
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'cardcore' has no attribute {name!r}")


__all__ = [
    "Card",
    "DealState",
    "GameSpec",
    "HouseRuleSpec",
    "Move",
    "Observation",
    "SideScore",
    "card",
    "hookimpl",
    "hookspec",
    "make_move",
    "parse_card",
    "parse_cards",
    "play",
]
__version__ = "0.1.0"
