"""Players: anything that picks one of the legal moves from what its seat sees.

A player never gets the state: only the ``Observation`` of its seat (when it
asks for one with ``needs_observation``) and the list of legal moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

import click

from cardcore.cards import CardError, parse_card
from cardcore.game import Observation
from cardcore.moves import Move
from cardcore.render import numbered, show_observation

if TYPE_CHECKING:
    from cardcore.table import Table


class Player(Protocol):
    needs_observation: bool

    def choose(self, observation: Observation | None, moves: Sequence[Move]) -> Move: ...


PlayerFactory = Callable[["Table", int, random.Random], Player]


class RandomPlayer:
    """Picks uniformly among the legal moves with its own seeded RNG."""

    needs_observation = False

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation | None, moves: Sequence[Move]) -> Move:
        return moves[self.rng.randrange(len(moves))] if len(moves) > 1 else moves[0]


class QuitGame(Exception):
    """The human asked to stop."""


class UndoRequest(Exception):
    """The human asked to go back to his previous decision (against bots only)."""


class HumanPlayer:
    """A person at the terminal: shows the seat's view and a numbered list of moves.

    Accepts a move's number, its text, or the card to play when only one move
    plays it.  Bad input gets a one-line message and the prompt again.
    """

    needs_observation = True

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        self.table = table
        self.seat = seat
        self.specials = {c.name for c in table.deck if c.special}
        self.adviser: Player | None = None
        self.on_save: Callable[[], str] | None = None  # set by `cardcore play`
        self.on_forced: Callable[[int], None] | None = None  # idem
        self.input: Callable[[str], str] = lambda prompt: click.prompt(
            prompt, prompt_suffix=" > ", default="", show_default=False
        )
        self.echo: Callable[[str], None] = click.echo

    def hint(self, observation: Observation, moves: Sequence[Move]) -> str:
        """What the strongest bot of the game would play here, seeing what he sees."""
        kind = "greedy" if "greedy" in self.table.player_kinds else None
        if kind is None:
            return "this game has no bot to ask"
        if self.adviser is None:
            self.adviser = self.table.player_kinds[kind](self.table, self.seat, random.Random(0))
        move = self.adviser.choose(observation, moves)
        return f"{kind} would play {self.table.move_text(move)}"

    def parse(self, text: str, moves: Sequence[Move]) -> Move | str:
        """The move ``text`` names, or an error text."""
        text = text.strip()
        texts = [self.table.move_text(m) for m in moves]
        if text.isascii() and text.isdigit():  # not "²" or "①", which int() refuses
            n = int(text) if len(text) < 6 else 0
            if 1 <= n <= len(moves):
                return moves[n - 1]
            return f"there is no move {n}: choose 1 to {len(moves)}"
        for m, t in zip(moves, texts, strict=True):
            if t.lower() == text.lower():
                return m
        try:
            c = parse_card(text, self.specials)
        except CardError:
            return f"{text[:40]!r} is not a move: type its number (1 to {len(moves)}) or its text"
        # by name: with two decks, the move may play the other copy of the card
        with_card = [m for m in moves if m.card is not None and m.card.name == c.name]
        if len(with_card) == 1:
            return with_card[0]
        if with_card:
            return f"{c.name} can be played {len(with_card)} ways: type the move's number"
        return f"no legal move plays {c.name} now: choose one of the numbered moves"

    confirm_forced = False  # True: a single legal move waits for a keystroke too
    undoable = True  # the engine keeps a way back to each of his decisions (``u``)
    can_undo_now = False  # set by the engine before each decision

    def choose(self, observation: Observation | None, moves: Sequence[Move]) -> Move:
        assert observation is not None
        if len(moves) == 1 and not self.confirm_forced:
            if self.on_forced is not None:
                self.on_forced(self.seat)  # the printer says it is forced
            else:
                only = self.table.move_text(moves[0])
                self.echo(f"  {self.table.names[self.seat]}: {only} (the only legal move)")
            return moves[0]
        self.echo("")
        for line in show_observation(observation, self.table.names):
            self.echo(line)
        for line in numbered(self.table.move_text(m) for m in moves):
            self.echo(line)
        while True:
            answer = self.input(f"{self.table.names[self.seat]}, your move (number, ?, h, u, s or q)")
            if answer.strip().lower() in {"q", "quit", "exit"}:
                raise QuitGame
            if answer.strip().lower() in {"s", "save"}:
                self.echo(f"  {self.on_save()}" if self.on_save else "  ! nothing to save to here")
                continue
            if answer.strip().lower() in {"h", "hint"}:
                self.echo(f"  hint: {self.hint(observation, moves)}")
                continue
            if answer.strip().lower() in {"u", "undo"}:
                if self.can_undo_now:
                    raise UndoRequest
                self.echo("  ! nothing to undo in this deal (undo plays against bots only)")
                continue
            if answer.strip() in {"?", "help", ""}:
                for line in numbered(self.table.move_text(m) for m in moves):
                    self.echo(line)
                continue
            got = self.parse(answer, moves)
            if isinstance(got, str):
                self.echo(f"  ! {got}")
                continue
            return got
