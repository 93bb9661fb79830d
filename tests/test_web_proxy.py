"""Friends over the internet (docs/WEB.md): ``cardcore serve`` behind a real
nginx (Debian's package: `apt-get install -y --no-upgrade nginx`) speaking
TLS with a certificate of the test's own authority (``trustme``), all on
loopback. nginx runs the recipe of docs/WEB.md as it is written there (its
ports, name and certificate files swapped for the test's), unprivileged, in
one process, with its files in a temporary folder. Chromium trusts the
test's authority through an NSS database in a temporary HOME (``certutil``,
Debian's libnss3-tools; without it, the leaf's key alone is let through by
its SPKI hash), opens a seat's printed link over ``https://`` and plays a
deal over ``wss://``, moves sent on the page's own websocket. Around it:
the links name the public origin; the lobby's limits count the client nginx
saw, not a forwarded header a client sent, nor one sent straight to the
server by a peer that is not the proxy; an origin not allowed is refused
through the proxy, the websocket too."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

browser = pytest.mark.browser  # the tests through nginx; the others need neither it nor Chromium
REQUIRED = bool(os.environ.get("CARDCORE_REQUIRE_BROWSER"))  # .ci/run installs both: absent is a failure
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CERTUTIL = shutil.which("certutil")
httpx = pytest.importorskip("httpx2")
from websockets.exceptions import InvalidStatus  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

ROOT = Path(__file__).parent.parent
PUBLIC = "cards.example.test"  # the public name (.test: reserved, never a real one)
PROXY = "127.0.0.1"  # where nginx connects from: --trust-proxy
FRIEND = "127.0.0.5"  # a friend's address, as nginx sees it (loopback is all of 127/8)
STRANGER = "127.0.0.3"  # a peer that talks to the server straight, not through the proxy
WAIT = 60  # seconds: a step that takes longer fails rather than hangs
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    f"--host-resolver-rules=MAP {PUBLIC} 127.0.0.1",  # the public name, on loopback; nothing resolved
]


def needed() -> tuple[Any, Any]:
    """Chromium, nginx, and Playwright and trustme (their modules), else the
    test skipped (failed where .ci/run installed them: CARDCORE_REQUIRE_BROWSER)."""
    for path, package in ((CHROMIUM, "chromium"), (NGINX, "nginx")):
        if not Path(path).exists():
            if REQUIRED:
                pytest.fail(f"no {package}, and CARDCORE_REQUIRE_BROWSER is set")
            pytest.skip(f"no {package}: apt-get install -y --no-upgrade {package}")
    sync_api = pytest.importorskip("playwright.sync_api", reason="no Playwright (pip install playwright)")
    trustme = pytest.importorskip("trustme", reason="no trustme (pip install -e '.[test]')")
    return sync_api, trustme


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_listening(port: int, proc: subprocess.Popen[Any], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while True:
        assert proc.poll() is None, f"{what} stopped: {proc.returncode}"
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        assert time.monotonic() < deadline, f"{what} never listened on {port}"
        time.sleep(0.05)


def recipe(public_port: int, redirect_port: int, app_port: int, cert: Path, key: Path) -> str:
    """The nginx recipe of docs/WEB.md, its ports, name and certificate the test's."""
    text = (ROOT / "docs" / "WEB.md").read_text(encoding="utf-8")
    block = text.split("## Friends over the internet", 1)[1].split("```nginx\n", 1)[1].split("```", 1)[0]
    swaps = [
        ("listen 443 ssl;", f"listen 127.0.0.1:{public_port} ssl;"),
        ("listen 80;", f"listen 127.0.0.1:{redirect_port};"),
        ("http://127.0.0.1:8000;", f"http://127.0.0.1:{app_port};"),
        ("/etc/letsencrypt/live/cards.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/cards.example.org/privkey.pem", str(key)),
        ("cards.example.org", PUBLIC),
    ]
    for old, new in swaps:
        assert old in block, f"docs/WEB.md's nginx block has no {old!r}"
        block = block.replace(old, new)
    return block


