"""Paquet voleur's state: the deal's fields (the position-file format) and
what every seat knows of a hand from the trails it saw (``lacks``, P5c)."""

from __future__ import annotations

from cardcore.cards import RANKS, Card
from cardcore.game import DealState, PositionError
from cardcore.position import PositionReader
from cardcore.state import (
    DEALER,
    HANDS,
    STOCK,
    TO_ACT,
    cards,
    check_to_act_holds,
    side_cards,
    side_or_none,
    slots,
    value,
)
from cardcore.state import Field as StateField
from cardcore_plugins.paquet_voleur.words import T


def ranks_of(mask: int) -> list[int]:
    """The ranks (1 = ace … 13 = king) a ``lacks`` entry holds: bit ``r`` for rank ``r``."""
    return [r for r in range(1, 14) if mask >> r & 1]


def _dump_lacks(lacks: list[int]) -> dict[str, list[str]]:
    return {str(i): [RANKS[r - 1] for r in ranks_of(mask)] for i, mask in enumerate(lacks) if mask}


def _read_lacks(r: PositionReader, key: str, s: DealState) -> list[int]:
    """Per seat, the ranks it is known not to hold: ``{"1": ["5", "K"]}``."""
    n = r.table.players
    out = [0] * n
    raw = r.get(key, {})
    if not isinstance(raw, dict):
        # i18n: an error in a position file; {field}: where in the file (keep it as it is)
        raise PositionError(T("{field}: expected a mapping of seats to ranks", field=key))
    for k, listed in raw.items():
        seat = r.index(key, k, n, "seat", key=True)
        mask = 0
        for name in listed if isinstance(listed, list) else [listed]:
            text = str(name).upper()
            if text not in RANKS:
                # i18n: an error in a position file; {field}: where in the file; {name}: what it lists
                raise PositionError(
                    T("{field}: {name} is not a rank (A, 2 … 10, J, Q, K)", field=key, name=repr(name))
                )
            mask |= 1 << (RANKS.index(text) + 1)
        out[seat] = mask
    return out


class PVState(DealState):
    """A deal of Paquet voleur.

    ``board`` is the table (cards face up, in the order they came), ``piles``
    one pile per side, bottom first (the top is the last card), ``last_taker``
    the side that last paired or stole (for the house rule of P7).
    ``lacks`` holds, per seat, the ranks every seat knows are not in his
    hand: P5c lets him trail only when no card of his can pair or steal, so
    when he trails, the cards he keeps have none of the table's ranks nor
    of an opponent's pile's top. It is public (everyone saw the trail) and
    emptied when new cards are dealt (P6: only to empty hands); the search's
    imagined deals keep it (``cardcore_sample_state``). An entry is a
    number, bit ``r`` set for rank ``r`` (``ranks_of``). ``reading`` (not in
    the JSON) is False in an imagined deal: no search imagines deals from an
    imagined one, so its playouts skip that bookkeeping.
    """

    FIELDS = (
        DEALER,
        TO_ACT,
        HANDS,
        cards("board", key="table"),
        STOCK,
        side_cards("piles"),
        value("last_taker", read=side_or_none),
        StateField("lacks", "list", per="seat", default=0, dump=_dump_lacks, read=_read_lacks),
        value("reading", True, key=None),
    )
    __slots__ = slots(FIELDS)

    board: list[Card]
    piles: list[list[Card]]
    last_taker: int | None
    lacks: list[int]
    reading: bool

    def check_position(self, r: PositionReader) -> None:
        check_to_act_holds(self)
        for seat, mask in enumerate(self.lacks):
            held = [c for c in self.hands[seat] if mask >> c.rank & 1]
            if held:
                # i18n: an error in a position file: {card} is in the hand of {seat}, whose "lacks"
                # says it holds no card of that rank (keep "lacks" as it is: the file's key)
                raise PositionError(
                    T("lacks: seat {seat} holds {card}, of a rank it lacks", seat=seat, card=held[0])
                )
