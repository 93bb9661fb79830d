"""Paquet voleur's bots."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardcore.decision import Decision
from cardcore.game import Observation
from cardcore.moves import Move

if TYPE_CHECKING:
    from cardcore.table import Table


class GreedyPlayer:
    """Takes the most cards now; ties go to the first such move in legal order."""

    needs_observation = False

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        pass

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        best = moves[0]
        most = len(best.takes)
        for m in moves:
            if len(m.takes) > most:
                best, most = m, len(m.takes)
        return best
