"""A person's seat at a web table: its desk.

The desk *is* the seat's player: the game thread calls ``Desk.choose``,
which lists the decision (``Pending``: its number, the moves, their frame
data) and waits at the seat's inbox. The inbox carries one typed message
union, ``Message``: the move he played (``PlayMove``), a hint asked
(``AskHint``), a "why not?" asked (``AskWhy``), the seat handed to a bot
(``Cover``), his take back against bots (``TakeBack``: ``players.Undoable``
around his seat turns it into the way back to his previous decision), the
table stopping (``Stop``). A hint and a "why not?" are
answered in the game thread (which alone reads the state) and kept on the
desk for its decision; ``ask_hint``/``ask_why``/``take_move`` check a
person's message against the decision waiting, from any thread, the
session's lock held. The desk also keeps whether its person is away (since
when, and the timer that sends a frame when the away limit passes) and the
bot that plays for him while his seat is handed to one.
"""

from __future__ import annotations

import queue
import random
import secrets
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardcore.cards import Card, CardError, parse_card
from cardcore.decision import Decision
from cardcore.game import Observation
from cardcore.i18n import T, to_data
from cardcore.moves import Move, laid_cards, move_to_json, names_by_rank
from cardcore.players import QuitGame, UndoRequest
from cardcore.render import plain
from cardcore.runner import make_player
from cardcore.table import Table
from cardcore.text import one_line

if TYPE_CHECKING:
    from cardcore.web.session import TableSession

MAX_INBOX = 32  # requests waiting at a seat for the game thread ("why not?" of each card): past it, an error


@dataclass(frozen=True)
class PlayMove:
    """The move he played, one of the listed; ``picked``: the cards he picked
    for it, laid where suits do not matter (N8a)."""

    move: Move
    picked: tuple[Card, ...] = ()


@dataclass(frozen=True)
class AskHint:
    """He asks what the search would play; ``client``: his address (whose search CPU it spends)."""

    client: str | None


@dataclass(frozen=True)
class AskWhy:
    """He asks why ``card`` of his hand plays no move now."""

    card: Card


@dataclass(frozen=True)
class Cover:
    """His seat was handed to a bot: the bot plays the decision waiting."""


@dataclass(frozen=True)
class TakeBack:
    """He takes his last move back, against bots: back to his previous decision."""


@dataclass(frozen=True)
class Stop:
    """The table stops: the game thread leaves the seat."""


Message = PlayMove | AskHint | AskWhy | Cover | TakeBack | Stop


@dataclass(frozen=True)
class Pending:
    """The decision a seat is waited at: its number, its moves, and those as a frame lists them."""

    decision: int
    moves: tuple[Move, ...]
    data: list[dict[str, Any]]
    back: bool = False  # he may take back to his previous decision (against bots, ``take_back``)


def not_waiting(kind: str) -> str:
    """The error of a ``move``, ``hint`` or ``why`` when the seat is not waited at."""
    if kind == "hint":
        return T("a hint is for your decision, when you are to move")
    if kind == "why":
        return T("why not? is for your decision, when you are to move")
    if kind == "take_back":
        return T("take back is for your decision, when you are to move")
    return T("it is not your turn to move")


def move_data(table: Table, index: int, move: Move) -> dict[str, Any]:
    """A listed move as a frame carries it: its JSON, its ``text`` (English)
    and the same text as data (``say``: each page says it in its language)."""
    text = table.move_text(move)
    return {"index": index, **move_to_json(move, text), "say": to_data(text)}


