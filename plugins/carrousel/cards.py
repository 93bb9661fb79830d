"""Carrousel's cards: the decks of C2 and the values of C5."""

from __future__ import annotations

from cardcore.cards import Card, card
from cardcore.deck import DeckSpec

JOKER20, JOKER15, JOKER11, BROOM = "JOKER20", "JOKER15", "JOKER11", "BROOM"
SPECIALS = frozenset({JOKER20, JOKER15, JOKER11, BROOM})
FACE_RANKS = (11, 12, 13)  # jack, queen, king (C7)

#: table cards turned up at the start of a deal, by deck size (C4)
TABLE_CARDS = {56: 8, 55: 7, 54: 6}
#: the match target by deck size (C3)
TARGETS = {56: 120, 55: 90, 54: 60}


def deck_spec(size: int, without: str = "joker20") -> DeckSpec:
    """C2: 56 = 52 + JOKER20 + JOKER15 + JOKER11 + BROOM; 55 drops JOKER20 (or the
    broom); 54 drops both."""
    specials = [JOKER20, JOKER15, JOKER11, BROOM]
    if size == 55:
        specials.remove(JOKER20 if without == "joker20" else BROOM)
    elif size == 54:
        specials.remove(JOKER20)
        specials.remove(BROOM)
    return DeckSpec(specials=tuple(specials))


def value(c: Card) -> int:
    """C5: ace 1, 2–10 face value, jokers 11/15/20; jack, queen, king and broom 0 (no value)."""
    if c.rank:
        return c.rank if c.rank <= 10 else 0
    return {JOKER11: 11, JOKER15: 15, JOKER20: 20}.get(c.name, 0)


#: C5 values of every card, looked up by the interned card (fast in the inner loop)
VALUES: dict[Card, int] = {c: value(c) for c in DeckSpec(specials=(JOKER20, JOKER15, JOKER11, BROOM)).build()}
BROOM_CARD = card(BROOM)
