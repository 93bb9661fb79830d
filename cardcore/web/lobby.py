"""The server's tables: opened from ``games.yaml`` or from the lobby's form,
each validated with the same models as the CLI (``config.TableConfig`` and
the game's own options), each with its secret seat links, its short code
(``/join/CODE``) and the seats still open to anyone who takes them.

A person's seat is *open* until it is claimed, either by its link (the first
connection made with it) or by *Take this seat* in the lobby (``take``),
which mints a new link for the one who took it and makes the seat's first
link (the one printed or shown to the table's maker) unknown from then on.
A claimed seat is never offered again; its holder comes back with his link."""

from __future__ import annotations

import hmac
import random
import re
import secrets
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from cardcore.config import TableConfig, build_table, load_config
from cardcore.errors import CardcoreError, TableError, message, pydantic_problems
from cardcore.files import free_name
from cardcore.i18n import T, to_data
from cardcore.plugins import Registry, game_catalog
from cardcore.runner import parse_kind
from cardcore.seeds import fresh_seed
from cardcore.table import Table, safe_name
from cardcore.text import one_line
from cardcore.web.limits import SearchBudget, fold_name, prefix
from cardcore.web.session import AWAY_LIMIT, MOVE_TIMEOUT, TableSession
from cardcore.web.store import Store, StoreError, saving, token_hash

MAX_TABLES = 64  # open at once (stopped ones do not count): a lobby on a LAN, not a public site
MAX_TABLES_PER_CLIENT = 8  # open at once, made by one address from the lobby's form
CREATE_BURST = 6  # tables one address may make at once from the form ...
CREATE_EVERY = 10.0  # ... then one more each this many seconds
# the addresses of one network prefix (/24 IPv4, /64 IPv6: ``limits.prefix``) count together too
MAX_TABLES_PER_PREFIX = 32  # open at once: half the lobby, so that one network cannot fill it
PREFIX_CREATE_BURST = 12  # tables one prefix may make at once ...
PREFIX_CREATE_EVERY = 5.0  # ... then one more each this many seconds
PREFIX_TAKE_BURST = 16  # seats one prefix may take at once ...
PREFIX_TAKE_EVERY = 2.5  # ... then one more each this many seconds
IDLE_EXPIRY = 30 * 60.0  # seconds: a table no person is connected to, with no move, is closed
UNCLAIMED_EXPIRY = 5 * 60.0  # seconds: the same, for a table with people none of whom ever came
KEEP_ENDED = 60.0  # seconds a stopped table stays listed (its pages say why) before it goes
# a bot kind from the lobby's form is clamped to these (the tables file and the CLI are the host's own)
BOT_LIMITS = {"iterations": 2000, "ms": 2000}
TAKE_BURST = 8  # seats one address may take at once from the lobby ...
TAKE_EVERY = 5.0  # ... then one more each this many seconds
NAME_LIMIT = 24  # characters of a name typed to take a seat
# a table's code: letters no one reads as another letter or a digit (no B 8, G 6, I L 1, O Q 0, S 5,
# U V, Z 2); 16**5 codes, drawn at random (nothing of the seed or the links), unique among the tables
CODE_LETTERS = "ACDEFHJKMNPRTWXY"
CODE_LENGTH = 5


class LimitError(CardcoreError):
    """A client asked for more than the lobby gives one client (HTTP 429)."""


class NoSuchTable(CardcoreError):
    """No table with that id or code (HTTP 404)."""


class SeatError(CardcoreError):
    """A seat that cannot be taken: claimed already, a bot's, the table stopped (HTTP 409)."""


@dataclass
class Seating:
    """A table's code and the person's seats claimed (by their link or taken)."""

    code: str
    claimed: set[int] = field(default_factory=set)


