"""What the commands share: their class (``--help`` in the language in use,
``--players`` told per game), the user's errors as one line, the plugin
registry, the parameter types and the options several commands take.

Only click and the i18n module are imported here: every command's module is
imported by ``cardcore --help``, which stays quick; the engine (pydantic,
pluggy, the games) is imported inside the functions that use it.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar, cast

import click

from cardcore import i18n
from cardcore.i18n import N_, T, _, _n
from cardcore.text import one_line

if TYPE_CHECKING:
    from cardcore.plugins import Registry
    from cardcore.table import Table

# before any command is made: click's words (a click.Path's name …) are said through our catalogs
CLICK_UNMARKED = (N_("required"),)  # click says these through its `_` without marking them


def install_click_words() -> None:
    """click's own words (``Usage:``, ``No such option``, its errors) through the
    ``click`` catalog: each click module's ``_``/``ngettext`` made ours."""

    def said(message: str) -> str:
        got = i18n.gettext(message, "click")
        return got if got != message else i18n.gettext(message)  # the words click leaves unmarked

    def said_n(singular: str, plural: str, n: int) -> str:
        return i18n.ngettext(singular, plural, n, "click")

    for name in ("core", "decorators", "exceptions", "formatting", "parser", "termui", "types", "utils"):
        with contextlib.suppress(ImportError):
            names = vars(importlib.import_module(f"click.{name}"))  # the module's own globals
            if "_" in names:
                names["_"] = said
            if "ngettext" in names:
                names["ngettext"] = said_n


install_click_words()


F = TypeVar("F", bound=Callable[..., Any])
DEFAULT_CONFIG = "games.yaml"
PLAYERS_HELP = (
    "Number of players, within the game's own range (`cardcore games` lists it; default: the game's)."
)


class UserError(click.ClickException):
    """A user's mistake: one line, exit code 2."""

    exit_code = 2


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


#: the help of a command's own ``--lang`` (the group's global option, taken after the command too)
LANG_AFTER = "Language of everything shown, as `cardcore --lang CODE COMMAND`: en, fr, pl, lt."


class GameCommand(TranslatedHelp):
    """A command whose ``--help`` after a GAME (``cardcore play canasta
    --help``) gives ``--players`` that game's own range; every command takes
    the group's ``--lang`` after its name too (``cardcore play carrousel
    --lang fr``), unless it has a ``--lang`` of its own."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not any(p.name == "lang" for p in self.params):
            self.params.append(
                click.Option(
                    ["--lang"],
                    metavar="CODE",
                    is_eager=True,
                    expose_value=False,
                    callback=_choose_language,
                    help=LANG_AFTER,
                )
            )

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["cardcore.argv"] = list(args)  # read by the help, which click shows while parsing
        return super().parse_args(ctx, args)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from cardcore.errors import CardcoreError  # pydantic: loaded when a game's help is asked

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


def friendly(fn: F) -> F:
    """Report the user's errors (``CardcoreError``) as one line and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from cardcore.errors import CardcoreError, message  # pydantic: loaded when a command runs

        try:
            return fn(*args, **kwargs)
        except CardcoreError as err:
            raise UserError(one_line(i18n.render(message(err)), 600)) from None

    return cast(F, wrapper)  # functools.wraps keeps the signature the type says


class Env:
    """What the commands share (``ctx.obj``): the plugin registry, discovered once."""

    @cached_property
    def registry(self) -> Registry:
        from cardcore.plugins import discover  # pluggy and the games: loaded when a command needs them

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
        import yaml  # loaded when an --option is given

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


def table_from_args(
    reg: Registry,
    game: str,
    players: int | None,
    options: tuple[tuple[str, Any], ...],
    house_rules: tuple[str, ...],
    names: list[str] | None = None,
) -> Table:
    # the engine: loaded when a command builds a table
    from cardcore.errors import CardcoreError, TableError, message
    from cardcore.table import Table

    try:
        return Table.from_names(reg, game, players, parse_options(options), house_rules, names)
    except TableError as err:
        raise CardcoreError(message(err)) from None


def default_bot(table: Table) -> str:
    return "normal" if "normal" in table.player_kinds else "random"  # the level for a newcomer


def close_log(f: IO[str]) -> None:
    """Close a log; after a failed write (a full disk) the error was reported
    already, and what is left in the buffer cannot be written either."""
    with contextlib.suppress(OSError):
        f.close()


def open_log(path: Path | None) -> IO[str] | None:
    """Open a new log file; never overwrite one (a saved game is never lost)."""
    from cardcore.errors import CardcoreError  # pydantic: loaded when a command runs

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
