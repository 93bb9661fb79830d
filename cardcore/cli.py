"""The ``cardcore`` command: play, simulate and inspect any installed game.

Every user error (unknown game, bad option, malformed file, illegal move, a
mistyped flag …) is one line on stderr and exit code 2, never a traceback.
The engine is imported only by the commands that need it, so that
``cardcore --help`` stays quick.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import random
import sys
import time
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

import click

from cardcore import i18n
from cardcore.i18n import N_, T, _, _n
from cardcore.seeds import fresh_seed
from cardcore.text import describe, one_line

if TYPE_CHECKING:
    from cardcore.game import DealState
    from cardcore.match import Match
    from cardcore.plugins import Registry
    from cardcore.table import Table

F = TypeVar("F", bound=Callable[..., Any])
DEFAULT_CONFIG = "games.yaml"
PLAYERS_HELP = (
    "Number of players, within the game's own range (`cardcore games` lists it; default: the game's)."
)


class UserError(click.ClickException):
    """A user's mistake: one line, exit code 2."""

    exit_code = 2


DEBUG_ENV = "CARDCORE_DEBUG"


def help_text(text: str) -> str:
    """A help text in the language in use: the CLI's own (``cardcore``
    domain, read off the command tree by ``i18n_tools extract``), else click's."""
    msgid = i18n.help_msgid(text)
    said = i18n.gettext(msgid)
    return said if said != msgid else i18n.gettext(msgid, "click")


class TranslatedHelp(click.Command):
    """A command whose ``--help`` (its text, its options', the short help the
    group lists) is in the language in use."""

    @contextlib.contextmanager
    def _translated(self, ctx: click.Context | None = None) -> Any:
        if i18n.language() == i18n.SOURCE:
            yield
            return
        params = self.get_params(ctx) if ctx is not None else self.params
        saved = (self.help, self.short_help, self.epilog, [getattr(p, "help", None) for p in params])
        self.help, self.short_help, self.epilog = (help_text(t) if t else t for t in saved[:3])
        for p, h in zip(params, saved[3], strict=True):
            if h:
                setattr(p, "help", help_text(h))  # noqa: B010  (an argument has no help attribute in its type)
        try:
            yield
        finally:
            self.help, self.short_help, self.epilog = saved[:3]
            for p, h in zip(params, saved[3], strict=True):
                if h is not None:
                    setattr(p, "help", h)  # noqa: B010

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with self._translated(ctx):
            super().format_help(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        with self._translated():
            return super().get_short_help_str(limit)


CLICK_UNMARKED = (N_("required"),)  # click says these through its `_` without marking them


def install_click_words() -> None:
    """click's own words (``Usage:``, ``No such option``, its errors) through the
    ``click`` catalog: each click module's ``_``/``ngettext`` made ours."""
    import importlib

    def said(message: str) -> str:
        got = i18n.gettext(message, "click")
        return got if got != message else i18n.gettext(message)  # the words click leaves unmarked

    def said_n(singular: str, plural: str, n: int) -> str:
        return i18n.ngettext(singular, plural, n, "click")

    for name in ("core", "decorators", "exceptions", "formatting", "parser", "termui", "types", "utils"):
        with contextlib.suppress(ImportError):
            module = importlib.import_module(f"click.{name}")
            if hasattr(module, "_"):
                module._ = said  # type: ignore[attr-defined]
            if hasattr(module, "ngettext"):
                module.ngettext = said_n  # type: ignore[attr-defined]


install_click_words()


def _choose_language(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is None:
        return
    code = i18n.normalize(value)
    if code is None:
        raise click.BadParameter(
            _("unknown language {code!r}; languages: {codes}").format(
                code=value, codes=", ".join(i18n.languages())
            ),
            ctx,
            param,
        )
    i18n.set_language(code)


def lang_option(what: str) -> Callable[[F], F]:
    """``--lang CODE``: the language in use from now on (eager: before the help is shown)."""
    return click.option(
        "--lang", metavar="CODE", is_eager=True, expose_value=False, callback=_choose_language, help=what
    )


class GameCommand(TranslatedHelp):
    """A command whose ``--help`` after a GAME (``cardcore play canasta
    --help``) gives ``--players`` that game's own range."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["cardcore.argv"] = list(args)  # read by the help, which click shows while parsing
        return super().parse_args(ctx, args)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from cardcore.errors import CardcoreError

        argv = ctx.meta.get("cardcore.argv") or []
        players = next((p for p in self.params if p.name == "players"), None)
        named = argv[0] if argv and not argv[0].startswith("-") else None
        takes_game = "game" in {p.name for p in self.params}
        if not isinstance(players, click.Option) or named is None or not takes_game:
            super().format_options(ctx, formatter)
            return
        try:
            spec = registry().game(named)
        except CardcoreError:  # not a game: the help as it is (the command says why when run)
            super().format_options(ctx, formatter)
            return
        low, high = spec.min_players, spec.max_players
        old = players.help
        default, title = spec.default_players, i18n.render(spec.title)
        if low == high:
            players.help = _("Number of players: {title} is played by {n} (default {default}).").format(
                title=title, n=low, default=default
            )
        else:
            players.help = _(
                "Number of players: {title} is played by {low} to {high} (default {default})."
            ).format(title=title, low=low, high=high, default=default)
        try:
            super().format_options(ctx, formatter)
        finally:
            players.help = old


class CardcoreGroup(TranslatedHelp, click.Group):
    """click's group, with every error as one line: ``error: …``, exit code 2
    for the user's mistakes; an unexpected error (a bug, a broken plugin) is
    one line too, naming the command, with exit code 1 (``--debug`` or
    ``CARDCORE_DEBUG=1`` shows the traceback)."""

    command_class = GameCommand

    def main(self, *args: Any, **kwargs: Any) -> Any:
        before = i18n.language()
        try:
            return self._main(*args, **kwargs)
        finally:
            i18n.set_language(before)  # a caller in the same process (a test) keeps its language

    def _main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        i18n.set_language(i18n.from_environment())  # `--lang` (eager, first) may change it
        argv = list(kwargs.get("args") or (args[0] if args else sys.argv[1:]) or [])
        debug = "--debug" in argv or bool(os.environ.get(DEBUG_ENV))
        if "--debug" in argv:
            argv.remove("--debug")
            if "args" in kwargs:
                kwargs["args"] = argv
            elif args:
                args = (argv, *args[1:])
            else:
                kwargs["args"] = argv
        for stream in (sys.stdout, sys.stderr):
            # a stream that cannot encode "♣" (a cp1252 redirect) gets "?" instead of an error
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                with contextlib.suppress(ValueError, OSError):
                    reconfigure(errors="replace")
        try:
            code = super().main(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError as err:
            click.echo(err.ctx.get_help())
            sys.exit(0)
        except click.ClickException as err:
            said = one_line(
                i18n.render(err.message) if isinstance(err.message, i18n.Text) else err.format_message()
            )
            if isinstance(err, click.UsageError) and err.ctx is not None:
                line = _("error: {message} (see `{command} --help`)").format(
                    message=said, command=err.ctx.command_path
                )
            else:
                line = _("error: {message}").format(message=said)
            click.echo(line, err=True)
            sys.exit(err.exit_code)
        except click.exceptions.Abort:
            click.echo("\n" + _("Aborted."), err=True)
            sys.exit(130)
        except KeyboardInterrupt:
            click.echo("\n" + _("Interrupted."), err=True)
            sys.exit(130)
        except BrokenPipeError:  # `cardcore games | head -1`: the reader has gone
            with contextlib.suppress(OSError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(141)
        except Exception as err:  # the last resort: never a traceback unless asked
            if debug:
                raise
            command = " ".join(a for a in argv[:1] if not a.startswith("-")) or "cardcore"
            where = culprit(err)
            if where:
                line = _(
                    "error: internal error in `cardcore {command}` in plugin code ({where}; "
                    "CARDCORE_DISABLE_PLUGINS=<its entry point> leaves it out): {error} "
                    "(run with --debug or {env}=1 for the traceback)"
                )
            else:
                line = _(
                    "error: internal error in `cardcore {command}`: {error} "
                    "(run with --debug or {env}=1 for the traceback)"
                )
            click.echo(
                line.format(command=command, where=where, error=_described(err), env=DEBUG_ENV), err=True
            )
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


CORE = ("cardcore", "pluggy", "click", "pydantic", "yaml")


def culprit(err: BaseException) -> str:
    """``MODULE, package P`` when the error was raised in a plugin's code (the
    innermost frame outside the core and the standard library), else ""."""
    import traceback

    stdlib = os.path.dirname(os.__file__)
    ours = os.path.dirname(os.path.abspath(__file__))  # cardcore itself (cli.py run as __main__ too)
    module = None
    for frame, _lineno in traceback.walk_tb(err.__traceback__):
        name = frame.f_globals.get("__name__", "")
        path = frame.f_code.co_filename
        if name.split(".")[0] in CORE or path.startswith((stdlib, ours)) or not name:
            continue
        module = name
    if module is None:
        return ""
    from cardcore.plugins import package_of

    package = package_of(module)
    if package:
        return _("{module}, package {package}").format(module=module, package=package)
    return str(module)


def _described(err: BaseException) -> str:
    """``describe(err)`` with its message in the language in use where it is a ``Text``."""
    from cardcore.errors import message

    said = message(err)
    if not isinstance(said, i18n.Text):
        return describe(err)
    return f"{type(err).__name__}: {one_line(i18n.render(said), 160)}"


def friendly(fn: F) -> F:
    """Report the user's errors (``CardcoreError``) as one line and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from cardcore.errors import CardcoreError, message

        try:
            return fn(*args, **kwargs)
        except CardcoreError as err:
            raise UserError(one_line(i18n.render(message(err)), 600)) from None

    return wrapper  # type: ignore[return-value]


class Env:
    """What the commands share (``ctx.obj``): the plugin registry, discovered once."""

    @cached_property
    def registry(self) -> Registry:
        from cardcore.plugins import discover

        reg = discover()
        for warning in reg.warnings:
            click.echo(_("warning: {message}").format(message=i18n.render(warning)), err=True)
        return reg


def registry() -> Registry:
    return click.get_current_context().ensure_object(Env).registry


# ---- parameter types --------------------------------------------------------
class OptionParam(click.ParamType):  # type: ignore[type-arg]  # generic in newer click
    """``--option KEY=VALUE``; the value is read as YAML (``deck=54`` is a number)."""

    name = "KEY=VALUE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, tuple):
            return value
        key, sep, text = str(value).partition("=")
        if not sep or not key.strip():
            self.fail(_("{value!r}: expected KEY=VALUE, e.g. deck=54").format(value=value), param, ctx)
        import yaml

        try:
            parsed = yaml.safe_load(text) if text.strip() else ""
        except yaml.YAMLError:
            parsed = text
        if isinstance(parsed, (dict, list)):
            parsed = text  # options are plain values
        return key.strip(), parsed


class SeatParam(click.ParamType):  # type: ignore[type-arg]
    """``--seat I=KIND``: the player kind of seat I (``1=greedy``)."""

    name = "I=KIND"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, tuple):
            return value
        seat, sep, kind = str(value).partition("=")
        seat = seat.strip()
        if not sep or not kind.strip() or not (seat.isascii() and seat.isdigit()) or len(seat) > 3:
            self.fail(
                _("{value!r}: expected SEAT=KIND, e.g. --seat 1=greedy").format(value=value), param, ctx
            )
        return int(seat), kind.strip()


