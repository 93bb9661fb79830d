"""Canasta's rules, gathered for the game plugin and the tests. Each job has
its module: ``melds.py`` (canastas needed, minimum, frozen pile),
``finish.py`` (whether a turn can still end, G1, and whether a hand can go
out, on card counts), ``movegen.py`` (legal moves), ``turn.py`` (what a move
does, the turn's bookkeeping), ``verify.py`` (each move kind's rule with its
reason: why a move is illegal, or None), ``explain.py`` (that reason, for the
hook)."""

from __future__ import annotations

from cardcore_plugins.canasta.explain import explain
from cardcore_plugins.canasta.finish import Turn, can_finish
from cardcore_plugins.canasta.melds import (
    CANASTA,
    canastas_needed,
    count_canastas,
    frozen_for,
    meld_points,
    minimum_for,
    partner_of,
    rank_of,
)
from cardcore_plugins.canasta.movegen import exhausted_takes, legal_moves, take_options
from cardcore_plugins.canasta.turn import apply, begin_turn, deal_over, form_partnership

__all__ = [
    "CANASTA",
    "Turn",
    "apply",
    "begin_turn",
    "can_finish",
    "canastas_needed",
    "count_canastas",
    "deal_over",
    "exhausted_takes",
    "explain",
    "form_partnership",
    "frozen_for",
    "legal_moves",
    "meld_points",
    "minimum_for",
    "partner_of",
    "rank_of",
    "take_options",
]
