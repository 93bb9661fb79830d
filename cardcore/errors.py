"""Errors a user can cause, each reported as one line with exit code 2."""

from __future__ import annotations

from pydantic import ValidationError


class CardcoreError(Exception):
    """Base of the errors the CLI reports as one clear line (exit code 2)."""


class TableError(CardcoreError):
    """A table cannot be set up: wrong player count, bad option, unknown house rule."""


class IllegalMoveError(CardcoreError):
    """A move that the rules do not allow; the message names the rule broken."""


class PluginError(Exception):
    """A game or house rule broke the engine's contract (no legal move list,
    a deal that never ends, scores missing, a card lost): a bug to report to
    the plugin's authors, not the user's mistake (exit code 1)."""


class ReplayMismatch(CardcoreError):
    """A replayed game differs from its log."""


def pydantic_problems(err: ValidationError, prefix: str = "") -> list[str]:
    """One ``field: message`` line per problem of a pydantic error."""
    lines = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"])
        where = ".".join(p for p in (prefix, loc) if p)
        msg = e["msg"]
        if e["type"] == "extra_forbidden":
            msg = "unknown field"
        elif e["type"] == "value_error":  # a validator's own words, without pydantic's prefix
            msg = msg.removeprefix("Value error, ")
        lines.append(f"{where}: {msg}" if where else msg)
    return lines
