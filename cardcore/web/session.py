"""One table played over the network: the engine's loop in a thread of its
own, people's decisions arriving as messages, what each seat may see sent as
frames.

The game thread runs ``runner.play_match`` exactly as ``cardcore play`` does:
bots choose in that thread, and a person's seat is a ``WebPlayer`` whose
``choose`` waits for his message. The state is only ever read in that thread:
at each step (a deal dealt, a move played, a decision to make, a deal's end)
it computes every person's view and the spectators' (``Table.observe`` /
``Table.spectate``, the engine contract) and keeps them as JSON data. A frame
is built from those, so a connection never reaches the state and a seat only
ever receives its own view and its own legal moves.

Frames (``{"type": "state", ...}``, see ``TableSession.frame``; to a
connection that asked for them, after the first, ``{"type": "change", ...}``:
what changed, see ``changes``) and errors (``{"type": "error", "error"}``) go
out; messages come in (and ``{"type": "resync"}``, handled by the web layer:
a whole frame next):

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

A message that is not one of these, or a move that is not in the list, gets
an error and changes nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import secrets
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from cardcore.cards import Card, CardError, parse_card
from cardcore.decision import Decision, Step
from cardcore.errors import CardcoreError
from cardcore.errors import message as error_message
from cardcore.game import DealState, Observation
from cardcore.i18n import T, to_data
from cardcore.log import GameLog
from cardcore.match import DealResult, Match
from cardcore.moves import Move, find_move, laid_cards, move_to_json, names_by_rank
from cardcore.players import QuitGame, pass_witness
from cardcore.render import plain
from cardcore.runner import Listener, bot_rng, make_player, parse_kind, play_match
from cardcore.seeds import fresh_seed
from cardcore.table import Table
from cardcore.text import describe, one_line
from cardcore.watchdog import WATCHDOG, Busy, culprit
from cardcore.web.store import Store, StoreError, saving, token_hash

HISTORY = 200  # lines of "what happened" (this deal's) a frame carries at most
MOVE_TIMEOUT = 30.0  # seconds a hook or a bot may work on one step before its table stops
AWAY_LIMIT = 180.0  # seconds a person's seat is away before the others may hand it to a bot
MAX_INBOX = 32  # requests waiting at a seat for the game thread ("why not?" of each card): past it, an error
PHASES = ("starting", "playing", "deal_over", "match_over", "stopped", "error")


class Subscriber:
    """One connection: the seat it holds (None: a spectator) and how to send
    it a frame. ``push(text, kind)`` gets the frame as JSON text (encoded once
    for all the connections that get the same frame: the spectators) and its
    kind (``state``: a whole frame; ``change``: what changed since the frame
    numbered ``base``); it is called from any thread and must not block (the
    web layer hands the text to its event loop); ``kick`` tells the
    connection that another one took its seat. ``changes``: the connection
    understands change frames (``?changes=1``); ``base``: the number of the
    last frame it was sent (None: it needs a whole one)."""

    def __init__(
        self,
        seat: int | None,
        push: Callable[[str, str], None],
        kick: Callable[[], None],
        changes: bool = False,
    ):
        self.seat = seat
        self.push = push
        self.kick = kick
        self.changes = changes
        self.base: int | None = None
        self.client: str | None = None  # its address (the web layer's): whose search CPU its hints spend


class WebPlayer:
    """A person's seat: waits for his move (``TableSession.submit``)."""

    needs_observation = True  # for a hint, which sees what he sees

    def __init__(self, session: TableSession, seat: int) -> None:
        self.session = session
        self.seat = seat
        self.adviser: Any = None

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        return self.session._wait_for_move(self, observation, moves, decision)


_STOP = object()
_COVER = object()  # a bot plays this decision for the seat (it was handed to one)


class _Hint:
    """A person asks what the search would play; ``client``: his address (its search CPU)."""

    def __init__(self, client: str | None) -> None:
        self.client = client


class _Why:
    """A person asks why ``card`` of his hand plays no move now."""

    def __init__(self, card: Card) -> None:
        self.card = card


