"""``cardcore play``: a game at the terminal. Where its table comes from
(``_PlaySource``: ``--resume``, ``--last``, ``--from``, ``--table``, the
command line), who sits where (``seat_names``), and how it runs
(``_run_play``: the players, the printer, the log, the autosave, the
person's save and undo, a rematch)."""

from __future__ import annotations

import io
import os
import sys
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from cardcore import i18n
from cardcore.commands.base import (
    FilePath,
    GameCommand,
    close_log,
    config_option,
    default_bot,
    friendly,
    open_log,
    parse_options,
    parse_seats,
    registry,
    table_from_args,
    table_options,
)
from cardcore.i18n import T, _, _n
from cardcore.seeds import fresh_seed
from cardcore.text import echo

if TYPE_CHECKING:
    from collections.abc import Callable

    from cardcore.game import DealState
    from cardcore.log import GameLog
    from cardcore.match import Match
    from cardcore.players import Player
    from cardcore.plugins import Registry
    from cardcore.table import Table
    from cardcore.terminal.printer import Printer


def seat_names(table: Table, kinds: list[str]) -> list[str]:
    """Names seen from seat 0: You, then Left, Partner/Across, Right
    (clockwise), in the language in use (they are the table's names: a log
    keeps them as they were said)."""
    where = {
        2: [_("You"), _("Opponent")],
        3: [_("You"), _("Left"), _("Right")],
        4: [_("You"), _("Left"), _("Partner") if table.partnerships else _("Across"), _("Right")],
    }.get(table.players, [_("Seat {i}").format(i=i) for i in range(table.players)])
    if kinds[0] != "human":
        where[0] = _("South") if table.players == 4 else _("Seat {i}").format(i=0)
    return [_("Player {i}").format(i=i) if k == "human" and i else where[i] for i, k in enumerate(kinds)]


def seat_names_in(lang: str, table: Table, kinds: list[str]) -> list[str]:
    """``seat_names`` as they are said in ``lang``."""
    with i18n.using(lang):
        return seat_names(table, kinds)


