"""What a Paquet voleur position exercises (``GameSpec.features``): the
rulings the legal-move corpus (``tools/perft.py``) covers, beyond what every
game is tagged with (player count, move kinds, options, house rules)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcore.moves import Move
from cardcore.table import Table


def features(table: Table, state: Any, moves: Sequence[Move]) -> set[str]:
    out = set()
    if any(m.kind == "steal" for m in moves):
        out.add("P5b steal")
    if all(m.kind == "trail" for m in moves):
        out.add("P5c trail only")
    if len(table.sides) < table.players:
        out.add("P1 partnership")
    if not state.stock:
        out.add("P7 last cards")
    return out
