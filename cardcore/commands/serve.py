"""``cardcore serve``: tables in the browser (docs/WEB.md). Its options are
one ``ServeSettings``, checked in one place; the command binds the port, takes
the store and runs the lobby on uvicorn until Ctrl-C or SIGTERM."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, NamedTuple

import click

from cardcore import i18n
from cardcore.commands.base import (
    FilePath,
    GameCommand,
    config_option,
    default_bot,
    friendly,
    parse_seats,
    registry,
    table_from_args,
    table_options,
)
from cardcore.i18n import T, _, _n


class ServeSettings(NamedTuple):
    """``cardcore serve``'s options as one value (immutable: a named tuple,
    no dataclass machinery at start-up), made by ``from_options``,
    which checks them together. Each option's own type and range are click's
    (``--port`` 0..65535, ``--bot-delay`` 0..10 …); what holds between options
    is checked here, in this order (the first problem found is the one line
    said): GAME or ``--table``, not both; ``--lan`` or another ``--host``;
    each ``--allow-origin`` an http(s) origin; each ``--trust-proxy`` an IP
    address or network; ``--players``, ``--seat``, ``--option`` and
    ``--house-rule`` only with GAME."""

    game: str | None
    players: int | None
    seats: tuple[tuple[int, str], ...]
    options: tuple[tuple[str, Any], ...]
    house_rules: tuple[str, ...]
    table_names: tuple[str, ...]
    host: str  # 0.0.0.0 with --lan
    lan: bool
    no_lobby_seats: bool
    port: int
    seed: int | None
    allow_seeds: bool
    allow_origins: tuple[str, ...]
    trust_proxies: tuple[str, ...]  # the reverse proxies whose X-Forwarded-For/-Proto are believed
    log_dir: Path
    bot_delay: float
    max_tables: int
    away_limit: float
    state_path: Path  # --state, else LOG_DIR/tables.db
    config_path: Path

    @classmethod
    def from_options(cls, host_given: bool, **options: Any) -> ServeSettings:
        """The settings of click's ``options`` (the command's parameters by
        name; ``host_given``: --host was on the command line), or a
        ``CardcoreError`` naming the first problem."""
        import ipaddress  # loaded when the command runs
        from urllib.parse import urlsplit

        from cardcore.errors import CardcoreError  # pydantic: loaded when the command runs

        if options["game"] and options["table_names"]:
            raise CardcoreError(T("give either GAME or --table, not both"))
        if options["lan"]:
            host = options["host"]
            if host_given and host != "0.0.0.0":
                raise CardcoreError(
                    T("give either --lan or --host {host}, not both (--lan listens on 0.0.0.0)", host=host)
                )
            options["host"] = "0.0.0.0"
        for origin in options["allow_origins"]:
            if urlsplit(origin).scheme not in ("http", "https") or not urlsplit(origin).hostname:
                raise CardcoreError(
                    T("--allow-origin: {origin!r} is no origin (e.g. http://mybox.lan:8000)", origin=origin)
                )
        trusted = []
        for address in options["trust_proxies"]:
            try:
                net = ipaddress.ip_network(address.strip(), strict=False)
            except ValueError:
                raise CardcoreError(
                    T(
                        "--trust-proxy: {address!r} is no IP address or network (e.g. 127.0.0.1)",
                        address=address,
                    )
                ) from None
            trusted.append(str(net.network_address) if net.num_addresses == 1 else str(net))
        options["trust_proxies"] = tuple(trusted)
        table_options_given = (
            options["players"] is not None or options["seats"] or options["options"] or options["house_rules"]
        )
        if not options["game"] and table_options_given:
            raise CardcoreError(T("--players, --seat, --option and --house-rule go with GAME"))
        options["state_path"] = options["state_path"] or options["log_dir"] / "tables.db"
        return cls(**options)


@click.command(cls=GameCommand)
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
    "--trust-proxy",
    "trust_proxies",
    multiple=True,
    metavar="ADDRESS",
    help="The address of a reverse proxy in front of the server, e.g. 127.0.0.1 (repeatable; a network "
    "too): its X-Forwarded-For and X-Forwarded-Proto are believed, and the links carry the first "
    "--allow-origin. By default nobody's are.",
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
def serve(**options: Any) -> None:
    """Serve tables in the browser: a lobby, and a secret link per person's seat.

    With GAME (and --players, --seat, --option, --house-rule) or --table NAME
    it opens that table and prints the link of each person's seat and the
    spectators' link; with neither it opens on the lobby, where a table is
    made. Bots take the seats that are not people's (GAME: you at seat 0, as
    in `cardcore play`; --seat 1=human for a friend). Ctrl-C stops: every
    table's log keeps what was played.
    """
    # the server (sockets, SQLite, uvicorn, the web table, the engine): loaded when the command runs
    import errno
    import signal
    import socket
    import sqlite3

    from cardcore.errors import CardcoreError

    try:
        import uvicorn

        from cardcore.web.app import create_app
        from cardcore.web.lobby import Lobby, default_names
    except ImportError as err:
        raise CardcoreError(
            T("cardcore serve needs {module}: pip install cardcore (it brings it)", module=err.name)
        ) from None
    source = click.get_current_context().get_parameter_source("host")
    settings = ServeSettings.from_options(source == click.core.ParameterSource.COMMANDLINE, **options)
    host, port, log_dir, state_path = settings.host, settings.port, settings.log_dir, settings.state_path
    reg = registry()
    # the engine and the store: loaded when the command runs
    from cardcore.runner import make_players
    from cardcore.web.store import Store, StoreLock

    table = None
    kinds: list[str] = []
    if settings.game:
        table = table_from_args(reg, settings.game, settings.players, settings.options, settings.house_rules)
        kinds = ["human"] + [default_bot(table)] * (table.players - 1)
        for seat, kind in parse_seats(settings.seats, table.players).items():
            kinds[seat] = kind
        make_players(table, kinds, 0)  # an unknown kind or option: one line, before anything opens
        table.names = default_names(table, kinds)
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
    lobby = Lobby(
        reg, settings.config_path, log_dir, settings.bot_delay, allow_seeds=settings.allow_seeds, store=store
    )
    lobby.max_tables = settings.max_tables
    lobby.away_limit = settings.away_limit
    lobby.lobby_seats = not settings.no_lobby_seats
    opened = []
    resumed = []
    try:
        resumed = lobby.resume()
        if table is not None and settings.game:
            opened.append(lobby.start(table, kinds, settings.seed, settings.game))
        for name in settings.table_names:
            opened.append(lobby.open_config(name, settings.seed))
        port = sock.getsockname()[1]
        link_host = _link_host(host)
        base = f"http://{link_host}:{port}"
        if settings.trust_proxies and settings.allow_origins:  # behind a proxy: its public origin
            base = settings.allow_origins[0].strip().rstrip("/")
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
            create_app(lobby, hosts, settings.allow_origins),
            timeout_graceful_shutdown=1,  # then open connections are dropped: stopped within 2 s
            log_level="warning",
            ws_max_size=65536,
            # X-Forwarded-For/-Proto believed from --trust-proxy's addresses only (uvicorn's own
            # default believes loopback's, or $FORWARDED_ALLOW_IPS's: not here)
            proxy_headers=bool(settings.trust_proxies),
            forwarded_allow_ips=list(settings.trust_proxies),
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
    import socket  # loaded when the server starts

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
    from cardcore.web.address import network_address  # loaded for --lan only

    return network_address()


def register_commands(cli: click.Group) -> None:
    """Add ``serve`` to ``cli`` (called by ``cardcore.commands.register_builtin``)."""
    cli.add_command(serve)
