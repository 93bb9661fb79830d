"""A new person at the table, by touch on a phone (390×844) and by mouse on a
desktop (1280×800), against bots (Playwright on Debian's Chromium, as
``tests/test_browser.py``, whose server and browser it uses; issue 48 items
1 and 6).

At each decision sampled: a single tap (a click) on a card of the hand plays
no move, it picks the card and shows its moves; what the person decides on
(the pile, the table's cards, his melds), his hand and the menu's buttons are
inside the screen and never under the fixed dock; then a move is played by
its button, the second and explicit gesture. *Take back* brings the
previous decision back, with the same hand; a table of two people has none.
With ``CARDCORE_SHOTS=docs/screenshots`` it takes the README's pictures of
each table (a phone, and a desktop with a hint asked)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from conftest import GAMES, largest_table
from test_browser import DESKTOP, PHONE, browser, server, shots, sync_api  # noqa: F401

from cardcore.config import TableConfig

pytestmark = pytest.mark.browser
DECISIONS = 6  # sampled per game and screen: the first of a deal
SHOT_AT = 1  # the README's picture: the first decision from this one with a card picked (of 3 or more)

# each box: [left, top, right, bottom] on screen; the dock's top, the header's bottom
LAYOUT = """() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    const all = (s) => [...document.querySelectorAll(s)].map(
        (e) => [s + " " + (e.dataset.card || e.textContent), ...box(e)]);
    return { w: window.innerWidth, h: window.innerHeight,
        dock: box(document.getElementById("dock")), bar: box(document.querySelector(".bar")),
        moves: box(document.getElementById("moves")),
        felt: [...all("#decide"), ...all(".side.mine .melds")],
        docked: [...all("#hand .card"), ...all("#moves button")] };
}"""


def assert_in_view(page: Any) -> None:
    """What he decides on is between the header and the dock; his hand and the
    menu's buttons are whole on screen (a button not scrolled out of the menu)."""
    seen = page.evaluate(LAYOUT)
    w, h = seen["w"], seen["h"]
    dock_top, bar_bottom = seen["dock"][1], seen["bar"][3]
    assert seen["felt"], "nothing to decide on drawn"
    for what, left, top, right, bottom in seen["felt"]:
        assert left >= -0.5 and right <= w + 0.5, f"{what} off the sides: {left, right} of {w}"
        assert top >= bar_bottom - 0.5, f"{what} under the header: {top} < {bar_bottom}"
        assert bottom <= dock_top + 0.5, f"{what} under the dock: {bottom} > {dock_top}"
    menu_top, menu_bottom = seen["moves"][1], seen["moves"][3]
    for what, left, top, right, bottom in seen["docked"]:
        assert left >= -0.5 and top >= -0.5 and right <= w + 0.5 and bottom <= h + 0.5, (
            f"{what} off the {w}x{h} screen: {left, top, right, bottom}"
        )
        if what.startswith("#moves"):
            assert top >= menu_top - 0.5 and bottom <= menu_bottom + 0.5, f"{what} scrolled out of the menu"


def page_state(page: Any) -> dict[str, Any]:
    got: dict[str, Any] = page.evaluate(
        """() => ({decision: frame.decision, sent: movesSent, selected: selected,
            hand: (frame.view && frame.view.hand) || [], take_back: frame.take_back,
            phase: frame.status.phase, deal: frame.status.deal})"""
    )
    return got


def wait_decision(page: Any, after: int | None = None, touch: bool = False) -> dict[str, Any]:
    """The next decision of his (another than ``after``), the page ready for
    it; at a deal's end, *Next deal* pressed."""
    for _ in range(5):
        page.wait_for_function(
            """(d) => typeof frame !== 'undefined' && frame && (frame.moves.length && !sent
                && frame.decision !== d || document.querySelector('#next-deal:not([disabled])')
                || frame.status.phase === 'match_over')""",
            arg=after,
            timeout=20_000,
        )
        st = page_state(page)
        if st["phase"] != "deal_over":  # his decision, or the match over
            return st
        press(page, page.locator("#next-deal"), touch, {"x": 10, "y": 10})
        page.wait_for_function("() => frame.status.phase !== 'deal_over'", timeout=20_000)
    raise AssertionError("no decision came")


def press(page: Any, locator: Any, touch: bool, where: dict[str, int] | None = None) -> None:
    """A tap (a click) on the part of a card the next card of the fan leaves uncovered."""
    where = where or {"x": 5, "y": 12}
    if touch:
        locator.tap(position=where, timeout=3000)
    else:
        locator.click(position=where, timeout=3000)


