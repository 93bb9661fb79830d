"""One table played over the network: the engine's loop in a thread of its
own, people's decisions arriving as messages, what each seat may see sent as
frames.

The game thread (``web/game_thread.py``: ``GameThread``) runs
``runner.play_match`` exactly as ``cardcore play`` does: bots choose in that
thread, and a person's seat is his ``Desk`` (``web/desk.py``), whose
``choose`` waits for his message. The state is only ever read in that
thread: at each step (a deal dealt, a move played, a
decision to make, a deal's end) it computes every person's view and the
spectators' (``Table.observe`` / ``Table.spectate``, the engine contract)
and keeps them as JSON data. A frame
is built from those, so a connection never reaches the state and a seat only
ever receives its own view and its own legal moves.

Frames (``{"type": "state", ...}``, see ``TableSession.frame``; to a
connection that asked for them, after the first, ``{"type": "change", ...}``:
what changed, see ``publisher.changes``) and errors (``{"type": "error",
"error"}``) go out; messages come in (and ``{"type": "resync"}``, handled
by the web layer: a whole frame next):

    {"type": "move", "decision": D, "index": I}   one of the listed moves
        optional "cards": [names]                 the cards picked, laid where suits do not
                                                  matter (the listed move names their rank)
    {"type": "hint", "decision": D}               what the strongest bot would play
    {"type": "why", "decision": D, "card": NAME}  why that card of the hand plays no move now
                                                  (the game's reason: the frame's "why")
    {"type": "next"}                              ready for the next deal
    {"type": "new_match"}                         after a match: play another
    {"type": "cover", "seat": S}                  a bot plays for S, a person away past
                                                  the table's limit, until he comes back
    {"type": "take_back", "decision": D}          a person alone against bots: back to his
                                                  previous decision of the deal, past his
                                                  own forced moves (the terminal's ``u``,
                                                  ``players.Undoable``; the frame's
                                                  "take_back" says when he may); refused
                                                  at a table of several people

A message that is not one of these, or a move that is not in the list, gets
an error and changes nothing.

The session owns its parts: a ``Desk`` per person's seat (his decision, his
inbox, his hint and "why not?", whether he is away), the ``Publisher``
(connections, frames, their numbers and changes, the history's window), the
``Journal`` (the store, the replay of a resumed table), the ``WaitingRoom``
(who sat down before it began, its host, the seats given to bots at its
start), and the ``GameThread`` (the thread, the log, the match loop and its
waits, the watchdog's overrun), made with the session and started by
``start``. It holds the lock they all share (``_cond``: the game thread
takes it through the session), the views the game thread computes, the
links and the match's ``Status``.
"""

from __future__ import annotations

import hmac
import itertools
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardcore.errors import message as error_message
from cardcore.game import DealState
from cardcore.i18n import T, to_data
from cardcore.log import GameLog
from cardcore.match import Match
from cardcore.render import plain
from cardcore.runner import parse_kind
from cardcore.table import Table
from cardcore.text import one_line
from cardcore.watchdog import Busy
from cardcore.web.desk import Desk, Stop, not_waiting
from cardcore.web.game_thread import GameThread
from cardcore.web.journal import Journal
from cardcore.web.publisher import Publisher, Status, Subscriber
from cardcore.web.store import StoreError, token_hash
from cardcore.web.waiting import WaitingRoom

MOVE_TIMEOUT = 30.0  # seconds a hook or a bot may work on one step before its table stops
AWAY_LIMIT = 180.0  # seconds a person's seat is away before the others may hand it to a bot


