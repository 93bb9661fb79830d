"""What the engine hands out at each move: the decision context a player
chooses with, and the step record every listener gets once the move is made.

A player's ``choose(observation, moves, decision)`` gets, besides its seat's
``Observation`` and a copy of the legal moves, a ``Decision``: the only
channel through which it may ask anything more of the deal (imagined deals
for a search, why a move is illegal, the match's status, a way back for
undo), each answer honest for its seat. After the move the engine makes one
frozen ``Step`` (seat, move, its text and public JSON, the events it caused)
and gives the same record to the log, the printer, the browser table, the
witnesses and the checks: none of them computes it again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardcore.game import DealState, Observation, redeal_unseen
from cardcore.i18n import T
from cardcore.moves import Move, laid_cards, relaid

if TYPE_CHECKING:
    from cardcore.match import Match
    from cardcore.table import Table


@dataclass(frozen=True, slots=True)
class Step:
    """One move, as every seat saw it played: made once by the engine after
    the move is applied.

    ``deal`` (from 1) and ``index`` (from 1, within the deal) place it;
    ``seat`` played ``move``; ``text`` is the game's text for it
    (``cardcore_move_text``) and ``public`` its public JSON (``kind``,
    ``card``, ``text``, ``takes`` and the game's fields: what a log line and a
    witness get; it names no card hidden from the other seats); ``forced``:
    it was the only legal move. ``events`` are what it did that its text does
    not say (``GamePlugin.events`` on the spectators' views before and after),
    and ``view`` the spectators' view after it: both only when a listener asks
    for views (``Listener.wants_views``), else ``()`` and None.
    """

    deal: int
    index: int
    seat: int
    move: Move
    text: str
    public: dict[str, Any]
    forced: bool = False
    events: tuple[str, ...] = ()
    view: Observation | None = None

    def witnessed(self) -> dict[str, Any]:
        """What a player's ``witness(event)`` gets: ``{"event": "move", "seat", "move"}``."""
        return {"event": "move", "seat": self.seat, "move": self.public}


class Rewind(Exception):
    """Raised from ``choose`` to take the game back to a ``Checkpoint`` of
    this deal (a person's undo): the engine restores the state, the players'
    random generators and the listeners (``Listener.rewind``) and asks again.

    ``redeal``: the cards the seat to act cannot see there are dealt again
    (``runner._redeal``), so that what the person saw after that decision (the
    stock's next card, a card an opponent played) tells him nothing of the
    deal he goes back to; the listeners hear it (``Listener.redealt``) and a
    log keeps its ``seed`` and ``count`` (the deal's take backs dealt again so
    far), which a replay gives back. False: the same cards."""

    def __init__(
        self, point: Checkpoint, redeal: bool = False, seed: str | None = None, count: int | None = None
    ) -> None:
        super().__init__("rewind")
        self.point = point
        self.redeal = redeal
        self.seed = seed
        self.count = count


@dataclass(frozen=True)
class Checkpoint:
    """A way back to one decision of a deal (``Decision.checkpoint``): the
    state, the moves made so far, each player's RNG and each listener's token."""

    deal: int
    state: DealState
    moves: int
    rngs: tuple[Any, ...]
    tokens: tuple[Any, ...]
    view: Observation | None


class Decision:
    """What a player may use at one decision besides its observation and the
    legal moves (the third argument of ``choose``).

    ``seat`` decides now; ``deal`` (from 1) and ``index`` (the moves made in
    the deal so far) say when. ``sample(rng)`` imagines the deal as the seat
    may (``Table.sample_state``: what it cannot see redealt), for a search;
    ``explain(move)`` says which rule keeps ``move`` from being legal, and
    nothing else of the deal; ``status()`` is the match at a glance;
    ``can_undo`` says whether a way back exists (a person's seat wrapper sets
    it); ``checkpoint()`` makes one, for ``Rewind``.
    """

    __slots__ = (
        "_listeners",
        "_players",
        "_state",
        "can_undo",
        "deal",
        "index",
        "match",
        "seat",
        "table",
        "view",
    )

    def __init__(
        self,
        table: Table,
        match: Match,
        state: DealState,
        seat: int,
        deal: int,
        index: int,
        players: Any = (),
        listeners: Any = (),
        view: Observation | None = None,
    ) -> None:
        self.table = table
        self.match = match
        self._state = state
        self.seat = seat
        self.deal = deal
        self.index = index
        self._players = players
        self._listeners = listeners
        self.view = view  # the spectators' view now (None unless a listener wants views)
        self.can_undo = False

    def sample(self, rng: random.Random, plain: bool = False) -> DealState:
        """The deal as this seat may imagine it: what it cannot see redealt,
        as the game's ``cardcore_sample_state`` keeps what the public history
        shows; ``plain``: the core's plain redeal (``redeal_unseen``), which
        ignores that history, to measure what it is worth."""
        if plain:
            return redeal_unseen(self._state, self.seat, rng)
        return self.table.sample_state(self._state, self.seat, rng)

    def explain(self, move: Move) -> str | None:
        """Why ``move`` is not legal here (the game's reason), or None."""
        return self.table.explain_illegal(self._state, move)

    def laid_with(self, move: Move, names: Sequence[str], moves: Sequence[Move]) -> Move | None:
        """The listed ``move`` laid with the mover's cards named ``names`` (in
        the order of its cards), when the game takes it as the same move
        (``cardcore_named_move``: Canasta's suits, N8a); ``move`` itself when
        the names are its own; else None."""
        if [c.name for c in laid_cards(move)] == list(names):
            return move
        hand = self._state.hands[self._state.to_act]
        other = relaid(move, names, hand)
        if other is None:
            return None
        return self.table.named_move(self._state, other, moves)

    def status(self) -> str:
        """The match at a glance: the deal, each side's score, what wins."""
        return match_status(self.match, self.deal)

    def checkpoint(self, heard: bool = True) -> Checkpoint:
        """A way back to this decision (costs a copy of the state). ``heard=False``:
        one the listeners are not told of (a replay's redeal: nothing is undone)."""
        rngs = tuple(p.rng.getstate() if hasattr(p, "rng") else None for p in self._players)
        tokens = tuple(lst.checkpoint() if heard else None for lst in self._listeners)
        return Checkpoint(self.deal, self._state.clone(), self.index, rngs, tokens, self.view)


def match_status(match: Match, deal: int | None = None) -> str:
    """``deal 2 · score Ana & Bo 40, Cy & Di 25 · first to 120``: a ``Text``
    (its English as before), said in each reader's language; the game's goal
    a ``Text`` of its own where the game marks it."""
    table = match.table
    names = table.names
    side = [" & ".join(names[s] for s in seats) for seats in table.sides]
    score = ", ".join(f"{side[i]} {p}" for i, p in enumerate(match.scores))
    goal = table.plugin.goal()
    number = deal if deal is not None else len(match.deals) + 1
    if goal:
        return T("deal {number} · score {score} · {goal}", number=number, score=score, goal=goal)
    return T("deal {number} · score {score}", number=number, score=score)
