"""Each person at a table in his own language (issue 24), in a real browser:
two pages of one table, each in its language, play a deal; each page shows
only its language, and the frames both receive are the same data (the server
renders no text for a language: the pages say them). And the lobby and the
table page in the pseudo-locale: no English left on screen, nor in what a
screen reader says (aria-labels, titles, placeholders, alt texts).

``LANGUAGES`` are the two pages' languages: the pseudo-locale and English
until the French and Lithuanian catalogs are written, then ``("lt", "fr")``."""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pseudo_locale import CODE as PSEUDO
from pseudo_locale import english_left
from test_browser import ARGS, CHROMIUM, DESKTOP, PHONE, decide, sent_move, served, state_of, watch_frames
from webcheck import whole_frames

from cardcore import i18n
from cardcore.config import TableConfig
from cardcore.web.catalogs import page_catalog

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api", reason="no Playwright (pip install playwright)")
uvicorn = pytest.importorskip("uvicorn")
ROOT = Path(__file__).parent.parent
LANGUAGES = ("lt", "fr")  # the two pages' languages (the pseudo-locale and English work as well)
NAMES = ["Ann", "Bob"]
# the picker's names of the languages, as each writes its own (and the pseudo-locale's code)
LANGUAGE_WORDS = {*english_left(" ".join(i18n.LANGUAGES.values())), PSEUDO}
# False until the games' texts are Texts (the game helpers' branches merged): the
# English words of the texts the server still sends as plain strings (a move's
# text, an event, the goal, a score's item, an option's description) are not the
# pages' to translate, and are allowed; True: every word on a page is translated
GAME_TEXTS_MARKED = True

# every text a person reads or hears: the text nodes (hidden panels too), the
# attributes a screen reader says, the options of the selects, the title
SCREEN_TEXT = """() => {
    const out = [document.title];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) out.push(n.textContent);
    const said = ["aria-label", "title", "placeholder", "alt"];
    for (const e of document.querySelectorAll("*"))
        for (const a of said) if (e.hasAttribute(a)) out.push(e.getAttribute(a));
    return out.join(" \\n ");
}"""


@pytest.fixture(scope="module")
def locales(pseudo_dir: Path) -> Iterator[None]:
    """The pseudo-locale's catalogs found by the server (it runs in this process)."""
    before = os.environ.get(i18n.LOCALE_PATH_ENV)
    os.environ[i18n.LOCALE_PATH_ENV] = str(pseudo_dir)
    i18n.forget()
    yield
    if before is None:
        os.environ.pop(i18n.LOCALE_PATH_ENV, None)
    else:
        os.environ[i18n.LOCALE_PATH_ENV] = before
    i18n.forget()


@pytest.fixture(scope="module")
def server(locales: None, tmp_path_factory: Any, registry: Any) -> Any:
    """test_browser's server, with the pseudo-locale's catalogs found."""
    with served(tmp_path_factory, registry) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Any:
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def game_words(data: Any) -> set[str]:
    """The words of the plain strings (not yet Texts) inside a text's data."""
    if isinstance(data, str):
        return set(english_left(data))
    if isinstance(data, list):
        return set().union(*(game_words(x) for x in data)) if data else set()
    if isinstance(data, dict):
        if "t" in data:
            return set().union(set(), *(game_words(x) for x in (data.get("a") or {}).values()))
        return set()
    return set()


def frame_game_words(frames: list[dict[str, Any]]) -> set[str]:
    """What ``GAME_TEXTS_MARKED`` False allows: the English of the game's texts still plain strings."""
    if GAME_TEXTS_MARKED:
        return set()
    words: set[str] = set()
    for f in frames:
        t = f["table"]
        for data in (t.get("title_say"), t.get("goal_say"), *(t.get("house_rule_says") or [])):
            words |= game_words(data)
        for x in [*f.get("history", []), *f.get("moves", []), f.get("hint") or {}, f.get("why") or {}]:
            words |= game_words(x.get("say")) | game_words(x.get("rule_say"))
        for side in ((f["status"].get("result") or {}).get("sides")) or []:
            for key in side.get("breakdown", {}):
                words |= set(english_left(key.replace("_", " ")))
    return words


def other_words(lang: str, other: str) -> list[str]:
    """Sentences of ``other``'s catalog (translated, not English, not ``lang``'s): none may show."""
    mine = page_catalog(lang)["domains"].get("cardcore", {}).get("messages", {})
    theirs = page_catalog(other)["domains"].get("cardcore", {}).get("messages", {})
    return [
        v for k, v in theirs.items() if isinstance(v, str) and v != k and v != mine.get(k) and len(v) > 12
    ]


