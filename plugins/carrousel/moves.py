"""Carrousel's moves, typed: their kinds and a constructor per kind.

The engine's currency stays the generic ``Move`` named tuple ``(kind, card,
takes, extra)``. Bots, house rules and tests build moves with these
constructors; the move generator (``movegen.py``) builds the same tuples
inline, because a constructor call costs about 90 ns per move, 5–10 % of
the generator's time (measured with ``benchmarks/bench.py``).
"""

from __future__ import annotations

from typing import Final, Literal

from cardcore.cards import Card
from cardcore.moves import Move
from cardcore_plugins.carrousel.cards import BROOM_CARD

Kind = Literal["capture", "build", "sweep", "trail"]
KINDS: Final[tuple[Kind, ...]] = ("capture", "build", "sweep", "trail")


def capture(card: Card, takes: tuple[Card, ...]) -> Move:
    """C6, C7: ``card`` takes the table items whose cards are ``takes``."""
    return Move("capture", card, takes)


def build(card: Card, onto: tuple[Card, ...], value: int) -> Move:
    """C8: ``card`` joins the table cards ``onto`` into a build of ``value``."""
    return Move("build", card, (), (("onto", onto), ("value", value)))


def sweep(takes: tuple[Card, ...]) -> Move:
    """C9: the broom takes everything on the table."""
    return Move("sweep", BROOM_CARD, takes)


def trail(card: Card) -> Move:
    """C10: ``card`` is put face up on the table."""
    return Move("trail", card)
