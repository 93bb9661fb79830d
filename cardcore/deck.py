"""Decks from a declarative spec, shuffling with a passed-in seeded RNG, cutting,
and the bookkeeping that keeps several copies of one card distinct."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardcore.cards import RANKS, SUITS, Card, CardError, card, parse_card
from cardcore.i18n import T, Tn


@dataclass(frozen=True)
class DeckSpec:
    """What a game plays with.

    ``copies`` standard 52-card decks (or only ``ranks``/``suits`` of them), plus
    the ``specials`` listed, one entry per physical card: ``("JOKER",) * 4`` is
    four jokers, numbered copy 0..3.
    """

    copies: int = 1
    specials: tuple[str, ...] = ()
    ranks: tuple[str, ...] = RANKS
    suits: tuple[str, ...] = SUITS

    def build(self) -> list[Card]:
        """Every card of the deck, in a fixed order (new-deck order)."""
        cards = [
            card(rank + suit, copy)
            for copy in range(self.copies)
            for suit in self.suits
            for rank in self.ranks
        ]
        seen: Counter[str] = Counter()
        for name in self.specials:
            cards.append(card(name, seen[name]))
            seen[name] += 1
        return cards


def shuffled(cards: Sequence[Card], rng: random.Random) -> list[Card]:
    """A shuffled copy of ``cards``; the only randomness is ``rng``."""
    out = list(cards)
    rng.shuffle(out)
    return out


def cut(cards: Sequence[Card], at: int) -> list[Card]:
    """Cut the pack: the top ``at`` cards go under the rest."""
    if not 0 < at < len(cards):
        raise ValueError(f"cannot cut {len(cards)} cards at {at}")
    return list(cards[at:]) + list(cards[:at])


def deal_rounds(
    hands: list[list[Card]], cards: Sequence[Card], dealer: int, rounds: int, start: int = 0
) -> int:
    """Deal ``rounds`` rounds of one card to each player, clockwise from the
    dealer's left, from ``cards[start:]``; return the index of the next card."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    i = start
    for _ in range(rounds):
        for seat in order:
            hands[seat].append(cards[i])
            i += 1
    return i


def deal_more(hands: list[list[Card]], stock: list[Card], dealer: int, rounds: int) -> None:
    """Deal ``rounds`` more rounds from ``stock`` (next card first), one card
    at a time clockwise from the dealer's left, as far as the stock goes: the
    new hands of fishing games when every hand is played out."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    for _ in range(rounds):
        for seat in order:
            if not stock:
                return
            hands[seat].append(stock.pop(0))


class CardPool:
    """Hands out the physical cards of a deck by name, each copy at most once.

    Used to read position files: the first ``KH`` read is copy 0, the second
    copy 1; a third with a two-deck pack is an error.
    """

    def __init__(self, deck: Iterable[Card]) -> None:
        self._free: dict[str, list[Card]] = {}
        for c in deck:
            self._free.setdefault(c.name, []).append(c)
        for copies in self._free.values():
            copies.reverse()
        self._total = {name: len(v) for name, v in self._free.items()}

    def take(self, text: str) -> Card:
        c = parse_card(text)
        if c.name not in self._total:
            raise CardError(T("{text!r} is not a card of this game's deck", text=text))
        copies = self._free[c.name]
        if not copies:
            n = self._total[c.name]
            raise CardError(
                Tn(
                    "{card} appears more often than the deck holds it ({n} copy)",
                    "{card} appears more often than the deck holds it ({n} copies)",
                    n,
                    card=c.name,
                )
            )
        return copies.pop()
