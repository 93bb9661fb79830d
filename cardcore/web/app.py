"""The web server (Starlette): the lobby, the table pages, one websocket per
seat, and the static assets (shipped in the package: no CDN, works offline).

    GET  /                 the lobby: running tables, a form to open one
    GET  /api/catalog      games, options, house rules, player kinds, tables of games.yaml
    GET  /api/tables       running tables (no secret link in it but the spectators')
    POST /api/tables       open a table: {"table": NAME} or a table's fields; with
                           {"maker": NAME} he sits at its first person's seat ("you": his link)
    DELETE /api/tables/ID  close it: {"owner": TOKEN}, the token its maker was given
    POST /api/tables/ID/seats/N   take open seat N: {"name": NAME} → his own secret link
    GET  /api/tables/ID/qr.svg    a QR code of the table's join page
    GET  /api/join/CODE    the table of that code, its open seats and its join address
    GET  /join/CODE        the join page: the open seats, each with *Take this seat*
    GET  /i18n/LANG.json   a page's catalog in LANG (``auto``: as Accept-Language prefers; see ``catalogs``)
    GET  /seat/<token>     a person's table page (his secret link)
    GET  /watch/<token>    the spectators' page
    WS   /ws/<token>       frames out, messages in (see ``session``)

An unknown link gets a 404 page (and on the websocket, an error then close
code 4404); a bad message gets an error frame and changes nothing.

Every request and websocket passes ``Guard`` first: its ``Host`` must be a
loopback name, an address the server listens on, or the host of an
``--allow-origin``; an ``Origin``, when the browser sends one, must be the
page's own (the ``Host``; https only over TLS, as a trusted proxy's
``X-Forwarded-Proto`` says) or one allowed. Every answer carries a strict
Content-Security-Policy, ``Referrer-Policy: no-referrer`` (a seat's link is
its secret) and ``X-Frame-Options: DENY``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import re
import threading
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from cardcore.errors import CardcoreError
from cardcore.i18n import T, Text, to_data
from cardcore.text import one_line
from cardcore.web.limits import Bucket
from cardcore.web.lobby import LimitError, Lobby, NoSuchTable, SeatError
from cardcore.web.publisher import Subscriber

MAX_MESSAGE = 4096  # characters: a move message is some forty
MAX_BODY = 65536  # bytes of a table's form
MAX_PENDING = 32  # messages waiting to go to one connection (a state frame replaces the one before)
MAX_CHANGES = 16  # change frames waiting to go to one connection: past it, one whole frame instead
RESYNC = "resync"  # the outbox's own: send a whole frame (the table is asked for it)
SEND_TIMEOUT = 10.0  # seconds a connection may take to take one message in
MAX_CONNECTIONS_PER_CLIENT = 256  # websockets open at once from one address
SLOW = 4008  # close code: the reader was too slow (reconnecting brings the whole state)
CROWDED = 4029  # close code: too many connections from that address
FLOODED = 4429  # close code: the connection sent more messages than its budget
MESSAGE_BURST = 60  # messages one connection may send at once ...
MESSAGE_RATE = 20.0  # ... then this many a second (a person sends a few a minute)
FLOOD_PENALTY = 10.0  # seconds an address that flooded is refused new websockets (before the handshake)
_KICK = "kick"
_FLOOD = "flood"
STATIC = resources.files("cardcore.web") / "static"


def page(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def not_found(what: str) -> HTMLResponse:
    body = page("missing.html").replace("{{what}}", what)
    return HTMLResponse(body, status_code=404)


LOOPBACK = ("127.0.0.1", "localhost", "::1")
_HOST_NAME = re.compile(r"[a-z0-9._-]+|\[[0-9a-f:.]+\]")  # a name, an IPv4 address, or [IPv6]


def split_host(value: str) -> tuple[str, str] | None:
    """``Host`` checked: its name and its port (digits, or ""), or None when
    it is neither: ``[::1]:8000`` → ``("::1", "8000")``; ``localhost:80x``,
    ``a b``, ``localhost:1;x`` → None."""
    value = value.strip().lower()
    name, port = value, ""
    if value.startswith("["):
        end = value.find("]")
        name, rest = value[: end + 1], value[end + 1 :]
        if end < 0 or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else ""
        if rest == ":":
            return None
    elif ":" in value:
        name, _, port = value.partition(":")
        if not port:
            return None
    if not _HOST_NAME.fullmatch(name):
        return None
    if port and not (port.isdigit() and port.isascii() and len(port) <= 5 and int(port) <= 65535):
        return None
    return name.strip("[]"), port


def host_name(value: str) -> str:
    """``Host``'s name without its port: ``[::1]:8000`` → ``::1``; "" for a ``Host`` that is none."""
    found = split_host(value)
    return found[0] if found is not None else ""


