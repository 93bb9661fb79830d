"""The pseudo-locale (``xx``): every message of every catalog transformed
(``i18n_tools.pseudo``: letters swapped for accented look-alikes, in ⟦…⟧), so
that any English left in what a person reads is a text that does not go
through the catalogs — a new string cannot ship untranslated.

``english_left(text, allowed)`` lists the English words left: runs of two or
more ASCII letters, once what is not language is taken out (`code` spans,
option names, URLs, metavars (words in capitals: GAME, INTEGER), the
``allowed`` words: names the test chose, game ids, command names).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from cardcore import i18n
from cardcore.i18n_tools import pseudo

CODE = "xx"
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_NOT_LANGUAGE = re.compile(
    r"`[^`]*`"  # code
    r"|(?<![\w-])--?[a-z][a-z0-9-]*(?:=\S*)?"  # option names
    r"|\bhttps?://\S+"  # links
    r"|\b[\w.-]+\.(?:yaml|yml|json|jsonl|log|md|txt|py)\b"  # file names
    r"|\b[A-Z]\d+[a-z]?\b"  # ruling ids (C8b)
)
_WORD = re.compile(r"[A-Za-z]{2,}")
# the CLI's interface, the same in every language: commands, metavars, kinds
INTERFACE = {"cardcore", "main"}  # main: the program's name under click's test runner


def english_left(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English words left in ``text`` (sorted, distinct)."""
    keep = INTERFACE | set(allowed)
    text = _NOT_LANGUAGE.sub(" ", _ANSI.sub("", text))
    return sorted({w for w in _WORD.findall(text) if w not in keep and not w.isupper()})


@pytest.fixture(scope="session")
def pseudo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pseudo-locale")
    pseudo(folder, CODE)
    return folder


@pytest.fixture
def pseudo_locale(pseudo_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The pseudo-locale's code, its catalogs found (``CARDCORE_LOCALE_PATH``,
    inherited by subprocesses); the language in use reset after the test."""
    monkeypatch.setenv(i18n.LOCALE_PATH_ENV, str(pseudo_dir))
    i18n.forget()
    yield CODE
    i18n.set_language(i18n.SOURCE)
    i18n.forget()
