"""Paquet voleur's moves, typed: their kinds and a constructor per kind.

The engine's currency stays the generic ``Move`` named tuple; the move
generator builds the same tuples inline (a constructor call costs about
90 ns per move).
"""

from __future__ import annotations

from typing import Final, Literal

from cardcore.cards import Card
from cardcore.moves import Move

Kind = Literal["pair", "steal", "trail"]
KINDS: Final[tuple[Kind, ...]] = ("pair", "steal", "trail")


def pair(card: Card, takes: tuple[Card, ...]) -> Move:
    """P5a: ``card`` takes the table card(s) of its rank (several with the house rule)."""
    return Move("pair", card, takes)


def steal(card: Card, pile: tuple[Card, ...], side: int) -> Move:
    """P5b: ``card`` takes side ``side``'s whole pile."""
    return Move("steal", card, pile, (("from", side),))


def trail(card: Card) -> Move:
    """P5c: ``card`` is put on the table."""
    return Move("trail", card)