def _configured(name: str) -> str:
    """A name the server answers to, as ``split_host`` gives it (a bare IPv6 address too)."""
    name = name.strip().lower()
    if ":" in name and not name.startswith("["):
        name = f"[{name}]"  # an IPv6 address as given to --host
    return host_name(name)


def host_text(name: str, port: str) -> str:
    """A checked host and port as a ``Host`` writes them (an IPv6 address in brackets)."""
    shown = f"[{name}]" if ":" in name else name
    return f"{shown}:{port}" if port else shown


class Guard:
    """ASGI middleware: the Host and Origin checks, and the security headers
    (see the module's docstring). ``hosts``: the names the server answers to
    besides loopback; ``origins``: other origins allowed (``--allow-origin``),
    whose hosts are allowed too."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = (), origins: Iterable[str] = ()) -> None:
        self.app = app
        self.origins = {o.strip().lower().rstrip("/") for o in origins}
        names = [*LOOPBACK, *hosts, *(urlsplit(o).hostname or "" for o in self.origins)]
        self.hosts = {_configured(h) for h in names if h} - {""}

    def refusal(self, headers: Headers, secure: bool = False) -> str | None:
        """Why a request is refused, or None. ``secure``: the request came
        over TLS (its scheme https or wss: behind a trusted proxy, ``serve
        --trust-proxy``), whose own origin is then https only."""
        raw = headers.get("host", "")
        checked = split_host(raw)
        if checked is None or checked[0] not in self.hosts:
            return f"unknown host {one_line(raw, 60)!r}: this server answers to its own addresses only"
        host = host_text(*checked)
        origin = headers.get("origin")
        if origin is None:  # not a browser's cross-site request (a script, curl, a same-origin GET)
            return None
        origin = origin.strip().lower().rstrip("/")
        parts = urlsplit(origin)
        schemes = ("https",) if secure else ("http", "https")
        if origin in self.origins or (parts.scheme in schemes and parts.netloc == host):
            return None
        return f"origin {one_line(origin, 60)!r} not allowed (start the server with --allow-origin for it)"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        why = self.refusal(headers, secure=scope.get("scheme") in ("https", "wss"))
        if why is not None:
            if scope["type"] == "websocket":  # closed before accepted: the handshake gets a 403
                await send({"type": "websocket.close", "code": 1008, "reason": why[:120]})
            else:
                await PlainTextResponse(why, status_code=403, headers=security_headers(""))(
                    scope, receive, send
                )
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        checked = split_host(headers.get("host", ""))
        extra = security_headers(host_text(*checked) if checked is not None else "")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra.raw()]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _Raw(dict[str, str]):
    def raw(self) -> list[tuple[bytes, bytes]]:
        return [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in self.items()]


def security_headers(host: str) -> _Raw:
    """What every answer carries: scripts, styles and connections from the
    server itself only, no framing, no referrer (the URL is a secret link).
    ``host``: the request's host and port as ``Guard`` checked them
    (``host_text``), never the raw header."""
    ws = f" ws://{host} wss://{host}" if host else ""
    return _Raw(
        {
            "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
            f"img-src 'self' data:; connect-src 'self'{ws}; object-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'",
            "Referrer-Policy": "no-referrer",
            "X-Frame-Options": "DENY",
            "X-Content-Type-Options": "nosniff",
        }
    )


class LoopPost:
    """Calls from the tables' threads into the event loop, coalesced: the
    frames a move sends to every connection of every table go in one wake-up
    of the loop (one ``call_soon_threadsafe``, one write to its self-pipe)
    instead of one each: at 50 tables those writes, each a handover of the
    interpreter's lock, were the server's largest cost per move (issue 49)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.calls: collections.deque[tuple[Callable[..., None], tuple[Any, ...]]] = collections.deque()
        self.lock = threading.Lock()
        self.scheduled = False

    def post(self, fn: Callable[..., None], *args: Any) -> None:
        """``fn(*args)`` soon, in the loop's thread (in the order posted)."""
        with self.lock:
            self.calls.append((fn, args))
            if self.scheduled:
                return
            self.scheduled = True
        try:
            self.loop.call_soon_threadsafe(self._drain)
        except RuntimeError:  # the loop is closing: nobody to send to
            with self.lock:
                self.scheduled = False
                self.calls.clear()

    def _drain(self) -> None:
        with self.lock:
            calls, self.calls = self.calls, collections.deque()
            self.scheduled = False
        for fn, args in calls:
            with contextlib.suppress(Exception):  # one connection's trouble is not the others'
                fn(*args)


_POSTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopPost] = weakref.WeakKeyDictionary()


def post_of(loop: asyncio.AbstractEventLoop) -> LoopPost:
    """The loop's ``LoopPost`` (made in the loop's thread, at a connection)."""
    found = _POSTS.get(loop)
    if found is None:
        found = _POSTS[loop] = LoopPost(loop)
    return found


class Outbox:
    """What waits to go to one connection, in its event loop: a state frame
    replaces one not sent yet (each is the whole state), so a slow reader
    never piles frames up; change frames (each builds on the one before)
    queue, and past ``MAX_CHANGES`` of them they are all dropped for one
    whole frame (``resync``: asked of the table when the sender gets there;
    changes that come meanwhile are dropped, the whole frame holds them);
    past ``MAX_PENDING`` messages the reader is dropped."""

    def __init__(self) -> None:
        self.items: collections.deque[tuple[str, str]] = collections.deque()
        self.ready = asyncio.Event()
        self.overflow = False
        self.changes = 0  # change frames waiting
        self.awaiting = False  # a whole frame is asked for: changes before it are dropped

    def put(self, kind: str, text: str) -> None:
        if kind == "change" and self.awaiting:
            return
        if kind == "state":
            self.awaiting = False
        if kind == "state" and self.items and self.items[-1][0] == "state":
            self.items[-1] = (kind, text)
        elif kind == "change" and self.changes >= MAX_CHANGES:
            kept = [i for i in self.items if i[0] not in ("state", "change")]
            self.items = collections.deque([*kept, (RESYNC, "")])
            self.changes = 0
            self.awaiting = True
        else:
            self.items.append((kind, text))
            self.changes += kind == "change"
            self.overflow = self.overflow or len(self.items) > MAX_PENDING
        self.ready.set()

    def want_whole(self) -> None:
        """The page asked for a whole frame (``resync``): one is asked of the
        table when the sender gets there, unless one is on its way already
        (a flood of them costs one frame per frame sent)."""
        if self.awaiting or any(kind == "state" for kind, _ in self.items):
            return
        kept = [i for i in self.items if i[0] not in ("state", "change")]
        self.items = collections.deque([*kept, (RESYNC, "")])
        self.changes = 0
        self.awaiting = True
        self.ready.set()

    def flooded(self) -> None:
        """The connection sent past its budget: nothing more but the error and the close."""
        self.items = collections.deque([(_FLOOD, "")])
        self.changes = 0
        self.overflow = False
        self.ready.set()

    async def get(self) -> tuple[str, str]:
        while not self.items:
            self.ready.clear()
            await self.ready.wait()
        if self.overflow:
            return ("slow", "")
        item = self.items.popleft()
        self.changes -= item[0] == "change"
        return item