def shows_only(page: Any, lang: str, other: str, allowed: set[str]) -> list[str]:
    """What on ``page`` is not its language ``lang``: English left (the pseudo-locale),
    the pseudo-locale's letters (another language), the other's sentences."""
    text = page.evaluate(SCREEN_TEXT)
    wrong: list[str] = []
    if lang == PSEUDO:
        wrong += english_left(text, allowed)

    elif "⟦" in text:
        wrong.append("pseudo-locale text on a page in " + lang)
    wrong += [s for s in other_words(lang, other) if s in text]
    if lang not in (PSEUDO, i18n.SOURCE):  # and it speaks its own: its catalog's words on screen
        own = page_catalog(lang)["domains"].get("cardcore", {}).get("messages", {})
        said = {v for k, v in own.items() if isinstance(v, str) and v != k and len(v) > 3 and "{" not in v}
        if sum(v in text for v in said) < 8:
            wrong.append(f"hardly any of {lang}'s own words on the page")
    return wrong


def open_page(browser: Any, url: str, lang: str, size: dict[str, int], pick: bool) -> Any:
    """A page in ``lang``: asked by the browser's Accept-Language, or (``pick``)
    chosen in the picker (remembered: the page loaded again keeps it)."""
    accept = lang if not pick else "de"
    context = browser.new_context(viewport=size, extra_http_headers={"Accept-Language": accept})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.goto(url)
    page.wait_for_function("() => document.documentElement.lang !== '' && document.querySelector('#lang')")
    if pick:
        page.select_option("#lang", lang)
        page.wait_for_function(f"() => document.documentElement.lang === {json.dumps(lang)}")
        page.reload()
    page.wait_for_function(f"() => document.documentElement.lang === {json.dumps(lang)}", timeout=10_000)
    return page


def test_two_people_each_in_his_language(server: Any, browser: Any) -> None:
    lobby, base = server
    cfg = TableConfig.model_validate(
        {
            "game": "carrousel",
            "options": {"target": 15},
            "players": [{"kind": "human", "name": n} for n in NAMES],
        }
    )
    session = lobby.open(cfg, "carrousel", seed=7)
    frames: list[list[dict[str, Any]]] = [[], []]
    pages = []
    for i, (lang, size) in enumerate(zip(LANGUAGES, (DESKTOP, PHONE), strict=True)):
        page = open_page(browser, f"{base}/seat/{session.links[i]}", lang, size, pick=i == 1)
        pages.append(page)
    for i, page in enumerate(pages):  # the frames from here (a page loaded again: its new socket)
        watch_frames(page, frames[i])
        page.reload()
        page.wait_for_function(f"() => document.documentElement.lang === {json.dumps(LANGUAGES[i])}")
    rng = random.Random(5)
    deadline = time.monotonic() + 180
    checked_mid = False
    while True:
        assert time.monotonic() < deadline, "the deal did not end in time"
        states = [state_of(p) for p in pages]
        if all(s and s["phase"] in ("deal_over", "match_over") for s in states):
            break
        for page, st in zip(pages, states, strict=True):
            if not st or not st["moves"] or sent_move(page):
                continue
            if not checked_mid and st["deal"]:  # mid-deal, moves shown: each page in its language
                checked_mid = True
                held = whole_frames(frames[0]) + whole_frames(frames[1])
                allowed = {*NAMES, *english_left(session.name)} | frame_game_words(held) | LANGUAGE_WORDS
                for k, p in enumerate(pages):
                    assert shows_only(p, LANGUAGES[k], LANGUAGES[1 - k], allowed) == [], LANGUAGES[k]
            decide(page, rng, touch=False)
        time.sleep(0.02)
    assert checked_mid
    for page in pages:
        page.wait_for_selector("#result:not([hidden])", timeout=10_000)
    held = [whole_frames(f) for f in frames]
    allowed = {*NAMES, *english_left(session.name)} | frame_game_words(held[0] + held[1]) | LANGUAGE_WORDS
    for k, page in enumerate(pages):
        assert page.evaluate("() => document.documentElement.lang") == LANGUAGES[k]
        assert shows_only(page, LANGUAGES[k], LANGUAGES[1 - k], allowed) == [], LANGUAGES[k]
        assert page.errors == []
    # the same data to both: the public parts of the last frames are identical, and no
    # frame holds a word of either language (the server renders no text for one)
    last = [h[-1] for h in held]
    for key in ("table", "history", "seats"):
        assert last[0][key] == last[1][key], key
    assert {k: v for k, v in last[0]["status"].items()} == last[1]["status"]
    assert last[0]["history"] and all("say" in line for line in last[0]["history"])
    raw = json.dumps([frames[0], frames[1]], ensure_ascii=False)
    assert "⟦" not in raw
    for lang, other in (LANGUAGES, LANGUAGES[::-1]):
        leaked = [s for s in other_words(other, lang) if s in raw]
        assert leaked == [], lang
    for f in held[0] + held[1]:
        session.checker.check(f)
    for page in pages:
        page.context.close()
    session.stop()


