"""cardcore: a framework for fishing and rummy card games, and the CLI that plays them.

The core knows cards, decks, seats, turns, matches, logs and players; every
rule comes from a game plugin (see ``cardcore.hookspecs``).
"""

from cardcore.cards import Card, card, parse_card, parse_cards
from cardcore.game import DealState, GameSpec, HouseRuleSpec, Observation, SideScore
from cardcore.hookspecs import hookimpl, hookspec
from cardcore.moves import Move, make_move

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
]
__version__ = "0.1.0"
