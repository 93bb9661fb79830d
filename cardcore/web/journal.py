"""A web table's journal: what the store keeps so that a table goes on after
a restart, and the journal of a resumed table played again.

Each entry is committed to the store (``store.Store.append``) before the
game goes on: a match's seed (``{"t": "match"}``), each move chosen, a seat
handed to a bot and given back (``cover``/``uncover``), a person's take back
against bots (``take_back``: played again, it takes the same decision back,
its hidden cards dealt again as they were: ``"redeal": true``).
Every player of a table is wrapped in ``Journaled``: a resumed table's seat
first plays the moves its journal holds, then each move chosen is journaled
before the engine applies it.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from cardcore.decision import Decision
from cardcore.errors import CardcoreError
from cardcore.errors import message as error_message
from cardcore.game import Observation
from cardcore.moves import Move, find_move, move_to_json
from cardcore.players import UndoRequest, pass_witness
from cardcore.web.store import Store, StoreError, saving


class Journal:
    """One table's entries in the store (``store``: None, nothing is kept),
    and a resumed table's, still to play (``replay``). ``key`` gives the
    table's id and its name (the id is the lobby's to change until the
    table starts)."""

    def __init__(self, key: Callable[[], tuple[str, str]]) -> None:
        self.key = key
        self.store: Store | None = None  # the server's tables and journals (set by the lobby)
        self.replay: deque[dict[str, Any]] = deque()  # a resumed table's journal, still to play

    def append(self, entry: dict[str, Any]) -> None:
        """A journal entry, durable before the game goes on (a move: before it
        is applied); ``StoreError`` when the store cannot save it."""
        if self.store is not None:
            saving(self.store.append, self.key()[0], entry)

    def try_append(self, entry: dict[str, Any]) -> None:
        """``append``; a store fault is said on the console (the entry is lost after a restart)."""
        try:
            self.append(entry)
        except StoreError as err:
            self.say(error_message(err))

    def replayed(self, kind: str) -> dict[str, Any] | None:
        """The next journal entry of a resumed table if it is a ``kind``; None
        when the journal is played through (or goes on with another kind)."""
        if self.replay and self.replay[0].get("t") == kind:
            return self.replay.popleft()
        return None

    def restore(self, journal: list[dict[str, Any]]) -> set[int]:
        """A resumed table's journal, to play again; the seats handed to a bot
        when the server stopped (its cover / uncover entries, in order)."""
        covered: set[int] = set()
        for entry in journal:
            if entry.get("t") == "cover":
                covered.add(int(entry["seat"]))
            elif entry.get("t") == "uncover":
                covered.discard(int(entry["seat"]))
        self.replay = deque(e for e in journal if e.get("t") not in ("cover", "uncover"))
        return covered

    def forget(self) -> None:
        """The table is over for good (broken, or a show that ended): not resumed after a restart."""
        if self.store is not None:
            try:
                saving(self.store.close_table, self.key()[0])
            except StoreError as err:  # resumed after a restart, then (and stopped again if broken)
                self.say(error_message(err))

    def say(self, line: str) -> None:
        print(f"cardcore serve: table {self.key()[1]}: {line}", file=sys.stderr)  # one line


class Journaled:
    """A seat's player, journaled: a resumed table's seat first plays the
    moves its journal holds; then each move chosen (a person's, a bot's) is
    committed to the journal before the engine applies it."""

    def __init__(self, journal: Journal, seat: int, inner: Any) -> None:
        self.journal = journal
        self.seat = seat
        self.inner = inner
        self.needs_observation = getattr(inner, "needs_observation", False)
        if hasattr(inner, "rng"):  # a take back restores the bots' generators (``Decision.checkpoint``)
            self.rng = inner.rng
        pass_witness(self, inner)  # a bot that follows the game (ismcts:model=…)

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        journal = self.journal
        entry = journal.replayed("move")
        if entry is not None:
            return self.from_journal(entry, moves, decision)
        if journal.replay and journal.replay[0].get("seat") == self.seat:
            taken = journal.replayed("take_back")
            if taken is not None:
                # he took this decision back: the same again (``players.Undoable``), its hidden
                # cards dealt again as they were (a take back journaled before they were: not)
                raise UndoRequest(redeal=bool(taken.get("redeal")))
        if journal.replay:
            raise CardcoreError(
                f"the journal has a {str(journal.replay[0].get('t'))[:20]!r} where a move is played"
            )
        try:
            chosen: Move = self.inner.choose(observation, moves, decision)
        except UndoRequest as undo:
            entry = {"t": "take_back", "seat": self.seat, **({"redeal": True} if undo.redeal else {})}
            journal.append(entry)  # before the game goes back
            raise
        journal.append({"t": "move", "seat": self.seat, "move": move_to_json(chosen, "")})
        return chosen

    def from_journal(self, entry: dict[str, Any], moves: Sequence[Move], decision: Decision | None) -> Move:
        """The move a journal entry names, played again."""
        from cardcore.log import _named

        data = entry.get("move") or {}
        mine = entry.get("seat") == self.seat
        move = find_move(moves, data) if mine else None
        if move is None and decision is not None and mine:
            move = _named(data, moves, decision)
        if move is None:
            raise CardcoreError(f"the journal's move {str(data)[:80]} does not play here (seat {self.seat})")
        return move