@click.command(cls=GameCommand)
@click.argument("game", required=False)
@table_options
@click.option("--seed", type=int, help="Random seed (default: a new one, printed).")
@click.option(
    "--log",
    "log_path",
    type=FilePath(dir_okay=False, path_type=Path),
    help="Write the game as JSON lines to FILE.",
)
@click.option("--table", "table_name", metavar="NAME", help="Play a table of the config file.")
@click.option("--confirm-forced", is_flag=True, help="Wait for a keystroke even when only one move is legal.")
@click.option("--ascii", "ascii_cards", is_flag=True, help="Cards as 6S, not 6♠ (terminals without symbols).")
@click.option(
    "--resume",
    "resume_path",
    type=FilePath(dir_okay=False, exists=True, path_type=Path),
    help="Go on with a saved or logged game (`s` at the prompt saves), in that file.",
)
@click.option(
    "--last",
    "resume_last",
    is_flag=True,
    help="Go on with the last game played with a person, as autosaved at its last move.",
)
@click.option(
    "--from",
    "from_path",
    type=FilePath(dir_okay=False, path_type=Path),
    help="Start from a position file (its deal first; you at seat 0 unless --seat says otherwise).",
)
@click.option(
    "--trace-reveals-hands",
    "trace_reveals",
    is_flag=True,
    help="Let CARDCORE_TRACE_HOOKS=1 print hook calls, which show every hand, to a person playing.",
)
@click.option(
    "--move-timeout",
    type=click.FloatRange(0, min_open=True),
    metavar="SECONDS",
    help="Stop with one line naming the plugin and hook when a bot or a hook takes longer on one "
    "move (waiting for you does not count); the autosave is kept.",
)
@config_option
@friendly
def play(
    game: str | None,
    players: int | None,
    seats: tuple[tuple[int, str], ...],
    options: tuple[tuple[str, Any], ...],
    house_rules: tuple[str, ...],
    seed: int | None,
    log_path: Path | None,
    table_name: str | None,
    config_path: Path,
    confirm_forced: bool,
    ascii_cards: bool,
    resume_path: Path | None,
    resume_last: bool,
    from_path: Path | None,
    trace_reveals: bool,
    move_timeout: float | None,
) -> None:
    """Play GAME at the terminal: you at seat 0, bots at the other seats.

    With --table NAME the table comes from the config file (games.yaml).
    With no human seat the game plays itself to the end.
    """
    from cardcore import render  # the engine: loaded when the command runs (`--help` stays quick)

    render.SYMBOLS[0] = not ascii_cards
    if resume_last:
        # pydantic, the log: loaded when the command runs
        from cardcore.errors import CardcoreError
        from cardcore.terminal.autosave import newest, state_dir

        if resume_path is not None:
            raise CardcoreError(T("give either --resume FILE or --last, not both"))
        resume_path = newest()
        if resume_path is None:
            raise CardcoreError(
                T("no game to go on with: {folder} holds no autosaved game", folder=state_dir())
            )
    given_seed = seed is not None
    where = _PlaySource(
        game, players, options, house_rules, table_name, config_path, resume_path, from_path, log_path
    )
    table, kinds, cfg_seed = where.table_and_kinds()
    if seed is None:
        seed = cfg_seed
        given_seed = seed is not None and resume_path is None  # a table's seed in games.yaml
    for seat, kind in parse_seats(seats, table.players).items():
        kinds[seat] = kind
    if table_name and "human" not in kinds:
        echo(
            _(
                "The table {name!r} gives every seat to a bot: it plays itself. To play, give a "
                "seat `kind: human` in the file, or add --seat 0=human."
            ).format(name=table_name)
        )
    if not table_name and resume_path is None:
        table.names = seat_names(table, kinds)
    if where.first_deal is not None:
        echo(_("From {path}: the position's deal first, then the match goes on.").format(path=from_path))
    _quiet_trace(table, kinds, trace_reveals)
    _run_play(
        table, kinds, fresh_seed() if seed is None else seed, where, confirm_forced, given_seed, move_timeout
    )


