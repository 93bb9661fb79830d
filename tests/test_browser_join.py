"""Joining in a real browser (Playwright on Debian's Chromium, as
``tests/test_browser.py``, whose server and browser it uses): a second
person opens the lobby, takes a free seat and plays at the table with no link
sent by hand; the table code box and the join page on a phone (390×844), its
buttons on screen; the copy buttons, with and without ``navigator.clipboard``."""

from __future__ import annotations

import time
from typing import Any

import pytest
from test_browser import DESKTOP, PHONE, browser, server, shots, state_of, sync_api  # noqa: F401

from cardcore.config import TableConfig

pytestmark = pytest.mark.browser
TWO = {"game": "carrousel", "players": [{"kind": "human"}, {"kind": "human"}], "options": {"target": 15}}


def open_two(lobby: Any, name: str) -> Any:
    return lobby.open(TableConfig.model_validate(TWO), name)


def inside(page: Any, selector: str) -> None:
    """Every element ``selector`` matches is wholly inside the viewport."""
    size = page.viewport_size
    boxes = [page.locator(selector).nth(i).bounding_box() for i in range(page.locator(selector).count())]
    assert boxes, selector
    for box in boxes:
        assert box is not None and box["x"] >= 0 and box["y"] >= 0, (selector, box)
        assert box["x"] + box["width"] <= size["width"] and box["y"] + box["height"] <= size["height"], (
            selector,
            box,
            size,
        )


def take_in(page: Any, scope: str, name: str) -> None:
    """Press *Take this seat* in ``scope``, type ``name``, sit down: the table opens."""
    page.locator(f"{scope} button.take").first.click(timeout=10_000)
    page.fill(f"{scope} .take-form input", name)
    page.click(f"{scope} .take-form button.sit")
    page.wait_for_url("**/seat/*", timeout=10_000)
    page.wait_for_function(
        "() => typeof frame !== 'undefined' && frame && frame.you !== null", timeout=20_000
    )


def test_a_second_browser_takes_a_free_seat_in_the_lobby_and_plays(server, browser):  # noqa: F811
    lobby, base = server
    session = open_two(lobby, "friends")
    ana = browser.new_context(viewport=DESKTOP)
    bea = browser.new_context(viewport=DESKTOP)
    try:
        first = ana.new_page()
        errors: list[str] = []
        first.on("pageerror", lambda err: errors.append(str(err)))
        first.goto(f"{base}/seat/{session.links[0]}")  # the maker's own seat, by his link
        first.wait_for_function(
            "() => typeof frame !== 'undefined' && frame && frame.you === 0", timeout=20_000
        )
        page = bea.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(base + "/")  # no link: the lobby
        entry = f"li.table-entry[data-table='{session.id}']"
        page.wait_for_selector(f"{entry} button.take")
        assert page.locator(f"{entry} button.take").count() == 1  # seat 0 is held: only seat 1 is offered
        page.screenshot(path=str(shots() / "join-lobby.png"), full_page=True)
        take_in(page, entry, "Bea")
        assert state_of(page)["you"] == 1
        first.wait_for_function(
            "() => frame.table.names[1] === 'Bea'", timeout=20_000
        )  # the name shown to all
        # both play until Bea has made a move at the table
        deadline = time.monotonic() + 120
        bea_moved = False
        while not bea_moved:
            assert time.monotonic() < deadline, "Bea never moved"
            for p in (first, page):
                st = state_of(p)
                if st and st["moves"] and not p.evaluate("() => sent"):  # no move of his on its way
                    with_card = p.locator("#hand .card.playable")
                    if with_card.count():
                        with_card.first.click(timeout=5_000)
                    buttons = p.locator("#moves button.move:not([disabled])")
                    if buttons.count():
                        buttons.first.click(timeout=5_000)
                        if p is page:
                            page.wait_for_function(
                                f"() => frame.decision !== {st['decision']}", timeout=20_000
                            )
                            bea_moved = True
                elif st and st["phase"] == "deal_over" and st["you"] not in st["ready"]:
                    p.click("#next-deal:not([disabled])", timeout=5_000)
            time.sleep(0.05)
        first.wait_for_function("() => frame.history.some((h) => h.text.startsWith('Bea:'))", timeout=20_000)
        # back in the lobby, her browser knows her seat
        page.goto(base + "/")
        page.wait_for_selector("#mine a.back")
        assert "Your seat at friends" in page.inner_text("#mine")
        assert page.locator(f"{entry} button.take").count() == 0  # nothing free any more
        page.click("#mine a.back")
        page.wait_for_function(
            "() => typeof frame !== 'undefined' && frame && frame.you === 1", timeout=20_000
        )
        assert errors == []
    finally:
        ana.close()
        bea.close()
        session.stop()