class Lobby:
    """Every table of one server, found by id or by a seat's secret link."""

    def __init__(
        self,
        registry: Registry,
        config_path: Path | None = None,
        log_dir: Path | None = None,
        bot_delay: float = 0.0,
        allow_seeds: bool = False,
        store: Store | None = None,
    ) -> None:
        self.registry = registry
        self.store = store  # tables and journals kept across a restart (``resume``)
        # a seed from the lobby's form for a table with people: only if the
        # server was started so (``--allow-seeds``): whoever knows it deals every hand
        self.allow_seeds = allow_seeds
        self.config_path = config_path
        self.log_dir = log_dir
        self.bot_delay = bot_delay
        self.sessions: dict[str, TableSession] = {}
        self.session_class = TableSession  # tests put a purpose-built variant here
        self.move_timeout = MOVE_TIMEOUT
        self.away_limit = AWAY_LIMIT  # a person away this long may be handed to a bot (serve --away-limit)
        self.idle_expiry = IDLE_EXPIRY
        self.unclaimed_expiry = UNCLAIMED_EXPIRY
        self.keep_ended = KEEP_ENDED
        self.max_tables = MAX_TABLES
        self.max_per_client = MAX_TABLES_PER_CLIENT
        self.max_per_prefix = MAX_TABLES_PER_PREFIX
        # per address, and per prefix ("P:" + its network): (tables it may make, when), (seats …)
        self._credit: dict[str, tuple[float, float]] = {}
        self._take_credit: dict[str, tuple[float, float]] = {}
        # tables gone from the list whose game thread still runs (a runaway search): they
        # count against their maker's address until it ends
        self._lingering: list[TableSession] = []
        # each address's search CPU per minute: hints, and the bots of tables made in the lobby
        self.search_budget: SearchBudget | None = SearchBudget()
        self._catalog: tuple[Any, dict[str, Any]] | None = None  # (games.yaml's stat, the catalog)
        self.seating: dict[str, Seating] = {}  # per table id: its code and the seats claimed
        self.lobby_seats = True  # False (serve --no-lobby-seats): a seat is its link's only
        # the address to put in a join link or a QR code when a page is read on this machine
        # (``cardcore serve`` sets it: with --lan, the machine's network address)
        self.public_base: str | None = None
        self._lock = threading.Lock()
        self._janitor: threading.Thread | None = None
        self._closing = threading.Event()

    # ---- opening tables --------------------------------------------------
    def open_config(
        self, name: str, seed: int | None = None, client: str | None = None, maker: str | None = None
    ) -> TableSession:
        """The table ``name`` of the config file (``cardcore serve --table NAME``;
        ``maker``: from the lobby, the one who opened it sits there, see ``start``)."""
        if self.config_path is None:
            raise CardcoreError("no tables file")
        tables = load_config(self.config_path).tables
        if name not in tables:
            known = ", ".join(sorted(tables)) or "none"
            raise CardcoreError(f"{self.config_path}: no table {name!r}; tables: {known}")
        try:
            return self.open(tables[name], name, seed, client=client, maker=maker)
        except TableError as err:
            raise CardcoreError(f"{self.config_path}: tables.{name}: {err}") from None

    def open_data(self, data: Any, client: str | None = None) -> TableSession:
        """A table from the lobby's form: ``{"table": NAME}`` (of the config
        file) or a table's fields as in ``games.yaml`` (``game``,
        ``players``, ``options``, ``house_rules``, ``seed``) and a ``name``.
        ``client``: the address asking (its limits: ``MAX_TABLES_PER_CLIENT``
        open, ``CREATE_BURST`` then one each ``CREATE_EVERY`` seconds)."""
        if not isinstance(data, dict):
            raise CardcoreError("expected a JSON object: a table's fields, or {'table': NAME}")
        self._allow(client)
        try:
            return self._open_data(data, client)
        except CardcoreError:  # a form refused costs no table: the credit comes back
            self._refund(client)
            raise

    def _open_data(self, data: dict[str, Any], client: str | None) -> TableSession:
        maker = person_name(data["maker"], "maker") if data.get("maker") is not None else None
        if "table" in data:
            session = self.open_config(str(data["table"]), client=client, maker=maker)
        else:
            fields = {k: v for k, v in data.items() if k not in ("name", "maker")}
            try:
                cfg = TableConfig.model_validate(fields)
            except ValidationError as err:
                raise CardcoreError("; ".join(pydantic_problems(err))) from None
            name: str = safe_name(data["name"]) if data.get("name") else ""
            if cfg.seed is not None and not self.allow_seeds and _has_people(cfg):
                raise CardcoreError(
                    T(
                        "seed: a table with people takes no seed from the lobby (whoever knows it can "
                        "compute every hand); start the server with --allow-seeds to allow it"
                    )
                )
            if isinstance(cfg.players, list):
                for p in cfg.players:
                    p.kind = clamp_kind(p.kind)
            session = self.open(cfg, name, client=client, maker=maker)
        return session

    def _counted(self) -> list[TableSession]:
        """The tables that count against their maker (the lock held): open
        ones, and stopped ones whose game thread has not ended."""
        self._lingering = [s for s in self._lingering if s.running() and s.id not in self.sessions]
        live = [s for s in self.sessions.values() if s.ended is None or s.running()]
        return live + self._lingering

    def _allow(self, client: str | None) -> None:
        """Refuse (``LimitError``) a client past its tables or its pace, or
        its network prefix past its own (``limits.prefix``: /24, /64)."""
        if client is None:
            return
        net = prefix(client)
        with self._lock:
            counted = self._counted()
            mine = [s for s in counted if s.client == client]
            if len(mine) >= self.max_per_client:
                raise LimitError(T("{n} tables of yours are open; close one first", n=len(mine)))
            ours = [s for s in counted if s.client is not None and prefix(s.client) == net]
            if len(ours) >= self.max_per_prefix:
                raise LimitError(T("{n} tables are open from your network; close one first", n=len(ours)))
            _spend(self._credit, f"P:{net}", PREFIX_CREATE_BURST, PREFIX_CREATE_EVERY, "tables made")
            try:
                _spend(self._credit, client, CREATE_BURST, CREATE_EVERY, "tables made")
            except LimitError:
                _give_back(self._credit, f"P:{net}", PREFIX_CREATE_BURST)
                raise

    def _refund(self, client: str | None) -> None:
        if client is not None:
            with self._lock:
                _give_back(self._credit, client, CREATE_BURST)
                _give_back(self._credit, f"P:{prefix(client)}", PREFIX_CREATE_BURST)

    def open(
        self,
        cfg: TableConfig,
        name: str,
        seed: int | None = None,
        client: str | None = None,
        maker: str | None = None,
    ) -> TableSession:
        """Validate ``cfg`` (TableError naming the field), then start the
        table; ``maker``: the name of the person who made it, seated at its
        first person's seat (``start``); ``name`` "": named after him and the
        game ("Ana's Carrousel"), else after the game."""
        table, kinds = build_table(cfg, self.registry)
        given = default_names(table, kinds)
        if not isinstance(cfg.players, list):
            table.names = given
        else:  # each seat left unnamed gets the lobby's default ("Normal 2"), the others theirs
            named = zip(cfg.players, table.names, given, strict=True)
            table.names = [n if p.name else d for p, n, d in named]
        seed = seed if seed is not None else cfg.seed
        return self.start(table, kinds, seed, name or table_name(table, maker), client=client, maker=maker)

    def start(
        self,
        table: Table,
        kinds: list[str],
        seed: int | None,
        name: str,
        client: str | None = None,
        maker: str | None = None,
    ) -> TableSession:
        """Start a table; ``seed`` None: a fresh one (``seeds.fresh_seed``) for
        each match, never shown while people play. A seed given is
        deterministic on purpose (each next match's follows from it).
        ``maker``: the name of whoever made it, whose seat is its first
        person's from now on (his link is ``session.links`` of
        ``session.room.maker_seat``), and who may start it before every person
        came. The table waits for its people: each sits down with his seat's
        first connection (``claim``, ``TableSession.sit``), or *Start*
        (``start_table``)."""
        self.reap()
        with self._lock:
            if sum(s.ended is None for s in self.sessions.values()) >= self.max_tables:
                raise LimitError(T("{n} tables are open; close one first", n=self.max_tables))
            log_path = None
            if self.log_dir is not None:
                try:
                    self.log_dir.mkdir(parents=True, exist_ok=True)
                except OSError as err:
                    why = err.strerror or err
                    raise CardcoreError(f"{self.log_dir}: cannot make the log folder ({why})") from None
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
                move_timeout=self.move_timeout,
                away_limit=self.away_limit,
            )
            session.client = client
            session.journal.store = self.store
            session.budget = self.search_budget  # hints; the bots too, of a table made in the lobby
            if client is not None:  # made in the lobby: its maker may close it
                session.owner_token = secrets.token_urlsafe(16)
                session.owner_hash = token_hash(session.owner_token)
            while session.id in self.sessions:  # ids are random: a clash is rare, never kept
                session.id = random.SystemRandom().randbytes(4).hex()
                session._info["id"] = session.id
            self.sessions[session.id] = session
            claimed = set() if self.lobby_seats else set(session.people)
            self._seat(session, Seating(self._new_code(), claimed))
            session.starter = lambda seat: self.start_table(session, seat)
            if maker is not None and session.people:  # his seat: never offered to others
                seat = session.people[0]
                session.room.maker_seat = session.room.host = seat
                session.rename(seat, maker)
                claimed.add(seat)  # he sits down (``sit``) when his page first connects, as everyone
        return self._launch(session, log_path)

    def _new_code(self) -> str:
        """A code no table of the lobby has (the lock held)."""
        taken = {s.code for s in self.seating.values()}
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in taken:
                return code

    def _seat(self, session: TableSession, seating: Seating) -> None:
        """Give ``session`` its code and claimed seats (the lock held); its frames name the code."""
        self.seating[session.id] = seating
        session._info["code"] = seating.code
        session._info["join"] = f"/join/{seating.code}"

    def _seating_data(self, session: TableSession) -> dict[str, Any]:
        """What the store keeps of the seats: the links' hashes, the names, the code, the claimed."""
        seating = self.seating.get(session.id)
        return {
            "links": {str(k): v for k, v in session.link_hashes.items()},
            "names": list(session.table.names),
            "code": seating.code if seating is not None else "",
            "claimed": sorted(seating.claimed) if seating is not None else list(session.people),
            # the table waits for its people: who sat down, who may start it, who a bot plays for
            "seated": sorted(session.room.seated),
            "host": session.room.host,
            "bots": list(session.room.bot_seats),
            "begun": session.room.begun,
            "maker_seat": session.room.maker_seat,
        }

    def _save_seating(self, session: TableSession) -> None:
        """The seats as they are now, saved; a store fault is said on the console
        (the seats are as the store had them after a restart)."""
        if self.store is not None:
            try:
                saving(self.store.update_table, session.id, **self._seating_data(session))
            except StoreError as err:
                print(f"cardcore serve: table {session.name}: {message(err)}", file=sys.stderr)

    def _launch(self, session: TableSession, log_path: Path | None) -> TableSession:
        try:
            if self.store is not None and not session.resumed:
                data = {**session.stored(), **self._seating_data(session)}
                saving(self.store.add_table, session.id, data)
            session.start()
        except StoreError:  # the store cannot save it: no table (the words say why)
            with self._lock:
                self.sessions.pop(session.id, None)
                self.seating.pop(session.id, None)
            raise
        except OSError as err:  # the log cannot be opened: no table, rather than one left "starting"
            with self._lock:
                self.sessions.pop(session.id, None)
                self.seating.pop(session.id, None)
            session.forget()
            raise CardcoreError(f"{log_path}: cannot open the table's log ({err.strerror or err})") from None
        self._start_janitor()
        return session

    def resume(self) -> list[TableSession]:
        """Every table the store holds open (the server was stopped or killed),
        started again where it was: its journal played, the same links. Each
        table on its own: one whose row or journal cannot be read is said in
        one line and left out, left in the store as it is; one that cannot be
        played again (its game gone, its journal not that game's) is said and
        closed."""
        if self.store is None:
            return []

        def broken(table_id: str, why: Any) -> None:
            print(
                f"cardcore serve: table {table_id} cannot be resumed: {why} (left as it is)", file=sys.stderr
            )

        resumed = []
        for table_id, data in self.store.open_tables(broken):
            if table_id in self.sessions:
                continue
            try:
                table = Table.from_names(
                    self.registry,
                    data["game"],
                    data["players"],
                    data.get("options") or {},
                    data.get("house_rules") or [],
                    data.get("names"),
                )
                # a name given by default is the text it was (said in each page's language)
                given = default_names(table, list(data["kinds"]))
                table.names = [d if d == n else n for d, n in zip(given, table.names, strict=True)]
                for i in data.get("bots", []):  # given to a bot when the table was started
                    level = LEVEL_NAMES["normal"](int(i) + 1)
                    table.names[int(i)] = level if level == table.names[int(i)] else table.names[int(i)]
                name = str(data["name"])
                at = data.get("maker_seat")
                maker = table.names[at] if type(at) is int and 0 <= at < len(table.names) else None
                if maker is not None and table_name(table, maker) == name:
                    name = table_name(table, maker)  # "Ana's Carrousel" said in each page's language
                elif table_name(table, None) == name:
                    name = table_name(table, None)
                log = Path(data["log"]) if data.get("log") else None
                session = self.session_class(
                    table,
                    list(data["kinds"]),
                    int(data["seed"]),
                    name=name,
                    log_path=log if log is not None and log.exists() else None,
                    bot_delay=self.bot_delay,
                    seed_given=bool(data.get("seed_given")),
                    move_timeout=self.move_timeout,
                    away_limit=float(data.get("away_limit", self.away_limit)),
                )
                # a table stored before seats were claimed: each person's seat is his link's
                claimed = {int(i) for i in data.get("claimed", session.people)}
                session.restore(table_id, data, self.store.journal(table_id))
                session.journal.store = self.store
                maker_seat = data.get("maker_seat")
                session.room.maker_seat = maker_seat if type(maker_seat) is int else None
                for seat in data.get("seated", sorted(claimed)):  # a table stored before: its claimed
                    session.sit(int(seat))
                session.starter = lambda seat, s=session: self.start_table(s, seat)
            except StoreError as err:  # its journal cannot be read: not resumed, not closed
                broken(table_id, message(err))
                continue
            except (CardcoreError, KeyError, ValueError, TypeError) as err:
                print(f"cardcore serve: table {table_id} cannot be resumed: {err}", file=sys.stderr)
                try:
                    saving(self.store.close_table, table_id)
                except StoreError as fault:
                    print(f"cardcore serve: table {table_id}: {message(fault)}", file=sys.stderr)
                continue
            with self._lock:
                self.sessions[session.id] = session
                code = str(data.get("code") or "")
                if len(code) != CODE_LENGTH or code in {s.code for s in self.seating.values()}:
                    code = self._new_code()  # a table stored before codes were given has none
                self._seat(session, Seating(code, claimed))
            if code != data.get("code") or "claimed" not in data:
                self._save_seating(session)
            try:
                resumed.append(self._launch(session, session.log_path))
            except CardcoreError as err:  # its log cannot be opened again: the others go on
                print(f"cardcore serve: table {table_id} cannot be resumed: {message(err)}", file=sys.stderr)
        return resumed

    # ---- finding and closing ---------------------------------------------
    def find(self, token: str) -> tuple[TableSession, int | None] | None:
        """The table and seat of a secret link (seat None: a spectator's link);
        a seat's link is known by its hash (what the store keeps)."""
        import hmac

        wanted = token_hash(token)
        for session in list(self.sessions.values()):
            if token == session.watch_link:
                return session, None
            for seat, kept in session.link_hashes.items():
                if hmac.compare_digest(wanted, kept):
                    return session, seat
        return None

    def claim(self, token: str) -> tuple[TableSession, int | None] | None:
        """``find``, and the seat of that link claimed (its first connection):
        no longer offered in the lobby, and its person seated (the table
        begins when all are, ``TableSession.sit``). None: unknown, or the seat
        was taken from the lobby since that link was made."""
        found = self.find(token)
        if found is None or found[1] is None:
            return found
        session, seat = found[0], found[1]
        with self._lock:
            if not hmac.compare_digest(token_hash(token), session.link_hashes.get(seat, "")):
                return None  # taken from the lobby just now: that link is no longer the seat's
            seating = self.seating.get(session.id)
            if seating is not None and (seat not in seating.claimed or seat not in session.room.seated):
                seating.claimed.add(seat)
                session.sit(seat)  # the table begins when every person's seat is taken
                self._save_seating(session)
        return found

    def open_seats(self, session: TableSession) -> list[int]:
        """The person's seats of ``session`` anyone may take now."""
        seating = self.seating.get(session.id)
        stopped = session.ended is not None or session.phase in ("stopped", "error")
        if seating is None or stopped or not self.lobby_seats:  # --no-lobby-seats: resumed ones too
            return []
        return [seat for seat in session.people if seat not in seating.claimed]

    def take(
        self, table_id: str, seat: Any, name: Any, client: str | None = None
    ) -> tuple[TableSession, str]:
        """*Take this seat*: ``seat`` of table ``table_id``, open, is given to
        the person who names himself ``name``: a new secret link for him (its
        hash kept, as every seat's), the seat claimed, his name shown to all.
        ``NoSuchTable``, ``SeatError`` (taken, a bot's, stopped), ``LimitError``
        (``TAKE_BURST`` then one each ``TAKE_EVERY`` s per address), or a
        ``CardcoreError`` naming the field."""
        session = self.sessions.get(str(table_id))
        if session is None:
            raise NoSuchTable(T("no table with that id"))
        if type(seat) is not int or seat not in session.people:
            raise SeatError(
                T("seat: no person's seat {seat} at this table", seat=repr(one_line(str(seat), 10)))
            )
        name = person_name(name, "name")
        with self._lock:
            if seat not in self.open_seats(session):
                raise SeatError(T("this seat is taken; choose another"))
            # compared as they look: "Ρlayer 1" (a Greek Rho) is "Player 1"
            free = self.open_seats(session)  # "free seat": no one's name
            others = {fold_name(n) for i, n in enumerate(session.table.names) if i != seat and i not in free}
            if fold_name(name) in others:
                raise CardcoreError(
                    T("name: someone at this table is called {name}; choose another", name=repr(name))
                )
            self._spend_take(client)
            token = secrets.token_urlsafe(16)
            if self.store is not None:  # saved first: a store fault leaves the seat as it was
                data = self._seating_data(session)
                data["links"][str(seat)] = token_hash(token)
                data["names"][seat] = name
                data["claimed"] = sorted({*data["claimed"], seat})
                saving(self.store.update_table, session.id, **data)
            session.link_hashes[seat] = token_hash(token)  # the seat's first link is unknown from now on
            session.links.pop(seat, None)
            self.seating[session.id].claimed.add(seat)
            session.rename(seat, name)  # everyone at the table sees his name
        return session, token  # he sits down when his page connects (``claim``)

    def start_table(self, session: TableSession, seat: int) -> str | None:
        """*Start* pressed at ``seat`` of ``session``: refused (the words) but
        from its host; the seats nobody took go to bots (``TableSession.begin``),
        no longer offered nor anyone's link, named by their level ("Normal 3");
        a seat taken whose person has not come yet stays his (he is away)."""
        with self._lock:
            error = session.may_begin(seat)
            if error is not None:
                return error
            seating = self.seating.get(session.id)
            # the seats nobody took: one taken (his link minted, or the maker's) stays its person's
            empty = [i for i in session.empty_seats() if seating is None or i not in seating.claimed]
            error = session.begin(seat, empty, named=lambda i: LEVEL_NAMES["normal"](i + 1))
            if error is not None:
                return error
            for i in empty:
                session.link_hashes.pop(i, None)  # a bot's seat now: its link opens nothing
                session.links.pop(i, None)
                if seating is not None:
                    seating.claimed.add(i)
            self._save_seating(session)
        return None

    def _spend_take(self, client: str | None) -> None:
        """One seat taken by ``client`` (the lock held), or ``LimitError``
        (its address's pace, or its network prefix's)."""
        if client is not None:
            net = f"P:{prefix(client)}"
            _spend(self._take_credit, net, PREFIX_TAKE_BURST, PREFIX_TAKE_EVERY, "seats taken")
            try:
                _spend(self._take_credit, client, TAKE_BURST, TAKE_EVERY, "seats taken")
            except LimitError:
                _give_back(self._take_credit, net, PREFIX_TAKE_BURST)
                raise

    def by_code(self, code: str) -> TableSession | None:
        """The table of that code (any case; spaces and dashes ignored)."""
        wanted = re.sub(r"[\s-]+", "", str(code)).upper()
        for table_id, seating in list(self.seating.items()):
            if seating.code == wanted:  # a code is no secret (the lobby lists every table)
                return self.sessions.get(table_id)
        return None

    def describe(self, session: TableSession) -> dict[str, Any]:
        """The table as the lobby and the join page list it: nothing secret
        (no seat link), its code, and each seat's number and whether it is open."""
        summary = session.summary()
        seating = self.seating.get(session.id)
        free = set(self.open_seats(session))
        summary["code"] = seating.code if seating is not None else ""
        summary["join"] = f"/join/{summary['code']}" if seating is not None else ""
        for i, seat in enumerate(summary["seats"]):
            seat["seat"] = i
            seat["open"] = i in free
        return summary

    def tables(self) -> list[dict[str, Any]]:
        return [self.describe(s) for s in list(self.sessions.values())]

    def close_table(self, table_id: str, token: str) -> bool:
        """Close the table ``table_id`` if ``token`` is its maker's: stopped
        (its log keeps what was played) and gone from the lobby."""
        session = self.sessions.get(table_id)
        if session is None or not session.owned_by(token):
            return False
        session.stop(timeout=2.0)
        session.forget()
        with self._lock:
            self._drop(session)
        return True

    def _drop(self, session: TableSession) -> None:
        """``session`` gone from the lobby (the lock held); its thread, if it
        still runs, counts against its maker until it ends (``_counted``)."""
        self.sessions.pop(session.id, None)
        self.seating.pop(session.id, None)
        if session.running() and session.client is not None:
            self._lingering.append(session)

    def reap(self) -> None:
        """Drop the tables stopped over ``KEEP_ENDED`` seconds ago, and stop
        those idle past ``idle_expiry`` (no person connected, spectators do
        not count, and no move), or past ``unclaimed_expiry`` when none of
        its people ever came."""
        now = time.monotonic()
        for session in list(self.sessions.values()):
            came = session.came or session.resumed or not session.people
            expiry = self.idle_expiry if came else min(self.idle_expiry, self.unclaimed_expiry)
            if session.ended is None and not session.has_people() and now - session.active > expiry:
                session.stop(timeout=2.0)
                session.forget()
                if session.ended is None:
                    session.ended = now
            if session.ended is not None and now - session.ended > self.keep_ended:
                with self._lock:
                    self._drop(session)

    def _start_janitor(self) -> None:
        with self._lock:
            if self._janitor is not None:
                return
            self._janitor = threading.Thread(target=self._sweep, name="cardcore-lobby", daemon=True)
            self._janitor.start()

    def _sweep(self) -> None:
        while not self._closing.wait(min(5.0, max(min(self.idle_expiry, self.unclaimed_expiry) / 4, 0.05))):
            try:
                self.reap()
            except Exception as err:  # the sweep must go on
                print(f"cardcore serve: lobby: {type(err).__name__}: {err}", file=sys.stderr)

    def catalog(self) -> dict[str, Any]:
        """What the lobby's form offers: every game (with its player kinds)
        and the tables of the config file; kept until the file changes (its
        modification time, size or inode), so a request reads nothing."""
        key: Any = None
        if self.config_path is not None:
            try:
                st = self.config_path.stat()
                key = (st.st_mtime_ns, st.st_size, st.st_ino)
            except OSError:
                key = "missing"
        kept = self._catalog
        if kept is not None and kept[0] == key:
            return kept[1]
        made = self._make_catalog()
        self._catalog = (key, made)
        return made

    def _make_catalog(self) -> dict[str, Any]:
        games = game_catalog(self.registry)
        for g in games:
            t = Table(self.registry.game(g["name"]), g["default_players"])
            g["kinds"] = ["human", *sorted((k for k in t.player_kinds if k != "human"), key=_level_first)]
            # the texts as data too (cardcore.i18n.to_data): a page says them in its language;
            # an option's description is looked up in the game's catalog (its msgid)
            domain = t.plugin.domain
            g["domain"] = domain
            g["title_say"] = to_data(t.game.title)
            for option in g["options"].values():
                if option.get("description"):
                    option["description_say"] = {"t": str(option["description"]), "d": domain}
            # what each house rule does, said in the page's language beside its id
            g["house_rule_says"] = {
                h.name: to_data(h.summary) for h in self.registry.house_rules_for(g["name"])
            }
        configured: list[dict[str, Any]] = []
        if self.config_path is not None and self.config_path.exists():
            try:
                for name, cfg in load_config(self.config_path).tables.items():
                    players = cfg.players if isinstance(cfg.players, int) else len(cfg.players or [])
                    configured.append({"name": name, "game": cfg.game, "players": players})
            except CardcoreError as err:
                configured.append({"name": "", "error": str(err)})
        return {"games": games, "tables": configured}

    def close(self, timeout: float = 1.5) -> None:
        """Stop every table at once, waiting ``timeout`` seconds in all (not
        per table): each log keeps what was played."""
        self._closing.set()
        sessions = list(self.sessions.values())
        for session in sessions:
            session.request_stop()
        deadline = time.monotonic() + timeout
        for session in sessions:
            session.join(deadline - time.monotonic())