@dataclass
class Doors:
    """What a server's websockets share: ``max_connections`` at once per
    client address (``open_from``: how many are open), each connection's
    message ``budget`` (so many at once, then so many a second), and the
    addresses closed for flooding (``flooded``: until when their websockets
    are refused)."""

    max_connections: int = MAX_CONNECTIONS_PER_CLIENT
    budget: tuple[float, float] = (MESSAGE_BURST, MESSAGE_RATE)
    open_from: collections.Counter[str] = field(default_factory=collections.Counter)
    flooded: dict[str, float] = field(default_factory=dict)


def create_app(
    lobby: Lobby,
    hosts: Iterable[str] = (),
    origins: Iterable[str] = (),
    max_connections: int = MAX_CONNECTIONS_PER_CLIENT,
    budget: tuple[float, float] = (MESSAGE_BURST, MESSAGE_RATE),
) -> ASGIApp:
    """The server's application over ``lobby`` (its tables), behind ``Guard``
    (``hosts``: its addresses besides loopback; ``origins``: ``--allow-origin``;
    ``max_connections``: websockets at once per client address; ``budget``:
    each connection's messages, so many at once then so many a second, past
    which it is closed with code ``FLOODED``). The handlers (``ROUTES``) find
    the lobby and the ``Doors`` in ``app.state``."""
    app = Starlette(routes=ROUTES, exception_handlers={404: missing})
    app.state.lobby = lobby
    app.state.doors = Doors(max_connections, budget)
    return Guard(app, hosts, origins)


def lobby_of(request: Request | WebSocket) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def base_of(request: Request) -> str:
    """The address a join link or QR code names: the server's public one
    (``lobby.public_base``: its network address with ``cardcore serve
    --lan``, its proxy's public origin with ``--trust-proxy``) for a page read
    on this machine or at that public name (a proxy may leave the port out
    of the ``Host``), else the address the page was read at (its scheme
    https when a trusted proxy says so)."""
    lobby = lobby_of(request)
    host = request.headers.get("host", "")
    if lobby.public_base and host_name(host) in (*LOOPBACK, urlsplit(lobby.public_base).hostname):
        return lobby.public_base
    return f"{request.url.scheme}://{host}"


def json_type(request: Request) -> bool:
    """The request's body is said to be JSON (a cross-site form cannot send it without the browser asking)."""
    return request.headers.get("content-type", "").split(";")[0].strip().lower() == "application/json"


async def lobby_page(request: Request) -> Response:
    return HTMLResponse(page("lobby.html"))


async def favicon(request: Request) -> Response:
    return RedirectResponse("/static/icon.svg")


async def catalog(request: Request) -> Response:
    return JSONResponse(lobby_of(request).catalog())


async def page_catalog(request: Request) -> Response:
    from cardcore.web import catalogs

    lang = catalogs.wanted(request.path_params["lang"], request.headers.get("accept-language"))
    if lang is None:
        return error_answer(T("no such language"), 404)
    data = await asyncio.to_thread(catalogs.page_catalog, lang)
    return JSONResponse(data, headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})


async def tables(request: Request) -> Response:
    """GET: the tables running; POST: open one."""
    lobby = lobby_of(request)
    if request.method == "GET":
        return JSONResponse({"tables": lobby.tables(), "base": base_of(request)})
    if not json_type(request):
        return error_answer(T("send the table as application/json"), 415)
    body = await request.body()
    if len(body) > MAX_BODY:
        return error_answer(T("the form is too large"), 413)
    client = request.client.host if request.client else "?"
    try:
        data = json.loads(body)
        session = await asyncio.to_thread(lobby.open_data, data, client)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return error_answer(T("expected a JSON object"), 400)
    except LimitError as err:
        return error_answer(error_text(err), 429)
    except CardcoreError as err:
        return error_answer(error_text(err), 400)
    # whoever made it may close it (the token is kept hashed)
    made = {**links(session), "owner": session.owner_token, "base": base_of(request)}
    seat = session.room.maker_seat
    if seat is not None and seat in session.links:  # he sits there: his own link, kept by his browser
        link = f"/seat/{session.links[seat]}"
        made["you"] = {"seat": seat, "name": session.table.names[seat], "link": link}
    return JSONResponse(made, status_code=201)


