"""Carrousel's deal state, builds, and their JSON (position-file) form."""

from __future__ import annotations

from typing import Any, NamedTuple

from cardcore.cards import Card, names
from cardcore.game import DealState, PositionError
from cardcore.position import PositionReader
from cardcore.state import (
    DEALER,
    HANDS,
    STOCK,
    TO_ACT,
    Field,
    check_to_act_holds,
    side_cards,
    side_or_none,
    slots,
    value,
)
from cardcore_plugins.carrousel.cards import VALUES
from cardcore_plugins.carrousel.words import T


class Build(NamedTuple):
    """A build on the table (C8): its cards, its value, the seat that owns it."""

    cards: tuple[Card, ...]
    value: int
    owner: int


Item = Card | Build


def item_cards(item: Item) -> tuple[Card, ...]:
    return item.cards if type(item) is Build else (item,)  # type: ignore[return-value]


def board_json(board: list[Item]) -> list[Any]:
    """The table's items: a card by name, a build as ``{build: [cards…], owner: SEAT}``."""
    return [
        {"build": names(i.cards), "owner": i.owner} if type(i) is Build else i.name  # type: ignore[union-attr]
        for i in board
    ]


def read_board(r: PositionReader, key: str, state: Any) -> list[Item]:
    """The table's cards and builds (C8: two or more valued cards, at most 20,
    at most one build per seat)."""
    raw = r.get(key, [])
    if not isinstance(raw, list):
        # i18n: {field}: where in the position file ("table"); a build: cards grouped on the table (C8)
        raise PositionError(T("{field}: expected a list of cards and builds", field=key))
    board: list[Item] = []
    owners = set()
    for i, item in enumerate(raw):
        where = f"{key}[{i}]"
        if isinstance(item, dict):
            if set(item) - {"build", "owner"} or "build" not in item or "owner" not in item:
                # i18n: build, cards and owner are the file's words (keep them); SEAT: a seat number
                raise PositionError(T("{field}: a build is {{build: [cards…], owner: SEAT}}", field=where))
            cards = tuple(r.cards(f"{where}.build", item["build"]))
            owner = r.index(f"{where}.owner", item["owner"], r.table.players, "seat")
            if len(cards) < 2 or any(VALUES[c] == 0 for c in cards):
                raise PositionError(
                    # i18n: J, Q, K, BROOM: the cards as written in position files (keep them)
                    T(
                        "{field}: a build holds two or more cards with values (no J, Q, K, BROOM; C8)",
                        field=where,
                    )
                )
            total = sum(VALUES[c] for c in cards)
            if total > 20:
                raise PositionError(
                    T("{field}: build value {value} is above 20 (C8)", field=where, value=total)
                )
            if owner in owners:
                raise PositionError(
                    T("{field}: seat {seat} owns two builds (C8: at most one)", field=where, seat=owner)
                )
            owners.add(owner)
            board.append(Build(cards, total, owner))
        else:
            board.extend(r.cards(where, [item]))
    return board


class CarrouselState(DealState):
    """A deal of Carrousel.

    ``board`` holds the table's items in the order they came: loose cards and
    builds.  ``piles`` one capture pile per side.  ``last_capture`` the side
    that made the last capture (C11), or None.
    """

    FIELDS = (
        DEALER,
        TO_ACT,
        HANDS,
        Field("board", "list", "table", cards=item_cards, dump=board_json, read=read_board),
        STOCK,
        side_cards("piles"),
        value("last_capture", read=side_or_none),
    )
    __slots__ = slots(FIELDS)

    board: list[Item]
    piles: list[list[Card]]
    last_capture: int | None

    def build_of(self, seat: int) -> Build | None:
        for item in self.board:
            if type(item) is Build and item.owner == seat:
                return item
        return None

    def check_position(self, r: PositionReader) -> None:
        """C8b: the owner of a build to act holds a card of its value (or the broom)."""
        to_act = self.to_act
        for b in self.board:
            if type(b) is Build and b.owner == to_act:
                hand = self.hands[to_act]
                if hand and not any(VALUES[c] == b.value or c.name == "BROOM" for c in hand):
                    raise PositionError(
                        # i18n: "table" is the position file's key (keep it)
                        T(
                            "table: seat {seat} owns the build of {value} but holds no card of that "
                            "value nor the broom to meet his duty (C8, C8b)",
                            seat=to_act,
                            value=b.value,
                        )
                    )
        check_to_act_holds(self)


new_state = CarrouselState.new