def _level_first(kind: str) -> tuple[int, str]:
    """The lobby's order of kinds: the levels a person picks (easy … expert), then the bots by name."""
    from cardcore.levels import LEVELS

    return (LEVELS.index(kind), "") if kind in LEVELS else (len(LEVELS), kind)


def clamp_kind(kind: str) -> str:
    """A bot kind from the lobby's form with its budgets within ``BOT_LIMITS``
    (``ismcts:iterations=1000000000`` → ``ismcts:iterations=2000``)."""
    name, options = parse_kind(kind)
    if not options:
        return kind
    clamped = {
        k: min(v, BOT_LIMITS[k]) if k in BOT_LIMITS and isinstance(v, (int, float)) else v
        for k, v in options.items()
    }
    if clamped == options:
        return kind
    return name + ":" + ",".join(f"{k}={v}" for k, v in clamped.items())


def _has_people(cfg: TableConfig) -> bool:
    players = cfg.players if isinstance(cfg.players, list) else []
    return any(parse_kind(p.kind)[0] == "human" for p in players)


def _spend(buckets: dict[str, tuple[float, float]], client: str, burst: int, every: float, what: str) -> None:
    """A token bucket per client: ``burst`` at once, then one per ``every``
    seconds; one spent, or ``LimitError`` naming ``what`` and the wait."""
    now = time.monotonic()
    credit, when = buckets.get(client, (float(burst), now))
    credit = min(float(burst), credit + (now - when) / every)
    if credit < 1:
        wait = f"{(1 - credit) * every:.0f}"
        if what == "tables made":
            raise LimitError(T("too many tables made from your address; wait {wait} s", wait=wait))
        if what == "seats taken":
            raise LimitError(T("too many seats taken from your address; wait {wait} s", wait=wait))
        raise LimitError(f"too many {what} from your address; wait {wait} s")
    buckets[client] = (credit - 1, now)


