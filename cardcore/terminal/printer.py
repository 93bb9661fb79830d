"""The terminal printer: a game as it goes, moves, deals and results."""

from __future__ import annotations

from typing import Any

import click

from cardcore import i18n
from cardcore.decision import Step
from cardcore.game import DealState
from cardcore.i18n import _
from cardcore.match import DealResult, Match
from cardcore.render import label, named_sides, plain, show_text, show_value, use_color
from cardcore.runner import Listener
from cardcore.table import Table
from cardcore.terminal.words import command_word, command_words
from cardcore.text import columns, wrapped
from cardcore.watchdog import person_waits


def bold(text: str, bold: bool = True) -> str:
    """``text`` in bold on a terminal that shows colours (never with NO_COLOR)."""
    return click.style(text, bold=bold) if use_color() else text


class Printer(Listener):
    """Prints a game as it goes: moves, deals and results."""

    def __init__(self, table: Table | None) -> None:
        # None: the table comes with the first match (replays)
        if table is not None:
            self.table = table

    table: Table
    names: list[str]

    match: Match | None = None

    def match_start(self, match: Match, number: int) -> None:
        self.table = match.table
        self.names = match.table.names
        self.match = match
        if number > 1:
            self.echo(bold("\n" + _("=== Match {n} ===").format(n=number), bold=True))

    def side_name(self, side: int) -> str:
        return " & ".join(self.names[s] for s in self.table.sides[side])

    @property
    def domain(self) -> str:
        """The game's catalog (its texts' words)."""
        return self.table.plugin.domain

    def say(self, text: str) -> str:
        """A game's text in the language in use, cards in the terminal's
        notation, sides by their players' names, without ruling ids."""
        names, sides = self.names, self.table.sides
        return named_sides(plain(show_text(text, names, sides)), names, sides)

    def chance(self, match: Match, event: dict[str, Any]) -> None:
        if event.get("kind") == "first_dealer":
            self.echo(_("First dealer: {name}").format(name=self.names[event["dealer"]]))

    def deal_start(self, match: Match, state: DealState) -> None:
        head = _("— Deal {n} — dealer {name}").format(n=len(match.deals) + 1, name=self.names[match.dealer])
        self.echo("")
        self.headline(head)
        obs = self.table.spectate(state)
        for key in ("table",):
            if key in obs.public:
                item = self.table.plugin.show_item
                shown = show_value(obs.public[key], names=self.names, item=item, domain=self.domain)
                # i18n: a view item: its label and its value ("table: 3♦ ★15")
                said = _("{label}: {value}").format(label=label(key, self.domain), value=shown)
                self.echo_lines(wrapped(said))

    wants_views = True  # each step brings the events its text does not say
    people: frozenset[int] = frozenset()  # seats of people: their forced moves are said to be forced
    pause_between_deals = False  # a person plays: the deal's result stays on screen until he goes on

    # the moves since a person's last decision, packed: a turn's moves by one
    # player on one line (``Left: draw · meld 9♣ 9♠ JOKER · discard 7♣``), short
    # turns side by side (``Left: 5♥ trails │ Partner: 4♥ trails``), broken at
    # words: a whole round, forced moves included, stays on an 80×24 screen
    _turn_seat: int | None = None
    _turns: tuple[tuple[int, list[str]], ...] = ()
    _undone = False  # a person's undo was just said (its redeal is said after it)

    def move(self, match: Match, state: DealState, step: Step) -> None:
        text = self.say(step.text)
        if step.forced and step.seat in self.people:
            # i18n: a person's move, the only one he had
            text = _("{move} (only move)").format(move=text)
        if step.seat == self._turn_seat and self._turns:
            self._turns[-1][1].append(text)
        else:
            self._turns = (*self._turns, (step.seat, [text]))
            self._turn_seat = step.seat
        if step.events:
            self.flush()
            for line in step.events:
                self.echo_lines(wrapped("· " + plain(show_text(line, self.names, self.table.sides))))

    def flush(self) -> None:
        """Print the turns held so far (before a person's view, an event, a
        deal's end)."""
        width = columns()
        line = ""
        for seat, texts in self._turns:
            turn = f"{self.names[seat]}: " + " · ".join(texts)
            if line and len(line) + 3 + len(turn) <= width - 1:
                line += " │ " + turn
                continue
            if line:
                self.echo(line)
            parts = wrapped(turn)
            for part in parts[:-1]:
                self.echo(part)
            line = parts[-1]
        if line:
            self.echo(line)
        self._turn_seat, self._turns = None, ()

    lines_said = 0  # lines printed since the person at the terminal last looked (``said_since``)

    def echo(self, text: str = "") -> None:
        """A line (or lines) printed, and counted: the person's prompt makes
        room for what was said since his previous answer (``said_since``)."""
        self.lines_said += text.count("\n") + 1
        click.echo(text)

    def echo_lines(self, lines: list[str]) -> None:
        for line in lines:
            self.echo(line)

    def headline(self, text: str) -> None:
        """A line in bold from the first column, broken at words."""
        for line in wrapped(text, indent=""):
            self.echo(bold(line))

    def said_since(self) -> int:
        """The lines printed since the previous call (the person's last look):
        ``HumanPlayer`` keeps that many on screen above its view."""
        said, self.lines_said = self.lines_said, 0
        return said

    def deal_end(self, match: Match, state: DealState, result: DealResult) -> None:
        self.flush()
        for line in self.table.plugin.deal_events(state, self.names):
            as_written = (
                not isinstance(line, i18n.Text) and i18n.language() == i18n.SOURCE
            )  # English: as before
            self.echo_lines(wrapped("· " + (plain(line) if as_written else self.say(line))))
        parts = [f"{self.side_name(i)} {s.points}" for i, s in enumerate(result.sides)]
        said = _("Deal {n}: {scores}").format(n=result.number, scores=", ".join(parts))
        self.headline(said)
        # i18n: a line of what a side scored: its label and its points ("sweeps 2")
        pair = _("{label} {points}")
        for i, s in enumerate(result.sides):
            if s.breakdown:  # what scored, cards as the terminal shows them (10♦, not 10D)
                scored = [
                    pair.format(label=self.breakdown_label(k), points=v) for k, v in s.breakdown.items() if v
                ]
                what = ", ".join(scored) or _("nothing scored")
                self.echo_lines(wrapped(_("{side}: {scored}").format(side=self.side_name(i), scored=what)))
        if len(match.deals) > 1 or not match.over:
            totals = [f"{self.side_name(i)} {p}" for i, p in enumerate(match.scores)]
            self.echo("  " + _("totals: {scores}").format(scores=", ".join(totals)))
        if self.pause_between_deals and not match.over:
            with person_waits():  # no overrun (play --move-timeout)
                click.pause("  " + _("Press any key for the next deal…"))
            self.lines_said = 0  # he has read them

    def breakdown_label(self, key: str) -> str:
        """A line of a score's breakdown as a person reads it: a ``Text`` said
        in the language; a key (``red_threes``, ``10D``) looked up in the
        game's catalog (``NP_("breakdown", "red threes")``, else a view
        item's label), its cards in the terminal's notation."""
        if isinstance(key, i18n.Text):
            return show_text(key, self.names, self.table.sides)
        words = key.replace("_", " ")
        said = label(key, self.domain, "breakdown")
        if said == words:
            said = label(key, self.domain)
        return show_text(said)

    def checkpoint(self) -> Any:
        return True  # a person's way back (a replay's redeal takes none: nothing is undone)

    def rewind(self, token: Any) -> None:
        self._turn_seat, self._turns = None, ()
        self._undone = bool(token)
        if token:
            self.echo("  " + _("— undone: back to your previous decision —"))

    def redealt(self, match: Match, state: DealState, event: dict[str, Any]) -> None:
        if self._undone:
            # i18n: after an undo: the cards the person cannot see (the stock, the others' hands)
            # are shuffled and dealt again, so what he saw since tells him nothing
            self.echo("  " + _("— the cards you cannot see are dealt again —"))
        self._undone = False

    def match_end(self, match: Match) -> None:
        self.flush()
        winners = match.winners()
        names = self.side_name(winners[0])
        for w in winners[1:]:
            # i18n: the winners named one after the other ("Ana and Bo")
            names = _("{names} and {name}").format(names=names, name=self.side_name(w))
        scores = ", ".join(map(str, match.scores))
        if len(winners) > 1:
            said = _("{names} share the win ({scores}).")
        elif names in ("You", _("You")):
            # i18n: the person at the terminal won: "You win"
            said = _("{names} win ({scores}).")
        else:
            said = _("{names} wins ({scores}).")
        self.echo("")
        self.headline(said.format(names=names, scores=scores))


class StopReplay(Exception):
    """The reader stopped a step-by-step replay."""


class StepPrinter(Printer):
    """``replay --step``: the game as it was played, one move at a time, with
    each deal's table and every hand as dealt (the game is over: nothing is
    hidden any more)."""

    def deal_start(self, match: Match, state: DealState) -> None:
        super().deal_start(match, state)
        for seat, hand in enumerate(state.hands):
            said = _("hand of {name}: {cards}").format(name=self.names[seat], cards=show_value(list(hand)))
            self.echo_lines(wrapped(said))
        self.pause()

    def move(self, match: Match, state: DealState, step: Step) -> None:
        super().move(match, state, step)
        self.flush()
        self.pause()

    def pause(self) -> None:
        ask = "  " + _("(Enter: next, {quit}: stop)").format(quit=command_word("quit"))
        answer = click.prompt(ask, default="", show_default=False, prompt_suffix=" ")
        if answer.strip().lower() in command_words("quit"):
            raise StopReplay