class FilePath(click.Path):
    """click's path, refusing a name the system cannot use (a NUL byte) in one line."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except (ValueError, OSError) as err:
            self.fail(
                _("{name!r} is not a usable file name ({error})").format(
                    name=one_line(str(value), 80), error=err
                ),
                param,
                ctx,
            )


def parse_options(pairs: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    return dict(pairs)


def parse_seats(pairs: tuple[tuple[int, str], ...], players: int) -> dict[int, str]:
    out: dict[int, str] = {}
    for seat, kind in pairs:
        if seat >= players:
            raise UserError(
                _n(
                    "--seat {seat}={kind}: no seat {seat} at a {n}-player table",
                    "--seat {seat}={kind}: no seat {seat} at a {n}-player table",
                    players,
                ).format(seat=seat, kind=kind, n=players)
            )
        out[seat] = kind
    return out


def table_options(fn: F) -> F:
    fn = click.option(
        "--house-rule",
        "house_rules",
        multiple=True,
        metavar="NAME",
        help="Add a house rule (repeatable, applied in order).",
    )(fn)
    fn = click.option(
        "--option",
        "options",
        multiple=True,
        type=OptionParam(),
        help="Set a game option, e.g. --option deck=54 (repeatable).",
    )(fn)
    fn = click.option("--seat", "seats", multiple=True, type=SeatParam(), help="Player kind of seat I.")(fn)
    fn = click.option(
        "--players",
        type=int,
        metavar="N",
        help=PLAYERS_HELP,
    )(fn)
    return fn


def config_option(fn: F) -> F:
    """``--config FILE``: the tables file (games.yaml)."""
    return click.option(
        "--config",
        "config_path",
        type=FilePath(dir_okay=False, path_type=Path),
        default=DEFAULT_CONFIG,
        show_default=True,
        help="The tables file.",
    )(fn)


# ---- the command group ------------------------------------------------------
@click.group(cls=CardcoreGroup, context_settings={"help_option_names": ["-h", "--help"]})
@lang_option("Language of everything shown: en, fr, pl, lt (default: LANGUAGE, LC_ALL, LANG).")
@click.version_option(package_name="cardcore")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Play, simulate and study fishing and rummy card games.

    Start with `cardcore games`, then `cardcore play GAME`.
    """
    ctx.ensure_object(Env)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@friendly
