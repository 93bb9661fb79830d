"""``games.yaml``: named tables, validated by pydantic.

    tables:
      evening:
        game: paquet_voleur
        players:
          - {name: Ana, kind: human}
          - {name: Bot, kind: random}
        options: {}
        house_rules: [paquet_voleur.take_all_of_rank]
        seed: 42

The file's shape is checked first (this module's models); then each table is
checked against its game: the game exists, the player count fits, the options
pass the game's own model, the house rules exist and are for that game, the
player kinds exist.  ``check_config`` returns every problem, each naming the
file, the table and the field.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError, field_validator

from cardcore.errors import CardcoreError, TableError, at, joined, lines_of, message, pydantic_problems
from cardcore.files import read_data
from cardcore.i18n import T
from cardcore.plugins import Registry, UnknownNameError
from cardcore.table import Table

DEFAULT_CONFIG = "games.yaml"


class PlayerConfig(BaseModel):
    """One seat: a name and a player kind (``human``, ``random``, ``greedy`` …)."""

    model_config = ConfigDict(extra="forbid")
    name: str | None = None
    kind: str = "random"


class TableConfig(BaseModel):
    """One named table."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(description="the game's name, see `cardcore games`")
    # strict: `true`, `2.0` or `"2"` is no player count, nor a seed (a YAML slip, told as such)
    players: list[PlayerConfig] | int | None = Field(
        default=None, description="the seats in order, or just how many (all bots)"
    )
    options: dict[str, Any] = Field(default_factory=dict, description="the game's options")
    house_rules: list[str] = Field(default_factory=list, description="house rules, in order")
    seed: StrictInt | None = Field(default=None, description="random seed; none: a new game each time")

    @field_validator("players", mode="before")
    @classmethod
    def _a_count_or_seats(cls, value: Any) -> Any:
        if isinstance(value, (bool, float, str)):
            raise ValueError(
                T("expected a list of seats or a whole number of players, not {value!r}", value=value)
            )
        return value


class ConfigFile(BaseModel):
    """The whole ``games.yaml``."""

    model_config = ConfigDict(extra="forbid")
    tables: dict[str, TableConfig]


def schema() -> dict[str, Any]:
    return ConfigFile.model_json_schema()


def load_config(path: Path) -> ConfigFile:
    """The tables file, checked for its shape (each table's game not yet)."""
    data = read_data(path)
    try:
        return ConfigFile.model_validate(data)
    except ValidationError as err:
        raise CardcoreError(joined([at(path, p) for p in pydantic_problems(err)], "\n")) from None


def build_table(cfg: TableConfig, registry: Registry) -> tuple[Table, list[str]]:
    """The table of a config entry and its seat kinds (default: all random)."""
    players = len(cfg.players) if isinstance(cfg.players, list) else cfg.players
    names = (
        [p.name or f"Player {i}" for i, p in enumerate(cfg.players)]
        if isinstance(cfg.players, list)
        else None
    )
    table = Table.from_names(registry, cfg.game, players, cfg.options, cfg.house_rules, names)
    if isinstance(cfg.players, list):
        kinds = [p.kind for p in cfg.players]
    else:
        kinds = ["random"] * table.players
    from cardcore.runner import make_player

    for seat, kind in enumerate(kinds):
        try:
            make_player(table, kind, seat, random.Random(0))
        except TableError as err:
            raise TableError(at(f"players.{seat}.kind", message(err))) from None
    return table, kinds


def check_config(path: Path, registry: Registry) -> list[str]:
    """Every problem of the file, one line each (empty when the file is valid):
    each table is checked on its own, and for each table every field: its
    shape, its game, each house rule, its options and players, each seat's kind."""
    data = read_data(path)  # (a file that is no YAML mapping is one error)
    tables = data.get("tables") if isinstance(data, dict) else None
    if not isinstance(tables, dict):
        try:
            load_config(path)
        except CardcoreError as err:
            return lines_of(message(err))
    assert isinstance(data, dict) and isinstance(tables, dict)
    problems: list[str] = []
    try:
        ConfigFile.model_validate({**data, "tables": {}})  # what surrounds the tables
    except ValidationError as err:
        problems += [at(path, p) for p in pydantic_problems(err)]
    for name, raw in tables.items():
        try:
            tcfg = TableConfig.model_validate(raw)
        except ValidationError as err:
            problems += [at(path, p) for p in pydantic_problems(err, f"tables.{name}")]
            continue
        problems += [at(path, at(f"tables.{name}", p)) for p in table_problems(tcfg, registry)]
    return problems


def table_problems(cfg: TableConfig, registry: Registry) -> list[str]:
    """Every problem of one table entry (``build_table`` stops at the first)."""
    try:
        registry.game(cfg.game)
    except UnknownNameError as err:
        return [at("game", message(err))]
    out: list[str] = []
    rules = []
    for i, name in enumerate(cfg.house_rules):
        try:
            registry.house_rule(name, cfg.game)
            rules.append(name)
        except UnknownNameError as err:
            out.append(at(f"house_rules.{i}", message(err)))
    try:
        build_table(cfg.model_copy(update={"house_rules": rules}), registry)
    except TableError as err:
        if not (str(err).startswith("players.") and ".kind:" in str(err)):
            out.append(message(err))
        out += _seat_problems(cfg, registry)  # every seat, whatever stopped the build
    return out


def _seat_problems(cfg: TableConfig, registry: Registry) -> list[str]:
    """Each seat whose kind is not a player of the game."""
    from cardcore.runner import make_player

    if not isinstance(cfg.players, list):
        return []
    try:  # the game's own options: the seats' kinds do not depend on them
        table = Table.from_names(registry, cfg.game, len(cfg.players))
    except TableError:
        return []  # (the player count: said already)
    out: list[str] = []
    for seat, p in enumerate(cfg.players):
        try:
            make_player(table, p.kind, seat, random.Random(0))
        except TableError as err:
            out.append(at(f"players.{seat}.kind", message(err)))
    return out


def load_table(
    path: Path,
    name: str,
    registry: Registry,
    options: dict[str, Any] | None = None,
    house_rules: list[str] | None = None,
) -> tuple[Table, list[str], int | None]:
    """The named table of a config file: (table, seat kinds, seed).

    ``options`` (from ``--option``) override the table's; ``house_rules``
    (from ``--house-rule``) come after the table's own.
    """
    cfg = load_config(path)
    if name not in cfg.tables:
        if not cfg.tables:
            raise CardcoreError(T("{path}: no table {name!r}; tables: none", path=path, name=name))
        known = ", ".join(sorted(cfg.tables))
        raise CardcoreError(
            T("{path}: no table {name!r}; tables: {known}", path=path, name=name, known=known)
        )
    tcfg = cfg.tables[name]
    if options or house_rules:
        tcfg = tcfg.model_copy(
            update={
                "options": {**tcfg.options, **(options or {})},
                "house_rules": [*tcfg.house_rules, *(house_rules or [])],
            }
        )
    try:
        table, kinds = build_table(tcfg, registry)
    except TableError as err:
        raise CardcoreError(at(path, at(f"tables.{name}", message(err)))) from None
    return table, kinds, tcfg.seed
