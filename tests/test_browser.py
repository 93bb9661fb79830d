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
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
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
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: Any, registry: Any) -> Any:
    """A real server on a free port of 127.0.0.1, in a thread."""
    with served(tmp_path_factory, registry) as running:
        yield running


@contextlib.contextmanager
def served(tmp_path_factory: Any, registry: Any) -> Iterator[tuple[Lobby, str]]:
    """A lobby served by uvicorn on a free port of 127.0.0.1, in a thread: (lobby, its address)."""
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


ON_SCREEN = """() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    return { w: window.innerWidth, h: window.innerHeight,
        parts: [...document.querySelectorAll("#hand, #moves, #hand .card, #moves button")].map(
            (e) => [e.id || e.className, ...box(e)]) };
}"""


def assert_on_screen(page: Any) -> None:
    """At a decision the hand and the move bar are whole on screen, no scrolling."""
    seen = page.evaluate(ON_SCREEN)
    for what, left, top, right, bottom in seen["parts"]:
        assert left >= -0.5 and top >= -0.5, f"{what} starts off screen: {left, top}"
        assert right <= seen["w"] + 0.5 and bottom <= seen["h"] + 0.5, (
            f"{what} ends off the {seen['w']}x{seen['h']} screen: {right, bottom}"
        )


def sent_move(page: Any) -> bool:
    return bool(page.evaluate("() => sent"))


def moves_sent(page: Any) -> int:
    return int(page.evaluate("() => movesSent"))


EDGE = {"x": 5, "y": 12}  # a card's corner the next card of the fan leaves uncovered


def decide(page: Any, rng: random.Random, touch: bool, drag_more: bool = False) -> str:
    """One decision as a person makes it: a card tapped (it is picked and its
    moves shown: a tap plays nothing) then one of its moves, or a card dragged
    onto the pile, a meld or the table, or a move tapped (``drag_more``: drags
    tried more often, none having played yet). Returns how ("tap", "drag",
    "button") or "" if nothing went."""
    assert_on_screen(page)
    tap = (
        (lambda loc, **at: loc.tap(timeout=2000, **at))
        if touch
        else (lambda loc, **at: loc.click(timeout=2000, **at))
    )
    cards = page.locator("#hand .card.playable")
    before = moves_sent(page)
    how = ""
    r = rng.random()
    if cards.count() and (r < 0.3 or (drag_more and r < 0.6)) and page.locator(".drop-target").count():
        card = cards.nth(rng.randrange(cards.count()))
        targets = page.locator(".drop-target")
        card.drag_to(targets.nth(rng.randrange(targets.count())), timeout=3000, source_position=EDGE)
        how = "drag"
    elif cards.count() and r < 0.75:
        tap(cards.nth(rng.randrange(cards.count())), position=EDGE)
        assert moves_sent(page) == before, "a tap on a card played a move"
        how = "tap"
    if moves_sent(page) > before:
        return how
    buttons = page.locator("#moves button.move:not([disabled])")
    if buttons.count():
        tap(buttons.nth(rng.randrange(buttons.count())))
        if moves_sent(page) == before:
            return ""
        return "tap" if how == "tap" else "button"  # a card picked, then its move; or a move alone
    return ""


def play_by_clicking(
    pages: list[Any], rng: random.Random, on_step: Any, timeout: float = 300, touch: tuple[bool, ...] = ()
) -> dict[str, int]:
    """Tap, click and drag through a whole match on every page; how many
    decisions were made each way."""
    clicked: dict[int, Any] = {}
    counts = {"tap": 0, "drag": 0, "button": 0, "next": 0}
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
                    counts["next"] += 1
                elif st["moves"] and clicked.get(i) != (st["deal"], st["decision"]) and not sent_move(page):
                    on_step(i, page, sum(counts.values()))
                    how = decide(page, rng, bool(touch[i]) if i < len(touch) else False, not counts["drag"])
                    if how:
                        clicked[i] = (st["deal"], st["decision"])
                        counts[how] += 1
        if done == len(pages):
            return counts
        time.sleep(0.01)


