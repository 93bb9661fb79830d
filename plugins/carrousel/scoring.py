"""Deal scoring (C12, C12a)."""

from __future__ import annotations

from collections.abc import Sequence

from cardcore.cards import Card
from cardcore.i18n import NP_
from cardcore_plugins.carrousel.cards import JOKER11, JOKER15, JOKER20

JOKER_POINTS = {JOKER20: 10, JOKER15: 5, JOKER11: 3}

# the lines of a deal's breakdown (its keys, "_" said as " "; the cards 10D and 2C/2S are
# said as cards), for the terminal and the pages
BREAKDOWN = (
    # i18n: the points of the jokers captured (C12)
    NP_("breakdown", "jokers"),
    NP_("breakdown", "aces"),
    # i18n: the points for having captured the most clubs (C12)
    NP_("breakdown", "most clubs"),
    # i18n: the points for having captured the most spades (C12a)
    NP_("breakdown", "most spades"),
    # i18n: the points for having captured the most cards (C12)
    NP_("breakdown", "most cards"),
)


def most_points(counts: Sequence[int]) -> list[int]:
    """2 points for the single highest count; a tie of exactly two sides gives each
    1; three or more sides tied give nobody anything (C12). Sides holding none
    have nothing to have "most" of (C12b)."""
    best = max(counts)
    if best == 0:
        return [0] * len(counts)  # C12b
    top = [i for i, c in enumerate(counts) if c == best]
    out = [0] * len(counts)
    if len(top) == 1:
        out[top[0]] = 2
    elif len(top) == 2:
        out[top[0]] = out[top[1]] = 1
    return out


def score_piles(piles: Sequence[Sequence[Card]], suit: str = "C") -> list[dict[str, int]]:
    """Per side: the breakdown of C12 (``suit`` "S" for C12a)."""
    two = f"2{suit}"
    most = "most_clubs" if suit == "C" else "most_spades"
    suit_counts = [sum(1 for c in p if c.suit == suit) for p in piles]
    card_counts = [len(p) for p in piles]
    most_suit = most_points(suit_counts)
    most_cards = most_points(card_counts)
    out = []
    for i, pile in enumerate(piles):
        names = [c.name for c in pile]
        out.append(
            {
                "jokers": sum(JOKER_POINTS.get(n, 0) for n in names),
                "10D": 2 * names.count("10D"),
                two: 2 * names.count(two),
                "aces": sum(1 for c in pile if c.rank == 1),
                most: most_suit[i],
                "most_cards": most_cards[i],
            }
        )
    return out
