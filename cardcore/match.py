"""A match: a series of deals until the game says it is over."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardcore.game import DealState, SideScore
from cardcore.i18n import T

if TYPE_CHECKING:
    from cardcore.table import Table


@dataclass(frozen=True)
class DealResult:
    """One finished deal: its number, dealer and each side's score; ``moves``
    played in it (by this process: a resumed deal counts those after the resume)."""

    number: int
    dealer: int
    sides: tuple[SideScore, ...]
    moves: int = field(default=0, compare=False)

    @property
    def points(self) -> list[int]:
        return [s.points for s in self.sides]

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.number,
            "dealer": self.dealer,
            "points": self.points,
            "sides": [s.to_json() for s in self.sides],
        }


@dataclass
class Match:
    """The match's RNG, dealer and running scores (one total per side).

    The RNG is the only randomness of the match: seeded once, it drives the
    first-dealer draw and every shuffle and cut.  Chance steps are recorded in
    ``events`` for the game log.
    """

    table: Table
    seed: int | str | None
    rng: random.Random = field(init=False)
    dealer: int = field(init=False)
    scores: list[int] = field(init=False)
    deals: list[DealResult] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    # a deal given rather than dealt (``play --from POSITION``): the next
    # ``start_deal`` returns it, and ``given`` says so to the log
    next_deal: DealState | None = None
    given: bool = False

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.scores = [0] * len(self.table.sides)
        self.dealer = self.table.first_dealer(self.rng, self.record)

    def record(self, kind: str, **data: Any) -> None:
        """Keep a chance step (first-dealer draw, cut …) for the log."""
        self.events.append({"event": "chance", "kind": kind, **data})

    def take_events(self) -> list[dict[str, Any]]:
        events, self.events = self.events, []
        return events

    def start_deal(self) -> DealState:
        state, self.next_deal = self.next_deal, None
        self.given = state is not None
        if state is not None:
            self.dealer = state.dealer
            return state
        return self.table.deal(self, self.rng, self.record)

    def end_deal(self, state: DealState, moves: int = 0) -> DealResult:
        """Finish and score ``state`` (``moves`` played in it); add to the
        totals; decide if the match goes on."""
        table = self.table
        table.finish_deal(state)
        sides = tuple(table.score_deal(state))
        if len(sides) != len(self.scores) or not all(isinstance(s.points, int) for s in sides):
            from cardcore.errors import PluginError

            raise PluginError(
                T("{rules}: the deal's score is not one whole number per side", rules=table.rules)
            )
        for i, s in enumerate(sides):
            self.scores[i] += s.points
        result = DealResult(len(self.deals) + 1, self.dealer, sides, moves)
        self.deals.append(result)
        self.over = table.is_match_over(self)
        if not self.over:
            self.dealer = table.next_dealer(self, state)
        return result

    def winners(self) -> list[int]:
        """The winning sides (several when tied), once the match is over."""
        return self.table.match_winners(self)