class TableSession:
    """A table of people (each with a secret link) and bots, played in a
    thread; ``frame(seat)`` is what that seat may see now."""

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
        self.store: Store | None = None  # the server's tables and journals (set by the lobby)
        self._replay: deque[dict[str, Any]] = deque()  # a resumed table's journal, still to play
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
        self._watch = Busy(move_timeout)  # the game thread says when it works, for the watchdog
        self._abandoned = False  # the watchdog stopped the table: its thread is ignored
        # everything below is guarded by the condition's lock
        self._cond = threading.Condition(threading.RLock())
        self._inbox: dict[int, queue.Queue[Any]] = {s: queue.Queue() for s in self.people}
        self._pending: dict[int, tuple[int, tuple[Move, ...], list[dict[str, Any]]]] = {}
        self._decision = 0
        self._hints: dict[int, dict[str, Any]] = {}  # per seat: the last hint asked, for its decision
        self._hint_asked: dict[int, int] = {}  # per seat: the decision a hint was asked for (one each)
        self._whys: dict[int, dict[str, Any]] = {}  # per seat: the last "why not?" answered
        # per seat: the answers of its decision's "why not?" by card (each card asked once a decision),
        # and the cards asked but not answered yet
        self._why_cache: dict[int, tuple[int, dict[str, dict[str, Any]]]] = {}
        self._why_asked: dict[int, tuple[int, set[str]]] = {}
        # the search CPU of each address (hints, and the bots of a table made in the lobby), or None
        self.budget: Any = None
        self._sheet: list[dict[str, Any]] = []  # this match's deals: their points per side
        self._version = 0  # bumped each time the views are computed anew
        self._views: dict[int | None, dict[str, Any]] = {}
        self._history: list[dict[str, Any]] = []
        self._history_start = 0  # the number of self._history[0] among all the lines said at this table
        self._frames = 0  # frames published: each new one gets the next number ("n")
        # per frame kind (a seat; None: the spectators): the last frame published,
        # its number and its history's window (first line's number, end)
        self._last: dict[int | None, tuple[int, dict[str, Any], tuple[int, int]]] = {}
        self._whole: dict[int | None, tuple[int, str]] = {}  # per frame kind: its last whole frame, encoded
        self._phase = "starting"
        self._match_number = 0
        self._deal = 0
        self._scores = [0] * len(table.sides)
        self._dealer = 0
        self._result: dict[str, Any] | None = None
        self._winners: list[int] | None = None
        self._ready: set[int] = set()
        self._again = False
        self._stopping = False
        self._error = ""
        self._subs: list[Subscriber] = []
        # per person's seat with no connection: since when (monotonic, and wall clock for the frames)
        now = (time.monotonic(), time.time())
        self._away: dict[int, tuple[float, float]] = dict.fromkeys(self.people, now)
        self._away_timers: dict[int, threading.Timer] = {}  # one per seat: a frame when its limit passes
        self._covered: set[int] = set()  # people's seats a bot plays for (``cover``) until they are back
        self._cover_bots: dict[int, Any] = {}
        self._thread: threading.Thread | None = None
        self._log_file: IO[str] | None = None
        self.log: GameLog | None = None
        # tests: called in the game thread with (version, state) each time the
        # views are computed, to check a frame against what was hidden then
        self.audit: Callable[[int, DealState], None] | None = None
        self._specials = frozenset(c.name for c in table.deck if c.special)  # names a move may name
        self._info = {
            "id": self.id,
            "name": name,
            "game": table.game.name,
            "title": table.game.title,
            "players": table.players,
            "names": list(table.names),
            # the names as data: a default name ("Player 2") is said in each page's language
            "name_says": [to_data(n) for n in table.names],
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
            "domain": getattr(table.plugin, "domain", "cardcore"),  # the game's catalog (its data's words)
            # False: a move listed for a card stands for any card of its rank,
            # and the card the person picked is the one laid (Canasta, N8a)
            "suits_matter": bool(getattr(table.plugin, "suits_matter", True)),
            "away_limit": away_limit,  # seconds a seat is away before the others may hand it to a bot
        }

    # ---- the game thread ------------------------------------------------
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
        # the seats handed to a bot (cover / uncover entries, in order) are as they were
        # when the server stopped; the moves are played again, whoever chose them
        covered: set[int] = set()
        for entry in journal:
            if entry.get("t") == "cover":
                covered.add(int(entry["seat"]))
            elif entry.get("t") == "uncover":
                covered.discard(int(entry["seat"]))
        self._covered = covered & set(self.people)
        self._replay = deque(e for e in journal if e.get("t") not in ("cover", "uncover"))
        self.resumed = True

    def _journal(self, entry: dict[str, Any]) -> None:
        """A journal entry, durable before the game goes on (a move: before it
        is applied); ``StoreError`` when the store cannot save it."""
        if self.store is not None:
            saving(self.store.append, self.id, entry)

    def _replayed(self, kind: str) -> dict[str, Any] | None:
        """The next journal entry of a resumed table if it is a ``kind``; None
        when the journal is played through (or goes on with another kind)."""
        if self._replay and self._replay[0].get("t") == kind:
            return self._replay.popleft()
        return None

    def start(self) -> None:
        """Open the log and start playing (bots move at once, people are waited for)."""
        if self.log_path is not None and self.resumed:
            # resumed: the log is written anew from the journal after its first line
            with self.log_path.open("r+", encoding="utf-8") as f:
                f.readline()
                f.truncate(f.tell())
            self._log_file = self.log_path.open("a", encoding="utf-8")
            private = bool(self.people)
            self.log = GameLog(self._log_file, self.table, self.kinds, None, header=False, private=private)
        elif self.log_path is not None:
            self._log_file = self.log_path.open("x", encoding="utf-8")  # never overwrite a log
            os.chmod(self.log_path, 0o600)  # the host's only (docs/WEB.md, the threat model)
            # with people at the table a match's lines are written when it
            # ends or the table stops, and the header names no seed (the
            # match's own line does, when written): the file never shows the
            # hands in play, nor what deals them
            private = bool(self.people)
            head_seed = None if private else self.seed
            self.log = GameLog(self._log_file, self.table, self.kinds, head_seed, private=private)
        with self._cond:
            for seat in self.people:  # nobody here yet: each seat away from now (a frame at its limit)
                if seat in self._away:
                    self._away_soon(seat)
        self._thread = threading.Thread(target=self._run, name=f"table-{self.id}", daemon=True)
        self._thread.start()

    def _match_seed(self, number: int) -> int:
        """Match ``number``'s seed (from 1)."""
        from cardcore.seeds import match_seed

        if number == 1:
            return self.seed
        if self.seed_given:  # reproducible: match k's seed follows from the one given
            return match_seed(self.seed, number - 1)
        return fresh_seed()  # match 1's seed is in the log once it ended: no clue to the next

    def _players(self, seed: int) -> list[Any]:
        return [
            _Journaled(
                self,
                seat,
                WebPlayer(self, seat)
                if seat in self.people
                else self._budgeted(make_player(self.table, k, seat, bot_rng(seed, seat))),
            )
            for seat, k in enumerate(self.kinds)
        ]

    def _budgeted(self, bot: Any) -> Any:
        """A bot of a table made in the lobby spends its maker's search CPU (``budget``)."""
        if self.budget is None or self.client is None:
            return bot
        return _Budgeted(self, bot)

    def _run(self) -> None:
        listeners: list[Listener] = [_Watcher(self)]
        if self.log is not None:
            listeners.insert(0, self.log)  # written (and synced) before the deal's pause
        self._watch.busy()
        WATCHDOG.watch(self._watch, self._overrun)
        try:
            while True:
                with self._cond:
                    # the frames show the new number with the new match's first deal
                    # (``_Watcher.deal_start``: number, phase and history in one step)
                    number = self._match_number + 1
                    # here, not at the match's end: a *New match* pressed as
                    # soon as the last deal's frame shows must not be lost
                    self._again = False
                resumed = self._replayed("match")
                if resumed is not None:
                    seed = int(resumed["seed"])
                else:
                    seed = self._match_seed(number)
                    self._journal({"t": "match", "n": number, "seed": seed})
                match, _ = play_match(self.table, self._players(seed), seed, listeners, number=number)
                with self._cond:
                    self._phase = "match_over"
                    self._winners = match.winners()
                    self._scores = list(match.scores)
                    self._publish()
                    if not self.people:  # a show of bots: over with its match (nobody to ask again)
                        self._forget()
                        return
                    self._watch.idle()
                    while not self._again and not self._stopping and not self._replay:
                        self._cond.wait()
                    self._watch.busy()
                    if self._stopping:
                        return
        except QuitGame:
            pass
        except StoreError as err:  # the store cannot save: the table stops, kept as last saved
            if self._abandoned:
                return
            with self._cond:
                self._phase = "error"
                self._error = T(
                    "this table stopped: {why}; it is kept, and goes on from its last saved move "
                    "when the server is started again",
                    why=error_message(err),
                )
                self._publish()
            print(f"cardcore serve: table {self.name}: {self._error}", file=sys.stderr)  # one line
        except Exception as err:  # a bug in a game or a bot: the table stops, the server goes on
            if self._abandoned:  # the watchdog stopped it already, and said why
                return
            self._forget()
            with self._cond:
                self._phase = "error"
                self._error = T("this table stopped: {why}", why=describe(err))
                self._publish()
            print(f"cardcore serve: table {self.name}: {self._error}", file=sys.stderr)  # one line
            if os.environ.get("CARDCORE_DEBUG"):
                traceback.print_exc()
        finally:
            WATCHDOG.forget(self._watch)
            if not self._abandoned:
                with self._cond:
                    if self._phase != "error":
                        self._phase = "stopped"
                    self.ended = time.monotonic()
                    self._publish()
                self._close_log()

    def _overrun(self) -> None:
        """The watchdog's thread: the game thread ran past ``move_timeout`` in
        one step. The table stops (one line naming the plugin, its package
        and the hook); its thread is left where it is, ignored from now on."""
        who = culprit(self._watch.thread_id, self.table.pm)
        with self._cond:
            self._abandoned = self._stopping = True
            self._phase = "error"
            self._error = T(
                "this table stopped: {who} ran past the move timeout ({seconds} s)",
                who=who,
                seconds=format(self.move_timeout, "g"),
            )
            self._pending.clear()
            self.ended = time.monotonic()
            self._cond.notify_all()
            self._publish()
        print(f"cardcore serve: table {self.name}: {self._error}", file=sys.stderr)  # one line
        self._forget()
        self._close_log()

    def _forget(self) -> None:
        """The table is over for good (broken, or a show that ended): not resumed after a restart."""
        if self.store is not None:
            try:
                saving(self.store.close_table, self.id)
            except StoreError as err:  # resumed after a restart, then (and stopped again if broken)
                print(f"cardcore serve: table {self.name}: {error_message(err)}", file=sys.stderr)

    def _close_log(self) -> None:
        if self.log is not None:
            with contextlib.suppress(Exception):
                self.log.close()  # what a private log held: nothing played is lost
        if self._log_file is not None:
            with contextlib.suppress(OSError):
                self._log_file.close()
            self._log_file = None

    def _refresh(self, state: DealState) -> None:
        """The game thread, at a step: every view computed anew from ``state``."""
        table = self.table
        order = getattr(table.plugin, "hand_order", None)
        views: dict[int | None, dict[str, Any]] = {}
        for seat in self.people:
            obs = table.observe(state, seat)
            view = obs.to_json()
            if order is not None:  # the hand as a person holds it (the game's order)
                view["hand"] = [c.name for c in sorted(obs.hand, key=order)]
            views[seat] = view
        views[None] = table.spectate(state).to_json()
        with self._cond:
            if self._abandoned:  # a thread the watchdog gave up on came back: nothing of it is shown
                raise QuitGame
            self._version += 1
            self._views = views
            if self.audit is not None:
                self.audit(self._version, state)
            self._publish()

    def _wait_for_move(
        self,
        player: WebPlayer,
        observation: Observation | None,
        moves: Sequence[Move],
        context: Decision | None = None,
    ) -> Move:
        seat = player.seat
        listed = tuple(moves)
        with self._cond:
            covered = seat in self._covered
        if covered:
            return self._cover_move(seat, observation, listed, context)
        data = [self._move_data(i, m) for i, m in enumerate(listed)]
        inbox = self._inbox[seat]
        with self._cond:
            if self._stopping:
                raise QuitGame
            if seat in self._covered:  # handed to a bot just now
                return self._cover_move(seat, observation, listed, context)
            self._decision += 1
            decision = self._decision
            self._pending[seat] = (decision, listed, data)
            self._phase = "playing"
            self._publish()
        while True:
            self._watch.idle()  # waiting for a person is no overrun
            got = inbox.get()
            self._watch.busy()
            if got is _STOP or self._stopping:
                raise QuitGame
            if got is _COVER:
                with self._cond:
                    if seat not in self._covered:  # he came back first: his decision still
                        continue
                    self._pending.pop(seat, None)
                return self._cover_move(seat, observation, listed, context)
            if isinstance(got, _Hint):
                if observation is not None:
                    spent = time.thread_time()
                    self._advise(player, decision, observation, listed, context)
                    if self.budget is not None:
                        self.budget.charge(got.client, time.thread_time() - spent)
                continue
            if isinstance(got, _Why):
                self._why_not(seat, decision, got.card, listed, context)
                continue
            if isinstance(got, tuple) and not isinstance(got, Move):  # a move and the cards picked
                move: Move = got[0]
                picked: list[Card] = got[1]
                if context is not None:  # the cards picked are the ones laid (N8a)
                    move = context.laid_with(move, names_by_rank(move, picked), listed) or move
                return move
            chosen: Move = got
            return chosen

    def _move_data(self, index: int, move: Move) -> dict[str, Any]:
        """A listed move as a frame carries it: its JSON, its ``text`` (English)
        and the same text as data (``say``: each page says it in its language)."""
        text = self.table.move_text(move)
        return {"index": index, **move_to_json(move, text), "say": to_data(text)}

    def _cover_move(
        self, seat: int, observation: Observation | None, moves: tuple[Move, ...], context: Decision | None
    ) -> Move:
        """The game thread: the bot playing for ``seat`` (handed to it) chooses."""
        bot = self._cover_bots.get(seat)
        if bot is None:
            kind = "greedy" if "greedy" in self.table.player_kinds else "random"
            bot = self._cover_bots[seat] = make_player(
                self.table, kind, seat, random.Random(secrets.randbits(64))
            )
        chosen: Move = bot.choose(observation, moves, context)
        return chosen

    def _advise(
        self,
        player: WebPlayer,
        decision: int,
        observation: Observation,
        moves: tuple[Move, ...],
        context: Decision | None,
    ) -> None:
        """The game thread: a hint for ``player``'s decision, from the strongest
        bot seeing what he sees (``players.advise``)."""
        from cardcore.players import advise

        if player.adviser is None and "greedy" in self.table.player_kinds:
            player.adviser = self.table.player_kinds["greedy"](self.table, player.seat, random.Random(0))
        move, text, rows = advise(self.table, player.seat, observation, moves, context, player.adviser)
        with self._cond:
            self._hints[player.seat] = {
                "decision": decision,
                "index": moves.index(move) if move is not None else None,
                "text": text,  # in words: "I would play …: 1.2 points more than …"
                "say": to_data(text),  # the same, as data: said in the page's language
                "estimates": [
                    {
                        "index": moves.index(m),
                        "text": (said := self.table.move_text(m)),
                        "say": to_data(said),
                        "deals": n,
                        "points": round(p, 1),
                    }
                    for m, n, p in rows
                ],
            }
            self._publish({player.seat})  # his frame only: nothing changed for the others

    def _why_not(
        self, seat: int, decision: int, card: Card, moves: tuple[Move, ...], context: Decision | None
    ) -> None:
        """The game thread: why ``card`` plays no move for ``seat`` now, from
        the game's ``cardcore_explain_illegal`` (``players.reason_not``)."""
        from cardcore.players import reason_not

        reason = None
        if context is not None:
            reason = reason_not(self.table, context.explain, card, moves)
        by_rank = not self._info["suits_matter"] and not card.special  # N8a: any card of the rank
        plays = [
            m for m in moves if any(c == card or (by_rank and c.rank == card.rank) for c in laid_cards(m))
        ]
        words: str
        if plays:
            words = T("{card} can be played now: {move}", card=card, move=self.table.move_text(plays[0]))
        elif reason:
            words = reason
        else:
            words = T("no move lays {card} now", card=card)
        with self._cond:
            said = {
                "decision": decision,
                "card": card.name,
                "text": plain(words),
                "rule": reason or "",  # the game's words, with the ruling ids (the rules pages')
                # the same as data, said in the page's language (without the ruling ids in "say")
                "say": to_data(words),
                "rule_say": to_data(reason or ""),
            }
            cache = self._why_cache.get(seat)
            if cache is None or cache[0] != decision:
                cache = self._why_cache[seat] = (decision, {})
            cache[1][card.name] = said  # asked again at this decision, it is answered from here
            asked = self._why_asked.get(seat)
            if asked is not None and asked[0] == decision:
                asked[1].discard(card.name)
            self._whys[seat] = said
            self._publish({seat})  # his frame only

    def _say(self, text: str, seat: int | None = None, kind: str = "move") -> None:
        # "text": the English, no ruling ids in play; "say": the same as data (a page says it
        # in its own language, its ruling ids left out there too)
        self._history.append({"seat": seat, "text": plain(text), "kind": kind, "say": to_data(text)})
        if len(self._history) > HISTORY:
            self._history_start += len(self._history) - HISTORY
            del self._history[:-HISTORY]

    def _clear_history(self) -> None:
        """A new deal: the lines of the last one go (the cards named are dealt anew)."""
        self._history_start += len(self._history)
        self._history.clear()

    def _wait_between_deals(self, match: Match) -> None:
        with self._cond:
            self._watch.idle()
            if not self.people and not self._replay:  # bots only: a short pause for the spectators
                self._cond.wait(timeout=self.bot_delay * 5)
            while (
                not self._stopping
                and self.people
                and not self._replay  # resumed: the journal goes on past this pause
                and not self._ready.issuperset(set(self.people) - self._covered)  # a bot never waits
            ):
                self._cond.wait()
            self._watch.busy()
            if self._stopping:
                raise QuitGame
            self._ready.clear()

    # ---- any thread -----------------------------------------------------
    def submit(self, seat: int | None, message: Any, client: str | None = None) -> str | None:
        """A message from the connection of ``seat``: None if taken, else the
        error to send back (nothing changed). ``client``: the connection's
        address, whose search CPU a hint spends (``budget``)."""
        if not isinstance(message, dict):
            return T("expected a JSON object with a type: move, hint, why, next, new_match or cover")
        kind = message.get("type")
        if seat is None:
            return T("a spectator's link cannot play")
        with self._cond:
            self.active = time.monotonic()
            if kind == "move":
                return self._take_move(seat, message)
            if kind == "hint":
                pending = self._pending.get(seat)
                if pending is None or message.get("decision") != pending[0]:
                    return T("a hint is for your decision, when you are to move")
                if self._hint_asked.get(seat) != pending[0]:  # one per decision: more are the same one
                    wait = self.budget.wait(client) if self.budget is not None else 0.0
                    if wait > 0:
                        return T(
                            "hints: your address has used its search time for now; wait {wait} s",
                            wait=format(wait, ".0f"),
                        )
                    if self._inbox[seat].qsize() >= MAX_INBOX:
                        return T("too many requests waiting at your seat; wait for the answers")
                    self._hint_asked[seat] = pending[0]
                    self._inbox[seat].put(_Hint(client))
                return None
            if kind == "why":
                pending = self._pending.get(seat)
                if pending is None or message.get("decision") != pending[0]:
                    return T("why not? is for your decision, when you are to move")
                name = message.get("card")
                try:
                    picked = parse_card(name, self._specials) if type(name) is str else None
                except CardError:
                    picked = None
                if picked is None:
                    return T("card: {name} names no card", name=repr(one_line(str(name), 20)))
                decision = pending[0]
                cache = self._why_cache.get(seat)
                if cache is not None and cache[0] == decision and picked.name in cache[1]:
                    answered = cache[1][picked.name]  # answered once per card and decision
                    if self._whys.get(seat) is not answered:
                        self._whys[seat] = answered
                        self._publish({seat})
                    return None
                asked = self._why_asked.get(seat)
                if asked is None or asked[0] != decision:
                    asked = self._why_asked[seat] = (decision, set())
                if picked.name in asked[1]:
                    return None  # on its way
                if self._inbox[seat].qsize() >= MAX_INBOX:
                    return T("too many requests waiting at your seat; wait for the answers")
                asked[1].add(picked.name)
                self._inbox[seat].put(_Why(picked))  # answered in the game thread, which holds the state
                return None
            if kind == "next":
                if self._phase != "deal_over":
                    return T("the deal is not over")
                self._ready.add(seat)
            elif kind == "new_match":
                if self._phase != "match_over":
                    return T("the match is not over")
                self._again = True
            elif kind == "cover":
                error = self._cover(seat, message.get("seat"))
                if error is not None:
                    return error
            else:
                said = one_line(str(kind), 40)
                return T(
                    "unknown message type {type}; expected move, hint, why, next, new_match or cover",
                    type=repr(said),
                )
            self._cond.notify_all()
            self._publish()
            return None

    def _cover(self, by: int, seat: Any) -> str | None:
        """``by`` hands ``seat`` to a bot (the lock held): None, or why not."""
        if type(seat) is not int or seat not in self.people or seat == by:
            return T("cover: the seat of another person at this table")
        if seat in self._covered:
            return None  # already: the same answer
        away = self._away.get(seat)
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
            self._journal({"t": "cover", "seat": seat})  # a resumed table is the same
        except StoreError as err:  # not saved: not done
            said: str = error_message(err)
            return said
        self._covered.add(seat)
        self._inbox[seat].put(_COVER)  # his decision, if one waits, is the bot's
        return None

    def _take_move(self, seat: int, message: dict[str, Any]) -> str | None:
        pending = self._pending.get(seat)
        if pending is None:
            return T("it is not your turn to move")
        decision, moves, _ = pending
        if message.get("decision") != decision:
            return T("that move was for an earlier decision; choose again")
        index = message.get("index")
        if type(index) is not int or not 0 <= index < len(moves):
            return T(
                "no move {index} in the list of {n} legal moves",
                index=repr(one_line(str(index), 20)),
                n=len(moves),
            )
        named = message.get("cards", [])
        if type(named) is not list or len(named) > 20 or not all(type(n) is str for n in named):
            return T("cards: a list of the card names picked, as the frames name them")
        try:
            picked = [parse_card(n, self._specials) for n in named]
        except CardError:
            return T("cards: {names} names no card", names=repr(one_line(" ".join(named), 40)))
        del self._pending[seat]
        self._inbox[seat].put((moves[index], picked) if picked else moves[index])
        self._publish()
        return None

    def connect(self, sub: Subscriber) -> None:
        """A connection opens: it gets the current frame at once. A seat has
        one connection: a newer one takes it over (the older is told)."""
        with self._cond:
            if sub.seat is not None:  # a person: the table is not idle (a spectator keeps nothing alive)
                self.active = time.monotonic()
                self.came = True
                for old in [s for s in self._subs if s.seat == sub.seat]:
                    self._subs.remove(old)
                    old.kick()
                self._away.pop(sub.seat, None)
                timer = self._away_timers.pop(sub.seat, None)
                if timer is not None:
                    timer.cancel()
                if sub.seat in self._covered:  # his link takes his seat back: the bot stops
                    self._covered.discard(sub.seat)
                    try:
                        self._journal({"t": "uncover", "seat": sub.seat})
                    except StoreError as err:  # after a restart the bot has it until he comes again
                        print(f"cardcore serve: table {self.name}: {error_message(err)}", file=sys.stderr)
            self._subs.append(sub)
            # a spectator changes nothing the others see: his frame only
            self._publish(None if sub.seat is not None else {None})

    def disconnect(self, sub: Subscriber) -> None:
        """A connection closed; a person's seat waits for him to come back."""
        with self._cond:
            if sub in self._subs:
                self._subs.remove(sub)
                seat = sub.seat
                if seat is None:  # a spectator gone: nothing changed for the others
                    return
                self.active = time.monotonic()
                if seat in self.people and not any(s.seat == seat for s in self._subs):
                    self._away[seat] = (time.monotonic(), time.time())
                    self._away_soon(seat)
                self._publish()

    def _away_soon(self, seat: int) -> None:
        """A frame when ``seat``'s away limit passes (its ``coverable`` turns
        true); one timer per seat at most (the lock held)."""
        old = self._away_timers.pop(seat, None)
        if old is not None:
            old.cancel()
        if self._stopping or self.ended is not None:
            return

        def passed() -> None:
            with self._cond:
                if self._away_timers.get(seat) is timer:
                    del self._away_timers[seat]
                    self._publish()

        timer = threading.Timer(self.away_limit + 0.05, passed)
        timer.daemon = True
        self._away_timers[seat] = timer
        timer.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the table: the game thread ends and the log keeps every move played."""
        self.request_stop()
        self.join(timeout)

    def request_stop(self) -> None:
        """Tell the game thread to stop (it does at its next wait or step)."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
            for timer in self._away_timers.values():
                timer.cancel()
            self._away_timers.clear()
        for inbox in self._inbox.values():
            inbox.put(_STOP)

    def join(self, timeout: float) -> None:
        """Wait up to ``timeout`` for the game thread; a thread still busy (a
        hook that hangs) is left behind, its log written from here."""
        if self._thread is not None:
            self._thread.join(max(timeout, 0))
            if self._thread.is_alive() and not self._abandoned:
                with self._cond:
                    self._abandoned = True
                    self._phase = "stopped"
                    self.ended = time.monotonic()
                self._close_log()
        else:
            self._close_log()

    def owned_by(self, token: str) -> bool:
        """Whether ``token`` is the one given to whoever made the table."""
        import hmac

        return self.owner_hash is not None and hmac.compare_digest(token_hash(token), self.owner_hash)

    @property
    def phase(self) -> str:
        return self._phase

    def has_connections(self) -> bool:
        with self._cond:
            return bool(self._subs)

    def has_people(self) -> bool:
        """A person's seat has a connection now (spectators do not count)."""
        with self._cond:
            return any(s.seat is not None for s in self._subs)

    def running(self) -> bool:
        """Its game thread has not ended (a stopped table whose thread the
        watchdog left behind, or still winding down, still runs)."""
        return self._thread is not None and self._thread.is_alive()

    def connected(self, seat: int) -> bool:
        with self._cond:
            return any(s.seat == seat for s in self._subs)

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it: nothing secret (no seat link)."""
        with self._cond:
            return {**self._info, "seats": self._seats(), "phase": self._phase, "watch": self.watch_link}

    def _seats(self) -> list[dict[str, Any]]:
        here = {s.seat for s in self._subs}
        now = time.monotonic()
        seats = []
        for i, k in enumerate(self.kinds):
            away = self._away.get(i) if i in self.people and i not in here else None
            seats.append(
                {
                    "name": self.table.names[i],
                    "name_say": to_data(self.table.names[i]),  # a default name, said by each page
                    "kind": "person" if i in self.people else k,
                    "person": i in self.people,
                    "connected": i in here if i in self.people else True,
                    # a bot plays for him (handed to one), until his link is opened again
                    "covered": i in self._covered,
                    # when his last connection went (Unix time, s), while he is away
                    "away_since": round(away[1], 3) if away is not None else None,
                    # the others may hand his seat to a bot now (away past the table's limit)
                    "coverable": away is not None
                    and i not in self._covered
                    and now - away[0] >= self.away_limit,
                }
            )
        return seats

    def frame(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see now: the table, its own
        view, its own legal moves when it is to decide, what happened, the
        scores, and the state of the match."""
        with self._cond:
            pending = self._pending.get(seat) if seat is not None else None
            hint = self._hints.get(seat) if seat is not None else None
            why = self._whys.get(seat) if seat is not None else None
            view = self._views.get(seat, self._views.get(None))
            return {
                "type": "state",
                "seq": self._version,
                "table": self._info,
                "you": seat,
                "view": view,
                "decision": pending[0] if pending else None,
                "moves": pending[2] if pending else [],
                "hint": hint if pending and hint and hint["decision"] == pending[0] else None,
                "why": why if pending and why and why["decision"] == pending[0] else None,
                "history": list(self._history),
                "seats": self._seats(),
                "status": {
                    "phase": self._phase,
                    "match": self._match_number,
                    "deal": self._deal,
                    "dealer": self._dealer,
                    "scores": list(self._scores),
                    "sheet": list(self._sheet),  # this match's deals: {"deal", "points": per side}
                    "result": self._result,
                    "winners": self._winners,
                    "ready": sorted(self._ready),
                    "error": self._error,
                    "error_say": to_data(self._error),  # the same, said in the page's language
                },
            }

    def resync(self, sub: Subscriber) -> None:
        """``sub`` lost track (a change whose base it does not hold): a whole
        frame of its own kind next (the others' are not rebuilt; its own is
        encoded once per frame number, ``_whole``)."""
        with self._cond:
            if sub not in self._subs:
                return
            sub.base = None
            self._publish({sub.seat})

    def _publish(self, only: set[int | None] | None = None) -> None:
        """Send every connection what is new for it: per frame kind (a seat;
        the spectators share one; ``only``: those kinds, when nothing changed
        for the others) the frame is built once and, when it changed,
        numbered; a connection that holds the last one gets the change
        (encoded once per kind), any other the whole frame (encoded once per
        kind and number); one that holds this frame already gets nothing."""
        kinds: dict[int | None, list[Subscriber]] = {}
        for sub in self._subs:
            if only is None or sub.seat in only:
                kinds.setdefault(sub.seat, []).append(sub)
        for seat, subs in kinds.items():
            frame = self.frame(seat)
            history = frame.pop("history")
            window = (self._history_start, self._history_start + len(history))
            before = self._last.get(seat)
            if before is None or before[2] != window or before[1] != frame:
                self._frames += 1
                now = self._last[seat] = (self._frames, frame, window)
            else:
                now, before = before, None  # nothing changed for this kind
            whole: str | None = None
            change: str | None = None
            for sub in subs:
                if sub.base == now[0]:
                    continue
                if sub.changes and before is not None and sub.base == before[0]:
                    if change is None:
                        change = _dumps(changes(before, now, history))
                    text, kind = change, "change"
                else:
                    if whole is None:
                        kept = self._whole.get(seat)
                        if kept is not None and kept[0] == now[0]:
                            whole = kept[1]
                        else:
                            whole = _dumps({**now[1], "n": now[0], "history": history})
                            self._whole[seat] = (now[0], whole)
                    text, kind = whole, "state"
                sub.base = now[0]
                with contextlib.suppress(Exception):  # a connection going away is not the table's problem
                    sub.push(text, kind)


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def changes(
    before: tuple[int, dict[str, Any], tuple[int, int]],
    now: tuple[int, dict[str, Any], tuple[int, int]],
    history: list[dict[str, Any]],
) -> dict[str, Any]:
    """The change message from frame ``before`` to frame ``now`` (each: its
    number, the frame without its history, the history's window: the number
    of its first line and its end); ``history``: ``now``'s lines. See
    docs/WEB.md, "Change frames"."""
    (base, old, (start0, end0)), (n, new, (start, end)) = before, now
    out: dict[str, Any] = {"type": "change", "n": n, "base": base}
    for key, value in new.items():
        if key not in ("type", "view") and (key not in old or old[key] != value):
            out[key] = value
    view0, view = old.get("view"), new.get("view")
    if view is None or view0 is None:
        if view is not view0:
            out["view"] = view  # the whole view (or null)
    else:
        changed = {k: v for k, v in view.items() if k not in view0 or view0[k] != v}
        if changed:
            out["view"] = changed
        gone = [k for k in view0 if k not in view]
        if gone:
            out["view_drop"] = gone
    if (start0, end0) != (start, end):
        if start0 <= start <= end0:  # the same lines go on: those past the old end are new
            drop, add = start - start0, history[end0 - start :]
        else:
            drop, add = end0 - start0, history
        if drop:
            out["history_drop"] = drop
        if add:
            out["history_add"] = add
    return out


