"""Text for one line of a terminal: no control characters, a bounded length.

Used for every error and warning line (``cli``, ``plugins``): a value of
megabytes is quoted in part, and an escape sequence typed as an argument or
written in a file cannot drive the terminal. No imports beyond the standard
library, so that ``cardcore --help`` stays quick.
"""

from __future__ import annotations


def one_line(text: str, limit: int = 300) -> str:
    """``text`` as one printable line of at most ``limit`` characters."""
    text = " ".join("".join(ch if ch.isprintable() or ch == " " else "?" for ch in text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe(err: BaseException, limit: int = 160) -> str:
    """An exception in one line: its type and its message."""
    text = one_line(str(err), limit)
    return f"{type(err).__name__}: {text}" if text else type(err).__name__