def test_the_lobby_and_the_table_in_the_pseudo_locale(server: Any, browser: Any) -> None:
    """No English left on the lobby's screen (a table listed, its seats, the
    form) nor on a table page (a spectator's and a person's), buttons, labels
    and what a screen reader says included."""
    lobby, base = server
    cfg = TableConfig.model_validate(
        {
            "game": "carrousel",
            "players": [{"kind": "human", "name": NAMES[0]}, {"kind": "human", "name": NAMES[1]}],
        }
    )
    session = lobby.open(cfg, "carrousel", seed=3)
    page = open_page(browser, base + "/", PSEUDO, DESKTOP, pick=False)
    page.wait_for_selector("#tables .table-entry button.take", timeout=10_000)
    page.click("#tables .table-entry button.take")  # the take form: its labels too
    page.wait_for_selector(".take-form")
    catalog = page.evaluate("() => catalog")
    interface = set(NAMES) | LANGUAGE_WORDS | {"carrousel", "yaml"}
    for g in catalog["games"]:
        interface |= {g["name"], *g["kinds"], *g["options"], *g["house_rules"]}
        interface |= set(english_left(" ".join([*g["kinds"], *g["options"], *g["house_rules"]])))
        if not GAME_TEXTS_MARKED:
            interface |= game_words(g["title_say"]) | set(english_left(g["title"]))
            for o in g["options"].values():
                interface |= set(english_left(str(o.get("description", ""))))
                interface |= set(english_left(" ".join(str(v) for v in o.get("enum", []))))
    for t in catalog["tables"]:
        interface |= set(english_left(f"{t['name']} {t.get('game', '')}"))
    interface |= set(english_left(" ".join(t["name"] for t in lobby.tables())))
    assert english_left(page.evaluate(SCREEN_TEXT), interface) == []
    assert page.errors == []
    page.context.close()
    # the table page: a person's (his hand, his moves) and the spectators'; the second
    # person sits too (a table waits for its people)
    lobby.claim(session.links[1])
    for url in (f"/seat/{session.links[0]}", f"/watch/{session.watch_link}"):
        received: list[dict[str, Any]] = []
        page = open_page(browser, base + url, PSEUDO, PHONE, pick=False)
        watch_frames(page, received)
        page.reload()
        page.wait_for_function("() => frame && frame.status.phase === 'playing'", timeout=20_000)
        if url.startswith("/seat/"):
            # the first to play is seat 0 or 1 (the dealer's left): a move of seat 1's, if his
            if not page.evaluate("() => frame.moves.length"):
                other = session.waiting(1)
                assert other is not None
                session.submit(1, {"type": "move", "decision": other, "index": 0})
            page.wait_for_selector("#hand .card.playable", timeout=20_000)
            page.locator("#hand .card.playable").first.click()  # a card picked: its moves, "all moves"
            page.wait_for_selector("#moves button.move", timeout=20_000)
        for panel in ("history-box", "sheet-box", "rules-box", "share-box"):
            page.click(f'button[data-panel="{panel}"]')
        page.wait_for_selector("#share .qr")
        allowed = interface | frame_game_words(whole_frames(received))
        assert english_left(page.evaluate(SCREEN_TEXT), allowed) == [], url
        assert page.errors == []
        page.context.close()
    session.stop()


def test_a_number_with_decimals_is_said_with_the_languages_sign(server: Any, browser: Any) -> None:
    """The hint's "2.9 points" (an ``i18n.Decimal``: ``{"decimal": "2.9"}`` in a
    frame) is "2,9" on a French page, "2.9" on an English one."""
    from cardcore.i18n import Decimal, T, to_data

    _, base = server
    said = to_data(T("{gap} points more", gap=Decimal(2.94, 1)))
    assert said["a"]["gap"] == {"decimal": "2.9"}
    for lang, expected in (("fr", "2,9 points more"), ("en", "2.9 points more")):
        page = open_page(browser, base + "/", lang, DESKTOP, pick=False)
        assert page.evaluate("(d) => say(d)", said) == expected, lang
        page.context.close()
