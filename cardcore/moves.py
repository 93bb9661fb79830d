"""Moves: frozen records of one decision.

A move is a named tuple ``(kind, card, takes, extra)``: ``kind`` is the game's
word for it (``pair``, ``capture``, ``meld`` …), ``card`` the card played from
hand when there is one, ``takes`` every card it takes, and ``extra`` the rest as
sorted ``(key, value)`` pairs (``("from", 1)``).  Moves compare and hash by value,
so ``move in legal_moves`` is a plain list test.

JSON form (public interface): ``{"kind", "card", "text", "takes", ...extra}``,
cards as canonical text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from cardcore.cards import Card


class Move(NamedTuple):
    kind: str
    card: Card | None = None
    takes: tuple[Card, ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.extra:
            if k == key:
                return v
        return default


#: ``tuple_new(Move, (kind, card, takes, extra))`` builds a move without the
#: named tuple's own ``__new__`` (a Python-level call, ten times dearer): for the
#: move generators' inner loops, where all four fields are at hand
tuple_new = tuple.__new__


def make_move(kind: str, card: Card | None = None, takes: Iterable[Card] = (), **extra: Any) -> Move:
    """Build a move; ``extra`` keyword values become the sorted ``extra`` pairs."""
    return Move(kind, card, tuple(takes), tuple(sorted(extra.items())))


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return value.name
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def move_to_json(move: Move, text: str) -> dict[str, Any]:
    """The public JSON form of a move."""
    out: dict[str, Any] = {"kind": move.kind}
    if move.card is not None:
        out["card"] = move.card.name
    out["text"] = text
    if move.takes:
        out["takes"] = [c.name for c in move.takes]
    for k, v in move.extra:
        out[k] = _jsonable(v)
    return out


def default_move_text(move: Move) -> str:
    """A readable text for any move: ``pair 5H takes 5C``."""
    parts = [move.kind]
    if move.card is not None:
        parts.append(move.card.name)
    for k, v in move.extra:
        parts.append(f"{k} {_text(v)}")
    if move.takes:
        parts.append("takes " + " ".join(c.name for c in move.takes))
    return " ".join(parts)


def _text(value: Any) -> str:
    if isinstance(value, Card):
        return value.name
    if isinstance(value, (tuple, list)):
        return "+".join(_text(v) for v in value)
    return str(value)


def json_key(data: dict[str, Any]) -> dict[str, Any]:
    """A logged move's JSON without its ``text``: what identifies the move."""
    return {k: v for k, v in data.items() if k != "text"}


def find_move(moves: Sequence[Move], data: dict[str, Any]) -> Move | None:
    """The legal move whose JSON equals ``data`` (``text`` ignored), if any."""
    want = json_key(data)
    for m in moves:
        if json_key(move_to_json(m, "")) == want:
            return m
    return None
