"""Carrousel's deal state, builds, and their JSON (position-file) form."""

from __future__ import annotations

from typing import Any, NamedTuple

from cardcore.cards import Card, names
from cardcore.game import DealState, PositionError
from cardcore.position import PositionReader
from cardcore.table import Table
from cardcore_plugins.carrousel.cards import VALUES


class Build(NamedTuple):
    """A build on the table (C8): its cards, its value, the seat that owns it."""

    cards: tuple[Card, ...]
    value: int
    owner: int


Item = Card | Build


class CarrouselState(DealState):
    """A deal of Carrousel.

    ``board`` holds the table's items in the order they came: loose cards and
    builds.  ``piles`` one capture pile per side.  ``last_capture`` the side
    that made the last capture (C11), or None.
    """

    __slots__ = ("board", "last_capture", "piles")

    board: list[Item]
    piles: list[list[Card]]
    last_capture: int | None

    def clone(self) -> CarrouselState:
        s = CarrouselState.__new__(CarrouselState)
        self.copy_fields_to(s)
        s.board = list(self.board)  # items are immutable
        s.piles = [list(p) for p in self.piles]
        s.last_capture = self.last_capture
        return s

    def build_of(self, seat: int) -> Build | None:
        for item in self.board:
            if type(item) is Build and item.owner == seat:
                return item
        return None


def new_state(table: Table, dealer: int) -> CarrouselState:
    s = CarrouselState.__new__(CarrouselState)
    s.start_fields(table, dealer)
    s.board = []
    s.piles = [[] for _ in table.sides]
    s.last_capture = None
    return s


def item_cards(item: Item) -> tuple[Card, ...]:
    return item.cards if type(item) is Build else (item,)  # type: ignore[return-value]


def state_to_json(state: CarrouselState) -> dict[str, Any]:
    board: list[Any] = [
        {"build": names(i.cards), "owner": i.owner} if type(i) is Build else i.name  # type: ignore[union-attr]
        for i in state.board
    ]
    return {
        "dealer": state.dealer,
        "to_act": state.to_act,
        "hands": {str(i): names(h) for i, h in enumerate(state.hands)},
        "table": board,
        "stock": names(state.stock),
        "piles": {str(i): names(p) for i, p in enumerate(state.piles)},
        "last_capture": state.last_capture,
    }


def state_from_json(table: Table, data: dict[str, Any]) -> CarrouselState:
    r = PositionReader(table, data)
    n = table.players
    dealer, to_act = r.dealer_and_to_act()
    s = new_state(table, dealer)
    s.to_act = to_act
    s.hands = r.hands()
    raw = r.get("table", [])
    if not isinstance(raw, list):
        raise PositionError("table: expected a list of cards and builds")
    owners = set()
    for i, item in enumerate(raw):
        where = f"table[{i}]"
        if isinstance(item, dict):
            if set(item) - {"build", "owner"} or "build" not in item or "owner" not in item:
                raise PositionError(f"{where}: a build is {{build: [cards…], owner: SEAT}}")
            cards = tuple(r.cards(f"{where}.build", item["build"]))
            owner = r.index(f"{where}.owner", item["owner"], n, "seat")
            if len(cards) < 2 or any(VALUES[c] == 0 for c in cards):
                raise PositionError(
                    f"{where}: a build holds two or more cards with values (no J, Q, K, BROOM; C8)"
                )
            total = sum(VALUES[c] for c in cards)
            if total > 20:
                raise PositionError(f"{where}: build value {total} is above 20 (C8)")
            if owner in owners:
                raise PositionError(f"{where}: seat {owner} owns two builds (C8: at most one)")
            owners.add(owner)
            s.board.append(Build(cards, total, owner))
        else:
            s.board.extend(r.cards(where, [item]))
    s.stock = r.cards("stock")
    s.piles = r.per_side_cards("piles")
    last = r.get("last_capture")
    s.last_capture = None if last is None else r.index("last_capture", last, len(table.sides), "side")
    for b in s.board:
        if type(b) is Build and b.owner == to_act:
            hand = s.hands[to_act]
            if hand and not any(VALUES[c] == b.value or c.name == "BROOM" for c in hand):
                raise PositionError(
                    f"table: seat {to_act} owns the build of {b.value} but holds no card of that "
                    "value nor the broom to meet his duty (C8, C8b)"
                )
    if not s.hands[to_act] and any(s.hands):
        raise PositionError(f"to_act: seat {to_act} has no cards but another seat has")
    return s