class _Journaled:
    """A seat's player, journaled: a resumed table's seat first plays the
    moves its journal holds; then each move chosen (a person's, a bot's) is
    committed to the journal before the engine applies it."""

    def __init__(self, session: TableSession, seat: int, inner: Any) -> None:
        self.s = session
        self.seat = seat
        self.inner = inner
        self.needs_observation = getattr(inner, "needs_observation", False)
        pass_witness(self, inner)  # a bot that follows the game (ismcts:model=…)

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        from cardcore.log import _named

        s = self.s
        entry = s._replayed("move")
        if entry is not None:
            data = entry.get("move") or {}
            move = find_move(moves, data) if entry.get("seat") == self.seat else None
            if move is None and decision is not None and entry.get("seat") == self.seat:
                move = _named(data, moves, decision)
            if move is None:
                raise CardcoreError(
                    f"the journal's move {str(data)[:80]} does not play here (seat {self.seat})"
                )
            return move
        if s._replay:
            raise CardcoreError(
                f"the journal has a {str(s._replay[0].get('t'))[:20]!r} where a move is played"
            )
        chosen: Move = self.inner.choose(observation, moves, decision)
        s._journal({"t": "move", "seat": self.seat, "move": move_to_json(chosen, "")})
        return chosen


class _Budgeted:
    """A bot of a table made in the lobby: each of its choices spends its
    maker's search CPU (``TableSession.budget``, per address); while that
    address is past its budget, the bot waits (its table slows down, not the
    others)."""

    def __init__(self, session: TableSession, inner: Any) -> None:
        self.s = session
        self.inner = inner
        self.needs_observation = getattr(inner, "needs_observation", False)
        pass_witness(self, inner)

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        s = self.s
        wait = s.budget.wait(s.client)
        if wait > 0:
            s._watch.idle()  # waiting for its budget is no overrun
            deadline = time.monotonic() + wait
            with s._cond:
                while not s._stopping and (left := deadline - time.monotonic()) > 0:
                    s._cond.wait(min(left, 1.0))
            s._watch.busy()
            if s._stopping:
                raise QuitGame
        spent = time.thread_time()
        try:
            chosen: Move = self.inner.choose(observation, moves, decision)
        finally:
            s.budget.charge(s.client, time.thread_time() - spent)
        return chosen


