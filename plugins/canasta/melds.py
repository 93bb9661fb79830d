"""The numbers around a side's melds: canastas needed (N11), the initial
minimum (N10), whether the pile is frozen (N9), meld points, partners."""

from __future__ import annotations

from cardcore.cards import Card
from cardcore.moves import Move
from cardcore_plugins.canasta.cards import RANK_NAMES, VALUES, WILD
from cardcore_plugins.canasta.state import CanastaState

CANASTA = 7


RANK_NUMBER = {name: r for r, name in RANK_NAMES.items()}


def canastas_needed(state: CanastaState) -> int:
    """N11: one canasta with 4 players, two with 2 or 3."""
    return 1 if len(state.hands) == 4 else 2  # (the players, without a property's call)


def minimum_for(score: int) -> int:
    """N10: the initial-meld minimum from the cumulative score."""
    if score < 0:
        return 15
    if score < 1500:
        return 50
    if score < 3000:
        return 90
    return 120


def partner_of(state: CanastaState, seat: int) -> int | None:
    if state.players != 4:
        return None
    return (seat + 2) % 4


def meld_points(melds: dict[int, list[Card]]) -> int:
    return sum(VALUES[c] for m in melds.values() for c in m)


def frozen_for(state: CanastaState, team: int) -> bool:
    """N9: frozen for a side until it has melded; for everyone while the pile
    holds a wild card or was started frozen (N4)."""
    if not state.melds[team] or state.frozen_start:
        return True
    return any(WILD[c] for c in state.discard)


def canasta_kind(cards: list[Card]) -> str | None:
    """N8: a meld of seven or more is a canasta, natural without a wild card."""
    if len(cards) < CANASTA:
        return None
    return "mixed" if any(WILD[c] for c in cards) else "natural"


def count_canastas(melds: dict[int, list[Card]]) -> int:
    return sum(1 for m in melds.values() if len(m) >= CANASTA)


def rank_of(m: Move) -> int | None:
    """The rank (as a number) a ``meld`` or ``add`` move names in its ``rank`` field."""
    name = m.get("rank")
    return None if name is None else RANK_NUMBER.get(name)
