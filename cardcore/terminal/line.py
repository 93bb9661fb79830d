"""The prompt's line: what a person types at the terminal, read with line
editing, a history of his answers (the up arrow) and completion of the legal
moves' texts and the commands (Tab), by prompt_toolkit; a plain line
(``click.prompt``) where input or output is not a terminal (a pipe, a test,
``TERM=dumb``) or ``CARDCORE_PLAIN_PROMPT`` is set.

``read_line(prompt, words)`` is what ``HumanPlayer`` asks; waiting for the
person is no overrun (``watchdog.person_waits``). Ctrl-D and Ctrl-C end the
input as ``click.prompt`` does (``click.Abort``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from typing import Any

import click

from cardcore.watchdog import person_waits


def editing() -> bool:
    """Whether the prompt edits lines (both ends a terminal, not a dumb one)."""
    if os.environ.get("CARDCORE_PLAIN_PROMPT") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


class LineReader:
    """One person's prompt: the session (and its history) lives as long as
    his seat; the words completed change with each decision."""

    def __init__(self) -> None:
        self.words: Sequence[str] = ()
        self._session: Any = None

    def __call__(self, prompt: str, words: Iterable[str] | None = None) -> str:
        if words is not None:
            self.words = list(words)
        with person_waits():
            if not editing():
                answer: str = click.prompt(prompt, prompt_suffix=" > ", default="", show_default=False)
                return answer
            return self._edited(prompt + " > ")

    def _edited(self, prompt: str) -> str:
        if self._session is None:
            self._session = _session(self)
        try:
            text: str = self._session.prompt(prompt)
        except (EOFError, KeyboardInterrupt):
            raise click.Abort from None
        return text

    def completions(self, typed: str) -> list[str]:
        """The texts offered on Tab: those of the words that begin with what
        is typed (case aside)."""
        low = typed.lstrip().lower()
        return [w for w in dict.fromkeys(self.words) if w.lower().startswith(low) and w != typed.lstrip()]


def _session(reader: LineReader) -> Any:
    """A prompt_toolkit session completing ``reader``'s words (loaded only
    when a person types at a terminal)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion

    class Words(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Any:
            typed = document.text_before_cursor
            for word in reader.completions(typed):
                yield Completion(word, start_position=-len(typed.lstrip()))

    return PromptSession(completer=Words(), complete_while_typing=False)
