"""The server's tables: opened from ``games.yaml`` or from the lobby's form,
each validated with the same models as the CLI (``config.TableConfig`` and
the game's own options), each with its secret seat links."""

from __future__ import annotations

import random
import re
import threading
import time
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from cardcore.config import TableConfig, build_table, load_config
from cardcore.errors import CardcoreError, TableError, pydantic_problems
from cardcore.files import free_name
from cardcore.plugins import Registry, game_catalog
from cardcore.runner import parse_kind
from cardcore.seeds import fresh_seed
from cardcore.table import Table, safe_name
from cardcore.web.session import TableSession

MAX_TABLES = 64  # open at once: a lobby on a LAN, not a public site


class Lobby:
    """Every table of one server, found by id or by a seat's secret link."""

    def __init__(
        self,
        registry: Registry,
        config_path: Path | None = None,
        log_dir: Path | None = None,
        bot_delay: float = 0.0,
        allow_seeds: bool = False,
    ) -> None:
        self.registry = registry
        # a seed from the lobby's form for a table with people: only if the
        # server was started so (``--allow-seeds``): whoever knows it deals every hand
        self.allow_seeds = allow_seeds
        self.config_path = config_path
        self.log_dir = log_dir
        self.bot_delay = bot_delay
        self.sessions: dict[str, TableSession] = {}
        self.session_class = TableSession  # tests put a purpose-built variant here
        self._lock = threading.Lock()

    # ---- opening tables --------------------------------------------------
    def open_config(self, name: str, seed: int | None = None) -> TableSession:
        """The table ``name`` of the config file (``cardcore serve --table NAME``)."""
        if self.config_path is None:
            raise CardcoreError("no tables file")
        tables = load_config(self.config_path).tables
        if name not in tables:
            known = ", ".join(sorted(tables)) or "none"
            raise CardcoreError(f"{self.config_path}: no table {name!r}; tables: {known}")
        try:
            return self.open(tables[name], name, seed)
        except TableError as err:
            raise CardcoreError(f"{self.config_path}: tables.{name}: {err}") from None

    def open_data(self, data: Any) -> TableSession:
        """A table from the lobby's form: ``{"table": NAME}`` (of the config
        file) or a table's fields as in ``games.yaml`` (``game``,
        ``players``, ``options``, ``house_rules``, ``seed``) and a ``name``."""
        if not isinstance(data, dict):
            raise CardcoreError("expected a JSON object: a table's fields, or {'table': NAME}")
        if "table" in data:
            return self.open_config(str(data["table"]))
        fields = {k: v for k, v in data.items() if k != "name"}
        try:
            cfg = TableConfig.model_validate(fields)
        except ValidationError as err:
            raise CardcoreError("; ".join(pydantic_problems(err))) from None
        name = safe_name(data.get("name") or cfg.game)
        if cfg.seed is not None and not self.allow_seeds and _has_people(cfg):
            raise CardcoreError(
                "seed: a table with people takes no seed from the lobby (whoever knows it can "
                "compute every hand); start the server with --allow-seeds to allow it"
            )
        return self.open(cfg, name)

    def open(self, cfg: TableConfig, name: str, seed: int | None = None) -> TableSession:
        """Validate ``cfg`` (TableError naming the field), then start the table."""
        table, kinds = build_table(cfg, self.registry)
        if not isinstance(cfg.players, list) or not any(p.name for p in cfg.players):
            table.names = default_names(table, kinds)
        return self.start(table, kinds, seed if seed is not None else cfg.seed, name)

    def start(self, table: Table, kinds: list[str], seed: int | None, name: str) -> TableSession:
        """Start a table; ``seed`` None: a fresh one (``seeds.fresh_seed``) for
        each match, never shown while people play. A seed given is
        deterministic on purpose (each next match's follows from it)."""
        with self._lock:
            if len(self.sessions) >= MAX_TABLES:
                raise CardcoreError(f"{MAX_TABLES} tables are open; close one first")
            log_path = None
            if self.log_dir is not None:
                self.log_dir.mkdir(parents=True, exist_ok=True)
                # the file's name says the table and when, never the seed
                stamp = time.strftime("%Y%m%d-%H%M%S")
                log_path = free_name(self.log_dir / f"{file_stem(name)}-{stamp}.jsonl")
            session = self.session_class(
                table,
                kinds,
                seed if seed is not None else fresh_seed(),
                name=name,
                log_path=log_path,
                bot_delay=self.bot_delay,
                seed_given=seed is not None,
            )
            while session.id in self.sessions:  # ids are random: a clash is rare, never kept
                session.id = random.SystemRandom().randbytes(4).hex()
                session._info["id"] = session.id
            self.sessions[session.id] = session
        session.start()
        return session

    # ---- finding and closing ---------------------------------------------
    def find(self, token: str) -> tuple[TableSession, int | None] | None:
        """The table and seat of a secret link (seat None: a spectator's link)."""
        for session in list(self.sessions.values()):
            if token == session.watch_link:
                return session, None
            for seat, link in session.links.items():
                if token == link:
                    return session, seat
        return None

    def tables(self) -> list[dict[str, Any]]:
        return [s.summary() for s in list(self.sessions.values())]

    def catalog(self) -> dict[str, Any]:
        """What the lobby's form offers: every game (with its player kinds)
        and the tables of the config file."""
        games = game_catalog(self.registry)
        for g in games:
            t = Table(self.registry.game(g["name"]), g["default_players"])
            g["kinds"] = ["human", *sorted(k for k in t.player_kinds if k != "human")]
        configured: list[dict[str, Any]] = []
        if self.config_path is not None and self.config_path.exists():
            try:
                for name, cfg in load_config(self.config_path).tables.items():
                    players = cfg.players if isinstance(cfg.players, int) else len(cfg.players or [])
                    configured.append({"name": name, "game": cfg.game, "players": players})
            except CardcoreError as err:
                configured.append({"name": "", "error": str(err)})
        return {"games": games, "tables": configured}

    def close(self) -> None:
        """Stop every table: each log keeps what was played."""
        for session in list(self.sessions.values()):
            session.stop()


def _has_people(cfg: TableConfig) -> bool:
    players = cfg.players if isinstance(cfg.players, list) else []
    return any(parse_kind(p.kind)[0] == "human" for p in players)


def default_names(table: Table, kinds: list[str]) -> list[str]:
    """Seat names when the table gives none: people by number, bots by kind."""
    return [
        f"Player {i + 1}" if parse_kind(k)[0] == "human" else f"{parse_kind(k)[0].title()} {i + 1}"
        for i, k in enumerate(kinds)
    ]


def file_stem(name: str) -> str:
    """A table's name as part of a file name: letters, digits, ``_`` and ``-``."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_")[:40] or "table"