def why_not_on(page: Any) -> str | None:
    """Tap a card of the hand that plays no move: the page's *why not?*
    answer, or None when every card plays."""
    idle = page.locator("#hand .card.idle")
    if not idle.count():
        return None
    card = idle.first.get_attribute("data-card")
    idle.first.click(timeout=2000)
    page.wait_for_selector("#why-text", timeout=20_000)
    shown = page.locator("#why-text").inner_text()
    answer = page.evaluate("() => frame.why")
    assert answer["card"] == card and answer["rule"], answer
    assert shown.startswith("Why not"), shown
    plain_words = [w for w in answer["text"].split() if not any(ch.isdigit() for ch in w) and w.isalpha()]
    assert plain_words and all(w in shown for w in plain_words), (shown, answer["text"])  # cards drawn apart
    return str(answer["rule"])


@pytest.mark.parametrize("game,options", MATCHES, ids=[m[0] for m in MATCHES])
def test_two_pages_play_a_whole_match(server, browser, registry, game, options):
    """Two people (one on a desktop with a mouse, one on a phone by touch) and
    two bots play a whole match; at every decision the hand and the move bar
    are on screen; a card that plays nothing gets its *why not?*."""
    lobby, base = server
    players = [{"kind": k} for k in ("human", "human", "greedy", "greedy")]
    cfg = TableConfig.model_validate({"game": game, "options": options, "players": players})
    session = lobby.open(cfg, game, seed=11)
    frames: list[list[dict[str, Any]]] = [[], []]
    pages = []
    for i, (seat, size) in enumerate(zip(session.people, (DESKTOP, PHONE), strict=True)):
        phone = size is PHONE
        context = browser.new_context(viewport=size, has_touch=phone, is_mobile=phone)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err, errors=errors: errors.append(str(err)))
        watch_frames(page, frames[i])
        page.goto(f"{base}/seat/{session.links[seat]}")
        page.errors = errors
        pages.append(page)
    taken = set()
    whys: list[str] = []

    def on_step(i: int, page: Any, clicks: int) -> None:
        if not whys and i == 0:
            why = why_not_on(page)
            if why:
                whys.append(why)
        if clicks >= 6 and i not in taken:  # a few moves in: the table as a person sees it
            taken.add(i)
            if i == 0:  # with a hint asked (the move I would play outlined)
                page.click("#hint")
                page.wait_for_selector("#hint-text", timeout=60_000)
            where = shots() / f"{game}-{'desktop' if i == 0 else 'phone'}.png"
            page.screenshot(path=str(where))

    counts = play_by_clicking(pages, random.Random(3), on_step, touch=(False, True))
    assert counts["tap"] + counts["button"] > 5 and counts["drag"] > 0, counts
    assert whys, "no card without a move came up to ask why not"
    for page in pages:
        page.screenshot(path=str(shots() / f"{game}-{'desktop' if page is pages[0] else 'phone'}-end.png"))
        assert page.locator("#new-match").is_visible()
        assert page.errors == []
        # the winner said with the grammar of his side's size: "Ana wins", "Ana and Bo win" (issue 48)
        said = page.locator(".winner").inner_text()
        one = re.fullmatch(r"(.+) win the match", said)  # a side of several only: "Ana & Bo win"
        assert one is None or " & " in one.group(1), said
    for received in frames:
        states = whole_frames(received)  # the page asks for change frames: rebuilt as it does
        assert states and states[-1]["status"]["winners"]
        for f in states:
            session.checker.check(f)
    for page in pages:
        page.context.close()
    session.stop()
    summary = replay(session.log_path, registry)
    assert summary.complete and summary.matches_ended == 1