async def close_table(request: Request) -> Response:
    if not json_type(request):
        return JSONResponse({"error": 'send {"owner": TOKEN} as application/json'}, status_code=415)
    try:
        data = json.loads((await request.body())[:MAX_BODY])
        token = data["owner"] if isinstance(data, dict) else None
    except (ValueError, UnicodeDecodeError, RecursionError, KeyError):
        token = None
    if not isinstance(token, str):
        return error_answer(T("owner: the token given when the table was made"), 400)
    closed = await asyncio.to_thread(lobby_of(request).close_table, request.path_params["id"], token)
    if not closed:  # no such table, or not its maker: the same answer
        return error_answer(T("no table of yours with that id"), 404)
    return JSONResponse({"closed": request.path_params["id"]})


async def take_seat(request: Request) -> Response:
    if not json_type(request):
        return JSONResponse({"error": 'send {"name": NAME} as application/json'}, status_code=415)
    try:
        data = json.loads((await request.body())[:MAX_BODY])
        name = data.get("name") if isinstance(data, dict) else None
    except (ValueError, UnicodeDecodeError, RecursionError):
        return error_answer(T("expected a JSON object"), 400)
    said = request.path_params["seat"]
    seat = int(said) if said.isascii() and said.isdigit() and len(said) < 4 else said
    client = request.client.host if request.client else "?"
    table_id = request.path_params["id"]
    try:
        session, token = await asyncio.to_thread(lobby_of(request).take, table_id, seat, name, client)
    except NoSuchTable as err:
        return error_answer(error_text(err), 404)
    except SeatError as err:
        return error_answer(error_text(err), 409)
    except LimitError as err:
        return error_answer(error_text(err), 429)
    except CardcoreError as err:
        return error_answer(error_text(err), 400)
    answer = {
        "id": session.id,
        "name": session.name,
        "title": session.table.game.title,
        "seat": seat,
        "player": session.table.names[seat],
        "link": f"/seat/{token}",
    }
    return JSONResponse(answer, status_code=201)


async def join_data(request: Request) -> Response:
    lobby = lobby_of(request)
    session = lobby.by_code(request.path_params["code"])
    if session is None:
        return error_answer(T("no table with that code"), 404)
    found = lobby.describe(session)
    return JSONResponse({"table": found, "url": base_of(request) + found["join"]})


async def join_page(request: Request) -> Response:
    if lobby_of(request).by_code(request.path_params["code"]) is None:
        return not_found("table")
    return HTMLResponse(page("join.html"))


async def qr_code(request: Request) -> Response:
    lobby = lobby_of(request)
    session = lobby.sessions.get(request.path_params["id"])
    seating = lobby.seating.get(request.path_params["id"])
    if session is None or seating is None:
        return PlainTextResponse("no table with that id", status_code=404)
    svg = qr_svg(base_of(request) + f"/join/{seating.code}")
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


async def seat_page(request: Request) -> Response:
    found = lobby_of(request).find(request.path_params["token"])
    if found is None or found[1] is None:
        return not_found("seat")
    return HTMLResponse(page("table.html"))


async def watch_page(request: Request) -> Response:
    found = lobby_of(request).find(request.path_params["token"])
    if found is None or found[1] is not None:
        return not_found("table")
    return HTMLResponse(page("table.html"))


async def missing(request: Request, exc: Exception) -> Response:
    return not_found("page")


async def socket(ws: WebSocket) -> None:
    """``/ws/<token>``: refused while its address is flooded or holds too
    many connections, else the table's frames out and its messages in."""
    doors: Doors = ws.app.state.doors
    client = ws.client.host if ws.client else "?"
    if doors.flooded and doors.flooded.get(client, 0.0) > asyncio.get_running_loop().time():
        await ws.close(code=FLOODED)  # before the handshake (a 403): reconnecting at once costs nothing
        return
    await ws.accept()
    if doors.open_from[client] >= doors.max_connections:  # refused before the link is looked at
        error = T("too many connections from your address ({n} at most)", n=doors.max_connections)
        await ws.send_json({"type": "error", "error": error, "say": to_data(error), "fatal": True})
        await ws.close(code=CROWDED)
        return
    doors.open_from[client] += 1  # counted from here: connections opened meanwhile see it
    try:
        await _table_socket(ws, client, doors)
    finally:
        doors.open_from[client] -= 1