def games(as_json: bool) -> None:
    """List the installed games, their player counts and options."""
    from cardcore.plugins import game_catalog

    reg = registry()
    rows = game_catalog(reg)
    if as_json:
        click.echo(json.dumps({"games": rows}, indent=2))
        return
    for r in rows:
        g = reg.games[r["name"]]
        low, high = r["min_players"], r["max_players"]
        count = _n("{low}-{high} player", "{low}-{high} players", high).format(low=low, high=high)
        # i18n: a game listed by `cardcore games`: its title, then how many play it ("2-4 players")
        click.echo(
            f"{r['name']:<16} " + _("{title} — {count}").format(title=i18n.render(g.title), count=count)
        )
        if r["summary"]:
            click.echo(f"{'':16} {i18n.render(g.summary)}")
        for key, o in r["options"].items():
            click.echo(
                f"{'':16} "
                + _("--option {key}=…  (default {default!r}) {description}").format(
                    key=key, default=o["default"], description=option_description(g, key, o["description"])
                )
            )


@main.command("house-rules")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@friendly
def house_rules_cmd(as_json: bool) -> None:
    """List the installed house rules and the game each applies to."""
    reg = registry()
    rows = [
        {"name": h.name, "game": h.game, "summary": h.summary, "ruling": h.ruling}
        for h in sorted(reg.house_rules.values(), key=lambda h: h.name)
    ]
    if as_json:
        click.echo(json.dumps({"house_rules": rows}, indent=2))
        return
    for r, h in zip(rows, sorted(reg.house_rules.values(), key=lambda h: h.name), strict=True):
        click.echo(f"{r['name']:<40} [{r['game']}] {i18n.render(h.summary)}")


def option_description(spec: Any, key: str, fallback: Any = "") -> str:
    """An option's description in the language in use: the game's own text
    (a ``Text`` once the game marks it), read off its options model."""
    field = spec.options_model.model_fields.get(key)
    said = field.description if field is not None and field.description is not None else fallback
    return i18n.render(said)


def rules_page_in(spec: Any, lang: str) -> tuple[str, bool]:
    """The game's rules page in ``lang`` (``rules.<lang>.md`` beside its
    ``rules.md``) and whether it is in that language: else the page it has."""
    import inspect

    page = spec.rules_page
    try:
        takes_language = bool(inspect.signature(page).parameters)
    except (TypeError, ValueError):
        takes_language = False
    english = page()
    if lang == i18n.SOURCE:
        return english, True
    if not takes_language:
        return english, False
    said = page(lang)
    return said, said != english


@main.command()
@click.argument("game")
@lang_option("The language of the page (as `cardcore --lang CODE rules GAME`).")
@friendly
def rules(game: str) -> None:
    """Show a game's rules page, its options and house rules."""
    reg = registry()
    g = reg.game(game)  # an unknown name is a one-line error with a suggestion
    page, translated = rules_page_in(g, i18n.language())
    if not translated:
        click.echo(
            _(
                "(The rules page of {title} is not translated into {language} yet: here it is in English.)"
            ).format(
                title=i18n.render(g.title), language=i18n.LANGUAGES.get(i18n.language(), i18n.language())
            )
            + "\n"
        )
    click.echo(page.rstrip())
    click.echo("\n" + _("Options (--option KEY=VALUE):"))
    for key, prop in g.options_model.model_json_schema().get("properties", {}).items():
        click.echo(
            "  "
            + _("{key} (default {default!r}): {description}").format(
                key=key,
                default=prop.get("default"),
                description=option_description(g, key, prop.get("description", "")),
            )
        )
    hrs = reg.house_rules_for(game)
    if hrs:
        click.echo("\n" + _("House rules (--house-rule NAME):"))
        for h in hrs:
            click.echo(f"  {h.name}: {i18n.render(h.summary)}")


def _table_from_args(
    reg: Registry,
    game: str,
    players: int | None,
    options: tuple[tuple[str, Any], ...],
    house_rules: tuple[str, ...],
    names: list[str] | None = None,
) -> Table:
    from cardcore.errors import CardcoreError, TableError, message
    from cardcore.table import Table

    try:
        return Table.from_names(reg, game, players, parse_options(options), house_rules, names)
    except TableError as err:
        raise CardcoreError(message(err)) from None


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


def _default_bot(table: Table) -> str:
    return "normal" if "normal" in table.player_kinds else "random"  # the level for a newcomer


@main.command()
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
    from cardcore import render

    render.SYMBOLS[0] = not ascii_cards
    if resume_last:
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
        click.echo(
            _(
                "The table {name!r} gives every seat to a bot: it plays itself. To play, give a "
                "seat `kind: human` in the file, or add --seat 0=human."
            ).format(name=table_name)
        )
    if not table_name and resume_path is None:
        table.names = seat_names(table, kinds)
    if where.first_deal is not None:
        click.echo(
            _("From {path}: the position's deal first, then the match goes on.").format(path=from_path)
        )
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

    def table_and_kinds(self) -> tuple[Table, list[str], int | None]:
        """The table, the seats' kinds and the seed it names (or None)."""
        from cardcore.errors import CardcoreError

        reg = registry()
        if self.resume_path is not None:
            return self._resumed(reg)
        if self.from_path is not None:
            return self._from_position(reg)
        if self.table_name:
            from cardcore import config as config_mod

            if self.game:
                raise CardcoreError(T("give either GAME or --table, not both"))
            if self.players is not None:
                raise CardcoreError(T("--players comes from the table's config with --table"))
            table, kinds, seed = config_mod.load_table(
                self.config_path, self.table_name, reg, parse_options(self.options), list(self.house_rules)
            )
            return table, kinds, seed
        if self.game:
            table = _table_from_args(reg, self.game, self.players, self.options, self.house_rules)
            return table, ["human"] + [_default_bot(table)] * (table.players - 1), None
        raise CardcoreError(T("name a game (see `cardcore games`) or a --table of games.yaml"))

    def _resumed(self, reg: Registry) -> tuple[Table, list[str], int | None]:
        from cardcore.errors import CardcoreError
        from cardcore.log import resume_point

        path = self.resume_path
        assert path is not None
        if self.game or self.table_name or self.from_path or self.players is not None:
            raise CardcoreError(T("--resume goes on with the game the file states (and in that file)"))
        if self.options or self.house_rules or self.log_path:
            raise CardcoreError(T("--resume goes on with the game the file states (and in that file)"))
        table, head, self.resume_match, self.resume_state = resume_point(path, reg)
        if self.resume_match is not None and self.resume_match.over:
            raise CardcoreError(T("{path}: the match is over; nothing to resume", path=path))
        kinds = [str(k) for k in head.get("seats") or []] or ["human"] + ["random"] * (table.players - 1)
        if len(kinds) == table.players and any(
            table.names == seat_names_in(lang, table, kinds) for lang in i18n.languages()
        ):
            # the terminal's own names, said in the language of the game's start ("Vous",
            # "Gauche"): said in this one now (names a person gave are kept)
            table.names = seat_names(table, kinds)
        click.echo(_("Resuming {path}.").format(path=path))
        return table, kinds, head.get("seed")

    def _from_position(self, reg: Registry) -> tuple[Table, list[str], int | None]:
        from cardcore.errors import CardcoreError
        from cardcore.position import read_position

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
        return table, ["human"] + [_default_bot(table)] * (table.players - 1), None


