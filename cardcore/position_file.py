"""Position (scenario) files: a deal frozen at one moment, in YAML or JSON
(the format: ``cardcore.position``). The header (``game``, ``players``,
``options``, ``house_rules``) builds the table; the game reads the rest with
``PositionReader``. Every problem is one error naming the file and the field.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from cardcore.errors import CardcoreError, TableError, at, joined, message, pydantic_problems
from cardcore.files import read_data
from cardcore.game import DealState, PositionError
from cardcore.i18n import T
from cardcore.plugins import Registry
from cardcore.table import Table


class PositionHeader(BaseModel):
    model_config = ConfigDict(extra="allow")
    game: str
    players: int | None = None
    options: dict[str, Any] = {}
    house_rules: list[str] = []


HEADER_KEYS = ("game", "players", "options", "house_rules")


def _check_keys(data: dict[str, Any], table: Table, state: DealState) -> None:
    """Every key of a position is a header key or one the game's JSON writes
    (a misspelled ``to-act`` would otherwise be silently ignored)."""
    known = list(dict.fromkeys([*HEADER_KEYS, *table.dump_state(state)]))
    for key in data:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            said, keys = str(key)[:60], ", ".join(known)
            if close:
                raise PositionError(
                    T(
                        "unknown key {key!r} (did you mean {close!r}?); a {game} position has {keys}",
                        key=said,
                        close=close[0],
                        game=table.game.name,
                        keys=keys,
                    )
                )
            raise PositionError(
                T(
                    "unknown key {key!r}; a {game} position has {keys}",
                    key=said,
                    game=table.game.name,
                    keys=keys,
                )
            )


def read_position(path: Path, registry: Registry) -> tuple[Table, DealState]:
    """Read a position file: its table and its state."""
    data = read_data(path)
    if not isinstance(data, dict):
        raise CardcoreError(T("{path}: a position is a mapping with at least `game`", path=path))
    return position_from_data(data, registry, str(path))


def position_from_data(
    data: dict[str, Any], registry: Registry, where: str = "position"
) -> tuple[Table, DealState]:
    try:
        head = PositionHeader.model_validate(data)
    except ValidationError as err:
        raise CardcoreError(joined([at(where, p) for p in pydantic_problems(err)], "; ")) from None
    try:
        table = Table.from_names(registry, head.game, head.players, head.options, head.house_rules)
        state = table.load_state(data)
        _check_keys(data, table, state)
    except (TableError, PositionError) as err:
        raise CardcoreError(at(where, message(err))) from None
    except (TypeError, ValueError, KeyError, AttributeError, OverflowError, RecursionError) as err:
        # a field of an unexpected shape that a game's reader did not name
        raise CardcoreError(
            T(
                "{where}: malformed position ({error})",
                where=where,
                error=type(err).__name__ + ": " + str(err)[:100],
            )
        ) from None
    return table, state