async def _table_socket(ws: WebSocket, client: str, doors: Doors) -> None:
    found = await asyncio.to_thread(lobby_of(ws).claim, ws.path_params["token"])  # the seat is his now
    if found is None:
        unknown = T("unknown link: no such seat or table")
        await ws.send_json({"type": "error", "error": unknown, "say": to_data(unknown), "fatal": True})
        await ws.close(code=4404)
        return
    session, seat = found
    post = post_of(asyncio.get_running_loop())
    out = Outbox()

    def push(text: str, kind: str = "state") -> None:
        post.post(out.put, kind, text)  # (coalesced with the other connections' frames)

    def refuse(error: str) -> None:
        # "say": the same text as data, said in the page's language (cardcore.i18n.to_data)
        out.put("error", json.dumps({"type": "error", "error": error, "say": to_data(error)}))

    # ?changes=1: the page patches change frames (docs/WEB.md); else whole frames only
    changes = ws.query_params.get("changes") == "1"
    sub = Subscriber(seat, push, kick=lambda: push("", _KICK), changes=changes)
    sub.client = client  # whose search CPU its hints spend
    session.connect(sub)
    sender = asyncio.create_task(_send(ws, out, lambda: session.resync(sub)))
    receiver = asyncio.create_task(_receive(ws, session, sub, refuse, out, doors.budget))
    try:
        done, _ = await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
        if receiver in done and receiver.result() == _FLOOD:  # the sender says so, then closes
            _flooded(doors.flooded, client)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(sender), SEND_TIMEOUT)
    finally:
        session.disconnect(sub)
        for task in (sender, receiver):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


def _flooded(flooded: dict[str, float], client: str) -> None:
    """``client`` flooded: its new websockets are refused for ``FLOOD_PENALTY`` seconds."""
    now = asyncio.get_running_loop().time()
    if len(flooded) > 4096:
        for gone in [a for a, until in flooded.items() if until <= now]:
            del flooded[gone]
    flooded[client] = now + FLOOD_PENALTY


ROUTES = [
    Route("/", lobby_page),
    Route("/favicon.ico", favicon),
    Route("/api/catalog", catalog),
    Route("/i18n/{lang}.json", page_catalog),
    Route("/api/tables", tables, methods=["GET", "POST"]),
    Route("/api/tables/{id}", close_table, methods=["DELETE"]),
    Route("/api/tables/{id}/seats/{seat}", take_seat, methods=["POST"]),
    Route("/api/tables/{id}/qr.svg", qr_code),
    Route("/api/join/{code}", join_data),
    Route("/join/{code}", join_page),
    Route("/seat/{token}", seat_page),
    Route("/watch/{token}", watch_page),
    WebSocketRoute("/ws/{token}", socket),
    Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
]


def error_text(err: Exception) -> str:
    """An error's text: the ``Text`` it carries (said in each page's language), else its line."""
    first = err.args[0] if err.args else None
    return first if isinstance(first, Text) else one_line(str(err))