def _quiet_trace(table: Table, kinds: list[str], trace_reveals: bool) -> None:
    """Tracing prints every hook call, every hand in it: not to a person at the table."""
    from cardcore.plugins import ENV_TRACE

    if os.environ.get(ENV_TRACE) and "human" in kinds and not trace_reveals:
        table.pm.trace.root.setwriter(None)
        click.echo(
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
    from cardcore.log import GameLog
    from cardcore.players import QuitGame, Undoable
    from cardcore.runner import Listener, continue_match, make_players, play_match
    from cardcore.terminal.autosave import Journal, autosave_path
    from cardcore.terminal.human import HumanPlayer
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
    memory = io.StringIO()
    if resume_path is not None and resume_path == journal_path:
        # going on from the autosave: the game so far is kept in memory (for `s`)
        # and the autosave goes on being written
        memory.write(before)
        log_file: IO[str] | None = None
    elif resume_path is not None:
        log_file = resume_path.open("a", encoding="utf-8")  # goes on after its last line
    else:
        log_file = _open_log(log_path)
    # with a person at the table the match's lines are written when it ends or
    # stops (or at `s`): the file never shows the other hands while he plays.
    # Without --log the game is kept in memory, for `s` to save it.
    log = GameLog(log_file or memory, table, kinds, seed, header=resume_path is None, private=person_here)
    listeners.append(log)
    journal = Journal(journal_path, table, kinds, seed, before) if journal_path is not None else None
    if journal is not None:
        listeners.append(journal)
    saved = [log_path or (resume_path if log_file is not None else None)]
    if move_timeout is not None:
        from cardcore.watchdog import arm

        def kept_on_overrun() -> str | None:
            if journal is None:
                return None
            journal.sync()  # the moves played so far stay resumable
            return _("; the game is autosaved up to its last move (`cardcore play --last`)")

        arm(move_timeout, "play", kept_on_overrun)

    def save() -> str:
        from cardcore.files import free_name

        if saved[0] is None:  # no log file yet: a new one, never an existing one
            # named by the seed he gave, else by the time: a seed nobody gave would tell every hand
            stamp = str(seed) if given_seed else time.strftime("%Y%m%d-%H%M%S")
            path = free_name(Path(f"{table.game.name}-{stamp}.jsonl"))
            stream = path.open("x", encoding="utf-8")
            stream.write(log.stream.getvalue())  # type: ignore[attr-defined]  # the header
            log.stream = stream
            saved[0] = path
        log.save()
        return _("saved to {path}; `cardcore play --resume {path}` goes on from here").format(path=saved[0])

    people = [i for i, p in enumerate(player_objs) if isinstance(p, HumanPlayer)]
    for i in people:
        person = player_objs[i]
        assert isinstance(person, HumanPlayer)
        person.confirm_forced = confirm_forced
        person.on_save = save
        person.before_view = printer.flush
        person.announce_forced = False  # the printer says it
        if len(people) == 1:  # undo against bots only: a way back to each of his decisions
            player_objs[i] = Undoable(person)
    printer.people = frozenset(i for i in people if not confirm_forced)
    try:
        if where.resume_match is not None:
            printer.match_start(where.resume_match, 1)
            continue_match(table, where.resume_match, player_objs, listeners, going_on=where.resume_state)
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
        click.echo(_("Game stopped.") + kept)
    except (click.Abort, KeyboardInterrupt):
        if journal is not None:
            journal.finish()
            kept += " " + _("It is autosaved: `cardcore play --last` goes on from its last move.")
        click.echo("\n" + _("Game interrupted.") + kept, err=True)
        sys.exit(130)
    except BaseException:
        if journal is not None:
            journal.finish()  # a crash: the game so far stays resumable
        raise
    finally:
        log.close()
        if log.stream is not log_file and saved[0] is not None:
            _close_log(log.stream)
        if log_file:
            _close_log(log_file)


def _another_match() -> bool:
    """After a match with a person: play another at the same table?"""
    from cardcore.watchdog import person_waits

    try:
        with person_waits():
            answer = click.prompt(_("Another match? (y/n)"), default="n", show_default=False)
    except click.Abort:  # no more input
        return False
    # i18n: the answers that mean yes, separated by spaces (English's are always accepted too)
    yes = {"y", "yes", *_("y yes").lower().split()}
    return str(answer).strip().lower() in yes


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
    click.echo(line.format(title=title, n=n, seed=seed))
    chosen = table.options.model_dump(exclude_defaults=True)
    if chosen:
        click.echo(
            "  " + _("options: {options}").format(options=", ".join(f"{k}={v}" for k, v in chosen.items()))
        )
    from cardcore.render import plain, wrapped

    for h in table.house_rules:  # what each does, in words (its id for the tables file)
        said = _("house rule: {summary} ({name})").format(
            summary=plain(i18n.render(h.summary)).rstrip("."), name=h.name
        )
        for line in wrapped(said):
            click.echo(line)

    def seat(s: int) -> str:
        if kinds[s] == "human":
            return _("{name} (a person)").format(name=table.names[s])
        from cardcore.levels import level_name

        return _("{name} ({kind})").format(name=table.names[s], kind=level_name(kinds[s]))

    sides = [" & ".join(seat(s) for s in side) for side in table.sides]
    if len(sides) == 2:
        click.echo("  " + _("{side} against {other}").format(side=sides[0], other=sides[1]))
    else:
        # i18n: three sides or more: each side (its seats), separated by " against " in English
        click.echo("  " + _(" against ").join(sides))


def _close_log(f: IO[str]) -> None:
    """Close a log; after a failed write (a full disk) the error was reported
    already, and what is left in the buffer cannot be written either."""
    with contextlib.suppress(OSError):
        f.close()


def _open_log(path: Path | None) -> IO[str] | None:
    """Open a new log file; never overwrite one (a saved game is never lost)."""
    from cardcore.errors import CardcoreError

    if path is None:
        return None
    try:
        return path.open("x", encoding="utf-8")
    except FileExistsError:
        raise CardcoreError(T("{path}: already exists; logs are never overwritten", path=path)) from None
    except OSError as err:
        raise CardcoreError(
            T("{path}: cannot write the log ({error})", path=path, error=err.strerror)
        ) from None


@main.command()
@click.argument("game")
@table_options
@click.option("--bot", default="random", show_default=True, help="Kind of every seat not set by --seat.")
@click.option("--deals", type=click.IntRange(min=1), help="Play this many deals.")
@click.option("--matches", type=click.IntRange(min=1), help="Play this many matches.")
@click.option("--seed", type=int, help="Random seed (default: a new one, reported).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--log",
    "log_path",
    type=FilePath(dir_okay=False, path_type=Path),
    help="Write every game as JSON lines to FILE.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Processes to play on (0: every core). The results do not depend on it.",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where to play: local processes, or Ray (pip install 'cardcore[ray]').",
)
@click.option(
    "--address",
    metavar="ADDR",
    help="The Ray cluster to join (default: RAY_ADDRESS, else a local Ray).",
)
@click.option("--check", is_flag=True, help="Check after every deal that no card was lost or copied.")
@click.option(
    "--move-timeout",
    type=click.FloatRange(0, min_open=True),
    metavar="SECONDS",
    help="Stop with one line naming the plugin and hook when one move takes longer (one process only).",
)
@friendly
def simulate(
    game: str,
    players: int | None,
    seats: tuple[tuple[int, str], ...],
    options: tuple[tuple[str, Any], ...],
    house_rules: tuple[str, ...],
    bot: str,
    deals: int | None,
    matches: int | None,
    seed: int | None,
    as_json: bool,
    log_path: Path | None,
    jobs: int,
    backend: str,
    address: str | None,
    check: bool,
    move_timeout: float | None,
) -> None:
    """Play GAME without humans and summarise the results.

    Exactly one of --deals N or --matches N.  With --deals, matches are played
    one after the other until N deals are done (an unfinished last match is
    not counted in `matches` or `wins`).  Every match derives its deck and its
    bots' choices from its own seed, so --jobs and --backend never change the
    results (only `seconds` and `cpu_seconds`).  Ctrl-C stops and reports the
    deals finished so far.
    """
    if (deals is None) == (matches is None):
        raise UserError(T("give exactly one of --deals N or --matches N"))
    reg = registry()
    table = _table_from_args(reg, game, players, options, house_rules)
    kinds = [bot] * table.players
    for seat, kind in parse_seats(seats, table.players).items():
        kinds[seat] = kind
    if "human" in kinds:
        raise UserError(T("simulate plays bots only; use `cardcore play` to play"))
    if seed is None:
        seed = fresh_seed()
    from cardcore.runner import make_players
    from cardcore.simulate import simulate as run_simulation

    make_players(table, kinds, seed)  # an unknown --bot or --seat kind fails before the log is made
    if move_timeout is not None:
        if jobs != 1 or backend != "local":
            raise UserError(T("--move-timeout watches one process: use it with --jobs 1 (the local backend)"))
        from cardcore.watchdog import arm

        arm(move_timeout, "simulate")
    log_file = _open_log(log_path)
    try:
        summary = run_simulation(
            table,
            kinds,
            seed,
            deals=deals,
            matches=matches,
            log=log_file,
            progress=sys.stderr.isatty(),  # on stderr: --json's stdout stays JSON
            jobs=jobs,
            backend=backend,
            address=address,
            check=check,
        )
    finally:
        if log_file:
            _close_log(log_file)
    if as_json:
        click.echo(json.dumps(summary))
        if summary.get("interrupted"):
            sys.exit(130)
        return
    counts = {
        "deals": _n("{n} deal", "{n} deals", summary["deals"]).format(n=summary["deals"]),
        "matches": _n("{n} match", "{n} matches", summary["matches"]).format(n=summary["matches"]),
        "moves": _n("{n} move", "{n} moves", summary["moves"]).format(n=summary["moves"]),
    }
    times = {"seconds": f"{summary['seconds']:.2f}", "cpu": f"{summary['cpu_seconds']:.2f}"}
    title = i18n.render(table.game.title)
    if summary.get("interrupted"):
        line = _(
            "{title}: {deals}, {matches}, {moves} in {seconds}s, {cpu}s CPU (seed {seed}) "
            "(interrupted: the deals finished so far)"
        )
    else:
        line = _("{title}: {deals}, {matches}, {moves} in {seconds}s, {cpu}s CPU (seed {seed})")
    click.echo(line.format(title=title, seed=seed, **counts, **times))
    for i, side in enumerate(table.sides):
        who = " & ".join(_("seat {seat} ({kind})").format(seat=s, kind=kinds[s]) for s in side)
        avg = summary["points_total"][i] / max(1, summary["deals"])
        wins, deal_wins = summary["wins"][i], summary["deal_wins"][i]
        click.echo(
            "  "
            + _("side {side} [{who}]: {wins}, {deal_wins}, {points} points per deal").format(
                side=i,
                who=who,
                wins=_n("{n} match win", "{n} match wins", wins).format(n=wins),
                deal_wins=_n("{n} deal win", "{n} deal wins", deal_wins).format(n=deal_wins),
                points=f"{avg:.2f}",
            )
        )
    if summary.get("interrupted"):
        sys.exit(130)


def backend_options(f: Any) -> Any:
    """``--backend local|ray`` and ``--address``: where the deals are played."""
    f = click.option(
        "--address", metavar="ADDR", help="The Ray cluster to join (default: RAY_ADDRESS, else local)."
    )(f)
    return click.option(
        "--backend",
        type=click.Choice(["local", "ray"]),
        default="local",
        show_default=True,
        help="Where to play: local processes, or Ray (pip install 'cardcore[ray]').",
    )(f)


@main.command()
@click.argument("game")
@click.option("--bot", "bots", multiple=True, required=True, help="A bot to measure (twice or more).")
@click.option(
    "--players",
    type=int,
    metavar="N",
    help=PLAYERS_HELP,
)
@click.option("--option", "options", multiple=True, type=OptionParam(), help="A game option.")
@click.option("--house-rule", "house_rules", multiple=True, metavar="NAME", help="A house rule.")
@click.option("--deals", type=click.IntRange(min=1), required=True, help="Decks per pairing.")
@click.option("--seed", type=int, default=1, show_default=True, help="Random seed.")
@click.option("--jobs", type=click.IntRange(min=0), default=1, show_default=True, help="Processes (0: all).")
@backend_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@friendly
def arena(
    game: str,
    bots: tuple[str, ...],
    players: int | None,
    options: tuple[tuple[str, Any], ...],
    house_rules: tuple[str, ...],
    deals: int,
    seed: int,
    jobs: int,
    backend: str,
    address: str | None,
    as_json: bool,
) -> None:
    """Measure bots on duplicate deals: the same decks played with the sides
    turned, so that the luck of the cards cancels (see docs/BOTS.md)."""
    from cardcore.arena import ArenaSpec, pairings, run
    from cardcore.runner import make_player

    if len(set(bots)) < 2:
        raise UserError(T("name two different bots or more: --bot A --bot B"))
    table = _table_from_args(registry(), game, players, options, house_rules)
    if len(table.sides) < 2:
        raise UserError(T("the arena needs a table of two sides or more"))
    for bot in bots:
        make_player(table, bot, 0, random.Random(0))  # an unknown kind or option: one line
    spec = ArenaSpec(
        table.game.name,
        table.players,
        tuple(sorted(table.options.model_dump(exclude_defaults=True).items())),
        tuple(h.name for h in table.house_rules),
        tuple(dict.fromkeys(bots)),
        seed,
    )
    total = deals * len(pairings(spec.bots))
    if not sys.stderr.isatty():  # the bar is on stderr: with --json too, stdout stays JSON
        summary = run(spec, deals, jobs or os.cpu_count() or 1, backend=backend, address=address)
    else:
        with click.progressbar(
            length=total, label=_("{game} arena").format(game=table.game.name), file=sys.stderr
        ) as bar:
            summary = run(
                spec,
                deals,
                jobs or os.cpu_count() or 1,
                on_progress=bar.update,
                backend=backend,
                address=address,
            )
    if as_json:
        click.echo(json.dumps(summary))
        return
    click.echo(
        _n(
            "{title}, {n} player, {deals} decks per pairing, seed {seed}",
            "{title}, {n} players, {deals} decks per pairing, seed {seed}",
            table.players,
        ).format(title=i18n.render(table.game.title), n=table.players, deals=deals, seed=seed)
    )
    for row in summary["bots"]:
        lo, hi = row["ci95"]
        click.echo(
            f"  {row['bot']:<28} "
            + _(
                "margin {margin} [{lo}, {hi}]  deals {deals}  sets {sets}  {ms} ms/decision "
                "(median {median}, p95 {p95})  rating {rating}"
            ).format(
                margin=f"{row['mean_margin']:+.2f}",
                lo=f"{lo:+.2f}",
                hi=f"{hi:+.2f}",
                deals=f"{row['deal_win_rate']:.0%}",
                sets=f"{row['match_win_rate']:.0%}",
                ms=f"{1000 * row['seconds_per_decision']:.1f}",
                median=f"{row['ms_per_decision']['median']:.1f}",
                p95=f"{row['ms_per_decision']['p95']:.1f}",
                rating=summary["ratings"][row["bot"]],
            )
        )


@main.command()
@click.argument("game")
@click.option("--players", type=int, metavar="N", help=PLAYERS_HELP)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="NAME=SPEC",
    help="A variant: NAME=option=value,+house.rule,... (repeatable), e.g. short=deck=54.",
)
@click.option(
    "--table", "tables", multiple=True, metavar="NAME", help="A table of the config file as a variant."
)
@config_option
@click.option(
    "--deals", type=click.IntRange(min=1), default=2000, show_default=True, help="Deals per variant."
)
@click.option(
    "--skill-deals",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    help="Duplicate decks per variant for the search bot against greedy (0: none).",
)
@click.option("--bot", help="Kind of every seat in the deals (default: the game's greedy).")
@click.option(
    "--search-bot", default="ismcts", show_default=True, help="The skilled player, e.g. ismcts:iterations=50."
)
@click.option("--seed", type=int, default=1, show_default=True, help="Random seed.")
@click.option("--jobs", type=click.IntRange(min=0), default=1, show_default=True, help="Processes (0: all).")
@backend_options
@click.option(
    "--out",
    type=FilePath(file_okay=False, path_type=Path),
    help="Write the report (HTML, study.json, CSV) there; an interrupted study resumes from it.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@friendly
def study(
    game: str,
    players: int | None,
    variants: tuple[str, ...],
    tables: tuple[str, ...],
    config_path: Path,
    deals: int,
    skill_deals: int,
    bot: str | None,
    search_bot: str,
    seed: int,
    jobs: int,
    backend: str,
    address: str | None,
    out: Path | None,
    as_json: bool,
) -> None:
    """Measure what house rules and options do to GAME: the base game and
    each variant on the same seeded decks, every figure with a 95% interval
    (see docs/STUDY.md)."""
    from cardcore.study import run
    from cardcore.study.report import table_text

    try:
        result = run(
            game,
            players,
            variants,
            tables,
            deals=deals,
            skill_deals=skill_deals,
            seed=seed,
            jobs=jobs,
            backend=backend,
            address=address,
            out=out,
            bot=bot,
            search_bot=search_bot,
            progress=sys.stderr.isatty(),  # on stderr: --json's stdout stays JSON
            registry=registry(),
            config=config_path,
        )
    except KeyboardInterrupt:
        if out:
            click.echo(
                _("interrupted; run it again to go on from the chunks kept in {folder}").format(folder=out),
                err=True,
            )
        else:
            click.echo(_("interrupted"), err=True)
        sys.exit(130)
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(table_text(result))
    if out is not None:
        click.echo(_("report: {path}").format(path=out / "index.html"))


@main.command()
@click.argument("game", required=False)
@table_options
@click.option(
    "--table", "table_names", multiple=True, metavar="NAME", help="Open a table of games.yaml (repeatable)."
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; 0.0.0.0 lets the other machines of your network in.",
)
@click.option(
    "--lan",
    is_flag=True,
    help="Let the other machines of your network in (--host 0.0.0.0): the links carry this "
    "machine's network address.",
)
@click.option(
    "--no-lobby-seats",
    "no_lobby_seats",
    is_flag=True,
    help="A person's seat is his link's only: the lobby offers no 'Take this seat'.",
)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: any free one)."
)
@click.option(
    "--seed",
    type=int,
    help="Random seed of the tables opened here: deterministic on purpose, whoever knows it "
    "can compute every hand (default: a new 128-bit one each match, never shown).",
)
@click.option(
    "--allow-seeds",
    is_flag=True,
    help="Let the lobby's form give a seed to a table with people (refused by default).",
)
@click.option(
    "--allow-origin",
    "allow_origins",
    multiple=True,
    metavar="URL",
    help="Another origin allowed to use the server, e.g. http://mybox.lan:8000 (repeatable); "
    "by default only its own addresses.",
)
@click.option(
    "--log-dir",
    type=FilePath(file_okay=False, path_type=Path),
    default="cardcore-logs",
    show_default=True,
    help="Folder of the tables' game logs (one JSON-lines file per table).",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 10),
    default=0.6,
    show_default=True,
    help="Seconds between bot moves, so that people and spectators can follow.",
)
@click.option(
    "--max-tables",
    type=click.IntRange(1, 10_000),
    default=64,
    show_default=True,
    help="Tables open at once (stopped ones do not count).",
)
@click.option(
    "--away-limit",
    type=click.FloatRange(0),
    default=180,
    show_default=True,
    metavar="SECONDS",
    help="How long a person's seat is away before the other people may hand it to a bot "
    "(his link takes it back).",
)
@click.option(
    "--state",
    "state_path",
    type=FilePath(dir_okay=False, path_type=Path),
    help="The server's tables and their journals (SQLite), resumed when it starts again "
    "[default: LOG_DIR/tables.db].",
)
@config_option
@friendly
def serve(
    game: str | None,
    players: int | None,
    seats: tuple[tuple[int, str], ...],
    options: tuple[tuple[str, Any], ...],
    house_rules: tuple[str, ...],
    table_names: tuple[str, ...],
    host: str,
    lan: bool,
    no_lobby_seats: bool,
    port: int,
    seed: int | None,
    allow_seeds: bool,
    allow_origins: tuple[str, ...],
    log_dir: Path,
    bot_delay: float,
    max_tables: int,
    away_limit: float,
    state_path: Path | None,
    config_path: Path,
) -> None:
    """Serve tables in the browser: a lobby, and a secret link per person's seat.

    With GAME (and --players, --seat, --option, --house-rule) or --table NAME
    it opens that table and prints the link of each person's seat and the
    spectators' link; with neither it opens on the lobby, where a table is
    made. Bots take the seats that are not people's (GAME: you at seat 0, as
    in `cardcore play`; --seat 1=human for a friend). Ctrl-C stops: every
    table's log keeps what was played.
    """
    import socket
    from urllib.parse import urlsplit

    from cardcore.errors import CardcoreError

    try:
        import uvicorn

        from cardcore.web.app import create_app
        from cardcore.web.lobby import Lobby, default_names
    except ImportError as err:
        raise CardcoreError(
            T("cardcore serve needs {module}: pip install cardcore (it brings it)", module=err.name)
        ) from None
    if game and table_names:
        raise CardcoreError(T("give either GAME or --table, not both"))
    if lan:
        source = click.get_current_context().get_parameter_source("host")
        if source == click.core.ParameterSource.COMMANDLINE and host != "0.0.0.0":
            raise CardcoreError(
                T("give either --lan or --host {host}, not both (--lan listens on 0.0.0.0)", host=host)
            )
        host = "0.0.0.0"
    for origin in allow_origins:
        if urlsplit(origin).scheme not in ("http", "https") or not urlsplit(origin).hostname:
            raise CardcoreError(
                T("--allow-origin: {origin!r} is no origin (e.g. http://mybox.lan:8000)", origin=origin)
            )
    reg = registry()
    import errno
    import signal
    import sqlite3

    from cardcore.web.store import Store, StoreLock

    table = None
    kinds: list[str] = []
    if game:
        table = _table_from_args(reg, game, players, options, house_rules)
        kinds = ["human"] + [_default_bot(table)] * (table.players - 1)
        for seat, kind in parse_seats(seats, table.players).items():
            kinds[seat] = kind
        from cardcore.runner import make_players

        make_players(table, kinds, 0)  # an unknown kind or option: one line, before anything opens
        table.names = default_names(table, kinds)
    elif players is not None or seats or options or house_rules:
        raise CardcoreError(T("--players, --seat, --option and --house-rule go with GAME"))
    # the port first: a server that cannot listen touches no store (nor another server's tables)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # frames go out as they are made: no 40 ms wait for an ACK (accepted sockets inherit it)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
        # listening at once (two servers may bind one port with SO_REUSEADDR, one listens);
        # a client that comes while the tables resume is queued, not refused
        sock.listen(2048)
    except (OSError, OverflowError) as err:
        sock.close()
        if getattr(err, "errno", None) == errno.EADDRINUSE:
            raise CardcoreError(
                T(
                    "port {port} is taken on {host} (another server listens there); try --port {next}",
                    host=host,
                    port=port,
                    next=port + 1,
                )
            ) from None
        why = str(getattr(err, "strerror", None) or err)
        raise CardcoreError(
            T("cannot listen on {host}:{port} ({why})", host=host, port=port, why=why)
        ) from None
    state_path = state_path or log_dir / "tables.db"
    try:
        held = StoreLock(state_path)  # one server per store: a second one refused before it opens it
        try:
            store = Store(state_path)  # a broken file: refused, left as it is
        except BaseException:
            held.release()
            raise
    except (OSError, sqlite3.Error) as err:
        sock.close()
        why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise CardcoreError(
            T("{path}: cannot open the server's state ({error})", path=state_path, error=why)
        ) from None
    except BaseException:
        sock.close()
        raise

    def terminate(signum: int, frame: Any) -> None:  # SIGTERM: stop as Ctrl-C does (tables kept)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    lobby = Lobby(reg, config_path, log_dir, bot_delay, allow_seeds=allow_seeds, store=store)
    lobby.max_tables = max_tables
    lobby.away_limit = away_limit
    lobby.lobby_seats = not no_lobby_seats
    opened = []
    resumed = []
    try:
        resumed = lobby.resume()
        if table is not None and game:
            opened.append(lobby.start(table, kinds, seed, game))
        for name in table_names:
            opened.append(lobby.open_config(name, seed))
        port = sock.getsockname()[1]
        link_host = _link_host(host)
        base = f"http://{link_host}:{port}"
        lobby.public_base = base
        hosts = _served_hosts(host, link_host)
        for session in opened:
            n = session.table.players
            click.echo(
                _n("{title}, {n} player: table {name}", "{title}, {n} players: table {name}", n).format(
                    title=i18n.render(session.table.game.title), n=n, name=session.name
                )
            )
            for seat_no, token in session.links.items():
                click.echo(
                    "  "
                    + _("{name} (seat {seat}): {link}").format(
                        name=session.table.names[seat_no], seat=seat_no, link=f"{base}/seat/{token}"
                    )
                )
            click.echo("  " + _("watch: {link}").format(link=f"{base}/watch/{session.watch_link}"))
            code = session._info.get("code")
            if code:
                click.echo(
                    "  "
                    + _("join: {link}   (table code {code}: take a free seat there)").format(
                        link=f"{base}/join/{code}", code=code
                    )
                )
            if session.log_path is not None:
                click.echo("  " + _("log: {path}").format(path=session.log_path))
        for session in resumed:
            click.echo(
                _("Resumed {title}: table {name} (the same seat links as before); watch: {link}").format(
                    title=i18n.render(session.table.game.title),
                    name=session.name,
                    link=f"{base}/watch/{session.watch_link}",
                )
            )
        click.echo(_("Lobby: {link}   (Ctrl-C stops the server)").format(link=f"{base}/"), nl=True)
        config = uvicorn.Config(
            create_app(lobby, hosts, allow_origins),
            timeout_graceful_shutdown=1,  # then open connections are dropped: stopped within 2 s
            log_level="warning",
            ws_max_size=65536,
            lifespan="off",
            access_log=False,
        )
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: uvicorn stops, then raises it again
            uvicorn.Server(config).run(sockets=[sock])
    finally:
        lobby.close(timeout=0.8)  # SIGTERM or Ctrl-C: every table at once, whatever they are doing
        store.close()
        sock.close()
        held.release()  # the next server may have the store
    if lobby.sessions:
        click.echo(_("Server stopped. Game logs are in {folder}/.").format(folder=log_dir))
    else:
        click.echo(_("Server stopped."))


