"""Paquet voleur's arrays for learning agents (``cardcore_rl_encoding``;
``cardcore.rl``, docs/RL.md). Every side is counted from the seat's own on.

Action ids (52 cards, in the deck's order ♣ ♦ ♥ ♠, A … K):
``trail`` card: ``card``; ``pair`` card taking a card of suit s (the first
taken, with the house rule that takes them all): ``52 + 4·card + s``;
``steal`` card from the side k places after the seat's: ``260 + 52·(k−1) +
card``.

Observation: the hand (52), the table (52), each side's pile top (52 each)
and size (/52), each seat's hand size (/52), the stock (/52), whether the
seat dealt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardcore.game import Observation
from cardcore.moves import Move
from cardcore.rl.encoding import Encoding, Vector, relative_sides

if TYPE_CHECKING:
    from cardcore.table import Table

SUITS = "CDHS"


class PaquetVoleurEncoding(Encoding):
    name = "paquet_voleur"

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        k, n = len(self.cards), len(self.sides)
        self.actions = k + 4 * k + k * (n - 1)
        self.action_parts = (("trail", k), ("pair", 4 * k), ("steal", k * (n - 1)))
        self.parts = (
            ("hand", k),
            ("table", k),
            *((f"pile top, side +{i}", k) for i in range(n)),
            *((f"pile size, side +{i}", 1) for i in range(n)),
            *((f"hand size, seat +{i}", 1) for i in range(self.players)),
            ("stock", 1),
            ("dealer", 1),
        )
        self.high = 1.0

    def observe(self, obs: Observation, out: Vector) -> None:
        k, n = len(self.cards), len(self.sides)
        seat = obs.seat if obs.seat is not None else 0
        count = self.cards.count
        count(obs.hand, out, 0)
        count(obs.public["table"], out, k)
        piles = obs.public["piles"]
        for place, side in enumerate(relative_sides(self.sides, seat)):
            pile = piles[side]
            if pile["top"] is not None:
                count([pile["top"]], out, 2 * k + place * k)
            out[2 * k + n * k + place] = pile["size"] / self.deck
        at = 2 * k + n * k + n
        for i in range(self.players):
            out[at + i] = obs.hand_sizes[(seat + i) % self.players] / self.deck
        at += self.players
        out[at] = obs.stock / self.deck
        out[at + 1] = 1.0 if obs.dealer == seat else 0.0

    def action(self, move: Move, obs: Observation, index: int) -> int:
        k = len(self.cards)
        assert move.card is not None, move
        card = self.cards.index[move.card.name]
        if move.kind == "trail":
            return card
        if move.kind == "pair":
            return k + 4 * card + SUITS.index(move.takes[0].suit)
        if move.kind == "steal":
            seat = obs.seat if obs.seat is not None else 0
            n = len(self.sides)
            place = (int(move.get("from")) - self.side_of[seat]) % n
            return 5 * k + k * (place - 1) + card
        raise ValueError(f"paquet_voleur's encoding: no action id for a move of kind {move.kind!r}")