class _PlaySource:
    """Where ``cardcore play``'s table comes from: a saved game (--resume), a
    position (--from), a table of the config file (--table) or the command line."""

    def __init__(
        self,
        game: str | None,
        players: int | None,
        options: tuple[tuple[str, Any], ...],
        house_rules: tuple[str, ...],
        table_name: str | None,
        config_path: Path,
        resume_path: Path | None,
        from_path: Path | None,
        log_path: Path | None,
    ) -> None:
        self.game, self.players, self.options, self.house_rules = game, players, options, house_rules
        self.table_name, self.config_path = table_name, config_path
        self.resume_path, self.from_path, self.log_path = resume_path, from_path, log_path
        self.first_deal: DealState | None = None
        self.resume_match: Match | None = None
        self.resume_state: DealState | None = None
        # of the deal resumed: the moves made, the take backs dealt again
        self.resume_moves = self.resume_redeals = 0

    def table_and_kinds(self) -> tuple[Table, list[str], int | None]:
        """The table, the seats' kinds and the seed it names (or None)."""
        from cardcore.errors import CardcoreError  # pydantic: loaded when the command runs

        reg = registry()
        if self.resume_path is not None:
            return self._resumed(reg)
        if self.from_path is not None:
            return self._from_position(reg)
        if self.table_name:
            from cardcore import config as config_mod  # pydantic: loaded when a --table is played

            if self.game:
                raise CardcoreError(T("give either GAME or --table, not both"))
            if self.players is not None:
                raise CardcoreError(T("--players comes from the table's config with --table"))
            table, kinds, seed = config_mod.load_table(
                self.config_path, self.table_name, reg, parse_options(self.options), list(self.house_rules)
            )
            return table, kinds, seed
        if self.game:
            table = table_from_args(reg, self.game, self.players, self.options, self.house_rules)
            return table, ["human"] + [default_bot(table)] * (table.players - 1), None
        raise CardcoreError(T("name a game (see `cardcore games`) or a --table of games.yaml"))

    def _resumed(self, reg: Registry) -> tuple[Table, list[str], int | None]:
        # the engine: loaded when a game is resumed
        from cardcore.errors import CardcoreError
        from cardcore.log import resume_point

        path = self.resume_path
        assert path is not None
        if self.game or self.table_name or self.from_path or self.players is not None:
            raise CardcoreError(T("--resume goes on with the game the file states (and in that file)"))
        if self.options or self.house_rules or self.log_path:
            raise CardcoreError(T("--resume goes on with the game the file states (and in that file)"))
        resumed = resume_point(path, reg)
        table, head, self.resume_match, self.resume_state = resumed[:4]
        self.resume_moves, self.resume_redeals = resumed.moves, resumed.redeals
        if self.resume_match is not None and self.resume_match.over:
            raise CardcoreError(T("{path}: the match is over; nothing to resume", path=path))
        kinds = [str(k) for k in head.get("seats") or []] or ["human"] + ["random"] * (table.players - 1)
        if len(kinds) == table.players and any(
            table.names == seat_names_in(lang, table, kinds) for lang in i18n.languages()
        ):
            # the terminal's own names, said in the language of the game's start ("Vous",
            # "Gauche"): said in this one now (names a person gave are kept)
            table.names = seat_names(table, kinds)
        echo(_("Resuming {path}.").format(path=path))
        return table, kinds, head.get("seed")

    def _from_position(self, reg: Registry) -> tuple[Table, list[str], int | None]:
        # the engine: loaded when a position is played
        from cardcore.errors import CardcoreError
        from cardcore.position_file import read_position

        path = self.from_path
        assert path is not None
        if self.table_name or self.players is not None or self.options or self.house_rules:
            raise CardcoreError(
                T("--from: the position file states the game, players, options and house rules")
            )
        table, self.first_deal = read_position(path, reg)
        if self.game and self.game != table.game.name:
            raise CardcoreError(
                T(
                    "--from: {path} is a {game} position, not {named}",
                    path=path,
                    game=table.game.name,
                    named=self.game,
                )
            )
        if table.is_deal_over(self.first_deal):
            raise CardcoreError(T("--from: the deal in {path} is over; nothing to play", path=path))
        return table, ["human"] + [default_bot(table)] * (table.players - 1), None


def _quiet_trace(table: Table, kinds: list[str], trace_reveals: bool) -> None:
    """Tracing prints every hook call, every hand in it: not to a person at the table."""
    from cardcore.plugins import ENV_TRACE  # pluggy: loaded when the command runs

    if os.environ.get(ENV_TRACE) and "human" in kinds and not trace_reveals:
        table.pm.trace.root.setwriter(None)
        echo(
            _(
                "warning: {variable} is ignored: tracing shows every hand; "
                "add --trace-reveals-hands to trace anyway"
            ).format(variable=ENV_TRACE),
            err=True,
        )