@contextlib.contextmanager
def running(args: list[str], **kwargs: Any) -> Iterator[subprocess.Popen[Any]]:
    """A process, stopped at the end (SIGINT then SIGTERM, each waited for;
    killed last); what it wrote afterwards is in its ``said`` (stdout, stderr)."""
    proc = subprocess.Popen(args, **kwargs)
    try:
        yield proc
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
            if proc.poll() is not None:
                break
            proc.send_signal(sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.said = proc.communicate(timeout=15)  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """`cardcore serve` behind nginx: its printed lines, ports and files, and the test's authority."""
    sync_api, trustme = needed()
    tmp = tmp_path_factory.mktemp("proxy")
    ca = trustme.CA()
    leaf = ca.issue_cert(PUBLIC)
    cert, key, ca_pem = tmp / "cert.pem", tmp / "key.pem", tmp / "ca.pem"
    leaf.private_key_pem.write_to_path(str(key))
    cert.write_bytes(b"".join(pem.bytes() for pem in leaf.cert_chain_pems))
    ca.cert_pem.write_to_path(str(ca_pem))
    app_port, public_port, redirect_port = free_port(), free_port(), free_port()
    origin = f"https://{PUBLIC}:{public_port}"
    conf = tmp / "nginx.conf"
    temp = "\n".join(
        f"    {k}_temp_path {tmp}/{k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf.write_text(
        f"daemon off;\nmaster_process off;\npid {tmp}/nginx.pid;\nerror_log {tmp}/error.log warn;\n"
        f"events {{ worker_connections 64; }}\n"
        f"http {{\n    access_log {tmp}/access.log;\n{temp}\n"
        f"{recipe(public_port, redirect_port, app_port, cert, key)}\n}}\n",
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    serve = [
        sys.executable, "-m", "cardcore.cli", "serve", "carrousel", "--players", "2", "--option", "target=15",
        "--port", str(app_port), "--allow-origin", origin, "--trust-proxy", PROXY,
        "--log-dir", str(tmp / "logs"), "--state", str(tmp / "tables.db"), "--bot-delay", "0",
        "--config", str(ROOT / "games.yaml"),
    ]  # fmt: skip
    with (
        running(serve, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp) as app,
        running(
            [NGINX, "-p", str(tmp), "-e", str(tmp / "error.log"), "-c", str(conf)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp,
        ) as proxy,
    ):  # fmt: skip
        lines: list[str] = []
        while not lines or not lines[-1].startswith("Lobby:"):
            line = app.stdout.readline() if app.stdout else ""
            assert line, app.stderr.read() if app.stderr else "cardcore serve stopped"
            lines.append(line.strip())
        wait_listening(public_port, proxy, "nginx")
        yield {
            "lines": lines, "origin": origin, "app_port": app_port, "public_port": public_port,
            "sync_api": sync_api, "ca_pem": ca_pem, "leaf": leaf, "tmp": tmp, "state": tmp / "tables.db",
        }  # fmt: skip
        assert proxy.poll() is None, (tmp / "error.log").read_text()
    out, err = getattr(app, "said", ("", ""))
    assert app.returncode == 0 and "Traceback" not in err and "Server stopped" in out, err


class PublicName(httpx.HTTPTransport):  # type: ignore[misc,name-defined]
    """Connects to loopback, and asks for the public name in TLS (SNI; the certificate checked against it)."""

    def handle_request(self, request: Any) -> Any:
        request.extensions["sni_hostname"] = PUBLIC
        return super().handle_request(request)


def through_proxy(site: dict[str, Any], source: str = FRIEND) -> Any:
    """An HTTPS client of the public origin from ``source``: it connects to
    nginx on loopback and asks for the public name (SNI, Host), checking the
    certificate against the test's authority."""
    context = ssl.create_default_context(cafile=str(site["ca_pem"]))
    return httpx.Client(
        base_url=f"https://127.0.0.1:{site['public_port']}",
        headers={"host": f"{PUBLIC}:{site['public_port']}"},
        transport=PublicName(verify=context, local_address=source),
        trust_env=False,
        timeout=WAIT,
    )


def straight(site: dict[str, Any], source: str = STRANGER) -> Any:
    """A plain-HTTP client of the server itself, from ``source``: not the proxy."""
    transport = httpx.HTTPTransport(local_address=source)
    return httpx.Client(
        base_url=f"http://127.0.0.1:{site['app_port']}", transport=transport, trust_env=False, timeout=WAIT
    )


def printed_table(site: dict[str, Any], http: Any) -> dict[str, Any]:
    """The table ``cardcore serve`` opened (its printed watch link's), as the lobby lists it."""
    watch = next(ln.split()[-1] for ln in site["lines"] if ln.startswith("watch:"))
    tables = http.get("/api/tables").json()["tables"]
    found: dict[str, Any] = next(t for t in tables if watch.endswith(f"/watch/{t['watch']}"))
    return found


def maker_of(site: dict[str, Any], table_id: str) -> str | None:
    """The address the lobby counted a table against, as the server's store keeps it."""
    db = sqlite3.connect(f"file:{site['state']}?mode=ro", uri=True, timeout=WAIT)
    try:
        (data,) = db.execute("SELECT data FROM tables WHERE id = ?", (table_id,)).fetchone()
        maker: str | None = json.loads(data)["client"]
        return maker
    finally:
        db.close()


def journal_length(site: dict[str, Any], table_id: str) -> int:
    db = sqlite3.connect(f"file:{site['state']}?mode=ro", uri=True, timeout=WAIT)
    try:
        return int(db.execute("SELECT COUNT(*) FROM journal WHERE table_id = ?", (table_id,)).fetchone()[0])
    finally:
        db.close()


@contextlib.contextmanager
def chromium(site: dict[str, Any]) -> Iterator[Any]:
    """Chromium with a HOME of its own whose NSS database trusts the test's
    authority (or, without certutil, the leaf's key by its SPKI hash)."""
    home = site["tmp"] / "home"
    args = list(ARGS)
    if CERTUTIL:
        db = f"sql:{home / '.pki' / 'nssdb'}"
        (home / ".pki" / "nssdb").mkdir(parents=True, exist_ok=True)
        subprocess.run([CERTUTIL, "-d", db, "-N", "--empty-password"], check=True, timeout=WAIT)
        subprocess.run(
            [CERTUTIL, "-d", db, "-A", "-t", "C,,", "-n", "cardcore test CA", "-i", str(site["ca_pem"])],
            check=True,
            timeout=WAIT,
        )
    else:
        from cryptography import x509
        from cryptography.hazmat.primitives import serialization

        leaf = x509.load_pem_x509_certificate(site["leaf"].cert_chain_pems[0].bytes())
        spki = leaf.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        args.append(
            "--ignore-certificate-errors-spki-list="
            + base64.b64encode(hashlib.sha256(spki).digest()).decode()
        )
    with site["sync_api"].sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=args, env={**os.environ, "HOME": str(home)}
        )
        try:
            yield browser
        finally:
            browser.close()


@browser
def test_the_links_name_the_public_origin(site):
    """The printed links, the lobby's base, the join link and its QR code:
    https and the public name, whether read through the proxy or on this machine."""
    origin = site["origin"]
    seats = [ln.split()[-1] for ln in site["lines"] if "(seat " in ln]
    assert len(seats) == 1 and seats[0].startswith(f"{origin}/seat/"), site["lines"]
    assert site["lines"][-1].split()[1] == f"{origin}/", site["lines"]
    with through_proxy(site) as http:
        assert http.get("/api/tables").json()["base"] == origin
        table = printed_table(site, http)
        code = table["code"]
        assert http.get(f"/api/join/{code}").json()["url"] == f"{origin}/join/{code}"
        assert f"QR code: {origin}/join/{code}" in http.get(f"/api/tables/{table['id']}/qr.svg").text
    with straight(site, "127.0.0.1") as here:  # the host's own page, on this machine
        assert here.get("/api/tables").json()["base"] == origin


@browser
def test_a_deal_is_played_in_chromium_over_wss_through_nginx(site):
    origin = site["origin"]
    seat = next(ln.split()[-1] for ln in site["lines"] if "(seat 0)" in ln)
    with through_proxy(site) as http:
        table = printed_table(site, http)
    before = journal_length(site, table["id"])
    with chromium(site) as browser:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        sockets: list[str] = []
        received: list[dict[str, Any]] = []

        def on_socket(ws: Any) -> None:
            sockets.append(ws.url)
            ws.on("framereceived", lambda payload: received.append(json.loads(payload)))

        page.on("websocket", on_socket)
        answer = page.goto(seat)
        assert answer is not None and answer.ok and answer.url.startswith(f"{origin}/seat/")
        security = answer.security_details()  # the test's authority trusted: no certificate error ignored
        assert security is not None and security.get("protocol", "").startswith("TLS"), security
        page.wait_for_function("() => typeof frame !== 'undefined' && frame !== null", timeout=WAIT * 1000)
        # moves go out on the page's own websocket (not by tapping: how a tap plays is the page's to change)
        rng = random.Random(48)
        played, last = 0, None
        deadline = time.monotonic() + 3 * WAIT
        while True:
            assert time.monotonic() < deadline, f"the deal did not end ({played} moves sent)"
            st = page.evaluate(
                """() => ({phase: frame.status.phase, decision: frame.decision, moves: frame.moves.length,
                           open: ws !== null && ws.readyState === WebSocket.OPEN})"""
            )
            if st["phase"] in ("deal_over", "match_over"):
                break
            if st["moves"] and st["open"] and st["decision"] != last:
                page.evaluate(
                    """(k) => ws.send(JSON.stringify({type: "move", decision: frame.decision,
                                                      index: frame.moves[k % frame.moves.length].index}))""",
                    rng.randrange(1000),
                )
                played, last = played + 1, st["decision"]
            time.sleep(0.02)
        assert played >= 5, played
        assert sockets and all(url.startswith(f"wss://{PUBLIC}:{site['public_port']}/ws/") for url in sockets)
        assert not [m for m in received if m.get("type") == "error"], received
        assert errors == []
        page.close()
    assert journal_length(site, table["id"]) >= before + played  # each move sent, in the server's store


@browser
def test_the_limits_count_the_client_nginx_saw_never_a_forwarded_header(site):
    """Through the proxy the lobby counts the friend's address (not the
    proxy's, not the one his request claimed); straight to the server, a
    forwarded header from a peer that is not the proxy changes nothing."""
    form = {"game": "carrousel", "players": [{"kind": "human"}, {"kind": "human"}]}  # nobody moves
    spoofed = {"x-forwarded-for": "203.0.113.7", "x-forwarded-proto": "https"}
    with through_proxy(site, FRIEND) as http:
        made = http.post("/api/tables", json=form, headers=spoofed)
        assert made.status_code == 201, made.text
        assert made.json()["base"] == site["origin"]
        assert maker_of(site, made.json()["id"]) == FRIEND
    with straight(site, STRANGER) as http:
        made = http.post("/api/tables", json=form, headers=spoofed)
        assert made.status_code == 201, made.text
        assert maker_of(site, made.json()["id"]) == STRANGER


@browser
def test_an_origin_not_allowed_is_refused_through_the_proxy(site):
    origin, port = site["origin"], site["public_port"]
    with through_proxy(site) as http:
        assert http.get("/api/tables", headers={"origin": origin}).status_code == 200
        refused = http.get("/api/tables", headers={"origin": "https://evil.example"})
        assert refused.status_code == 403 and "not allowed" in refused.text
        assert http.get("/", headers={"origin": f"http://{PUBLIC}:{port}"}).status_code == 403  # not https
        watch = printed_table(site, http)["watch"]
    context = ssl.create_default_context(cafile=str(site["ca_pem"]))
    url = f"wss://{PUBLIC}:{port}/ws/{watch}"

    def door(origin: str) -> Any:
        sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        return connect(url, sock=sock, ssl=context, server_hostname=PUBLIC, origin=origin, proxy=None)

    with door(origin) as ws:  # the spectators' websocket, through the proxy, from the allowed origin
        assert json.loads(ws.recv(timeout=WAIT))["type"] == "state"
    with pytest.raises(InvalidStatus) as refused_ws:
        door("https://evil.example")
    assert refused_ws.value.response.status_code == 403


def test_by_default_no_forwarded_header_is_believed(tmp_path):
    """Without --trust-proxy not even loopback's (uvicorn's own default believes it)."""
    port = free_port()
    serve = [
        sys.executable, "-m", "cardcore.cli", "serve", "--port", str(port),
        "--log-dir", str(tmp_path / "logs"), "--config", str(ROOT / "games.yaml"),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "FORWARDED_ALLOW_IPS": "*"}  # uvicorn's: ignored
    with running(
        serve, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path
    ) as app:
        line = app.stdout.readline() if app.stdout else ""
        assert line.startswith("Lobby: http://127.0.0.1:"), line
        site = {"app_port": port, "state": tmp_path / "logs" / "tables.db"}
        form = {"game": "carrousel", "players": [{"kind": "human"}, {"kind": "human"}]}
        spoofed = {"x-forwarded-for": "203.0.113.7", "x-forwarded-proto": "https"}
        for source in ("127.0.0.1", STRANGER):
            with straight(site, source) as http:
                made = http.post("/api/tables", json=form, headers=spoofed)
                assert made.status_code == 201, made.text
                assert made.json()["base"] == f"http://127.0.0.1:{port}"
                assert maker_of(site, made.json()["id"]) == source


def test_serve_refuses_a_trust_proxy_that_is_no_address(tmp_path):
    from conftest import run_cli

    for bad in ("*", "proxy.lan", "10.0.0.0/33"):
        code, out = run_cli("serve", "--trust-proxy", bad, "--log-dir", str(tmp_path))
        assert code == 2 and "--trust-proxy" in out and len(out.strip().splitlines()) == 1, (bad, out)


def test_behind_the_proxy_the_public_name_passes_the_guard_and_names_the_links(tmp_path, registry):
    """Over TLS (the scheme a trusted proxy says), the Host the proxy passes
    on (the public name, its port left out or not) and the public origin
    pass, its http:// twin does not; the links name the public origin for a
    page read there or on this machine, another allowed name its own."""
    from starlette.testclient import TestClient

    from cardcore.web.app import create_app
    from cardcore.web.lobby import Lobby

    lobby = Lobby(registry, None, tmp_path / "logs")
    public = "https://cards.example.org"
    lobby.public_base = public  # what serve --trust-proxy sets: the first --allow-origin
    app = create_app(lobby, hosts=["127.0.0.1"], origins=[public, "http://friends.lan:8000"])
    try:
        with TestClient(app, base_url=public) as https:  # as the proxy's X-Forwarded-Proto makes it
            here = {"host": "127.0.0.1:8000"}  # the host's own page, on this machine
            for headers in ({"origin": public}, {"host": "cards.example.org:443"}, here):
                listed = https.get("/api/tables", headers=headers)
                assert listed.status_code == 200 and listed.json()["base"] == public, headers
            for origin in (
                "http://cards.example.org",
                "https://cards.example.org:8443",
                "https://evil.example",
            ):
                refused = https.get("/api/tables", headers={"origin": origin})
                assert refused.status_code == 403 and "not allowed" in refused.text, origin
        with TestClient(app, base_url="http://friends.lan:8000") as http:  # plain HTTP, as before
            listed = http.get("/api/tables", headers={"origin": "http://friends.lan:8000"})
            assert listed.status_code == 200 and listed.json()["base"] == "http://friends.lan:8000"
            assert http.get("/api/tables", headers={"host": "127.0.0.1:8000"}).json()["base"] == public
    finally:
        lobby.close()