def test_keyboard_alone_finishes_a_deal(server, browser):
    """No mouse, no touch: Tab to the hand, arrows to a card or a move, Enter."""
    lobby, base = server
    cfg = TableConfig.model_validate(
        {"game": "carrousel", "options": {"target": 15}, "players": [{"kind": "human"}, {"kind": "greedy"}]}
    )
    session = lobby.open(cfg, "carrousel", seed=5)
    page = browser.new_page(viewport=DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{base}/seat/{session.links[0]}")
    rng = random.Random(8)
    deadline = time.monotonic() + 180
    done = None
    keys = 0
    while done is None:
        assert time.monotonic() < deadline, "the deal did not end in time"
        st = state_of(page)
        if st and st["phase"] in ("deal_over", "match_over"):
            done = st
            break
        if not st or not st["moves"] or sent_move(page):
            time.sleep(0.02)
            continue
        focused = page.evaluate("() => document.activeElement && document.activeElement.dataset.focus || ''")
        for _ in range(40):  # Tab until the hand or the moves have the focus
            if focused.startswith(("hand:", "move:")):
                break
            page.keyboard.press("Tab")
            keys += 1
            focused = page.evaluate(
                "() => document.activeElement && document.activeElement.dataset.focus || ''"
            )
        if not focused.startswith(("hand:", "move:")):
            # the page may have re-rendered meanwhile (the bot moved, the deal
            # ended): only a decision still ours that Tab cannot reach fails
            now = state_of(page)
            if not now or not now["moves"] or any(now[k] != st[k] for k in ("phase", "deal", "decision")):
                continue
            raise AssertionError(f"Tab never reached the hand or the moves ({focused!r})")
        if focused.startswith("move:"):
            page.keyboard.press("ArrowDown")  # to the hand
        for _ in range(rng.randrange(4)):
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")  # a card: its only move plays, or its moves are shown (or why not)
        keys += 2
        if not sent_move(page):
            page.keyboard.press("ArrowUp")  # to the moves
            for _ in range(rng.randrange(3)):
                page.keyboard.press("ArrowRight")
            focused = page.evaluate(
                "() => document.activeElement && document.activeElement.dataset.focus || ''"
            )
            for _ in range(30):  # past "all moves" and "hint", to a move
                if focused.startswith("move:"):
                    break
                page.keyboard.press("ArrowRight")
                focused = page.evaluate(
                    "() => document.activeElement && document.activeElement.dataset.focus || ''"
                )
            page.keyboard.press("Enter")
            keys += 2
        page.wait_for_function(
            f"() => sent || !frame.moves.length || frame.decision !== {st['decision']}", timeout=5000
        )
    assert done["phase"] in ("deal_over", "match_over") and keys > 10
    assert errors == []
    page.close()
    session.stop()


def test_the_table_page_passes_an_accessibility_check(server, browser):
    """axe-core (vendored in tests/vendor, offline) finds no serious or
    critical problem on the table page of each game, mid-deal, at both sizes."""
    lobby, base = server
    axe = (ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
    problems = []
    for game in GAMES:
        cfg = TableConfig.model_validate(
            {
                "game": game,
                "players": [{"kind": "human"}, {"kind": "greedy"}],
                **({"options": SHORT[game]} if game in SHORT and game != "paquet_voleur" else {}),
            }
        )
        session = lobby.open(cfg, game, seed=2)
        for size in (DESKTOP, PHONE):
            # no animation caught half-way (a fading line is not a contrast problem)
            page = browser.new_page(viewport=size, bypass_csp=True, reduced_motion="reduce")
            page.goto(f"{base}/seat/{session.links[0]}")
            page.wait_for_selector("#moves button.move", timeout=20_000)
            playable = page.locator("#hand .card.playable")
            if playable.count():
                playable.first.click()  # a card picked: its moves shown
            page.evaluate(axe)
            found = page.evaluate(
                """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
                    .filter((v) => v.impact === "serious" || v.impact === "critical")
                    .map((v) => v.id + ": " + v.help + " — "
                        + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", "))"""
            )
            problems += [f"{game} {size['width']}px: {p}" for p in found]
            page.close()
        session.stop()
    assert problems == []


def test_the_lobby_opens_a_table_in_the_browser(server, browser):
    _, base = server
    page = browser.new_page(viewport=DESKTOP)
    page.goto(base + "/")
    page.select_option("#game", "carrousel")
    page.select_option("#players", "2")
    page.fill("#name", "duel")
    page.click("#new-table button[type=submit]")  # no name: he is asked for his (he sits there)
    page.wait_for_selector("#error:not([hidden])")
    assert page.evaluate("document.activeElement.id") == "maker"
    page.fill("#maker", "Ana")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#links li a")
    link = page.locator("#links li.your-seat a").get_attribute("href")  # his own seat, kept by his browser
    assert link and link.startswith("/seat/")
    assert page.evaluate(f"Object.values(mySeats()).some((s) => s.link === '{link}')")
    page.screenshot(path=str(shots() / "lobby.png"), full_page=True)
    page.goto(base + link)
    page.click("#start-table")  # the table waits for seat 1: he starts it, a bot plays seat 1
    page.wait_for_selector("#moves button.move, #status")
    assert "Carrousel" in page.locator("#title").inner_text()
    bad = browser.new_page()
    assert bad.goto(base + "/seat/not-a-token").status == 404
