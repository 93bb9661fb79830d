"""Reading a game's fields of a position: ``PositionReader``, which each
game's state class reads its fields with (``DealState.from_json``). Reading
a whole position file, its header first, is ``cardcore.position_file``'s.

Position (scenario) files: a deal frozen at one moment, in YAML or JSON.

    game: paquet_voleur
    players: 3
    options: {}
    house_rules: []
    dealer: 2
    to_act: 0
    hands: {0: [5H, 9C], 1: [KH, 2S], 2: []}   # seats not listed have empty hands
    table: [5C, KD]
    stock: []                                   # next card to come first
    piles: {0: [], 1: [3C, 9D], 2: []}          # per side, bottom first

The header (``game``, ``players``, ``options``, ``house_rules``) builds the
table; the game reads the rest with ``PositionReader``, which hands out each
physical card at most once (a card listed more often than the deck holds it is
an error) and names the field of every problem.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardcore.cards import Card, CardError
from cardcore.deck import CardPool
from cardcore.errors import at, message
from cardcore.game import PositionError
from cardcore.i18n import T

if TYPE_CHECKING:
    from cardcore.table import Table


class PositionReader:
    """Reads a game's fields of a position, checking every card against the deck."""

    def __init__(self, table: Table, data: dict[str, Any]) -> None:
        self.table = table
        self.data = data
        self.pool = CardPool(table.deck)

    def has(self, key: str) -> bool:
        return key in self.data and self.data[key] is not None

    def get(self, key: str, default: Any = None) -> Any:
        value = self.data.get(key, default)
        return default if value is None else value

    def card_names(self, field: str, value: Any = None) -> list[Any]:
        """The items of a list of cards, not yet read as cards: a YAML or JSON
        list, never a text (``build: 2H 3H`` is an error naming the field,
        not the build 2H+3H); missing or null: empty."""
        raw = self.get(field, []) if value is None else value
        if isinstance(raw, str):
            raise PositionError(
                # i18n: {field}: where in the position file; [2H, 3H]: a list as the file writes it (keep it)
                T(
                    "{field}: expected a list of cards such as [2H, 3H], not the text {said!r}",
                    field=field,
                    said=raw[:40],
                )
            )
        if not isinstance(raw, list):
            raise PositionError(T("{field}: expected a list of cards", field=field))
        return raw

    def cards(self, field: str, value: Any = None) -> list[Card]:
        """A list of cards (a YAML or JSON list of card names, ``card_names``),
        each a card of the deck not handed out yet."""
        raw = self.card_names(field, value)
        out = []
        for i, text in enumerate(raw):
            try:
                out.append(self.pool.take(str(text)))
            except CardError as err:
                raise PositionError(at(f"{field}[{i}]", message(err))) from None
        return out

    def seat(self, field: str, default: int | None = None) -> int:
        value = self.get(field, default)
        if value is None:
            raise PositionError(T("{field}: missing", field=field))
        return self.index(field, value, self.table.players, "seat")

    def dealer_and_to_act(self) -> tuple[int, int]:
        """``dealer`` and ``to_act``; either may be left out: the player to the
        dealer's left acts, the player to the right of the one to act dealt."""
        n = self.table.players
        if self.has("dealer"):
            dealer = self.seat("dealer")
            return dealer, self.seat("to_act", (dealer + 1) % n)
        to_act = self.seat("to_act", 0)
        return (to_act - 1) % n, to_act

    def index(self, field: str, value: Any, count: int, what: str, key: bool = False) -> int:
        """A seat or side number: a whole number, never a bool, a float or a
        text (``0.7``, ``true``, ``' 1 '`` are errors naming the field); as a
        mapping's ``key`` also its decimal text, which JSON keys are (``"1"``)."""
        said = str(value)[:40]
        if key and isinstance(value, str) and value.isascii() and value.isdigit():
            value = int(value) if str(int(value)) == value else value  # "1", not "01"
        side = what == "side"
        if type(value) is not int:
            if side:
                raise PositionError(
                    T("{field}: {said!r} is not a side number (a whole number)", field=field, said=said)
                )
            raise PositionError(
                T("{field}: {said!r} is not a seat number (a whole number)", field=field, said=said)
            )
        if not 0 <= value < count:
            if side:
                raise PositionError(
                    T("{field}: no side {said!r} (0 to {last})", field=field, said=said, last=count - 1)
                )
            raise PositionError(
                T("{field}: no seat {said!r} (0 to {last})", field=field, said=said, last=count - 1)
            )
        return value

    def per(self, field: str, count: int, what: str) -> dict[int, Any]:
        """A mapping keyed by seat or side number (YAML ints or JSON strings),
        each number once (``0`` and ``'0'`` are the same seat)."""
        raw = self.get(field, {})
        if isinstance(raw, list):
            raw = dict(enumerate(raw))
        if not isinstance(raw, dict):
            if what == "side":
                raise PositionError(T("{field}: expected a mapping of side numbers", field=field))
            raise PositionError(T("{field}: expected a mapping of seat numbers", field=field))
        out: dict[int, Any] = {}
        for k, v in raw.items():
            i = self.index(field, k, count, what, key=True)
            if i in out:
                if what == "side":
                    raise PositionError(T("{field}: side {i} is given twice", field=field, i=i))
                raise PositionError(T("{field}: seat {i} is given twice", field=field, i=i))
            out[i] = v
        return out

    def hands(self) -> list[list[Card]]:
        return self.per_seat_cards("hands")

    def per_seat_cards(self, field: str) -> list[list[Card]]:
        """A list of cards per seat (seats not listed: empty)."""
        out: list[list[Card]] = [[] for _ in range(self.table.players)]
        for seat, value in sorted(self.per(field, self.table.players, "seat").items()):
            out[seat] = self.cards(f"{field}.{seat}", [] if value is None else value)
        return out

    def per_side_cards(self, field: str) -> list[list[Card]]:
        sides = len(self.table.sides)
        out: list[list[Card]] = [[] for _ in range(sides)]
        for side, value in sorted(self.per(field, sides, "side").items()):
            out[side] = self.cards(f"{field}.{side}", [] if value is None else value)
        return out
