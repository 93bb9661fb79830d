"""The terminal printer: a game as it goes, moves, deals and results."""

from __future__ import annotations

from typing import Any

import click

from cardcore.decision import Step
from cardcore.game import DealState
from cardcore.match import DealResult, Match
from cardcore.render import columns, named_sides, plain, show_text, show_value, use_color, wrapped
from cardcore.runner import Listener
from cardcore.table import Table


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
            click.echo(bold(f"\n=== Match {number} ===", bold=True))

    def side_name(self, side: int) -> str:
        return " & ".join(self.names[s] for s in self.table.sides[side])

    def chance(self, match: Match, event: dict[str, Any]) -> None:
        if event.get("kind") == "first_dealer":
            click.echo(f"First dealer: {self.names[event['dealer']]}")

    def deal_start(self, match: Match, state: DealState) -> None:
        click.echo(bold(f"\n— Deal {len(match.deals) + 1} — dealer {self.names[match.dealer]}", bold=True))
        obs = self.table.spectate(state)
        for key in ("table",):
            if key in obs.public:
                item = getattr(self.table.plugin, "show_item", None)
                click.echo(f"  table: {show_value(obs.public[key], names=self.names, item=item)}")

    wants_views = True  # each step brings the events its text does not say
    people: frozenset[int] = frozenset()  # seats of people: their forced moves are said to be forced
    pause_between_deals = False  # a person plays: the deal's result stays on screen until he goes on

    # the moves since a person's last decision, packed: a turn's moves by one
    # player on one line (``Left: draw · meld 9♣ 9♠ JOKER · discard 7♣``), short
    # turns side by side (``Left: 5♥ trails │ Partner: 4♥ trails``), broken at
    # words: a whole round, forced moves included, stays on an 80×24 screen
    _turn_seat: int | None = None
    _turns: tuple[tuple[int, list[str]], ...] = ()

    def move(self, match: Match, state: DealState, step: Step) -> None:
        note = " (only move)" if step.forced and step.seat in self.people else ""
        text = named_sides(plain(show_text(step.text)), self.names, self.table.sides) + note
        if step.seat == self._turn_seat and self._turns:
            self._turns[-1][1].append(text)
        else:
            self._turns = (*self._turns, (step.seat, [text]))
            self._turn_seat = step.seat
        if step.events:
            self.flush()
            for line in step.events:
                self.echo_lines(wrapped("· " + plain(show_text(line))))

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
                click.echo(line)
            parts = wrapped(turn)
            for part in parts[:-1]:
                click.echo(part)
            line = parts[-1]
        if line:
            click.echo(line)
        self._turn_seat, self._turns = None, ()

    @staticmethod
    def echo_lines(lines: list[str]) -> None:
        for line in lines:
            click.echo(line)

    def deal_end(self, match: Match, state: DealState, result: DealResult) -> None:
        self.flush()
        deal_events = getattr(self.table.plugin, "deal_events", None)
        for line in deal_events(state, self.names) if deal_events is not None else []:
            self.echo_lines(wrapped("· " + plain(line)))
        parts = [f"{self.side_name(i)} {s.points}" for i, s in enumerate(result.sides)]
        click.echo(bold(f"Deal {result.number}: " + ", ".join(parts), bold=True))
        for i, s in enumerate(result.sides):
            if s.breakdown:  # what scored, cards as the terminal shows them (10♦, not 10D)
                scored = [f"{show_text(k.replace('_', ' '))} {v}" for k, v in s.breakdown.items() if v]
                self.echo_lines(wrapped(f"{self.side_name(i)}: {', '.join(scored) or 'nothing scored'}"))
        if len(match.deals) > 1 or not match.over:
            totals = [f"{self.side_name(i)} {p}" for i, p in enumerate(match.scores)]
            click.echo("  totals: " + ", ".join(totals))
        if self.pause_between_deals and not match.over:
            from cardcore.watchdog import person_waits

            with person_waits():  # no overrun (play --move-timeout)
                click.pause("  Press any key for the next deal…")

    def rewind(self, token: Any) -> None:
        self._turn_seat, self._turns = None, ()
        click.echo("  — undone: back to your previous decision —")

    def match_end(self, match: Match) -> None:
        self.flush()
        winners = match.winners()
        names = " and ".join(self.side_name(w) for w in winners)
        verb = "share the win" if len(winners) > 1 else "win" if names == "You" else "wins"
        click.echo(bold(f"\n{names} {verb} ({', '.join(map(str, match.scores))}).", bold=True))


class StopReplay(Exception):
    """The reader stopped a step-by-step replay."""


class StepPrinter(Printer):
    """``replay --step``: the game as it was played, one move at a time, with
    each deal's table and every hand as dealt (the game is over: nothing is
    hidden any more)."""

    def deal_start(self, match: Match, state: DealState) -> None:
        super().deal_start(match, state)
        for seat, hand in enumerate(state.hands):
            click.echo(f"  hand of {self.names[seat]}: {show_value(list(hand))}")
        self.pause()

    def move(self, match: Match, state: DealState, step: Step) -> None:
        super().move(match, state, step)
        self.flush()
        self.pause()

    def pause(self) -> None:
        answer = click.prompt("  (Enter: next, q: stop)", default="", show_default=False, prompt_suffix=" ")
        if answer.strip().lower() in {"q", "quit"}:
            raise StopReplay