class TableSession:
    """A table of people (each with a secret link) and bots, played in a
    thread; ``frame(seat)`` is what that seat may see now."""

    desk_class = Desk  # tests put a purpose-built variant here
    publisher_class = Publisher  # ... and here

    def __init__(
        self,
        table: Table,
        kinds: list[str],
        seed: int,
        *,
        name: str,
        log_path: Path | None = None,
        bot_delay: float = 0.0,
        seed_given: bool = True,
        move_timeout: float = MOVE_TIMEOUT,
        away_limit: float = AWAY_LIMIT,
    ) -> None:
        self.table = table
        self.kinds = kinds
        self.seed = seed
        # False: the seed is the server's own (``seeds.fresh_seed``), and each
        # next match gets a fresh one too; True: given, deterministic on purpose
        self.seed_given = seed_given
        self.name = name
        self.id = secrets.token_hex(4)
        self.people = [i for i, k in enumerate(kinds) if parse_kind(k)[0] == "human"]
        self.links = {seat: secrets.token_urlsafe(16) for seat in self.people}  # seat → secret token
        self.link_hashes = {seat: token_hash(t) for seat, t in self.links.items()}  # what is kept
        self.owner_token: str | None = None  # given once to whoever made it in the lobby
        self.journal = Journal(lambda: (self.id, self.name))  # its store is set by the lobby
        self.resumed = False  # opened again from the store after a restart
        self.watch_link = secrets.token_urlsafe(12)  # spectators: the public view only
        self.bot_delay = bot_delay
        self.log_path = log_path
        self.move_timeout = move_timeout
        # a person's seat away this long may be handed to a bot by another person (``cover``)
        self.away_limit = away_limit
        self.client: str | None = None  # the address that made it, from the lobby's form
        self.owner_hash: str | None = None  # sha256 of the token that may close it
        self.active = time.monotonic()  # the last move, or a person's message or connection
        self.came = False  # a person's seat has had a connection (a table nobody came to expires sooner)
        self.ended: float | None = None  # when it stopped (the lobby drops it a while later)
        self.watch = Busy(move_timeout)  # the game thread says when it works, for the watchdog
        # everything below is guarded by the condition's lock
        self._cond = threading.Condition(threading.RLock())
        self.desks = {seat: self.desk_class(self, seat) for seat in self.people}  # nobody here yet: away
        # one person against bots may take his moves back (``take_back``), as at the terminal
        self.take_backs = len(self.people) == 1
        self.decisions = itertools.count(1)  # each decision waited at gets the next number
        # the table waits for its people: who sat, its host, the seats given to bots at its start
        self.room = WaitingRoom(self.people)
        # the lobby's *Start* (its seats and store follow); None: ``begin`` alone
        self.starter: Callable[[int], str | None] | None = None
        # the search CPU of each address (hints, and the bots of a table made in the lobby), or None
        self.budget: Any = None
        self.status = Status(scores=[0] * len(table.sides))
        self._version = 0  # bumped each time the views are computed anew
        self._views: dict[int | None, dict[str, Any]] = {}
        self.publisher = self.publisher_class(self.frame)
        self._again = False  # *New match* pressed: the game thread plays another
        self.stopping = False
        self.game_thread = GameThread(self)  # the thread, its log, the match loop (``start``)
        # tests: called in the game thread with (version, state) each time the
        # views are computed, to check a frame against what was hidden then
        self.audit: Callable[[int, DealState], None] | None = None
        self.specials = frozenset(c.name for c in table.deck if c.special)  # names a move may name
        # False: a move listed for a card stands for any card of its rank,
        # and the card the person picked is the one laid (Canasta, N8a)
        self.suits_matter = bool(table.plugin.suits_matter)
        self._info = {
            "id": self.id,
            "name": name,
            "game": table.game.name,
            "title": table.game.title,
            "players": table.players,
            "names": list(table.names),
            # the names as data: a default name ("Player 2") is said in each page's language
            "name_says": [to_data(n) for n in table.names],
            "name_say": to_data(name),  # the table's name, said in each page's language too
            "sides": [list(s) for s in table.sides],
            "options": table.options.model_dump(exclude_defaults=True),
            "house_rules": [h.name for h in table.house_rules],
            # what each house rule changes, in words, for the people at the table
            "house_rule_texts": [plain(h.summary).rstrip(".") for h in table.house_rules],
            "goal": plain(table.goal()),
            # the same texts as data (cardcore.i18n.to_data): each page says them in its
            # own language (its ruling ids and a house rule's last "." left out there)
            "title_say": to_data(table.game.title),
            "house_rule_says": [to_data(h.summary) for h in table.house_rules],
            "goal_say": to_data(table.goal()),
            "domain": table.plugin.domain,  # the game's catalog (its data's words)
            "suits_matter": self.suits_matter,
            "away_limit": away_limit,  # seconds a seat is away before the others may hand it to a bot
        }
        self._names_changed()  # a person's seat nobody took yet is a free seat

    # ---- the store ---------------------------------------------------------
    def stored(self) -> dict[str, Any]:
        """What the store keeps of the table, to open it again after a restart."""
        return {
            **self.table.describe(),
            "name": self.name,
            "kinds": self.kinds,
            "seed": self.seed,
            "seed_given": self.seed_given,
            "links": {str(k): v for k, v in self.link_hashes.items()},
            "watch": self.watch_link,
            "owner": self.owner_hash,
            "client": self.client,
            "log": str(self.log_path) if self.log_path is not None else None,
            "away_limit": self.away_limit,
            "host": self.room.host,
        }

    def restore(self, table_id: str, data: dict[str, Any], journal: list[dict[str, Any]]) -> None:
        """Become the stored table ``table_id``: its id and links, and its
        journal to play again before anything new (``start`` then resumes)."""
        self.id = table_id
        self._info["id"] = table_id
        self.links = {}  # never kept: each person still has his own
        self.link_hashes = {int(k): v for k, v in data["links"].items()}
        self.watch_link = data["watch"]
        self.owner_hash = data.get("owner")
        self.client = data.get("client")
        room = self.room
        room.host = data.get("host") if type(data.get("host")) is int else None
        room.bot_seats = [int(i) for i in data.get("bots", [])]
        # the seats handed to a bot are as they were when the server stopped; the
        # moves are played again, whoever chose them
        for seat in self.journal.restore(journal):
            if seat in self.desks:
                self.desks[seat].covered = True
        # a table that had begun goes on (its journal, or the lobby's "begun"); else it still waits
        room.begun = room.begun or bool(self.journal.replay) or bool(data.get("begun"))
        self.resumed = True

    def forget(self) -> None:
        """The table is over for good (broken, or a show that ended): not resumed after a restart."""
        self.journal.forget()

    # ---- the game thread (``GameThread``, web/game_thread.py) ---------------
    def start(self) -> None:
        """Open the log and start the game thread (it waits for the people: ``GameThread._await_people``)."""
        self.game_thread.start()

    @property
    def log(self) -> GameLog | None:
        """The table's ``GameLog`` (the game thread's), once its first line is written."""
        return self.game_thread.log

    @property
    def _thread(self) -> threading.Thread | None:
        return self.game_thread.thread

    # the game thread calls these through the session: a session made for a test may wrap them
    def _run(self) -> None:
        """The game thread's body (``GameThread.run``)."""
        self.game_thread.run()

    def _match_seed(self, number: int) -> int:
        """Match ``number``'s seed (from 1): ``GameThread.match_seed``."""
        return self.game_thread.match_seed(number)

    def _refresh(self, state: DealState, said: Callable[[], None] | None = None) -> None:
        """The game thread, at a step: every view computed anew (``GameThread.refresh``)."""
        self.game_thread.refresh(state, said)

    def _wait_between_deals(self, match: Match) -> None:
        """The game thread, at a deal's end: the people's *next* (``GameThread.wait_between_deals``)."""
        self.game_thread.wait_between_deals(match)

    # ---- any thread -----------------------------------------------------
    def submit(self, seat: int | None, message: Any, client: str | None = None) -> str | None:
        """A message from the connection of ``seat``: None if taken, else the
        error to send back (nothing changed). ``client``: the connection's
        address, whose search CPU a hint spends (``budget``)."""
        if not isinstance(message, dict):
            return T(
                "expected a JSON object with a type: move, hint, why, take_back, next, new_match, "
                "cover or start"
            )
        kind = message.get("type")
        if seat is None:
            return T("a spectator's link cannot play")
        if kind == "start":  # outside the lock: the lobby's seats first (its lock, then this one)
            return self.starter(seat) if self.starter is not None else self.begin(seat)
        with self._cond:
            self.active = time.monotonic()
            desk = self.desks.get(seat)
            if kind in ("move", "hint", "why"):
                if desk is None:  # a bot's seat: never waited at
                    return not_waiting(str(kind))
                if kind == "move":
                    return desk.take_move(message)
                if kind == "hint":
                    return desk.ask_hint(message.get("decision"), client)
                return desk.ask_why(message.get("decision"), message.get("card"))
            if kind == "take_back":
                if desk is None:
                    return not_waiting("take_back")
                return desk.take_back(message.get("decision"))
            error = self._table_message(seat, kind, message)
            if error is not None:
                return error
            self._cond.notify_all()
            self.publisher.publish()
            return None

    def _table_message(self, seat: int, kind: Any, message: dict[str, Any]) -> str | None:
        """``next``, ``new_match`` or ``cover`` (the lock held): None if taken, else the error."""
        if kind == "next":
            if self.status.phase != "deal_over":
                return T("the deal is not over")
            self.status.ready.add(seat)
        elif kind == "new_match":
            if self.status.phase != "match_over":
                return T("the match is not over")
            self._again = True
        elif kind == "cover":
            return self._cover(seat, message.get("seat"))
        else:
            said = one_line(str(kind), 40)
            return T(
                "unknown message type {type}; expected move, hint, why, take_back, next, new_match, "
                "cover or start",
                type=repr(said),
            )
        return None

    def _cover(self, by: int, seat: Any) -> str | None:
        """``by`` hands ``seat`` to a bot (the lock held): None, or why not."""
        desk = self.desks.get(seat) if type(seat) is int else None
        if desk is None or seat == by:
            return T("cover: the seat of another person at this table")
        if desk.covered:
            return None  # already: the same answer
        away = desk.away
        if away is None:
            return T("cover: {name} is here", name=self.table.names[seat])
        left = self.away_limit - (time.monotonic() - away[0])
        if left > 0:
            name = self.table.names[seat]
            return T(
                "cover: {name} has been away less than {limit} s; wait {left} s",
                name=name,
                limit=format(self.away_limit, "g"),
                left=format(left, ".0f"),
            )
        try:
            self.journal.append({"t": "cover", "seat": seat})  # a resumed table is the same
        except StoreError as err:  # not saved: not done
            said: str = error_message(err)
            return said
        desk.hand_to_bot()
        return None

    def connect(self, sub: Subscriber) -> None:
        """A connection opens: it gets the current frame at once. A seat has
        one connection: a newer one takes it over (the older is told)."""
        with self._cond:
            subs = self.publisher.subs
            if sub.seat is not None:  # a person: the table is not idle (a spectator keeps nothing alive)
                self.active = time.monotonic()
                self.came = True
                for old in [s for s in subs if s.seat == sub.seat]:
                    subs.remove(old)
                    old.kick()
                desk = self.desks.get(sub.seat)
                # his link takes his seat back: the bot stops (after a restart, if the
                # store cannot say so, the bot has it until he comes again)
                if desk is not None and desk.back():
                    self.journal.try_append({"t": "uncover", "seat": sub.seat})
            subs.append(sub)
            # a spectator changes nothing the others see: his frame only
            self.publisher.publish(None if sub.seat is not None else {None})

    def disconnect(self, sub: Subscriber) -> None:
        """A connection closed; a person's seat waits for him to come back."""
        with self._cond:
            subs = self.publisher.subs
            if sub in subs:
                subs.remove(sub)
                seat = sub.seat
                if seat is None:  # a spectator gone: nothing changed for the others
                    return
                self.active = time.monotonic()
                desk = self.desks.get(seat)
                if desk is not None and not any(s.seat == seat for s in subs):
                    desk.left()
                self.publisher.publish()

    def resync(self, sub: Subscriber) -> None:
        """``sub`` lost track: a whole frame of its own kind next (``Publisher.resync``)."""
        with self._cond:
            self.publisher.resync(sub)

    def rename(self, seat: int, name: str) -> None:
        """``seat``'s player is called ``name`` from now on: everyone at the table sees it."""
        with self._cond:
            self.table.names[seat] = name
            self._names_changed()
            self.publisher.publish()

    def _names_changed(self) -> None:
        """The frames' names anew (the lock held), a free seat's said as such."""
        # a new description, not the old one changed: a frame kept to compare with keeps the old
        names = [self.shown_name(i) for i in range(len(self.table.names))]
        # both forms of the names: the pages show "name_says" (a default name said in
        # each page's language); refreshing "names" alone kept the placeholder there
        self._info = {**self._info, "names": names, "name_says": [to_data(n) for n in names]}

    # ---- waiting for the people (``WaitingRoom``, under the lock) ---------------
    def shown_name(self, seat: int) -> str:
        """``seat``'s name as the pages show it (``WaitingRoom.shown_name``)."""
        return self.room.shown_name(seat, self.table.names[seat])

    def sit(self, seat: int) -> None:
        """A person sits at ``seat``: his seat's first connection (the lobby's
        ``claim``; a seat taken in the lobby or the maker's too, when his page
        opens). The first one is the table's host when it has none (a table
        the server opened); the table begins when every person sat down."""
        with self._cond:
            if self.room.sit(seat):
                self._cond.notify_all()  # the game thread waits for ``begun``
                self._names_changed()
                self.publisher.publish()

    def empty_seats(self) -> list[int]:
        """The people's seats nobody sat at yet, while the table waits."""
        with self._cond:
            return self.room.awaited()

    def may_begin(self, by: int) -> str | None:
        """None if ``by`` may start the table now, else why not (``WaitingRoom.may_begin``)."""
        with self._cond:
            host = self.room.host
            desk = self.desks.get(host) if host is not None else None
            return self.room.may_begin(by, desk is not None and desk.coverable(time.monotonic()))

    def begin(
        self, by: int, empty: list[int] | None = None, named: Callable[[int], str] | None = None
    ) -> str | None:
        """*Start* from seat ``by``: the ``empty`` people's seats (default:
        those nobody sat at) go to bots (a ``cover`` journaled each, ``named``
        their new names), the table says so, and the first deal comes; a
        person who sat down, or took his seat and is not here yet, is away
        (``cover`` then, see docs/WEB.md). None, or why not (nothing changed)."""
        with self._cond:
            error = self.may_begin(by)
            if error is not None or self.room.begun:
                return error
            empty = self.empty_seats() if empty is None else empty
            try:
                for seat in empty:
                    self.journal.append({"t": "cover", "seat": seat})  # a resumed table is the same
            except StoreError as err:  # not saved: not done
                said: str = error_message(err)
                return said
            for seat in empty:
                desk = self.desks[seat]
                desk.cancel_timer()
                desk.away = None
                desk.covered = True
                if named is not None:
                    self.table.names[seat] = named(seat)
            self.room.give_to_bots(empty)
            self._names_changed()
            self._cond.notify_all()
            self.publisher.publish()
            return None

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the table: the game thread ends and the log keeps every move played."""
        self.request_stop()
        self.join(timeout)

    def request_stop(self) -> None:
        """Tell the game thread to stop (it does at its next wait or step)."""
        with self._cond:
            self.stopping = True
            self._cond.notify_all()
            for desk in self.desks.values():
                desk.cancel_timer()
        for desk in self.desks.values():
            desk.inbox.put(Stop())

    def join(self, timeout: float) -> None:
        """Wait up to ``timeout`` for the game thread; a thread still busy (a
        hook that hangs) is left behind, its log written from here."""
        self.game_thread.join(timeout)

    def owned_by(self, token: str) -> bool:
        """Whether ``token`` is the one given to whoever made the table."""
        return self.owner_hash is not None and hmac.compare_digest(token_hash(token), self.owner_hash)

    @property
    def phase(self) -> str:
        return self.status.phase

    def waiting(self, seat: int) -> int | None:
        """The number of the decision ``seat`` is waited at, or None."""
        with self._cond:
            desk = self.desks.get(seat)
            return desk.pending.decision if desk is not None and desk.pending is not None else None

    def has_connections(self) -> bool:
        with self._cond:
            return bool(self.publisher.subs)

    def has_people(self) -> bool:
        """A person's seat has a connection now (spectators do not count)."""
        with self._cond:
            return any(s.seat is not None for s in self.publisher.subs)

    def running(self) -> bool:
        """Its game thread has not ended (a stopped table whose thread the
        watchdog left behind, or still winding down, still runs)."""
        return self.game_thread.running()

    def connected(self, seat: int) -> bool:
        with self._cond:
            return any(s.seat == seat for s in self.publisher.subs)

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it: nothing secret (no seat link)."""
        with self._cond:
            phase = self.status.phase
            seats, start = self._seats(), self.room.data()
            return {**self._info, "seats": seats, "phase": phase, "watch": self.watch_link, "start": start}

    def _seats(self) -> list[dict[str, Any]]:
        here = self.publisher.seats_here()
        now = time.monotonic()
        bot_seats = self.room.bot_seats
        seats = []
        for i, k in enumerate(self.kinds):
            desk = self.desks.get(i) if i not in bot_seats else None  # given to a bot at the start
            away = desk.away if desk is not None and i not in here else None
            if i in bot_seats:
                k = "normal"
            shown = self.shown_name(i)
            seats.append(
                {
                    "name": shown,
                    "name_say": to_data(shown),  # a default name, said by each page
                    "kind": "person" if desk is not None else k,
                    "person": desk is not None,
                    "connected": i in here if desk is not None else True,
                    # a bot plays for him (handed to one), until his link is opened again
                    "covered": desk is not None and desk.covered,
                    # when his last connection went (Unix time, s), while he is away
                    "away_since": round(away[1], 3) if away is not None else None,
                    # the others may hand his seat to a bot now (away past the table's limit)
                    "coverable": away is not None and desk is not None and desk.coverable(now),
                }
            )
        return seats

    def frame(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see now: the table, its own
        view, its own legal moves when it is to decide, what happened, the
        scores, and the state of the match."""
        with self._cond:
            desk = self.desks.get(seat) if seat is not None else None
            pending = desk.pending if desk is not None else None
            hint, why = desk.shown() if desk is not None else (None, None)
            return {
                "type": "state",
                "seq": self._version,
                "table": self._info,
                "you": seat,
                "view": self._views.get(seat, self._views.get(None)),
                "decision": pending.decision if pending else None,
                "moves": pending.data if pending else [],
                "hint": hint,
                "why": why,
                # he may take back to his previous decision now (alone against bots)
                "take_back": bool(pending and pending.back),
                "history": list(self.publisher.history),
                "seats": self._seats(),
                "status": self.status.to_json(),
                "start": self.room.data(),  # the table waits for its people, or began
            }