def test_the_join_page_on_a_phone_by_its_code(server, browser):  # noqa: F811
    lobby, base = server
    session = open_two(lobby, "phone")
    code = lobby.seating[session.id].code
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(base + "/")
        page.wait_for_selector(".table-entry button.take")
        page.locator(".table-entry button.qr-toggle").first.click()
        page.locator(".table-entry button.take").first.click()  # the name form open, the QR code shown
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing off the side
        page.click(".take-form button.cancel")
        page.fill("#code", code.lower()[:2] + "-" + code.lower()[2:])  # as a person types it
        page.click("#code-form button")
        page.wait_for_url(f"**/join/{code}")
        page.wait_for_selector("#join-seats button.take")
        assert page.locator("#join-seats button.take").count() == 2
        inside(page, "#join-seats button.take")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        inside(page, "#join-watch")
        page.wait_for_function("() => document.querySelector('#share-box img.qr').naturalWidth > 0")  # drawn
        assert page.inner_text("#share-box .t-code") == code
        page.screenshot(path=str(shots() / "join-phone.png"), full_page=True)
        page.locator("#join-seats button.take").nth(1).click()
        inside(page, ".take-form input")
        inside(page, ".take-form button.sit")
        page.fill(".take-form input", "Pia")
        page.click(".take-form button.sit")
        page.wait_for_url("**/seat/*", timeout=10_000)
        page.wait_for_function(
            "() => typeof frame !== 'undefined' && frame && frame.you === 1", timeout=20_000
        )
        page.goto(f"{base}/join/{code}")  # the page knows she sits here, offers her no other seat
        page.wait_for_selector("#mine a.back")
        assert page.locator("#join-seats button.take").count() == 0
        assert errors == []
    finally:
        ctx.close()
        session.stop()


def test_copy_buttons_copy_or_select(server, browser):  # noqa: F811
    lobby, base = server
    session = open_two(lobby, "copy")
    code = lobby.seating[session.id].code
    url = f"{base}/join/{code}"
    ctx = browser.new_context(viewport=DESKTOP)
    bare = browser.new_context(viewport=DESKTOP)
    try:
        ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_selector("#share-box button.copy")
        page.click("#share-box button.copy")
        page.wait_for_function(
            "() => document.querySelector('#share-box button.copy').textContent === 'Copied'"
        )
        assert page.evaluate("navigator.clipboard.readText()") == url
        # no clipboard (a page over plain http from another machine): the text is selected
        page = bare.new_page()
        page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
        page.goto(url)
        page.wait_for_selector("#share-box button.copy")
        page.click("#share-box button.copy")
        picked = page.evaluate(
            "(() => { const i = document.querySelector('#share-box input');"
            " return i.value.substring(i.selectionStart, i.selectionEnd); })()"
        )
        assert picked == url
        label = page.inner_text("#share-box button.copy")
        assert label in ("Copied", "Selected: press Ctrl+C")
    finally:
        ctx.close()
        bare.close()
        session.stop()


def test_the_lobby_shows_a_new_table_s_code_and_qr_code(server, browser):  # noqa: F811
    _, base = server
    page = browser.new_page(viewport=DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(base + "/")
        page.select_option("#game", "paquet_voleur")
        page.select_option("#players", "2")
        page.fill("#name", "qr-table")
        page.fill("#maker", "Ana")
        page.click("#new-table button[type=submit]")
        page.wait_for_selector("#links li a, #error:not([hidden])", timeout=10_000)
        assert page.locator("#error").is_hidden(), page.inner_text("#error")
        page.wait_for_selector("#links .join-line img.qr")
        page.wait_for_function("() => document.querySelector('#links img.qr').naturalWidth > 0")
        code = page.inner_text("#links .join-line strong.t-code")
        assert len(code) == 5
        page.wait_for_selector(".table-entry button.qr-toggle")
        assert page.locator("#links .copy-field input").count() >= 3
        assert errors == []
    finally:
        page.close()


_ = sync_api  # the Playwright module test_browser imported (skipped with it when absent)
