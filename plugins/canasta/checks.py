"""Canasta's own invariants for the conformance runs (tests and
``tools/soak.py``): how a deal may end (G1, N12, N13, N13a) and what a meld
may hold (N8, N17a)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardcore.moves import Move
from cardcore_plugins.canasta.state import CanastaState, meld_rank, wild_count


@dataclass
class DealEnds:
    """Counts how deals end; ``on_move``/``on_deal`` raise AssertionError on a
    deal ended against the rules."""

    deals: int = 0
    went_out: int = 0
    stock_out: int = 0  # N13: the stock ran out and the pile could not be taken
    last_red_three: int = 0  # N13a
    stops: int = 0  # `stop` played (only after N13a's red three)
    stops_otherwise: int = 0
    ended_with_stock: int = 0  # cards left in the stock (only by going out)
    problems: list[str] = field(default_factory=list)

    def on_move(self, state: CanastaState, move: Move) -> None:
        if move.kind == "stop":
            self.stops += 1
            if not state.last_red_three:
                self.stops_otherwise += 1
                raise AssertionError("stop played without N13a's red three (G1)")

    def on_deal(self, state: CanastaState, result: Any) -> None:
        self.deals += 1
        valid_melds(state)
        if state.went_out is not None:
            self.went_out += 1
        elif state.last_red_three:
            self.last_red_three += 1
        else:
            self.stock_out += 1
        if state.stock:
            self.ended_with_stock += 1
            if state.went_out is None:
                raise AssertionError("a deal ended with cards in the stock without going out (G1, N12)")


def valid_melds(state: CanastaState) -> None:
    """N8: every meld has one rank, two naturals at least, three wild cards at
    most (N17a: more only in a 3-player merge); black threes without wild cards."""
    for team in state.melds:
        for r, m in team.items():
            assert meld_rank(m) == r
            limit = 6 if state.pile_taker is not None else 3
            assert len(m) >= 3 and len(m) - wild_count(m) >= 2 and wild_count(m) <= limit
            if r == 3:
                assert wild_count(m) == 0 and all(c.suit in "CS" for c in m)
