"""Canasta's moves, typed: their kinds and a constructor per kind.

The engine's currency stays the generic ``Move`` named tuple ``(kind, card,
takes, extra)``. Bots, house rules and tests build moves with these
constructors; the move generator (``movegen.py``) builds the same tuples
inline in its loops (a constructor call costs about 90 ns per move).
"""

from __future__ import annotations

from typing import Final, Literal

from cardcore.cards import Card
from cardcore.moves import Move

Kind = Literal[
    "draw", "take_pile", "meld", "add", "commit", "withdraw", "ask_go_out", "answer", "discard", "stop"
]
KINDS: Final[tuple[Kind, ...]] = (
    "draw",
    "take_pile",
    "meld",
    "add",
    "commit",
    "withdraw",
    "ask_go_out",
    "answer",
    "discard",
    "stop",
)


def draw() -> Move:
    """N5: draw from the stock (two cards with 2 or 3 players)."""
    return Move("draw")


def take_pile(pile: tuple[Card, ...], cards: tuple[Card, ...] = ()) -> Move:
    """N9: take ``pile``, melding its top card with ``cards`` from hand (none:
    onto the side's meld of that rank)."""
    return Move("take_pile", None, pile, (("cards", cards),))


def meld(cards: tuple[Card, ...], rank: str) -> Move:
    """N8: a new meld of three cards of ``rank`` (``A``, ``K`` … ``4``, ``3``)."""
    return Move("meld", None, (), (("cards", cards), ("rank", rank)))


def add(card: Card, rank: str) -> Move:
    """N8: ``card`` added to the side's (or the staged) meld of ``rank``."""
    return Move("add", card, (), (("rank", rank),))


def commit() -> Move:
    """N10: lay down the staged initial meld."""
    return Move("commit")


def withdraw() -> Move:
    """Take back the staged initial meld (a convenience, G1)."""
    return Move("withdraw")


def ask_go_out() -> Move:
    """N12: "May I go out?"."""
    return Move("ask_go_out")


def answer(yes: bool) -> Move:
    """N12: the partner's answer, which binds."""
    return Move("answer", None, (), (("yes", yes),))


def discard(card: Card) -> Move:
    """N5: discard ``card``; the turn ends."""
    return Move("discard", card)


def stop() -> Move:
    """N13a: the stock ended with a red three: the deal ends."""
    return Move("stop")
