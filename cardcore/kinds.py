"""A table's player kinds: what a seat's ``KIND`` names.

The core's kinds (a person at the terminal, random play, the search and the
levels ``easy`` … ``expert``), the game's bots (``GameSpec.bots``) and any
plugin's, all through ``cardcore_register_players``. Built the first time a
table makes a player (``Table.player_kinds``), never with the table: building
a table, to check a position or score a deal, loads no player, no terminal
(``click``) and no search. ``make_player`` makes the player a kind spec
names (``KIND:key=value,...``, read by ``parse_kind``).
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from cardcore.errors import TableError
from cardcore.i18n import T
from cardcore.ismcts import IsmctsPlayer
from cardcore.levels import LEVELS, factory
from cardcore.players import Player, PlayerFactory, RandomPlayer, legacy
from cardcore.terminal.human import HumanPlayer

if TYPE_CHECKING:
    from cardcore.table import Table


def player_kinds(table: Table) -> dict[str, PlayerFactory]:
    """Every kind of ``table``: the plugins' (``cardcore_register_players``:
    the game's bots, house rules', third parties'), then the core's, which a
    plugin's kind of the same name gives way to."""
    kinds: dict[str, PlayerFactory] = {}
    table.hook.cardcore_register_players(register=kinds.__setitem__)
    kinds["human"] = HumanPlayer
    kinds["random"] = RandomPlayer
    kinds["ismcts"] = IsmctsPlayer  # search over imagined deals: every game
    for level in LEVELS:  # easy … expert: a configuration per game and player count
        kinds[level] = factory(level)
    return kinds


def make_player(table: Table, spec: str, seat: int, rng: random.Random) -> Player:
    """The player a kind spec names: ``KIND`` or ``KIND:key=value,...``
    (``greedy``, ``ismcts:iterations=400``); the options go to the kind's
    factory as keyword arguments, and an option it does not take is a one-line
    error naming the options it does take."""
    kind, options = parse_kind(spec)
    factory = table.player_kinds.get(kind)
    if factory is None:
        known = ", ".join(sorted(table.player_kinds))
        raise TableError(
            T(
                "unknown player kind {kind!r} for {game}; known: {known}",
                kind=kind,
                game=table.game.name,
                known=known,
            )
        )
    if options:
        takes = _option_names(factory)
        for key in options:
            if key not in takes:
                if not takes:
                    raise TableError(
                        T(
                            "player kind {kind!r} has no option {key!r} (its options: none)",
                            kind=kind,
                            key=key,
                        )
                    )
                said = ", ".join(sorted(takes))
                raise TableError(
                    T(
                        "player kind {kind!r} has no option {key!r} (its options: {said})",
                        kind=kind,
                        key=key,
                        said=said,
                    )
                )
    try:
        made = factory(table, seat, rng, **options)
    except (TypeError, ValueError, OverflowError) as err:
        if not options:
            raise  # no option of the person's: the kind's own error
        # an option's value the kind cannot read (``iterations=abc``): one line, not a traceback
        said = ",".join(f"{k}={v}" for k, v in options.items())[:80]
        raise TableError(
            T(
                "player kind {kind!r}: cannot use the options {said} ({error})",
                kind=kind,
                said=said,
                error=type(err).__name__ + ": " + str(err)[:100],
            )
        ) from None
    player: Player = legacy(made)
    return player


def parse_kind(spec: str) -> tuple[str, dict[str, Any]]:
    """``KIND:key=value,...`` → (kind, options); values are read as YAML
    scalars (``400`` a number, ``greedy`` a word). A number must be finite
    and not negative (``ms=nan`` would never end a search): a one-line
    ``TableError`` naming the option otherwise. Each kind bounds its own
    options above (``ismcts``: ``MAX_ITERATIONS``, ``MAX_MS``)."""
    kind, _, rest = str(spec).partition(":")
    options: dict[str, Any] = {}
    for pair in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise TableError(T("player kind {spec!r}: expected KIND:key=value,...", spec=spec[:60]))
        number = options[key.strip()] = _scalar(value.strip())
        if isinstance(number, float) and not math.isfinite(number):
            raise TableError(
                T(
                    "player kind {kind!r}: {option}={value} is not a finite number",
                    kind=kind.strip(),
                    option=key.strip(),
                    value=value.strip()[:20],
                )
            )
        if isinstance(number, (int, float)) and not isinstance(number, bool) and number < 0:
            raise TableError(
                T(
                    "player kind {kind!r}: {option}={value} is below zero",
                    kind=kind.strip(),
                    option=key.strip(),
                    value=value.strip()[:20],
                )
            )
    return kind.strip(), options


def _scalar(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def _option_names(factory: Any) -> set[str]:
    import inspect

    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return set()
    return {n for n, p in list(params.items())[3:] if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
