"""Carrousel's bots."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardcore.cards import Card
from cardcore.decision import Decision
from cardcore.game import Observation
from cardcore.moves import Move
from cardcore_plugins.carrousel.cards import BROOM_CARD, VALUES
from cardcore_plugins.carrousel.scoring import JOKER_POINTS

if TYPE_CHECKING:
    from cardcore.table import Table


class GreedyPlayer:
    """Maximises the points and cards it takes now, then keeps high cards safe.

    Each move is worth what it takes (C12 points, plus a share of "most cards"
    and "most clubs"); a build counts half of what it will take; a trail costs
    what it offers the next players.  Among equal moves it plays the card of
    least value, keeping jokers and tens for later.  Deterministic: the first
    best move in legal order.
    """

    needs_observation = False

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        suit = getattr(table.options, "suit_letter", "C")
        self.worth: dict[Card, float] = {}
        for c in table.deck:
            pts = JOKER_POINTS.get(c.name, 0)
            if c.name in ("10D", f"2{suit}"):
                pts = 2
            elif c.rank == 1:
                pts = 1
            self.worth[c] = pts + 0.3 + (0.25 if c.suit == suit else 0.0)

    def value(self, m: Move) -> float:
        worth = self.worth
        card = m.card
        assert card is not None
        keep = 0.02 * VALUES[card]  # keep high capturing cards
        if m.kind in ("capture", "sweep"):
            if not m.takes:
                return -1.0  # a broom wasted on an empty table
            return sum(worth[c] for c in m.takes) + worth[card] - keep
        if m.kind == "build":
            onto = m.get("onto")
            return 0.5 * (sum(worth[c] for c in onto) + worth[card]) - keep
        # trail: what it gives away, and the high cards it spends
        return -worth[card] - keep - (5.0 if card is BROOM_CARD else 0.0)

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        best = moves[0]
        best_value = self.value(best)
        for m in moves[1:]:
            v = self.value(m)
            if v > best_value:
                best, best_value = m, v
        return best
