"""Text for one line of a terminal: no control characters, a bounded length.

Used for every error and warning line (``cli``, ``plugins``): a value of
megabytes is quoted in part, and an escape sequence typed as an argument or
written in a file cannot drive the terminal. No imports beyond the standard
library, so that ``cardcore --help`` stays quick.
"""

from __future__ import annotations

import re


def one_line(text: str, limit: int = 300) -> str:
    """``text`` as one printable line of at most ``limit`` characters."""
    text = " ".join("".join(ch if ch.isprintable() or ch == " " else "?" for ch in text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe(err: BaseException, limit: int = 160) -> str:
    """An exception in one line: its type and its message."""
    text = one_line(str(err), limit)
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


# ---- lines of the terminal's width, broken at words ----
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def visible(text: str) -> int:
    return len(_ANSI.sub("", text))


def columns() -> int:
    """The terminal's width (80 when it cannot be told)."""
    import shutil

    return max(40, shutil.get_terminal_size((80, 24)).columns)


def cut(line: str, width: int | None = None) -> str:
    """``line`` cut at a word to end in `` …`` within the terminal's width
    (a word, a card, is never cut in two; colours kept whole)."""
    width = width or columns()
    words = line.split(" ")
    while len(words) > 1 and visible(" ".join(words) + " …") > width - 1:
        words.pop()
    return " ".join(words).rstrip() + " …"


def wrapped(text: str, indent: str = "  ", hang: str = "    ", width: int | None = None) -> list[str]:
    """``text`` as lines of the terminal's width, broken at spaces only (a
    word, a card, a command in backquotes, is never cut), the first line
    indented by ``indent``, the others by ``hang``."""
    width = width or columns()
    words = _words(text)
    lines: list[str] = []
    line = indent
    for word in words:
        if not word:
            continue
        room = line not in (indent, hang) and visible(line) + 1 + visible(word) > width - 1
        if room:
            lines.append(line)
            line = hang + word
        else:
            line = line + word if line in (indent, hang) else line + " " + word
    lines.append(line)
    return lines


def _words(text: str) -> list[str]:
    """The words of ``text``; a span in backquotes (```cardcore play --last```)
    is one word."""
    words: list[str] = []
    for word in text.split(" "):
        if words and words[-1].count("`") % 2:
            words[-1] += " " + word
        else:
            words.append(word)
    return words


def lines_of(text: str, width: int | None = None) -> list[str]:
    """``text``, of one line or several, as the terminal's lines broken at
    words: each line keeps its indentation, its next lines indented two
    more (``wrapped``); a line that fits is kept as it is."""
    width = width or columns()
    out: list[str] = []
    for line in text.split("\n"):
        if visible(line) < width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        out += wrapped(line.strip(), indent=indent, hang=indent + "  ", width=width)
    return out


def echo(text: str = "", err: bool = False) -> None:
    """``click.echo`` of ``text`` broken at words (``lines_of``): what the
    terminal's commands say to a person."""
    import click  # (loaded with the CLI already)

    for line in lines_of(text):
        click.echo(line, err=err)