def _give_back(buckets: dict[str, tuple[float, float]], client: str, burst: int) -> None:
    """One credit back to ``client``'s bucket (a refused form, or a refusal of another limit)."""
    credit, when = buckets.get(client, (float(burst), time.monotonic()))
    buckets[client] = (min(float(burst), credit + 1), when)


def default_names(table: Table, kinds: list[str]) -> list[str]:
    """Seat names when the table gives none: people by number, bots by kind;
    as texts (English as before), so that each page says them in its language."""
    names: list[str] = []
    for i, k in enumerate(kinds):
        kind = parse_kind(k)[0]
        if kind == "human":
            # i18n: a person's seat named by its number when the table names none
            names.append(T("Player {n}", n=i + 1))
        elif kind in LEVEL_NAMES:
            names.append(LEVEL_NAMES[kind](i + 1))
        else:
            names.append(f"{kind.title()} {i + 1}")  # a bot's kind: an id, the same in every language
    return names


# a bot's seat named by its level and number ("Normal 3") when the table names none
LEVEL_NAMES = {
    "easy": lambda n: T("Easy {n}", n=n),
    "normal": lambda n: T("Normal {n}", n=n),
    "hard": lambda n: T("Hard {n}", n=n),
    "expert": lambda n: T("Expert {n}", n=n),
}


def person_name(name: Any, field: str) -> str:
    """A name typed by a person (taking a seat, making a table), cleaned; or
    ``CardcoreError`` naming ``field``."""
    if not isinstance(name, str) or not safe_name(name, NAME_LIMIT).strip("?"):
        if field == "maker":
            raise CardcoreError(T("maker: type your name, the one the others will see"))
        raise CardcoreError(T("name: type the name the others will see"))
    return safe_name(" ".join(name.split()), NAME_LIMIT)


def table_name(table: Table, maker: str | None) -> str:
    """A lobby table's name when its maker gives none: after him and the game
    ("Ana's Carrousel"), else the game's title; a text, said in each page's language."""
    if maker:
        # i18n: a table's name in the lobby: its maker's name, then the game's title
        return T("{name}'s {game}", name=maker, game=table.game.title)
    return table.game.title


def file_stem(name: str) -> str:
    """A table's name as part of a file name: letters, digits, ``_`` and ``-``."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_")[:40] or "table"
