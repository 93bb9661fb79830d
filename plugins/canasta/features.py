"""What a Canasta position exercises (``GameSpec.features``): the rulings the
legal-move corpus (``tools/perft.py``) covers, beyond what every game is
tagged with (player count, move kinds, options, house rules)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcore.moves import Move
from cardcore.table import Table
from cardcore_plugins.canasta.rules import frozen_for


def features(table: Table, state: Any, moves: Sequence[Move]) -> set[str]:
    out = {f"phase:{state.phase}"}
    team = state.team_of(state.to_act)
    if state.discard and any(m.kind == "take_pile" for m in moves):
        out.add("N9 take")
    if not state.melds[team]:
        out.add("N10 not melded")
    if not state.stock:
        out.add("N13 stock out")
    if state.last_red_three:
        out.add("N13a last red three")
    if state.asked:
        out.add(f"N12 asked {state.asked}")
    if any(m.kind == "meld" and m.get("rank") == "3" for m in moves):
        out.add("N12c black threes")
    if state.pile_taker is not None:
        out.add("N17 partnership")
    if state.discard and state.phase == "draw" and frozen_for(state, team):
        out.add("N9a frozen")
    if any(m.kind == "discard" for m in moves) and len(state.hands[state.to_act]) == 1:
        out.add("N12 last card")
    return out
