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


# ---- a listed move laid with the cards a person names ----------------------------------------
# Where suits do not matter (Canasta, N8a) the legal moves hold one move per
# kind of card; a person who names his cards lays those. These helpers build
# such a move (the game says whether it stands: ``cardcore_named_move``).


def laid_cards(move: Move) -> list[Card]:
    """The cards ``move`` lays from hand: its ``card``, then its ``cards`` extra."""
    out = [move.card] if move.card is not None else []
    cards = move.get("cards")
    if isinstance(cards, tuple):
        out += [c for c in cards if isinstance(c, Card)]
    return out


def relaid(move: Move, names: Sequence[str], hand: Sequence[Card]) -> Move | None:
    """``move`` with its laid cards, in order, replaced by cards of ``hand``
    named ``names`` (each a distinct card; the move's own card kept where the
    name is the same), or None when the count differs or the hand lacks one."""
    slots = laid_cards(move)
    if len(slots) != len(names):
        return None
    left = list(hand)
    chosen: list[Card | None] = [None] * len(slots)
    for i, (c, name) in enumerate(zip(slots, names, strict=True)):  # the move's own cards first
        if c.name == name and any(h is c for h in left):
            chosen[i] = c
            left.remove(c)
    for i, name in enumerate(names):
        if chosen[i] is None:
            found = next((h for h in left if h.name == name), None)
            if found is None:
                return None
            chosen[i] = found
            left.remove(found)
    cards = [c for c in chosen if c is not None]
    card = cards.pop(0) if move.card is not None else None
    extra = tuple((k, tuple(cards) if k == "cards" else v) for k, v in move.extra)
    return Move(move.kind, card, move.takes, extra)


def names_by_rank(move: Move, named: Sequence[Card]) -> list[str]:
    """The names of ``move``'s laid cards once each card of ``named`` takes the
    place of one of the same rank and another suit (no special card): what a
    person typed (``discard 6S`` for the listed ``discard 6C``)."""
    laid = laid_cards(move)
    slots = [c.name for c in laid]
    ranks = [c.rank for c in laid]
    wanted = [c for c in named if not c.special]
    fixed = [False] * len(slots)
    for c in list(wanted):  # named cards the move lays already stay
        for i, name in enumerate(slots):
            if not fixed[i] and name == c.name:
                fixed[i] = True
                wanted.remove(c)
                break
    for c in wanted:
        for i, rank in enumerate(ranks):
            if not fixed[i] and rank == c.rank:
                slots[i], fixed[i] = c.name, True
                break
    return slots
