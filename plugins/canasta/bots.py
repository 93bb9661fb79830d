"""Canasta's bots."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from cardcore.cards import Card
from cardcore.decision import Decision
from cardcore.game import Observation
from cardcore.moves import Move
from cardcore_plugins.canasta.cards import RANK_NAMES, VALUES, WILD, is_black_three
from cardcore_plugins.canasta.game import Canasta

if TYPE_CHECKING:
    from cardcore.table import Table
    from cardcore_plugins.canasta.state import CanastaState


class GreedyPlayer:
    """Melds early, takes the pile when it gains (with 3 players, not while
    the first to take it would play alone against the two others, N17: it
    draws instead), blocks the pile with black threes, freezes a big pile with
    a wild card, otherwise keeps wild cards, avoids discarding ranks the
    opponents have melded, and goes out as soon as it can.

    Every legal move gets a priority; the first best in legal order is played
    (deterministic).  It sees only its seat's observation.
    """

    needs_observation = True

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        self.seat = seat
        game = table.plugin
        assert isinstance(game, Canasta)  # a Canasta table's plugin (or a house rule's subclass of it)
        self.game = game
        self.pile_size = 0
        self.opponent_ranks: set[str] = set()
        self.alone_if_taken = False  # N17: taking the pile now leaves its taker alone against two

    def value(self, m: Move, hand: Sequence[Card], counts: Mapping[int, int]) -> float:
        k = m.kind
        n = len(hand)
        if k == "commit":
            return 1000
        if k == "answer":
            return 10 if m.get("yes") else 0
        if k == "ask_go_out":
            return 800
        if k == "take_pile":
            if self.alone_if_taken:
                return 140  # below a draw: alone against two costs more than the pile gains (N17)
            if len(m.takes) >= 3:
                return 500 + len(m.takes) - 5 * len(m.get("cards"))
            return 120
        if k == "draw":
            return 150
        if k == "meld":
            cards = m.get("cards")
            if len(cards) == n:
                return 900  # going out
            wild = any(WILD[c] for c in cards)
            return (250 if wild else 400) + sum(VALUES[c] for c in cards) / 10
        if k == "add":
            if n == 1:
                return 900
            if m.card is not None and WILD[m.card]:
                return 240
            return 350
        if k == "discard":
            c = m.card
            assert c is not None
            if n == 1:
                return 900
            if WILD[c] and self.pile_size >= 8:
                return 120  # freeze a big pile against the opponents (N6)
            if is_black_three(c):
                return 110
            bad = VALUES[c] / 10 + (30 if WILD[c] else 0) + 5 * (counts.get(c.rank, 0) - 1)
            if c.name[:-1] in self.opponent_ranks:
                bad += 40  # they could take the pile onto their meld
            return 100 - bad
        if k == "withdraw":
            return 5
        return 1

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        hand = observation.hand if observation else ()
        self.pile_size = 0
        self.opponent_ranks = set()
        if observation is not None:
            view = observation.public
            self.pile_size = view["pile"]["size"]
            self.alone_if_taken = bool(view.get("alone_if_taken"))
            self.opponent_ranks = {
                meld["rank"]
                for side in view["sides"]
                if self.seat not in side["seats"]
                for meld in side["melds"]
            }
        return self._best(hand, moves)

    def choose_imagined(self, state: CanastaState, moves: Sequence[Move]) -> Move:
        """``choose`` on an imagined deal (a search's rollout), read from the
        state without building an ``Observation``: only what its seat's view
        holds (its hand, the pile's size, the ranks the other sides melded),
        so it plays exactly as ``choose`` would."""
        seat = self.seat
        self.pile_size = len(state.discard)
        self.alone_if_taken = self.game.alone_if_taken(state)
        self.opponent_ranks = {
            RANK_NAMES[r]
            for team, melds in zip(state.teams, state.melds, strict=True)
            if seat not in team
            for r in melds
        }
        return self._best(state.hands[seat], moves)

    def _best(self, hand: Sequence[Card], moves: Sequence[Move]) -> Move:
        # each rank's cards in the hand (a dict: a Counter costs more, and rollouts call this)
        counts: dict[int, int] = {}
        for c in hand:
            counts[c.rank] = counts.get(c.rank, 0) + 1
        best = moves[0]
        best_value = self.value(best, hand, counts)
        for m in moves[1:]:
            v = self.value(m, hand, counts)
            if v > best_value:
                best, best_value = m, v
        return best
