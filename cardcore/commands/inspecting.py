"""The inspecting commands: what is installed (``games``, ``house-rules``,
``rules``), what a position file holds (``moves``, ``score``), a log played
again (``replay``) and the tables file (``validate``, ``schema``)."""

from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path
from typing import Any

import click

from cardcore import i18n
from cardcore.commands.base import (
    DEFAULT_CONFIG,
    FilePath,
    GameCommand,
    UserError,
    friendly,
    lang_option,
    registry,
)
from cardcore.i18n import T, _, _n
from cardcore.text import one_line


@click.command(cls=GameCommand)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@friendly
def games(as_json: bool) -> None:
    """List the installed games, their player counts and options."""
    from cardcore.plugins import game_catalog  # pluggy and the games: loaded when the command runs

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


@click.command("house-rules", cls=GameCommand)
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


@click.command(cls=GameCommand)
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


@click.command(cls=GameCommand)
@click.argument("scenario", type=FilePath(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@friendly
def moves(scenario: Path, as_json: bool) -> None:
    """List the legal moves of the player to act in a position file."""
    # the engine: loaded when the command runs (`cardcore --help` stays quick)
    from cardcore.moves import Move
    from cardcore.position_file import read_position

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


@click.command(cls=GameCommand)
@click.argument("scenario", type=FilePath(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@friendly
def score(scenario: Path, as_json: bool) -> None:
    """Score a position file as a finished deal."""
    from cardcore.position_file import read_position  # the engine: loaded when the command runs

    table, state = read_position(scenario, registry())
    table.finish_deal(state)
    sides = table.score_deal(state)
    if as_json:
        click.echo(json.dumps({"game": table.game.name, "sides": [s.to_json() for s in sides]}))
        return
    from cardcore.render import label  # the engine: loaded when the command runs

    for i, s in enumerate(sides):
        # the breakdown's keys in words ("red threes", not red_threes), in the language in use
        detail = ", ".join(
            f"{label(k, table.plugin.domain, 'breakdown')} {v}" for k, v in s.breakdown.items()
        )
        click.echo(
            _n(
                "side {side} (seats {seats}): {n} point  [{detail}]",
                "side {side} (seats {seats}): {n} points  [{detail}]",
                s.points,
            ).format(side=i, seats=", ".join(map(str, s.seats)), n=s.points, detail=detail)
        )


@click.command("replay", cls=GameCommand)
@click.argument("file", type=FilePath(dir_okay=False, path_type=Path))
@click.option("--check", is_flag=True, help="Only check; print a one-line summary.")
@click.option("--step", is_flag=True, help="Show the game move by move: Enter for the next, q to stop.")
@friendly
def replay_cmd(file: Path, check: bool, step: bool) -> None:
    """Re-run a game log, checking every deal, move and score against it."""
    # the engine and the printer: loaded when the command runs
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


@click.command(cls=GameCommand)
@click.argument("file", type=FilePath(dir_okay=False, path_type=Path), default=DEFAULT_CONFIG)
@friendly
def validate(file: Path) -> None:
    """Check a tables file (games.yaml): every problem, with table and field."""
    from cardcore import config as config_mod  # pydantic: loaded when the command runs

    problems = config_mod.check_config(file, registry())
    if problems:
        for p in problems:
            click.echo(one_line(i18n.render(p), 700), err=True)  # a file name may be thousands of characters
        sys.exit(2)
    click.echo(_("{file}: OK").format(file=file))


@click.command(cls=GameCommand)
def schema() -> None:
    """Print the JSON Schema of the tables file (for editor completion)."""
    from cardcore import config as config_mod  # pydantic: loaded when the command runs

    click.echo(json.dumps(config_mod.schema(), indent=2))


def register_commands(cli: click.Group) -> None:
    """Add the inspecting commands to ``cli`` (called by ``cardcore.commands.register_builtin``)."""
    for command in (games, house_rules_cmd, rules, moves, score, replay_cmd, validate, schema):
        cli.add_command(command)
