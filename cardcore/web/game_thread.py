"""The game thread of a web table: ``TableSession.start`` makes it run.

``GameThread`` runs ``runner.play_match`` in a thread of its own, match
after match, exactly as ``cardcore play`` does: bots choose in that thread,
and a person's seat is his ``Desk`` (``web/desk.py``), whose ``choose``
waits for his message. Before anything is dealt it waits for the people
(``_await_people``: every person sat down, or *Start*), then writes the
log's first line; it owns the log (its file and its ``GameLog``, private
while people play), waits between the deals for the people's *next* and
between the matches for *New match*, and computes every view anew at each
step (``refresh``, called by the session's listener, ``web/steps.py``).
It tells ``cardcore/watchdog.py`` when it works and when it waits; a step
past the move timeout is the watchdog's ``_overrun``: the table stops,
its thread left behind, ignored from then on. A bug in a game or a bot, or
a store that cannot save, stops that table only, its frames saying why.

Everything it shares with the connections is the session's (desks,
publisher, journal, waiting room, status, the views), guarded by the
session's lock (``TableSession._cond``), which it takes through the session.
The session's ``_run``, ``_match_seed``, ``_refresh`` and
``_wait_between_deals`` hand over to it; it calls them through the session,
so that a session made for a test may wrap them.

A bot of a table made in the lobby is wrapped in ``_Budgeted``: its choices
spend its maker's search CPU.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any

from cardcore.decision import Decision
from cardcore.errors import message as error_message
from cardcore.game import DealState, Observation
from cardcore.i18n import T
from cardcore.log import GameLog
from cardcore.match import Match
from cardcore.moves import Move
from cardcore.players import QuitGame, Undoable, pass_witness
from cardcore.runner import Listener, bot_rng, make_player, play_match
from cardcore.seeds import fresh_seed
from cardcore.text import describe
from cardcore.watchdog import WATCHDOG, culprit
from cardcore.web.journal import Journaled
from cardcore.web.steps import Steps
from cardcore.web.store import StoreError

if TYPE_CHECKING:
    from cardcore.web.session import TableSession


class GameThread:
    """The game thread of ``session``: the thread, the log, the match loop."""

    def __init__(self, session: TableSession) -> None:
        self.s = session
        self.thread: threading.Thread | None = None
        self._log_file: IO[str] | None = None
        self.log: GameLog | None = None
        self.abandoned = False  # the watchdog stopped the table: its thread is ignored

    def start(self) -> None:
        """Open the log and start the game thread (it waits for the people: ``_await_people``)."""
        s = self.s
        headed = False
        if s.log_path is not None and s.resumed:
            # resumed: the log is written anew from the journal after its first line
            with s.log_path.open("r+", encoding="utf-8") as f:
                headed = bool(f.readline())  # none: the table had not begun (``_head_log``)
                f.truncate(f.tell())
            self._log_file = s.log_path.open("a", encoding="utf-8")
        elif s.log_path is not None:
            self._log_file = s.log_path.open("x", encoding="utf-8")  # never overwrite a log
            os.chmod(s.log_path, 0o600)  # the host's only (docs/WEB.md, the threat model)
        if headed and self._log_file is not None:
            private = bool(s.people)
            self.log = GameLog(self._log_file, s.table, s.kinds, None, header=False, private=private)
        with s._cond:
            # nobody here yet: each seat away from now (a frame at its limit)
            for desk in s.desks.values():
                if desk.away is not None:
                    desk.away_soon()
        self.thread = threading.Thread(target=s._run, name=f"table-{s.id}", daemon=True)
        self.thread.start()

    def running(self) -> bool:
        """The thread has not ended (``TableSession.running``)."""
        return self.thread is not None and self.thread.is_alive()

    def join(self, timeout: float) -> None:
        """Wait up to ``timeout`` for the thread; a thread still busy (a
        hook that hangs) is left behind, its log written from here."""
        s = self.s
        if self.thread is not None:
            self.thread.join(max(timeout, 0))
            if self.thread.is_alive() and not self.abandoned:
                with s._cond:
                    self.abandoned = True
                    s.status.phase = "stopped"
                    s.ended = time.monotonic()
                self._close_log()
        else:
            self._close_log()

    # ---- in the thread -----------------------------------------------------
    def match_seed(self, number: int) -> int:
        """Match ``number``'s seed (from 1)."""
        from cardcore.seeds import match_seed

        s = self.s
        if number == 1:
            return s.seed
        if s.seed_given:  # reproducible: match k's seed follows from the one given
            return match_seed(s.seed, number - 1)
        return fresh_seed()  # match 1's seed is in the log once it ended: no clue to the next

    def _players(self, seed: int) -> list[Any]:
        """A match's players: each person's desk (its hint's bot new), the bots made anew."""
        s = self.s
        for desk in s.desks.values():
            desk.adviser = None
        return [
            self._undoable(Journaled(s.journal, seat, s.desks[seat]))
            if seat in s.desks
            else Journaled(
                s.journal, seat, self._budgeted(make_player(s.table, k, seat, bot_rng(seed, seat)))
            )
            for seat, k in enumerate(s.kinds)
        ]

    def _undoable(self, player: Any) -> Any:
        """A person alone against bots: his seat keeps a way back to each of
        his decisions (``players.Undoable``, as the terminal's ``u``); a take
        back is journaled (``Journaled``) and played again on a resumed table."""
        return Undoable(player) if self.s.take_backs else player

    def _budgeted(self, bot: Any) -> Any:
        """A bot of a table made in the lobby spends its maker's search CPU (``budget``)."""
        if self.s.budget is None or self.s.client is None:
            return bot
        return _Budgeted(self.s, bot)

    def run(self) -> None:
        s = self.s
        s.watch.busy()
        WATCHDOG.watch(s.watch, self._overrun)
        try:
            self._await_people()
            listeners: list[Listener] = [Steps(s)]
            if self.log is not None:
                listeners.insert(0, self.log)  # written (and synced) before the deal's pause
            self._play(listeners)
        except QuitGame:
            pass
        except StoreError as err:  # the store cannot save: the table stops, kept as last saved
            if not self.abandoned:
                self._stopped_by(
                    T(
                        "this table stopped: {why}; it is kept, and goes on from its last saved move "
                        "when the server is started again",
                        why=error_message(err),
                    )
                )
        except Exception as err:  # a bug in a game or a bot: the table stops, the server goes on
            if not self.abandoned:  # else the watchdog stopped it already, and said why
                s.forget()
                self._stopped_by(T("this table stopped: {why}", why=describe(err)))
                if os.environ.get("CARDCORE_DEBUG"):
                    traceback.print_exc()
        finally:
            WATCHDOG.forget(s.watch)
            if not self.abandoned:
                with s._cond:
                    if s.status.phase != "error":
                        s.status.phase = "stopped"
                    s.ended = time.monotonic()
                    s.publisher.publish()
                self._close_log()

    def _await_people(self) -> None:
        """Before anything is dealt: no bot moves until the table begins
        (every person sat down, or *Start*); then the log's first line, with
        the names the people gave."""
        s = self.s
        with s._cond:
            s.watch.idle()
            while not s.room.begun and not s.stopping and not s.journal.replay:
                s._cond.wait()
            s.watch.busy()
            if s.stopping:
                raise QuitGame
            s.room.begun = True
        self._head_log()

    def _head_log(self) -> None:
        """The log's first line (the table, its seats' names), written when the table begins."""
        s = self.s
        if self._log_file is not None and self.log is None:
            # with people at the table a match's lines are written when it
            # ends or the table stops, and the header names no seed (the
            # match's own line does, when written): the file never shows the
            # hands in play, nor what deals them
            private = bool(s.people)
            head_seed = None if private else s.seed
            self.log = GameLog(self._log_file, s.table, s.kinds, head_seed, private=private)

    def _play(self, listeners: list[Listener]) -> None:
        """Match after match, until the table stops (a show of bots: one match)."""
        s = self.s
        status, journal = s.status, s.journal
        while True:
            with s._cond:
                # the frames show the new number with the new match's first deal
                # (``Steps.deal_start``: number, phase and history in one step)
                number = status.match + 1
                # here, not at the match's end: a *New match* pressed as
                # soon as the last deal's frame shows must not be lost
                s._again = False
            resumed = journal.replayed("match")
            if resumed is not None:
                seed = int(resumed["seed"])
            else:
                seed = s._match_seed(number)
                journal.append({"t": "match", "n": number, "seed": seed})
            match, _ = play_match(s.table, self._players(seed), seed, listeners, number=number)
            with s._cond:
                status.phase = "match_over"
                status.winners = match.winners()
                status.scores = list(match.scores)
                s.publisher.publish()
                if not s.people:  # a show of bots: over with its match (nobody to ask again)
                    s.forget()
                    return
                s.watch.idle()
                while not s._again and not s.stopping and not journal.replay:
                    s._cond.wait()
                s.watch.busy()
                if s.stopping:
                    return

    def _stopped_by(self, error: str) -> None:
        """The table stops in error: its frames say why, and the console in one line."""
        s = self.s
        with s._cond:
            s.status.phase = "error"
            s.status.error = error
            s.publisher.publish()
        print(f"cardcore serve: table {s.name}: {error}", file=sys.stderr)  # one line

    def _overrun(self) -> None:
        """The watchdog's thread: the game thread ran past ``move_timeout`` in
        one step. The table stops (one line naming the plugin, its package
        and the hook); its thread is left where it is, ignored from now on."""
        s = self.s
        who = culprit(s.watch.thread_id, s.table.pm)
        with s._cond:
            self.abandoned = s.stopping = True
            s.status.phase = "error"
            s.status.error = T(
                "this table stopped: {who} ran past the move timeout ({seconds} s)",
                who=who,
                seconds=format(s.move_timeout, "g"),
            )
            for desk in s.desks.values():
                desk.pending = None
            s.ended = time.monotonic()
            s._cond.notify_all()
            s.publisher.publish()
        print(f"cardcore serve: table {s.name}: {s.status.error}", file=sys.stderr)  # one line
        s.forget()
        self._close_log()

    def _close_log(self) -> None:
        if self.log is not None:
            with contextlib.suppress(Exception):
                self.log.close()  # what a private log held: nothing played is lost
        if self._log_file is not None:
            with contextlib.suppress(OSError):
                self._log_file.close()
            self._log_file = None

    def refresh(self, state: DealState, said: Callable[[], None] | None = None) -> None:
        """At a step: every view computed anew from ``state``. ``said``: what
        the step adds to the history and the status, done under the lock
        with the new version, so that no frame pairs the lines of a move
        with the views from before it."""
        s = self.s
        table = s.table
        order = table.plugin.hand_order
        views: dict[int | None, dict[str, Any]] = {}
        for seat in s.people:
            obs = table.observe(state, seat)
            view = obs.to_json()
            view["hand"] = [
                c.name for c in sorted(obs.hand, key=order)
            ]  # as a person holds it (the game's order)
            views[seat] = view
        views[None] = table.spectate(state).to_json()
        with s._cond:
            if self.abandoned:  # a thread the watchdog gave up on came back: nothing of it is shown
                raise QuitGame
            if said is not None:
                said()
            s._version += 1
            s._views = views
            if s.audit is not None:
                s.audit(s._version, state)
            s.publisher.publish()

    def wait_between_deals(self, match: Match) -> None:
        s = self.s
        with s._cond:
            s.watch.idle()
            replay = s.journal.replay
            if not s.people and not replay:  # bots only: a short pause for the spectators
                s._cond.wait(timeout=s.bot_delay * 5)
            while (
                not s.stopping
                and s.people
                and not replay  # resumed: the journal goes on past this pause
                and not s.status.ready.issuperset(self._uncovered())  # a bot never waits
            ):
                s._cond.wait()
            s.watch.busy()
            if s.stopping:
                raise QuitGame
            s.status.ready.clear()

    def _uncovered(self) -> set[int]:
        """The people's seats no bot plays for."""
        return {seat for seat, desk in self.s.desks.items() if not desk.covered}


class _Budgeted:
    """A bot of a table made in the lobby: each of its choices spends its
    maker's search CPU (``TableSession.budget``, per address); while that
    address is past its budget, the bot waits (its table slows down, not the
    others)."""

    def __init__(self, session: TableSession, inner: Any) -> None:
        self.s = session
        self.inner = inner
        self.needs_observation = getattr(inner, "needs_observation", False)
        if hasattr(inner, "rng"):  # a take back restores the bots' generators
            self.rng = inner.rng
        pass_witness(self, inner)

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        s = self.s
        wait = s.budget.wait(s.client)
        if wait > 0:
            s.watch.idle()  # waiting for its budget is no overrun
            deadline = time.monotonic() + wait
            with s._cond:
                while not s.stopping and (left := deadline - time.monotonic()) > 0:
                    s._cond.wait(min(left, 1.0))
            s.watch.busy()
            if s.stopping:
                raise QuitGame
        spent = time.thread_time()
        try:
            chosen: Move = self.inner.choose(observation, moves, decision)
        finally:
            s.budget.charge(s.client, time.thread_time() - spent)
        return chosen