def _run_play(
    table: Table,
    kinds: list[str],
    seed: int,
    where: _PlaySource,
    confirm_forced: bool,
    given_seed: bool,
    move_timeout: float | None = None,
) -> None:
    """How ``cardcore play`` runs: the players, the printer and the log, the
    person's save (``s``) and undo, then the match to its end or a stop."""
    # the engine and the terminal: loaded when the command runs (`--help` stays quick)
    from cardcore.players import QuitGame
    from cardcore.runner import Listener, continue_match, make_players, play_match
    from cardcore.terminal.autosave import Journal, autosave_path
    from cardcore.terminal.printer import Printer

    log_path, resume_path = where.log_path, where.resume_path
    player_objs = make_players(table, kinds, seed)
    person_here = "human" in kinds
    # a seed nobody gave is never shown to a person: from it, every hand follows
    _announce(table, kinds, seed if given_seed or not person_here else None, given_seed)
    printer = Printer(table)
    printer.pause_between_deals = person_here
    listeners: list[Listener] = [printer]
    kept = " " + _("The log so far is in {path}.").format(path=log_path) if log_path else ""
    journal_path = autosave_path(table.game.name) if person_here else None
    before = resume_path.read_text(encoding="utf-8") if resume_path is not None else ""
    log_file, log = _game_log(table, kinds, seed, where, journal_path, before, person_here)
    listeners.append(log)
    journal = Journal(journal_path, table, kinds, seed, before) if journal_path is not None else None
    if journal is not None:
        listeners.append(journal)
    saved = [log_path or (resume_path if log_file is not None else None)]
    if move_timeout is not None:
        from cardcore.watchdog import arm  # threading: loaded with --move-timeout only

        def kept_on_overrun() -> str | None:
            if journal is None:
                return None
            journal.sync()  # the moves played so far stay resumable
            return _("; the game is autosaved up to its last move (`cardcore play --last`)")

        arm(move_timeout, "play", kept_on_overrun)

    def save() -> str:
        from cardcore.files import free_name  # pydantic: loaded at the person's first save

        if saved[0] is None:  # no log file yet: a new one, never an existing one
            # named by the seed he gave, else by the time: a seed nobody gave would tell every hand
            stamp = str(seed) if given_seed else time.strftime("%Y%m%d-%H%M%S")
            path = free_name(Path(f"{table.game.name}-{stamp}.jsonl"))
            stream = path.open("x", encoding="utf-8")
            kept_so_far = log.stream
            assert isinstance(kept_so_far, io.StringIO)  # no log file yet: the game is kept in memory
            stream.write(kept_so_far.getvalue())  # the header and the moves so far
            log.stream = stream
            saved[0] = path
        log.save()
        return _("saved to {path}; `cardcore play --resume {path}` goes on from here").format(path=saved[0])

    _seat_people(player_objs, printer, confirm_forced, save)
    try:
        if where.resume_match is not None:
            printer.match_start(where.resume_match, 1)
            continue_match(
                table,
                where.resume_match,
                player_objs,
                listeners,
                going_on=where.resume_state,
                made=where.resume_moves,
                redeals=where.resume_redeals,
            )
        else:
            play_match(table, player_objs, seed, listeners, first_deal=where.first_deal)
        number = 1
        while person_here and _another_match():  # a rematch: the same table, new deals
            number += 1
            play_match(table, player_objs, fresh_seed(), listeners, number=number)
        if journal is not None:
            journal.remove()  # the match is over: nothing to go on with
    except QuitGame:
        if journal is not None:
            journal.remove()  # he chose: saved (`y`) or not
        echo(_("Game stopped.") + kept)
    except (click.Abort, KeyboardInterrupt):
        if journal is not None:
            journal.finish()
            kept += " " + _("It is autosaved: `cardcore play --last` goes on from its last move.")
        echo("\n" + _("Game interrupted.") + kept, err=True)
        sys.exit(130)
    except BaseException:
        if journal is not None:
            journal.finish()  # a crash: the game so far stays resumable
        raise
    finally:
        log.close()
        if log.stream is not log_file and saved[0] is not None:
            close_log(log.stream)
        if log_file:
            close_log(log_file)


def _game_log(
    table: Table,
    kinds: list[str],
    seed: int,
    where: _PlaySource,
    journal_path: Path | None,
    before: str,
    person_here: bool,
) -> tuple[IO[str] | None, GameLog]:
    """The game's log: (its file, or None while it is kept in memory; the
    log). With a person at the table the match's lines are written when it
    ends or stops (or at `s`): the file never shows the other hands while he
    plays. Without --log the game is kept in memory, for `s` to save it."""
    from cardcore.log import GameLog  # the engine: loaded when the command runs

    resume_path = where.resume_path
    memory = io.StringIO()
    if resume_path is not None and resume_path == journal_path:
        # going on from the autosave: the game so far is kept in memory (for `s`)
        # and the autosave goes on being written
        memory.write(before)
        log_file: IO[str] | None = None
    elif resume_path is not None:
        log_file = resume_path.open("a", encoding="utf-8")  # goes on after its last line
    else:
        log_file = open_log(where.log_path)
    log = GameLog(log_file or memory, table, kinds, seed, header=resume_path is None, private=person_here)
    return log_file, log


