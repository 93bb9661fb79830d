"""A table made in the lobby, in a real browser (Playwright on Debian's
Chromium, as ``tests/test_browser.py``, whose server and browser it uses;
issue 48 items 3, 6, 7): its maker sits at once in his browser, the lobby of
a second browser offers only the other seat, nothing is dealt until the
friend joins by the table's code and gives his name, then his name is on
the maker's page; the maker's *Start* gives an empty seat to a bot and the
table says so; switching language keeps "connected"."""

from __future__ import annotations

import time
from typing import Any

import pytest
from test_browser import DESKTOP, PHONE, browser, server, shots, sync_api  # noqa: F401

pytestmark = pytest.mark.browser
TIMEOUT = 20_000  # ms


def errors_of(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    return errors


def plate_says(seat: int, name: str) -> str:
    """A page's test: the seat plate of ``seat`` names ``name``."""
    return f"() => document.querySelector(\"#felt .seat[data-seat='{seat}'] .who\")?.textContent === '{name}'"


def on_screen(page: Any, selector: str) -> bool:
    """The element is laid out within the page's width (no sideways scroll to reach it)."""
    box = page.locator(selector).bounding_box()
    width = page.viewport_size["width"]
    return box is not None and box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= width


def frame_of(page: Any) -> Any:
    return page.evaluate("() => typeof frame !== 'undefined' ? frame : null")


def test_the_maker_sits_the_table_waits_for_his_friend_then_shows_her_name(server, browser):  # noqa: F811
    lobby, base = server
    ana_ctx = browser.new_context(viewport=DESKTOP)
    bea_ctx = browser.new_context(viewport=DESKTOP)
    try:
        ana = ana_ctx.new_page()
        ana_errors = errors_of(ana)
        ana.goto(base + "/")
        ana.wait_for_selector("#game option[value=carrousel]", state="attached")
        ana.select_option("#game", "carrousel")
        ana.select_option("#players", "3")  # two people and a bot (the form's default kinds)
        ana.fill("#maker", "Ana")
        ana.click("#new-table button[type=submit]")
        ana.wait_for_selector("#links li.your-seat a.sit-here", timeout=TIMEOUT)
        assert ana.locator("#error").is_hidden(), ana.inner_text("#error")
        (table_id,) = ana.evaluate("Object.keys(mySeats())")  # his seat, kept by his browser
        session = lobby.sessions[table_id]
        code = lobby.seating[table_id].code
        assert session.table.names[0] == "Ana" and session.room.maker_seat == 0
        # his lobby lists his seat, and offers him no other
        entry = f"li.table-entry[data-table='{table_id}']"
        ana.wait_for_selector(f"#mine a.back[href='{ana.evaluate('mySeats()')[table_id]['link']}']")
        assert "Ana's Carrousel" in ana.inner_text(f"{entry} .t-head")
        assert ana.locator(f"{entry} button.take").count() == 0
        # another browser: only seat 1 is free, named so
        bea = bea_ctx.new_page()
        bea_errors = errors_of(bea)
        bea.goto(base + "/")
        bea.wait_for_selector(f"{entry} button.take", timeout=TIMEOUT)
        assert bea.locator(f"{entry} button.take").count() == 1
        free = bea.locator(f"{entry} li.seat-line.open")
        assert free.count() == 1 and free.locator(".seat-who").inner_text() == "free seat"
        seat_names = bea.locator(f"{entry} .seat-who").all_inner_texts()
        assert seat_names == ["Ana", "free seat", "Normal 3"], seat_names
        assert "waiting for people" in bea.inner_text(f"{entry} .t-head")
        # the maker at his table: it waits, and says for whom; Start is his
        ana.click("#links li.your-seat a.sit-here")
        ana.wait_for_function(
            "() => typeof frame !== 'undefined' && frame && frame.you === 0", timeout=TIMEOUT
        )
        ana.wait_for_selector("#waiting.now #start-table", timeout=TIMEOUT)
        assert "Waiting for 1 person to sit down: seat 2" in ana.inner_text("#waiting")
        plate = ana.locator("#felt .seat[data-seat='1']")
        assert (
            plate.locator(".who").inner_text() == "free seat"
            and "free" in plate.locator(".meta").inner_text()
        )
        time.sleep(0.6)  # a bot that moves at once would have moved by now
        f = frame_of(ana)
        assert f["status"]["deal"] == 0 and f["decision"] is None and f["history"] == []
        assert session.status.deal == 0 and session.waiting(0) is None
        # the friend joins by the code and gives her name
        bea.fill("#code", code)
        bea.click("#code-form button")
        bea.wait_for_url(f"**/join/{code}", timeout=TIMEOUT)
        bea.locator("#join-seats button.take").click(timeout=TIMEOUT)
        bea.fill(".take-form input", "Bea")
        bea.click(".take-form button.sit")
        bea.wait_for_url("**/seat/*", timeout=TIMEOUT)
        bea.wait_for_function(
            "() => typeof frame !== 'undefined' && frame && frame.you === 1", timeout=TIMEOUT
        )
        # the deal starts; her name is on the maker's page: her seat's plate, the score line
        ana.wait_for_function(
            "() => frame.status.phase === 'playing' && frame.status.deal === 1", timeout=TIMEOUT
        )
        ana.wait_for_function(plate_says(1, "Bea"), timeout=TIMEOUT)
        assert "Bea" in ana.inner_text("#scoreline")
        assert ana.locator("#waiting").is_hidden() and bea.locator("#start-table").count() == 0
        # a language picked while connected: "connected" said in it, never "connecting…"
        ana.select_option("#lang", "fr")
        ana.wait_for_function("() => document.documentElement.lang === 'fr'", timeout=TIMEOUT)
        said = ana.evaluate("[_('connected'), _('connecting…'), document.getElementById('conn').textContent]")
        assert said[0] != "connected" and said[2] == said[0] != said[1], said
        assert "Bea" in ana.inner_text("#scoreline")
        ana.reload()  # and after a reload: the plate, the score line, the score sheet
        ana.wait_for_function(plate_says(1, "Bea"), timeout=TIMEOUT)
        assert "Bea" in ana.inner_text("#scoreline") and "Bea" in (ana.text_content("#sheet") or "")
        assert ana_errors == [] and bea_errors == []
    finally:
        ana_ctx.close()
        bea_ctx.close()
        for session in list(lobby.sessions.values()):
            session.stop()


def test_the_makers_start_gives_an_empty_seat_to_a_bot_and_the_table_says_so(server, browser):  # noqa: F811
    lobby, base = server
    body = {
        "game": "carrousel",
        "players": [{"kind": "human"}] * 3,
        "options": {"target": 15},
        "maker": "Ana",
    }
    session = lobby.open_data(body, client="127.0.0.1")
    _, bea_token = lobby.take(session.id, 1, "Bea")
    ana_ctx = browser.new_context(viewport=DESKTOP)
    bea_ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)  # she waits on her phone
    try:
        bea = bea_ctx.new_page()
        bea_errors = errors_of(bea)
        bea.goto(f"{base}/seat/{bea_token}")
        bea.wait_for_selector("#waiting.now", timeout=TIMEOUT)
        assert "Ana may start the table without waiting." in bea.inner_text("#waiting")
        assert bea.locator("#start-table").count() == 0  # not hers to press
        assert on_screen(bea, "#waiting")
        # the maker's seat, named but nobody there yet; the seat nobody took, free
        bea.wait_for_function(plate_says(0, "Ana"), timeout=TIMEOUT)
        assert bea.locator("#felt .seat[data-seat='0'] .meta").inner_text() == "not here yet"
        assert bea.locator("#felt .seat[data-seat='2'] .meta").inner_text() == "free"
        bea.screenshot(path=str(shots() / "waiting-phone.png"))
        ana = ana_ctx.new_page()
        ana_errors = errors_of(ana)
        ana.goto(f"{base}/seat/{session.links[session.room.maker_seat]}")
        ana.wait_for_selector("#waiting.now #start-table", timeout=TIMEOUT)
        assert on_screen(ana, "#waiting") and on_screen(ana, "#start-table")
        ana.screenshot(path=str(shots() / "waiting-desktop.png"))
        ana.click("#start-table", timeout=TIMEOUT)
        for page in (ana, bea):
            page.wait_for_selector("#waiting .bot-note", timeout=TIMEOUT)
            assert page.inner_text("#waiting .bot-note") == "Seat 3 is played by a bot (normal)"
            page.wait_for_function(plate_says(2, "Normal 3"), timeout=TIMEOUT)
        assert "bot" in bea.locator("#felt .seat[data-seat='2'] .meta").all_inner_texts()[0]
        ana.wait_for_function("() => frame.status.phase === 'playing'", timeout=TIMEOUT)
        assert session.room.begun and session.room.bot_seats == [2] and lobby.open_seats(session) == []
        assert ana_errors == [] and bea_errors == []
    finally:
        ana_ctx.close()
        bea_ctx.close()
        session.stop()


_ = sync_api  # the Playwright module test_browser imported (skipped with it when absent)