def open_page(browser: Any, base: str, link: str, size: dict[str, int]) -> Any:  # noqa: F811
    phone = size is PHONE
    context = browser.new_context(viewport=size, has_touch=phone, is_mobile=phone, reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.errors = errors
    page.goto(f"{base}/seat/{link}")
    return page


def against_bots(lobby: Any, game: str, seed: int) -> Any:
    players, options = largest_table(game)
    kinds = ["human"] + ["greedy"] * (players - 1)
    cfg = TableConfig.model_validate(
        {"game": game, "players": [{"kind": k} for k in kinds], "options": options}
    )
    return lobby.open(cfg, game, seed=seed)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("game", GAMES)
def test_a_tap_picks_a_card_and_only_a_button_plays(server, browser, game, size):  # noqa: F811
    lobby, base = server
    session = against_bots(lobby, game, seed=21)
    touch = size is PHONE
    page = open_page(browser, base, session.links[0], size)
    rng = random.Random(5)
    st = wait_decision(page)
    shot = False
    for n in range(DECISIONS):
        assert_in_view(page)
        decision, sent = st["decision"], st["sent"]
        cards = page.locator("#hand .card.playable")
        if cards.count():
            card = cards.nth(rng.randrange(cards.count()))
            name = card.get_attribute("data-card")
            press(page, card, touch)
            page.wait_for_function("(c) => selected === c", arg=name, timeout=3000)
            time.sleep(0.15)  # a move sent would be on its way by now
            now = page_state(page)
            assert now["decision"] == decision and now["sent"] == sent, f"a tap on {name} played a move"
            assert session.waiting(0) == decision, "the server was sent a move"
            assert page.locator("#moves button.move").count(), "the card picked shows no move"
            assert_in_view(page)  # the card's menu too
        if (
            not shot
            and n >= SHOT_AT
            and len(st["hand"]) >= 3
            and page.locator("#hand .card.selected").count()
        ):
            if not touch:  # the desktop's picture with a hint asked (the move I would play outlined)
                page.click("#hint")
                page.wait_for_selector("#hint-text", timeout=60_000)
                assert_in_view(page)
            page.screenshot(path=str(shots() / f"{game}-{'phone' if touch else 'desktop'}.png"))
            shot = True
        buttons = page.locator("#moves button.move:not([disabled])")
        press(page, buttons.nth(rng.randrange(buttons.count())), touch)
        page.wait_for_function("(n) => movesSent > n", arg=sent, timeout=3000)
        st = wait_decision(page, decision, touch)
        if st["phase"] == "match_over":
            break
        assert st["phase"] == "playing"
    assert page.errors == []
    page.context.close()
    session.stop()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_take_back_brings_the_decision_back_with_the_same_hand(server, browser, size):  # noqa: F811
    lobby, base = server
    session = against_bots(lobby, "canasta" if size is PHONE else "carrousel", seed=8)
    touch = size is PHONE
    page = open_page(browser, base, session.links[0], size)
    earlier: list[dict[str, Any]] = []  # his decisions with a choice
    st = wait_decision(page)
    for _ in range(30):
        if st["take_back"]:
            break
        assert not page.locator("#take-back").count()
        if page.locator("#moves button.move").count() > 1:
            earlier.append(st)
        buttons = page.locator("#moves button.move:not([disabled])")
        if not buttons.count():
            press(page, page.locator("#hand .card.playable").first, touch)
        press(page, page.locator("#moves button.move:not([disabled])").first, touch)
        st = wait_decision(page, st["decision"])
    assert st["take_back"] and earlier, "no take back offered"
    assert_in_view(page)
    press(page, page.locator("#take-back"), touch)
    again = wait_decision(page, st["decision"])
    assert again["hand"] == earlier[-1]["hand"] and again["deal"] == earlier[-1]["deal"]
    shown = page.locator("#hand .card").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
    assert sorted(shown) == sorted(earlier[-1]["hand"])
    assert_in_view(page)
    page.screenshot(path=str(shots() / f"take-back-{'phone' if touch else 'desktop'}.png"))
    assert page.errors == []
    page.context.close()
    session.stop()


def test_a_table_of_two_people_offers_no_take_back(server, browser):  # noqa: F811
    lobby, base = server
    cfg = TableConfig.model_validate(
        {"game": "carrousel", "players": [{"kind": "human"}, {"kind": "human"}], "options": {"target": 15}}
    )
    session = lobby.open(cfg, "two", seed=3)
    pages = [open_page(browser, base, session.links[seat], DESKTOP) for seat in (0, 1)]
    played = 0
    deadline = time.monotonic() + 30
    while played < 4:
        assert time.monotonic() < deadline, "the two people's moves did not go through"
        for page in pages:
            st = page.evaluate("() => frame && {moves: frame.moves.length, take_back: frame.take_back, sent}")
            if st and st["moves"] and not st["sent"]:
                assert st["take_back"] is False and not page.locator("#take-back").count()
                if not page.locator("#moves button.move").count():
                    press(page, page.locator("#hand .card.playable").first, False)
                page.locator("#moves button.move").first.click(timeout=3000)
                played += 1
        time.sleep(0.05)
    for page in pages:
        assert page.errors == []
        page.context.close()
    session.stop()