def _seat_people(
    players: list[Player], printer: Printer, confirm_forced: bool, save: Callable[[], str]
) -> None:
    """The people at the terminal: how their prompt saves, shows and confirms;
    alone against bots, a way back to each of his decisions (undo)."""
    from cardcore.players import Undoable  # the terminal: loaded when the command runs
    from cardcore.terminal.human import HumanPlayer

    people = [i for i, p in enumerate(players) if isinstance(p, HumanPlayer)]
    for i in people:
        person = players[i]
        assert isinstance(person, HumanPlayer)
        person.confirm_forced = confirm_forced
        person.on_save = save
        person.before_view = printer.flush
        person.said_since = printer.said_since
        person.announce_forced = False  # the printer says it
        if len(people) == 1:  # undo against bots only: a way back to each of his decisions
            players[i] = Undoable(person)
    printer.people = frozenset(i for i in people if not confirm_forced)


def _another_match() -> bool:
    """After a match with a person: play another at the same table?"""
    from cardcore.terminal.words import command_word, command_words  # the terminal: when a match ends
    from cardcore.watchdog import person_waits  # threading: loaded when a match ends

    # i18n: the answers that mean yes, separated by spaces (English's are always accepted too)
    yes = {"y", "yes", *_("y yes").lower().split()} | command_words("yes")
    while True:
        try:
            with person_waits():
                answer = click.prompt(_("Another match? (y/n)"), default="n", show_default=False)
        except click.Abort:  # no more input
            return False
        said = str(answer).strip().lower()
        if said in yes:
            return True
        if not said or said in command_words("no"):
            return False
        # an answer that is neither (a move's number typed too late): asked again, not taken for no
        echo(
            "  ! "
            + _("type {yes} for another match, {no} to stop").format(
                yes=command_word("yes"), no=command_word("no")
            )
        )


def _announce(table: Table, kinds: list[str], seed: int | None, given: bool) -> None:
    """The game, its seed (when it may be shown), its options and house rules,
    and who sits where."""
    title, n = i18n.render(table.game.title), table.players
    if seed is not None and given:
        line = _n(
            "{title}, {n} player, seed {seed} (given: the same seed deals the same game)",
            "{title}, {n} players, seed {seed} (given: the same seed deals the same game)",
            n,
        )
    elif seed is not None:
        line = _n("{title}, {n} player, seed {seed}", "{title}, {n} players, seed {seed}", n)
    else:
        line = _n("{title}, {n} player", "{title}, {n} players", n)
    echo(line.format(title=title, n=n, seed=seed))
    chosen = table.options.model_dump(exclude_defaults=True)
    if chosen:
        echo("  " + _("options: {options}").format(options=", ".join(f"{k}={v}" for k, v in chosen.items())))
    from cardcore.render import plain  # the engine: loaded when the command runs
    from cardcore.text import wrapped

    for h in table.house_rules:  # what each does, in words (its id for the tables file)
        said = _("house rule: {summary} ({name})").format(
            summary=plain(i18n.render(h.summary)).rstrip("."), name=h.name
        )
        for line in wrapped(said):
            echo(line)

    def seat(s: int) -> str:
        if kinds[s] == "human":
            return _("{name} (a person)").format(name=table.names[s])
        from cardcore.levels import level_name  # the search: loaded when a bot sits

        return _("{name} ({kind})").format(name=table.names[s], kind=level_name(kinds[s]))

    sides = [" & ".join(seat(s) for s in side) for side in table.sides]
    if len(sides) == 2:
        echo("  " + _("{side} against {other}").format(side=sides[0], other=sides[1]))
    else:
        # i18n: three sides or more: each side (its seats), separated by " against " in English
        echo("  " + _(" against ").join(sides))


def register_commands(cli: click.Group) -> None:
    """Add ``play`` to ``cli`` (called by ``cardcore.commands.register_builtin``)."""
    cli.add_command(play)