def error_answer(error: str, status: int) -> JSONResponse:
    """``{"error": TEXT, "say": DATA}``: the English line, and the same as data
    (``cardcore.i18n.to_data``) that the page says in its language."""
    return JSONResponse({"error": error, "say": to_data(error)}, status_code=status)


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as SVG (``segno``: pure Python, made here, nothing fetched)."""
    import io

    import segno

    qr = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=4, border=2, xmldecl=False, title="QR code: " + url, nl=False)
    return out.getvalue().decode("utf-8")


def answer(
    session: Any, seat: int | None, text: str, sub: Subscriber | None = None, out: Outbox | None = None
) -> str | None:
    """A message's text → None (taken) or the error to send back.
    ``{"type": "resync"}`` (any link) asks for a whole frame next: the
    connection's outbox is marked (``Outbox.want_whole``), and its sender asks
    the table for one frame of its own kind when it gets there."""
    return _answer(session, seat, text, sub, out)[0]


def _answer(
    session: Any, seat: int | None, text: str, sub: Subscriber | None, out: Outbox | None
) -> tuple[str | None, bool]:
    """``answer``, and whether the message played a move (taken: the game
    paces those, one per decision, so they cost nothing of the budget)."""
    if len(text) > MAX_MESSAGE:
        return T("message too long ({n} characters)", n=len(text)), False
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: an array nested thousands deep
        return T("not JSON: {text}", text=one_line(text, 40)), False
    if sub is not None and isinstance(message, dict) and message.get("type") == "resync":
        if out is not None:
            out.want_whole()
        else:
            session.resync(sub)
        return None, False
    result: str | None = session.submit(seat, message, client=getattr(sub, "client", None))
    return result, result is None and isinstance(message, dict) and message.get("type") == "move"


async def _receive(
    ws: WebSocket,
    session: Any,
    sub: Subscriber,
    refuse: Any,
    out: Outbox | None = None,
    budget: tuple[float, float] = (MESSAGE_BURST, MESSAGE_RATE),
) -> str | None:
    """A connection's messages, each answered (an error when refused). Each
    message spends one of the connection's budget (``Bucket``: ``budget[0]``
    at once, then ``budget[1]`` a second; a move taken is given back: the
    game paces those); past it, ``_FLOOD``: the connection is closed (code
    ``FLOODED``) and nothing more is read."""
    bucket = Bucket(*budget)
    with contextlib.suppress(Exception):  # the connection broke: the seat waits for him to come back
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return None
            if not bucket.take():
                if out is not None:
                    out.flooded()
                return _FLOOD
            text = message.get("text")
            if text is None:
                refuse(T("send text: a JSON object"))
                continue
            error, played = _answer(session, sub.seat, text, sub, out)
            if played:
                bucket.give_back()
            if error:
                refuse(error)
    return None


async def _send(ws: WebSocket, out: Outbox, resync: Any) -> None:
    """A connection's frames, in order; a reader too slow (``MAX_PENDING``
    waiting, or one message not taken in ``SEND_TIMEOUT``) is closed with code
    ``SLOW``: his page reconnects and gets the whole state. Past
    ``MAX_CHANGES`` change frames waiting, ``resync()`` asks the table for a
    whole one instead."""
    with contextlib.suppress(Exception):
        while True:
            kind, text = await out.get()
            if kind == RESYNC:
                resync()
                continue
            if kind == _KICK:
                error = T("this seat was opened in another window")
                await ws.send_json({"type": "error", "error": error, "say": to_data(error), "fatal": True})
                await ws.close(code=4001)
                return
            if kind == _FLOOD:
                error = T("too many messages from this page: the connection is closed (reload the page)")
                message = {"type": "error", "error": error, "say": to_data(error), "fatal": True}
                await asyncio.wait_for(ws.send_json(message), SEND_TIMEOUT)
                await asyncio.wait_for(ws.close(code=FLOODED), SEND_TIMEOUT)
                return
            if kind == "slow":
                break
            try:
                await asyncio.wait_for(ws.send_text(text), SEND_TIMEOUT)
            except TimeoutError:
                break
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(code=SLOW, reason="too slow: reconnect for the whole state"), 1.0)


def links(session: Any) -> dict[str, Any]:
    """A new table's links: one secret link per person's seat, and the spectators'."""
    return {
        "id": session.id,
        "name": session.name,
        "game": session.table.game.name,
        "title": session.table.game.title,
        "code": session._info.get("code", ""),
        "join": session._info.get("join", ""),
        "name_say": to_data(session.name),  # "Ana's Carrousel", said in each page's language
        "seats": [
            {"seat": seat, "name": session.shown_name(seat), "link": f"/seat/{token}"}
            for seat, token in session.links.items()
        ],
        "watch": f"/watch/{session.watch_link}",
    }
