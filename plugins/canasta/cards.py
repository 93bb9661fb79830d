"""Canasta's cards: the 108-card pack (N2) and the values of N3."""

from __future__ import annotations

from cardcore.cards import Card
from cardcore.deck import DeckSpec

JOKER = "JOKER"
DECK = DeckSpec(copies=2, specials=(JOKER,) * 4)  # N2: two packs and four jokers


def is_wild(c: Card) -> bool:
    """N2: jokers and twos are wild."""
    return c.rank == 0 or c.rank == 2


def is_red_three(c: Card) -> bool:
    return c.rank == 3 and c.suit in ("H", "D")


def is_black_three(c: Card) -> bool:
    return c.rank == 3 and c.suit in ("C", "S")


def value(c: Card) -> int:
    """N3: joker 50; ace and two 20; K Q J 10 9 8: 10; 7 6 5 4: 5; black three 5.
    Red threes are bonus cards (100, N7)."""
    r = c.rank
    if r == 0:
        return 50
    if r in (1, 2):
        return 20
    if r >= 8:
        return 10
    if r >= 4:
        return 5
    return 100 if c.suit in ("H", "D") else 5


VALUES: dict[Card, int] = {c: value(c) for c in DECK.build()}
WILD: dict[Card, bool] = {c: is_wild(c) for c in VALUES}
RED_THREES: frozenset[Card] = frozenset(c for c in VALUES if is_red_three(c))  # for the hot loops
RANK_NAMES = {
    1: "A",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "J",
    12: "Q",
    13: "K",
}
MELD_RANKS = (1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)  # N8: A, K … 4 (black threes only going out)


def rank_of_name(text: str) -> int | None:
    for r, n in RANK_NAMES.items():
        if n == str(text).upper():
            return r
    return None
