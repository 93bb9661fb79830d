"""The browser table in a real browser: Playwright driving Debian's Chromium
(`apt-get install -y --no-upgrade chromium`; Playwright cannot download its
own browser here). Two pages, one per person, play a whole match of each
game against each other and two bots by clicking (a card, then one of its
moves; "Next deal"); every websocket frame each page received is checked
for hidden cards; screenshots of each table, on a desktop and on a phone,
go to ``$CARDCORE_SHOTS`` (default: the test's temporary folder)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import GAMES, largest_table
from webcheck import AuditedSession, whole_frames

from cardcore.config import TableConfig
from cardcore.log import replay
from cardcore.web.app import create_app
from cardcore.web.lobby import Lobby

pytestmark = pytest.mark.browser
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    if os.environ.get("CARDCORE_REQUIRE_BROWSER"):  # .ci/run installs it: its absence is a failure there
        raise RuntimeError("no Chromium, and CARDCORE_REQUIRE_BROWSER is set")
    pytest.skip("no Chromium: apt-get install -y --no-upgrade chromium", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="no Playwright (pip install playwright)")
uvicorn = pytest.importorskip("uvicorn")
ROOT = Path(__file__).parent.parent
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# a whole match of every installed game (these three with short targets)
SHORT = {"carrousel": {"target": 15}, "canasta": {"target": 50}, "paquet_voleur": {"partnerships": True}}
MATCHES = [(g, SHORT.get(g, largest_table(g)[1])) for g in GAMES]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: Any, registry: Any) -> Any:
    """A real server on a free port of 127.0.0.1, in a thread."""
    lobby = Lobby(registry, ROOT / "games.yaml", tmp_path_factory.mktemp("logs"), bot_delay=0.0)
    lobby.session_class = AuditedSession
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(create_app(lobby), log_level="warning", lifespan="off", ws_max_size=65536)
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield lobby, f"http://127.0.0.1:{sock.getsockname()[1]}"
    srv.should_exit = True
    thread.join(10)
    lobby.close()


@pytest.fixture(scope="module")
def browser() -> Any:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def shots() -> Path:
    where = Path(os.environ.get("CARDCORE_SHOTS") or ROOT / ".screenshots")
    where.mkdir(parents=True, exist_ok=True)
    return where


def watch_frames(page: Any, into: list[dict[str, Any]]) -> None:
    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: into.append(json.loads(payload)))

    page.on("websocket", on_socket)


def state_of(page: Any) -> dict[str, Any] | None:
    result: dict[str, Any] | None = page.evaluate(
        """() => typeof frame === "undefined" || !frame ? null : {
            phase: frame.status.phase, decision: frame.decision, moves: frame.moves.length,
            winners: frame.status.winners, ready: frame.status.ready, you: frame.you,
            deal: frame.status.deal}"""
    )
    return result


def play_by_clicking(pages: list[Any], rng: random.Random, on_step: Any, timeout: float = 300) -> int:
    """Click through a whole match on every page; the clicks made."""
    clicked: dict[int, Any] = {}
    clicks = 0
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the match did not end in time"
        done = 0
        for i, page in enumerate(pages):
            st = state_of(page)
            if st is None:
                continue
            assert st["phase"] != "error"
            if st["phase"] == "match_over" and st["winners"]:
                done += 1
                continue
            with contextlib.suppress(sync_api.Error):
                if st["phase"] == "deal_over" and st["you"] not in st["ready"]:
                    page.click("#next-deal:not([disabled])", timeout=2000)
                    clicks += 1
                elif st["moves"] and clicked.get(i) != (st["deal"], st["decision"]):
                    cards = page.locator("#hand .card.playable")
                    if cards.count() and rng.random() < 0.7:
                        cards.nth(rng.randrange(cards.count())).click(timeout=2000)
                    buttons = page.locator("#moves button.move:not([disabled])")
                    if buttons.count():
                        on_step(i, page, clicks)
                        buttons.nth(rng.randrange(buttons.count())).click(timeout=2000)
                        clicked[i] = (st["deal"], st["decision"])
                        clicks += 1
        if done == len(pages):
            return clicks
        time.sleep(0.01)


@pytest.mark.parametrize("game,options", MATCHES, ids=[m[0] for m in MATCHES])
def test_two_pages_play_a_whole_match(server, browser, registry, game, options):
    lobby, base = server
    players = [{"kind": k} for k in ("human", "human", "greedy", "greedy")]
    cfg = TableConfig.model_validate({"game": game, "options": options, "players": players})
    session = lobby.open(cfg, game, seed=11)
    frames: list[list[dict[str, Any]]] = [[], []]
    pages = []
    for i, (seat, size) in enumerate(zip(session.people, (DESKTOP, PHONE), strict=True)):
        page = browser.new_page(viewport=size)
        errors: list[str] = []
        page.on("pageerror", lambda err, errors=errors: errors.append(str(err)))
        watch_frames(page, frames[i])
        page.goto(f"{base}/seat/{session.links[seat]}")
        page.errors = errors
        pages.append(page)
    taken = set()

    def on_step(i: int, page: Any, clicks: int) -> None:
        if clicks >= 6 and i not in taken:  # a few moves in: the table as a person sees it
            taken.add(i)
            if i == 0:  # with a hint asked (the search bot's move outlined)
                page.click("#hint")
                page.wait_for_selector("#hint-text", timeout=60_000)
            where = shots() / f"{game}-{'desktop' if i == 0 else 'phone'}.png"
            page.screenshot(path=str(where), full_page=True)

    clicks = play_by_clicking(pages, random.Random(3), on_step)
    assert clicks > 5
    for page in pages:
        page.screenshot(path=str(shots() / f"{game}-{'desktop' if page is pages[0] else 'phone'}-end.png"))
        assert page.locator("#new-match").is_visible()
        assert page.errors == []
    for received in frames:
        states = whole_frames(received)  # the page asks for change frames: rebuilt as it does
        assert states and states[-1]["status"]["winners"]
        for f in states:
            session.checker.check(f)
    session.stop()
    summary = replay(session.log_path, registry)
    assert summary.complete and summary.matches_ended == 1


def test_the_lobby_opens_a_table_in_the_browser(server, browser):
    _, base = server
    page = browser.new_page(viewport=DESKTOP)
    page.goto(base + "/")
    page.select_option("#game", "carrousel")
    page.select_option("#players", "2")
    page.fill("#name", "duel")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#links li a")
    link = page.locator("#links li a").first.get_attribute("href")
    assert link and link.startswith("/seat/")
    page.screenshot(path=str(shots() / "lobby.png"), full_page=True)
    page.goto(base + link)
    page.wait_for_selector("#moves button.move, #status")
    assert "Carrousel" in page.locator("#title").inner_text()
    bad = browser.new_page()
    assert bad.goto(base + "/seat/not-a-token").status == 404