def _served_hosts(host: str, link_host: str) -> set[str]:
    """The names the server answers to besides loopback (``app.Guard``): the
    address it listens on and the one its links carry; for 0.0.0.0 (``--lan``)
    also the machine's name and the address that name resolves to."""
    import socket

    hosts = {host, link_host.strip("[]")} - {"0.0.0.0", "::", ""}
    if host in ("0.0.0.0", "::", ""):
        hosts.add(socket.gethostname())
        with contextlib.suppress(OSError):
            hosts.add(socket.gethostbyname(socket.gethostname()))
    return hosts


def _link_host(host: str) -> str:
    """The address to print in a link: for 0.0.0.0 (``--lan``), the machine's
    network address (``web.address.network_address``: no packet sent)."""
    if host not in ("0.0.0.0", "::", ""):
        return f"[{host}]" if ":" in host else host
    from cardcore.web.address import network_address

    return network_address()


@main.command()
@click.argument("scenario", type=FilePath(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@friendly
def moves(scenario: Path, as_json: bool) -> None:
    """List the legal moves of the player to act in a position file."""
    from cardcore.moves import Move
    from cardcore.position import read_position

    table, state = read_position(scenario, registry())
    if table.is_deal_over(state):
        legal: list[Move] = []
    else:
        legal = table.legal_moves(state)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "game": table.game.name,
                    "to_act": state.to_act,
                    "moves": [table.move_json(m, state) for m in legal],
                }
            )
        )
        return
    click.echo(
        _n(
            "{game}: seat {seat} to act, {n} legal move",
            "{game}: seat {seat} to act, {n} legal moves",
            len(legal),
        ).format(game=table.game.name, seat=state.to_act, n=len(legal))
    )
    for i, m in enumerate(legal, 1):
        click.echo(f"  {i:>3}. {i18n.render(table.move_text(m, state))}")


