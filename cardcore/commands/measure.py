"""The measuring commands, bots only: ``simulate`` (deals or matches played
and summed up), ``arena`` (bots on duplicate deals) and ``study`` (what house
rules and options do to a game)."""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path
from typing import Any

import click

from cardcore import i18n
from cardcore.commands.base import (
    PLAYERS_HELP,
    FilePath,
    GameCommand,
    OptionParam,
    UserError,
    close_log,
    config_option,
    friendly,
    open_log,
    parse_seats,
    registry,
    table_from_args,
    table_options,
)
from cardcore.i18n import T, _, _n
from cardcore.seeds import fresh_seed


@click.command(cls=GameCommand)
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
    table = table_from_args(reg, game, players, options, house_rules)
    kinds = [bot] * table.players
    for seat, kind in parse_seats(seats, table.players).items():
        kinds[seat] = kind
    if "human" in kinds:
        raise UserError(T("simulate plays bots only; use `cardcore play` to play"))
    if seed is None:
        seed = fresh_seed()
    # the engine: loaded when the command runs (`cardcore --help` stays quick)
    from cardcore.runner import make_players
    from cardcore.simulate import simulate as run_simulation

    make_players(table, kinds, seed)  # an unknown --bot or --seat kind fails before the log is made
    if move_timeout is not None:
        if jobs != 1 or backend != "local":
            raise UserError(T("--move-timeout watches one process: use it with --jobs 1 (the local backend)"))
        from cardcore.watchdog import arm  # threading: loaded with --move-timeout only

        arm(move_timeout, "simulate")
    log_file = open_log(log_path)
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
            close_log(log_file)
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


@click.command(cls=GameCommand)
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
    # the engine: loaded when the command runs (`cardcore --help` stays quick)
    from cardcore.arena import ArenaSpec, pairings, run
    from cardcore.runner import make_player

    if len(set(bots)) < 2:
        raise UserError(T("name two different bots or more: --bot A --bot B"))
    table = table_from_args(registry(), game, players, options, house_rules)
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


@click.command(cls=GameCommand)
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
@click.option(
    "--until-precision",
    type=click.FloatRange(0, min_open=True),
    metavar="WIDTH",
    help="Play --deals, then twice as many, … (at most 32 times) until every win share's interval "
    "(by seat, by place, and their differences) is at most WIDTH wide, e.g. 0.04.",
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
    until_precision: float | None,
    as_json: bool,
) -> None:
    """Measure what house rules and options do to GAME: the base game and
    each variant on the same seeded decks, every figure with a 95% interval
    (see docs/STUDY.md)."""
    # the engine: loaded when the command runs (`cardcore --help` stays quick)
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
            until_precision=until_precision,
            on_power=(lambda line: click.echo(line, err=True)) if sys.stderr.isatty() else None,
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


def register_commands(cli: click.Group) -> None:
    """Add ``simulate``, ``arena`` and ``study`` to ``cli`` (called by
    ``cardcore.commands.register_builtin``)."""
    for command in (simulate, arena, study):
        cli.add_command(command)
