"""The languages' machinery (issue 24): choosing a language, texts as data,
cards in a language, the catalogs, the CLI's help in the pseudo-locale."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import click
import pytest
from conftest import run_cli
from pseudo_locale import english_left

from cardcore import i18n
from cardcore.cards import card
from cardcore.cli import main


def test_the_environment_chooses_in_gettext_order() -> None:
    assert i18n.from_environment({"LANG": "pl_PL.UTF-8"}) == "pl"
    assert i18n.from_environment({"LANGUAGE": "de:lt", "LANG": "fr_FR.UTF-8"}) == "lt"
    assert i18n.from_environment({"LC_ALL": "fr_CA.UTF-8", "LANG": "pl_PL"}) == "fr"
    assert i18n.from_environment({"LC_ALL": "C", "LANG": "pl_PL"}) == "en"
    assert i18n.from_environment({"LANG": "de_DE.UTF-8"}) == "en"
    assert i18n.from_environment({}) == "en"


def test_accept_language_picks_the_preferred_of_ours() -> None:
    assert i18n.from_accept_language("de-DE,lt;q=0.8,fr;q=0.9") == "fr"
    assert i18n.from_accept_language("lt-LT, en;q=0.5") == "lt"
    assert i18n.from_accept_language("de") == "en"
    assert i18n.from_accept_language(None) == "en"


def test_a_text_is_its_english_and_travels_as_data() -> None:
    _, _n, _p, T, Tn = i18n.words("cardcore")
    t = T("{card} takes {cards}", card=card("KH"), cards=[card("5D"), card("8C")])
    assert t == "KH takes 5D 8C"  # logs and JSON keep it, as before
    assert i18n.to_data(t) == {
        "t": "{card} takes {cards}",
        "d": "cardcore",
        "a": {"card": {"card": "KH"}, "cards": [{"card": "5D"}, {"card": "8C"}]},
    }
    assert pickle.loads(pickle.dumps(t)).msgid == t.msgid
    assert Tn("{n} card", "{n} cards", 3) == "3 cards"
    assert Tn("{n} card", "{n} cards", 1) == "1 card"


def test_cards_in_a_language_and_typed_back() -> None:
    qs, kh, broom = card("QS"), card("KH"), card("BROOM")
    assert i18n.card_text(qs, "fr") == "D♠"
    assert i18n.card_text(kh, "fr") == "R♥"
    assert i18n.card_text(card("JS"), "pl") == "W♠"
    assert i18n.card_text(broom, "pl") == "⌇Miotła"
    assert i18n.card_input("RH DS 5c", "fr") == "KH QS 5c"
    assert i18n.card_input("WS KH", "pl") == "JS KH"
    assert i18n.card_input("KH QS", "en") == "KH QS"


def test_an_unknown_language_is_one_line_and_exit_2() -> None:
    code, out = run_cli("--lang", "de", "games")
    assert code == 2
    assert "unknown language 'de'" in out and "fr" in out and "\n" not in out.strip()


def _interface(cmd: click.Command) -> set[str]:
    """The words of the CLI's interface, the same in every language: command
    names, the choices and defaults of options."""
    words = {w for name in getattr(cmd, "commands", {}) for w in name.split("-")}
    for p in cmd.params:
        words |= {str(c) for c in getattr(p.type, "choices", ())}
        if isinstance(p.default, (str, int, Path)):
            words |= set(re.findall(r"[A-Za-z]{2,}", str(p.default)))
    for sub in getattr(cmd, "commands", {}).values():
        words |= _interface(sub)
    return words


COMMANDS = sorted(main.commands)


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_in_the_pseudo_locale_leaves_no_english(pseudo_locale: str, command: str | None) -> None:
    argv = [command] if command else []
    code, out = run_cli("--lang", pseudo_locale, *argv, "--help")
    assert code == 0
    assert english_left(out, allowed=_interface(main)) == []


def test_every_catalog_is_complete() -> None:
    """What CI checks (``python -m cardcore.i18n_tools check``): the templates are
    those the sources give today, and fr, pl, lt translate every entry, none
    fuzzy, with the source's placeholders and every plural form."""
    from cardcore.i18n_tools import check

    assert check() == []


@pytest.mark.parametrize(("lang", "word"), [("fr", "joueurs"), ("pl", "graczy"), ("lt", "žaidėjai")])
def test_the_games_listed_in_each_language(lang: str, word: str) -> None:
    code, out = run_cli("--lang", lang, "games")
    assert code == 0 and word in out


def test_a_text_as_data_is_always_json(tmp_path: Path) -> None:
    """An argument that is no text, card or number (a path, an error) travels as
    its words: a frame or an API answer is always JSON."""
    import json

    T = i18n.words("cardcore").T
    said = i18n.to_data(T("{where}: {problem}", where=tmp_path / "games.yaml", problem=OSError("gone")))
    assert json.loads(json.dumps(said))["a"] == {"where": str(tmp_path / "games.yaml"), "problem": "gone"}