@main.command()
@click.argument("scenario", type=FilePath(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@friendly
def score(scenario: Path, as_json: bool) -> None:
    """Score a position file as a finished deal."""
    from cardcore.position import read_position

    table, state = read_position(scenario, registry())
    table.finish_deal(state)
    sides = table.score_deal(state)
    if as_json:
        click.echo(json.dumps({"game": table.game.name, "sides": [s.to_json() for s in sides]}))
        return
    for i, s in enumerate(sides):
        detail = ", ".join(f"{i18n.render(k)} {v}" for k, v in s.breakdown.items())
        click.echo(
            _n(
                "side {side} (seats {seats}): {n} point  [{detail}]",
                "side {side} (seats {seats}): {n} points  [{detail}]",
                s.points,
            ).format(side=i, seats=", ".join(map(str, s.seats)), n=s.points, detail=detail)
        )


@main.command("replay")
@click.argument("file", type=FilePath(dir_okay=False, path_type=Path))
@click.option("--check", is_flag=True, help="Only check; print a one-line summary.")
@click.option("--step", is_flag=True, help="Show the game move by move: Enter for the next, q to stop.")
@friendly
def replay_cmd(file: Path, check: bool, step: bool) -> None:
    """Re-run a game log, checking every deal, move and score against it."""
    from cardcore.log import replay
    from cardcore.terminal.printer import Printer, StepPrinter, StopReplay

    reg = registry()
    if check and step:
        raise UserError(T("--check or --step, not both"))
    try:
        summary = replay(file, reg, None if check else StepPrinter(None) if step else Printer(None))
    except StopReplay:
        click.echo(_("Replay stopped."))
        return
    click.echo(
        _("{file}: OK — {matches}, {deals}, {moves} replayed and identical; log {stop}").format(
            file=file,
            matches=_n("{n} match(es)", "{n} match(es)", summary.matches).format(n=summary.matches),
            deals=_n("{n} deal(s)", "{n} deal(s)", summary.deals).format(n=summary.deals),
            moves=_n("{n} moves", "{n} moves", summary.moves).format(n=summary.moves),
            stop=i18n.render(summary.stop),
        )
    )


@main.command()
@click.argument("file", type=FilePath(dir_okay=False, path_type=Path), default=DEFAULT_CONFIG)
@friendly
def validate(file: Path) -> None:
    """Check a tables file (games.yaml): every problem, with table and field."""
    from cardcore import config as config_mod

    problems = config_mod.check_config(file, registry())
    if problems:
        for p in problems:
            click.echo(one_line(i18n.render(p), 700), err=True)  # a file name may be thousands of characters
        sys.exit(2)
    click.echo(_("{file}: OK").format(file=file))


@main.command()
def schema() -> None:
    """Print the JSON Schema of the tables file (for editor completion)."""
    from cardcore import config as config_mod

    click.echo(json.dumps(config_mod.schema(), indent=2))


if __name__ == "__main__":  # pragma: no cover
    main()
