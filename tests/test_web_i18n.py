"""The browser pages' languages (issue 24), without a browser: the catalog
endpoint (``/i18n/LANG.json``, ``cardcore/web/catalogs.py``) and its plural
tables, the pages' words reaching the catalog, and the frames carrying every
text for people as data beside its English."""

from __future__ import annotations

import contextlib
import gettext
import queue
import re
import time
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from conftest import REGISTRY
from starlette.testclient import TestClient
from test_web import WAIT, Client

from cardcore import i18n
from cardcore.config import TableConfig
from cardcore.i18n_tools import template
from cardcore.render import plain
from cardcore.web import catalogs
from cardcore.web.app import create_app
from cardcore.web.lobby import Lobby

STATIC = Path(catalogs.__file__).parent / "static"
ROOT = Path(__file__).parent.parent
# (n, plural index) as gettext's rules give them: one, few, many
PLURALS = {
    "pl": {1: 0, 2: 1, 5: 2, 12: 2, 22: 1, 25: 2, 101: 2, 111: 2},
    "lt": {1: 0, 2: 1, 5: 1, 12: 2, 22: 1, 25: 1, 101: 0, 111: 2},
}


@pytest.fixture
def client(tmp_path: Path) -> Any:
    lobby = Lobby(REGISTRY, ROOT / "games.yaml", tmp_path / "logs", bot_delay=0.0)
    with TestClient(create_app(lobby, hosts=["testserver"])) as http:
        yield http, lobby
    lobby.close()


def test_english_is_an_empty_catalog_and_every_language_is_offered(client: Any) -> None:
    http, _ = client
    data = http.get("/i18n/en.json").json()
    assert data["lang"] == "en" and data["domains"] == {}
    assert data["languages"] == {"en": "English", "fr": "Français", "pl": "Polski", "lt": "Lietuvių"}
    for bad in ("zz", "auto2", "EN", "..%2Fetc", "en.json%00"):
        r = http.get(f"/i18n/{bad}.json")
        assert r.status_code == 404, bad
    assert http.get("/i18n/zz.json").json()["error"] == "no such language"


def test_auto_follows_accept_language(client: Any, pseudo_locale: str) -> None:
    http, _ = client
    for header, lang in (
        ("xx, en;q=0.5", "xx"),
        ("de-DE,de;q=0.9", "en"),
        ("de, pl-PL;q=0.8, lt;q=0.9", "lt"),
        ("", "en"),
    ):
        got = http.get("/i18n/auto.json", headers={"accept-language": header}).json()
        assert got["lang"] == lang, header
    assert "xx" in http.get("/i18n/en.json").json()["languages"]  # a pseudo-locale may be chosen


def test_the_pseudo_catalog_holds_the_pages_words(client: Any, pseudo_locale: str) -> None:
    http, _ = client
    data = http.get("/i18n/xx.json").json()
    core = data["domains"]["cardcore"]
    assert "click" not in data["domains"]
    messages = core["messages"]
    assert messages["Your move:"] != "Your move:" and messages["Your move:"].startswith("⟦")
    assert messages["rank letter\u0004K"] == "Ķ"  # the rank letters, as the terminal's
    assert messages["special card\u0004⌇Broom"].startswith("⟦")
    forms = messages["{n} card"]
    assert isinstance(forms, list) and len(forms) == 2 and all("{n}" in f for f in forms)
    assert core["plural"][:3] == [1, 0, 1]  # English's rule: one, other
    # every message the pages mark is in the core's template, hence in every catalog
    for msgid in ("Take this seat", "Your hand ({n})", "{rank} of {suit}", "Language", "Sit down"):
        assert msgid in messages, msgid


def _plural_locale(folder: Path) -> None:
    for lang in PLURALS:
        cat = Catalog(locale=lang, domain="cardcore")
        cat.add(("{n} card", "{n} cards"), (f"{lang} one {{n}}", f"{lang} few {{n}}", f"{lang} many {{n}}"))
        out = folder / lang / "LC_MESSAGES"
        out.mkdir(parents=True)
        with (out / "cardcore.mo").open("wb") as f:
            write_mo(f, cat)