class _Watcher(Listener):
    """The session's listener in the game thread: what happened, in words
    (public: the move texts and the game's events), and the views at each step."""

    wants_views = True  # each step brings the move's events (the game's, from the spectators' views)

    def __init__(self, session: TableSession) -> None:
        self.s = session
        self.number: int | None = None  # the match being started

    def match_start(self, match: Match, number: int) -> None:
        self.number = number  # shown with the match's first deal (``deal_start``), all in one step

    def deal_start(self, match: Match, state: DealState) -> None:
        s = self.s
        with s._cond:
            if not match.deals:  # a new match: its number, phase, scores and history change together
                s._match_number = self.number if self.number is not None else s._match_number + 1
                s._winners = None
                s._sheet = []
                s._scores = list(match.scores)
            s._deal = len(match.deals) + 1
            s._dealer = match.dealer
            s._result = None
            s._phase = "playing"
            s._clear_history()  # a new deal: the cards named before are dealt anew
            if s._deal == 1 and s._match_number > 1:
                s._say(T("Match {n}", n=s._match_number), kind="match")
            s._say(T("Deal {n}: {name} deals", n=s._deal, name=s.table.names[match.dealer]), kind="deal")
        s._refresh(state)

    def move(self, match: Match, state: DealState, step: Step) -> None:
        s, table = self.s, self.s.table
        if s._stopping:  # a table of bots only stops here: no person's decision to wait at
            raise QuitGame
        with s._cond:
            # i18n: a move in the history: the player's name, then what he played
            s._say(T("{name}: {move}", name=table.names[step.seat], move=step.text), step.seat)
            for line in step.events:
                s._say(line, kind="event")
        s._refresh(state)
        with s._cond:
            s.active = time.monotonic()
        bot_next = state.to_act not in s.people or state.to_act in s._covered
        if s.bot_delay and not s._replay and bot_next and not table.is_deal_over(state):
            s._watch.idle()
            time.sleep(s.bot_delay)  # bots never wait, but a person (or a spectator) can follow them
            s._watch.busy()

    def deal_end(self, match: Match, state: DealState, result: DealResult) -> None:
        s, table = self.s, self.s.table
        deal_events = getattr(table.plugin, "deal_events", None)
        with s._cond:
            for line in deal_events(state, table.names) if deal_events is not None else []:
                s._say(line, kind="event")
            s._result = {**result.to_json(), "totals": list(match.scores)}
            s._sheet.append({"deal": result.number, "points": [side.points for side in result.sides]})
            s._scores = list(match.scores)
            points = [
                # i18n: a side's points at the end of a deal: its players' names, then the points
                T("{side} {points}", side=" & ".join(table.names[i] for i in side.seats), points=side.points)
                for side in result.sides
            ]
            # i18n: the end of a deal in the history: "Deal 2: Ann & Bob 12, Cy & Di 3"
            s._say(T("Deal {n}: {points}", n=result.number, points=points), kind="result")
            s._phase = "match_over" if match.over else "deal_over"
            s._winners = match.winners() if match.over else None
            s._ready.clear()
        s._refresh(state)
        if not match.over:
            s._wait_between_deals(match)
