"""A web table's step listener: the game thread tells it each step of a
match (a deal dealt, a move played, a deal's end); it says what happened in
words to the session's ``Publisher`` (its history: the move texts and the
game's events, all public), keeps the match's ``Status``, has every view
computed anew (``TableSession._refresh``: ``GameThread.refresh``, which
publishes the frames), paces the bots for the people following them, and
waits between the deals for the people's *next*. A person's take back
(``players.Undoable``: the engine's ``Rewind``) brings the views and this
deal's history back to his decision, the cards he cannot see dealt again.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from cardcore.decision import Step
from cardcore.game import DealState
from cardcore.i18n import T
from cardcore.match import DealResult, Match
from cardcore.players import QuitGame
from cardcore.runner import Listener

if TYPE_CHECKING:
    from cardcore.web.session import TableSession


class Steps(Listener):
    """The session's listener in the game thread: what happened, in words
    (public: the move texts and the game's events, said to the publisher),
    the match's status, and the views at each step."""

    wants_views = True  # each step brings the move's events (the game's, from the spectators' views)

    def __init__(self, session: TableSession) -> None:
        self.s = session
        self.number: int | None = None  # the match being started
        self.state: DealState | None = None  # the deal as at the last step (a take back's way back)

    def match_start(self, match: Match, number: int) -> None:
        self.number = number  # shown with the match's first deal (``deal_start``), all in one step

    def deal_start(self, match: Match, state: DealState) -> None:
        s, status, say = self.s, self.s.status, self.s.publisher.say
        with s._cond:
            if not match.deals:  # a new match: its number, phase, scores and history change together
                status.match = self.number if self.number is not None else status.match + 1
                status.winners = None
                status.sheet = []
                status.scores = list(match.scores)
            status.deal = len(match.deals) + 1
            status.dealer = match.dealer
            status.result = None
            status.phase = "playing"
            s.publisher.clear_history()  # a new deal: the cards named before are dealt anew
            if status.deal == 1 and status.match > 1:
                say(T("Match {n}", n=status.match), kind="match")
            say(T("Deal {n}: {name} deals", n=status.deal, name=s.table.names[match.dealer]), kind="deal")
            for line in s.room.notices:  # the seats given to bots when the table was started
                say(line, kind="event")
            s.room.notices.clear()
        self.state = state
        s._refresh(state)

    def move(self, match: Match, state: DealState, step: Step) -> None:
        s, table = self.s, self.s.table
        if s.stopping:  # a table of bots only stops here: no person's decision to wait at
            raise QuitGame

        def said() -> None:  # with the views of the state after the move (the lock held)
            # i18n: a move in the history: the player's name, then what he played
            s.publisher.say(T("{name}: {move}", name=table.names[step.seat], move=step.text), step.seat)
            for line in step.events:
                s.publisher.say(line, kind="event")

        self.state = state
        s._refresh(state, said)
        with s._cond:
            s.active = time.monotonic()
        to_act = s.desks.get(state.to_act)
        bot_next = to_act is None or to_act.covered
        if s.bot_delay and not s.journal.replay and bot_next and not table.is_deal_over(state):
            s.watch.idle()
            time.sleep(s.bot_delay)  # bots never wait, but a person (or a spectator) can follow them
            s.watch.busy()

    def deal_end(self, match: Match, state: DealState, result: DealResult) -> None:
        s, table, status = self.s, self.s.table, self.s.status

        def said() -> None:  # with the views of the deal's end (the lock held)
            for line in table.plugin.deal_events(state, table.names):
                s.publisher.say(line, kind="event")
            status.result = {**result.to_json(), "totals": list(match.scores)}
            status.sheet.append({"deal": result.number, "points": [side.points for side in result.sides]})
            status.scores = list(match.scores)
            points = [
                # i18n: a side's points at the end of a deal: its players' names, then the points
                T("{side} {points}", side=" & ".join(table.names[i] for i in side.seats), points=side.points)
                for side in result.sides
            ]
            # i18n: the end of a deal in the history: "Deal 2: Ann & Bob 12, Cy & Di 3"
            s.publisher.say(T("Deal {n}: {points}", n=result.number, points=points), kind="result")
            status.phase = "match_over" if match.over else "deal_over"
            status.winners = match.winners() if match.over else None
            status.ready.clear()

        s._refresh(state, said)
        if not match.over:
            s._wait_between_deals(match)

    def checkpoint(self) -> Any:
        """At a person's decision (he may take back to it): the deal and its history as they are."""
        if self.state is None:
            return None
        with self.s._cond:
            return self.state.clone(), list(self.s.publisher.history)

    def rewind(self, token: Any) -> None:
        """A take back: the views computed again from the deal at his decision,
        this deal's history as it was then (said anew, with a line saying so)."""
        if token is None:
            return
        state, history = token
        s = self.s
        with s._cond:
            s.publisher.clear_history()  # the lines since are gone: the pages get them anew
            s.publisher.history.extend(history)
            seat = state.to_act
            s.publisher.say(T("{name} takes a move back", name=s.table.names[seat]), kind="event")
        self.state = state
        s._refresh(state)

    def redealt(self, match: Match, state: DealState, event: dict[str, Any]) -> None:
        """After the take back: the cards its taker cannot see were dealt again
        (the views are the same: they show nothing of those cards)."""
        s = self.s
        with s._cond:
            name = s.table.names[state.to_act]
            # i18n: in the history, after "Ana takes a move back": the stock and the others'
            # hands are shuffled and dealt again
            s.publisher.say(T("The cards {name} cannot see are dealt again", name=name), kind="event")
        self.state = state
        s._refresh(state)