def test_plural_tables_of_polish_and_lithuanian(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """gettext's plural index precomputed for n < 200 (no eval on the page),
    and index[100 + n % 100] past it, as gettext's own rule says."""
    folder = tmp_path / "plural-locale"
    _plural_locale(folder)
    monkeypatch.setenv(i18n.LOCALE_PATH_ENV, str(folder))
    i18n.forget()
    try:
        http, _ = client
        for lang, expected in PLURALS.items():
            core = http.get(f"/i18n/{lang}.json").json()["domains"]["cardcore"]
            table = core["plural"]
            assert len(table) == catalogs.PLURAL_TABLE
            assert {n: catalogs.plural_index(table, n) for n in expected} == expected, lang
            assert core["messages"]["{n} card"] == [
                f"{lang} one {{n}}",
                f"{lang} few {{n}}",
                f"{lang} many {{n}}",
            ]
            rule = i18n.translations("cardcore", lang)
            assert isinstance(rule, gettext.GNUTranslations)
            for n in (*range(200, 1300), 10_001, 10_012, 1_000_022):  # past the table: the same index
                assert catalogs.plural_index(table, n) == rule.plural(n), (lang, n)  # type: ignore[attr-defined]
    finally:
        i18n.forget()


HTML_WORD = re.compile(r'data-i18n(?:-[a-z-]+)?="([^"]*)"')


def test_every_word_of_the_html_reaches_the_catalog() -> None:
    """The HTML's marked words (data-i18n …) are listed in words.js, which
    Babel's JavaScript extractor reads: every one is in the core's template."""
    msgids = {m.id if isinstance(m.id, str) else m.id[0] for m in template("cardcore")}
    words = (STATIC / "words.js").read_text(encoding="utf-8")
    missing = []
    for page in sorted(STATIC.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        for word in HTML_WORD.findall(text):
            for msgid in (
                [word.replace("{{what}}", w) for w in ("seat", "table", "page")] if "{{" in word else [word]
            ):
                if msgid not in msgids or f'N_("{msgid}")' not in words.replace('\\"', '"'):
                    missing.append(f"{page.name}: {msgid}")
        assert "/static/i18n.js" in text, page.name  # every page says its words
    assert missing == []


def test_every_script_marks_its_words() -> None:
    """No English left in a page's script outside the marking functions: a
    string literal of two words or more that is shown is a ``_()`` call's
    (the scripts' other strings are names: classes, ids, events, keys)."""
    shown = re.compile(
        r"(?:textContent\s*=|\.title\s*=|\.alt\s*=|placeholder\s*=|setAttribute\(\"(?:aria-label|title)\",|"
        r"el\(\"[a-z0-9]+\",\s*\"[^\"]*\",|showError\(|setConn\()\s*\"([^\"]*[A-Za-z]{2}[^\"]*)\""
    )
    left = []
    for script in sorted(STATIC.glob("*.js")):
        for lineno, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
            left += [f"{script.name}:{lineno}: {m}" for m in shown.findall(line)]
    assert left == []


# ---- frames: every text as data, said by the page --------------------------------------
def say_english(data: Any, names: list[str], sides: list[list[int]]) -> str:
    """What static/i18n.js says of a text's data in English (its msgids),
    cards in canonical notation: written again here, to compare with ``text``."""
    if isinstance(data, str):
        return data
    if isinstance(data, list):
        sep = " " if data and all(isinstance(x, dict) and "card" in x for x in data) else ", "
        return sep.join(say_english(x, names, sides) for x in data)
    if isinstance(data, dict) and "card" in data:
        return str(data["card"])
    if isinstance(data, dict) and "side" in data:
        return " & ".join(names[s] for s in sides[data["side"]])
    if isinstance(data, dict) and "t" in data:
        pattern = data["t"] if data.get("p") is None or data.get("n") == 1 else data["p"]
        args = {k: say_english(v, names, sides) for k, v in (data.get("a") or {}).items()}
        return str(pattern.format(**args)) if args else str(pattern)
    return str(data)


def test_frames_carry_each_text_as_data(client: Any) -> None:
    """Two people: each history line, each move, the goal, a why-not's answer
    and an error carry their data (``say``), which said in English is their
    ``text`` (the protocol's English fields unchanged)."""
    http, lobby = client
    cfg = TableConfig.model_validate(
        {"game": "carrousel", "options": {"target": 15}, "players": [{"kind": "human"}, {"kind": "human"}]}
    )
    session = lobby.open(cfg, "carrousel", seed=4)
    frames: list[dict[str, Any]] = []
    inbox: queue.Queue[Any] = queue.Queue()
    with contextlib.ExitStack() as stack:
        for seat in (0, 1):
            Client(http, session.links[seat], inbox, stack)
        moved, asked, error = 0, False, None
        deadline = time.monotonic() + 60
        while moved < 12 or error is None:
            assert time.monotonic() < deadline, "the table did not answer in time"
            who, m = inbox.get(timeout=WAIT)
            if m["type"] == "error":
                error = m
                continue
            if m["type"] != "state" or not m["moves"] or m["status"]["phase"] != "playing":
                continue
            frames.append(m)
            if not asked:  # a why-not first: its answer comes in the next frame
                asked = True
                who.send({"type": "why", "decision": m["decision"], "card": m["view"]["hand"][0]})
            elif moved < 12:
                who.send({"type": "move", "decision": m["decision"], "index": 0})
                moved += 1
            elif error is None:
                who.send({"type": "move", "decision": -1, "index": 0})  # refused: an error
    session.stop()
    assert error is not None
    assert error["say"] == {"t": error["error"], "d": "cardcore"}
    names, sides = session.table.names, [list(s) for s in session.table.sides]
    lines = [line for f in frames for line in f["history"]]
    assert lines and all("say" in line for line in lines)
    assert {line["kind"] for line in lines} >= {"deal", "move"}
    for line in lines:
        assert plain(say_english(line["say"], names, sides)) == line["text"], line
    moves = [m for f in frames for m in f["moves"]]
    assert moves and all(say_english(m["say"], names, sides) == m["text"] for m in moves)
    whys = [f["why"] for f in frames if f.get("why")]
    assert whys and all(plain(say_english(w["say"], names, sides)) == w["text"] for w in whys)
    table = frames[0]["table"]
    assert (
        say_english(table["goal_say"], names, sides)
        and plain(say_english(table["goal_say"], names, sides)) == table["goal"]
    )
    assert say_english(table["title_say"], names, sides) == table["title"]
    assert table["domain"] == session.table.plugin.domain
    assert frames[0]["status"]["error_say"] == ""
    # a move line the server composes is a message of its own: the name is data
    moved_lines = [line["say"] for line in lines if line["kind"] == "move"]
    assert all(isinstance(s, dict) and s["t"] == "{name}: {move}" for s in moved_lines)
    assert {say_english(s["a"]["name"], names, sides) for s in moved_lines} <= set(names)
    # and the names themselves as data (a default name "Normal 2" is said by each page)
    assert [say_english(n, names, sides) for n in table["name_says"]] == names


def test_the_lobby_catalog_carries_titles_as_data(client: Any) -> None:
    http, _ = client
    games = http.get("/api/catalog").json()["games"]
    for g in games:
        assert g["title_say"] == g["title"] or g["title_say"]["t"]
        for option in g["options"].values():
            if option["description"]:
                assert option["description_say"] == {"t": option["description"], "d": g["domain"]}
        # each house rule's summary, as data in the game's catalog, by the rule's name
        assert sorted(g["house_rule_says"]) == sorted(g["house_rules"])
        for said in g["house_rule_says"].values():
            assert said["d"] == g["domain"] and said["t"]
    assert sum(len(g["house_rules"]) for g in games) >= 3
    r = http.post("/api/tables", json={"game": "carrousel", "players": [{"kind": "human"}], "seed": 3})
    assert r.status_code == 400 and r.json()["say"]["t"].startswith("seed: a table with people")


def test_default_names_are_said_in_each_pages_language() -> None:
    """A seat the table names by default ("Player 2", "Normal 3") keeps its English
    name (logs, the protocol's ``names``) and travels as data too (``name_says``)."""
    from conftest import REGISTRY

    from cardcore import i18n
    from cardcore.table import Table
    from cardcore.web.lobby import default_names

    table = Table(REGISTRY.game("carrousel"), 4)
    names = default_names(table, ["human", "normal", "human", "greedy"])
    assert names == ["Player 1", "Normal 2", "Player 3", "Greedy 4"]
    assert i18n.to_data(names[1]) == {"t": "Normal {n}", "d": "cardcore", "a": {"n": 2}}
    assert i18n.render(names[0], "pl") == "Gracz 1" and i18n.render(names[1], "fr") == "Normal 2"
    assert i18n.render(names[1], "lt") == "Vidutinis 2"
    assert names[3] == "Greedy 4" and not isinstance(names[3], i18n.Text)  # a kind: an id


def test_the_lobby_lists_default_names_as_data(client: Any) -> None:
    """The lobby's list (``/api/tables``) says each seat's name as data too
    (``name_say``): a default name ("Normal 2") in each page's language, a
    person's own name as he typed it."""
    http, _ = client
    r = http.post(
        "/api/tables",
        json={"game": "carrousel", "players": [{"kind": "human", "name": "Ona"}, {"kind": "normal"}]},
    )
    assert r.status_code == 201
    (table,) = [t for t in http.get("/api/tables").json()["tables"] if t["id"] == r.json()["id"]]
    first, second = table["seats"]
    assert first["name"] == first["name_say"] == "Ona"
    assert second["name"] == "Normal 2"
    assert second["name_say"] == {"t": "Normal {n}", "d": "cardcore", "a": {"n": 2}}