class Desk:
    """A person's seat at ``session``: his decision waiting, his inbox, the
    answers to his hint and his "why not?", whether he is away or his seat
    handed to a bot. Everything but the inbox is guarded by the session's
    lock."""

    needs_observation = True  # for a hint, which sees what he sees

    def __init__(self, session: TableSession, seat: int) -> None:
        self.session = session
        self.seat = seat
        self.inbox: queue.Queue[Message] = queue.Queue()
        self.pending: Pending | None = None
        self.hint: dict[str, Any] | None = None  # the last hint asked, for its decision
        self.hint_asked: int | None = None  # the decision a hint was asked for (one each)
        self.why: dict[str, Any] | None = None  # the last "why not?" answered
        # the answers of its decision's "why not?" by card (each card asked once a decision),
        # and the cards asked but not answered yet
        self.why_cache: tuple[int, dict[str, dict[str, Any]]] | None = None
        self.why_asked: tuple[int, set[str]] | None = None
        self.adviser: Any = None  # the bot a hint falls back on (a new one each match)
        self.covered = False  # a bot plays for him (``cover``) until he is back
        self.cover_bot: Any = None
        # with no connection: since when (monotonic, and wall clock for the frames)
        self.away: tuple[float, float] | None = (time.monotonic(), time.time())
        self.away_timer: threading.Timer | None = None  # a frame when his away limit passes

    # ---- the game thread ------------------------------------------------
    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        """The seat's move: the person's, or the bot's his seat was handed to."""
        s = self.session
        listed = tuple(moves)
        with s._cond:
            covered = self.covered
        if covered:
            return self.cover_move(observation, listed, decision)
        data = [move_data(s.table, i, m) for i, m in enumerate(listed)]
        with s._cond:
            if s.stopping:
                raise QuitGame
            if self.covered:  # handed to a bot just now
                return self.cover_move(observation, listed, decision)
            number = next(s.decisions)
            back = s.take_backs and decision is not None and decision.can_undo
            self.pending = Pending(number, listed, data, back)
            s.status.phase = "playing"
            s.publisher.publish()
        while True:
            s.watch.idle()  # waiting for a person is no overrun
            got = self.inbox.get()
            s.watch.busy()
            if s.stopping:
                raise QuitGame
            match got:
                case Stop():
                    raise QuitGame
                case Cover():
                    with s._cond:
                        if not self.covered:  # he came back first: his decision still
                            continue
                        self.pending = None
                    return self.cover_move(observation, listed, decision)
                case AskHint(client=client):
                    if observation is not None:
                        spent = time.thread_time()
                        self.advise(number, observation, listed, decision)
                        if s.budget is not None:
                            s.budget.charge(client, time.thread_time() - spent)
                case AskWhy(card=card):
                    self.why_not(number, card, listed, decision)
                case TakeBack():
                    raise UndoRequest  # ``Undoable`` around the seat: back to his previous decision
                case PlayMove(move=move, picked=picked):
                    if picked and decision is not None:  # the cards picked are the ones laid (N8a)
                        move = decision.laid_with(move, names_by_rank(move, list(picked)), listed) or move
                    return move

    def cover_move(
        self, observation: Observation | None, moves: tuple[Move, ...], context: Decision | None
    ) -> Move:
        """The bot playing for the seat (handed to it) chooses."""
        table = self.session.table
        if self.cover_bot is None:
            kind = "greedy" if "greedy" in table.player_kinds else "random"
            self.cover_bot = make_player(table, kind, self.seat, random.Random(secrets.randbits(64)))
        chosen: Move = self.cover_bot.choose(observation, moves, context)
        return chosen

    def advise(
        self, decision: int, observation: Observation, moves: tuple[Move, ...], context: Decision | None
    ) -> None:
        """A hint for the decision, from the strongest bot seeing what he sees (``players.advise``)."""
        from cardcore.players import advise

        s, table = self.session, self.session.table
        if self.adviser is None and "greedy" in table.player_kinds:
            self.adviser = table.player_kinds["greedy"](table, self.seat, random.Random(0))
        move, text, rows = advise(table, self.seat, observation, moves, context, self.adviser)
        with s._cond:
            self.hint = {
                "decision": decision,
                "index": moves.index(move) if move is not None else None,
                "text": text,  # in words: "I would play …: 1.2 points more than …"
                "say": to_data(text),  # the same, as data: said in the page's language
                "estimates": [
                    {
                        "index": moves.index(m),
                        "text": (said := table.move_text(m)),
                        "say": to_data(said),
                        "deals": n,
                        "points": round(p, 1),
                    }
                    for m, n, p in rows
                ],
            }
            s.publisher.publish({self.seat})  # his frame only: nothing changed for the others

    def why_not(self, decision: int, card: Card, moves: tuple[Move, ...], context: Decision | None) -> None:
        """Why ``card`` plays no move now, from the game's
        ``cardcore_explain_illegal`` (``players.reason_not``)."""
        from cardcore.players import reason_not

        s, table = self.session, self.session.table
        reason = None
        if context is not None:
            reason = reason_not(table, context.explain, card, moves)
        by_rank = not s.suits_matter and not card.special  # N8a: any card of the rank
        plays = [
            m for m in moves if any(c == card or (by_rank and c.rank == card.rank) for c in laid_cards(m))
        ]
        words: str
        if plays:
            words = T("{card} can be played now: {move}", card=card, move=table.move_text(plays[0]))
        elif reason:
            words = reason
        else:
            words = T("no move lays {card} now", card=card)
        with s._cond:
            said = {
                "decision": decision,
                "card": card.name,
                "text": plain(words),
                "rule": reason or "",  # the game's words, with the ruling ids (the rules pages')
                # the same as data, said in the page's language (without the ruling ids in "say")
                "say": to_data(words),
                "rule_say": to_data(reason or ""),
            }
            cache = self.why_cache
            if cache is None or cache[0] != decision:
                cache = self.why_cache = (decision, {})
            cache[1][card.name] = said  # asked again at this decision, it is answered from here
            asked = self.why_asked
            if asked is not None and asked[0] == decision:
                asked[1].discard(card.name)
            self.why = said
            s.publisher.publish({self.seat})  # his frame only

    # ---- any thread, the session's lock held -------------------------------
    def shown(self) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """The hint and the "why not?" his frame shows: those of the decision waiting."""
        pending, hint, why = self.pending, self.hint, self.why
        if pending is None:
            return None, None
        return (
            hint if hint and hint["decision"] == pending.decision else None,
            why if why and why["decision"] == pending.decision else None,
        )

    def take_move(self, message: dict[str, Any]) -> str | None:
        """A ``move`` message: None (handed to the game thread), or the error."""
        pending = self.pending
        if pending is None:
            return not_waiting("move")
        if message.get("decision") != pending.decision:
            return T("that move was for an earlier decision; choose again")
        moves = pending.moves
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
            picked = tuple(parse_card(n, self.session.specials) for n in named)
        except CardError:
            return T("cards: {names} names no card", names=repr(one_line(" ".join(named), 40)))
        self.pending = None
        self.inbox.put(PlayMove(moves[index], picked))
        self.session.publisher.publish()
        return None

    def take_back(self, decision: Any) -> str | None:
        """A ``take_back`` message: None (the game thread goes back to his
        previous decision), or the error. Only a person alone against bots may."""
        if not self.session.take_backs:
            return T("take back is for a person playing against bots only")
        pending = self.pending
        if pending is None or decision != pending.decision:
            return not_waiting("take_back")
        if not pending.back:
            return T("nothing to take back in this deal")
        self.pending = None
        self.inbox.put(TakeBack())
        self.session.publisher.publish()
        return None

    def ask_hint(self, decision: Any, client: str | None) -> str | None:
        """A ``hint`` message: None (asked, or asked already), or the error."""
        pending = self.pending
        if pending is None or decision != pending.decision:
            return not_waiting("hint")
        if self.hint_asked == pending.decision:  # one per decision: more are the same one
            return None
        budget = self.session.budget
        wait = budget.wait(client) if budget is not None else 0.0
        if wait > 0:
            return T(
                "hints: your address has used its search time for now; wait {wait} s",
                wait=format(wait, ".0f"),
            )
        if self.inbox.qsize() >= MAX_INBOX:
            return T("too many requests waiting at your seat; wait for the answers")
        self.hint_asked = pending.decision
        self.inbox.put(AskHint(client))
        return None

    def ask_why(self, decision: Any, name: Any) -> str | None:
        """A ``why`` message: None (asked, on its way, or answered again from the cache), or the error."""
        pending = self.pending
        if pending is None or decision != pending.decision:
            return not_waiting("why")
        try:
            picked = parse_card(name, self.session.specials) if type(name) is str else None
        except CardError:
            picked = None
        if picked is None:
            return T("card: {name} names no card", name=repr(one_line(str(name), 20)))
        decision = pending.decision
        cache = self.why_cache
        if cache is not None and cache[0] == decision and picked.name in cache[1]:
            answered = cache[1][picked.name]  # answered once per card and decision
            if self.why is not answered:
                self.why = answered
                self.session.publisher.publish({self.seat})
            return None
        asked = self.why_asked
        if asked is None or asked[0] != decision:
            asked = self.why_asked = (decision, set())
        if picked.name in asked[1]:
            return None  # on its way
        if self.inbox.qsize() >= MAX_INBOX:
            return T("too many requests waiting at your seat; wait for the answers")
        asked[1].add(picked.name)
        self.inbox.put(AskWhy(picked))  # answered in the game thread, which holds the state
        return None

    def left(self) -> None:
        """His last connection went: away from now (a frame when his limit passes)."""
        self.away = (time.monotonic(), time.time())
        self.away_soon()

    def back(self) -> bool:
        """A connection of his came: not away any more. True if his seat was a bot's (it is his again)."""
        self.away = None
        if self.away_timer is not None:
            self.away_timer.cancel()
            self.away_timer = None
        was = self.covered
        self.covered = False
        return was

    def away_soon(self) -> None:
        """A frame when the away limit passes (his ``coverable`` turns true); one timer at most."""
        s = self.session
        self.cancel_timer()
        if s.stopping or s.ended is not None:
            return

        def passed() -> None:
            with s._cond:
                if self.away_timer is timer:
                    self.away_timer = None
                    s.publisher.publish()

        timer = threading.Timer(s.away_limit + 0.05, passed)
        timer.daemon = True
        self.away_timer = timer
        timer.start()

    def cancel_timer(self) -> None:
        if self.away_timer is not None:
            self.away_timer.cancel()
            self.away_timer = None

    def coverable(self, now: float) -> bool:
        """The others may hand his seat to a bot now: away past the table's limit, not handed yet."""
        return self.away is not None and not self.covered and now - self.away[0] >= self.session.away_limit

    def hand_to_bot(self) -> None:
        """His seat is a bot's (``cover``, journaled): his decision, if one waits, is the bot's."""
        self.covered = True
        self.inbox.put(Cover())
