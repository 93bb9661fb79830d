"""Paquet voleur's bots."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardcore.decision import Decision
from cardcore.game import Observation
from cardcore.moves import Move
from cardcore_plugins.paquet_voleur.state import PVState

if TYPE_CHECKING:
    from cardcore.table import Table


def most_taken(moves: Sequence[Move]) -> Move:
    """The move that takes the most cards now; ties go to the first in legal order."""
    best = moves[0]
    most = len(best.takes)
    for m in moves:
        if len(m.takes) > most:
            best, most = m, len(m.takes)
    return best


class GreedyPlayer:
    """Takes the most cards now; ties go to the first such move in legal order."""

    needs_observation = False

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        pass

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        return most_taken(moves)


class CarefulPlayer:
    """Greedy that counts the cards: it weighs what a move takes against what
    it leaves open to a steal.

    A pair or a steal puts the played card on top of its side's pile (P5a,
    P5b); an opponent who holds a card of that rank may take the whole pile
    on his turn. So each taking move is worth the cards it wins (a steal also
    takes them from the side robbed: they count for both sides) less, times
    the chance that an opponent acting before the side's next turn holds that
    rank, what the pile would then lose. A trail (P5c: only when nothing can
    be taken) lays the card whose rank the next opponents are least likely to
    hold. The chance is counted from the cards its seat has not seen (every
    card played is face up: those in the other hands and the stock) and their
    hand sizes; a seat that trailed holds none of the ranks it then lacked
    (``PVState.lacks``). Deterministic: the first best move in legal order.
    The level ``hard`` at three and four players; the search uses it at two
    (``ismcts:iterations=5,prior=careful,rollout=careful``; ``PaquetVoleur.levels``).
    """

    needs_observation = False

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        self.rng = random.Random(rng.random())  # its own: for the imagined deal it counts from

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        if decision is None:
            return most_taken(moves)  # nothing to count from: greedy's choice
        # any imagined deal holds the same unseen cards, only placed otherwise: it counts them
        sample = decision.sample(self.rng)
        assert isinstance(sample, PVState)  # Paquet voleur's table imagines its own deals
        return self.choose_imagined(sample, moves)

    def choose_imagined(self, state: PVState, moves: Sequence[Move]) -> Move:
        """The move for the seat to act, counting what it has not seen in ``state``."""
        seat = state.to_act
        hands = state.hands
        n = len(hands)
        side_of = state.table.side_of
        mine = side_of[seat]
        unseen = [0] * 14  # rank -> copies the seat has not seen
        total = 0
        for s in range(n):
            if s != seat:
                for c in hands[s]:
                    unseen[c.rank] += 1
                total += len(hands[s])
        for c in state.stock:
            unseen[c.rank] += 1
        total += len(state.stock)
        # the opponents who act before this side's next turn (clockwise)
        threats: list[int] = []
        for step in range(1, n):
            s = (seat + step) % n
            if side_of[s] == mine:
                break
            if hands[s]:
                threats.append(s)
        lacks = state.lacks

        def chance(rank: int) -> float:
            """That one of the threats holds a card of ``rank``."""
            left = unseen[rank]
            if not left or not threats:
                return 0.0
            none = 1.0
            for s in threats:
                if lacks[s] >> rank & 1:
                    continue
                miss = 1.0
                for i in range(len(hands[s])):
                    if total - i <= 0:
                        break
                    miss *= max(total - left - i, 0) / (total - i)
                none *= miss
            return 1.0 - none

        others = max(len(state.piles) - 1, 1)
        best = moves[0]
        best_value = -1e9
        if best.kind == "trail":
            for m in moves:
                assert m.card is not None
                v = -chance(m.card.rank)
                if v > best_value:
                    best, best_value = m, v
            return best
        pile = len(state.piles[mine])
        for m in moves:
            assert m.card is not None
            taken = len(m.takes)
            won = taken + 1 + (taken / others if m.kind == "steal" else 0.0)
            after = pile + taken + 1
            v = won - chance(m.card.rank) * (after + after / others)
            if v > best_value:
                best, best_value = m, v
        return best
