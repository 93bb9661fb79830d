"""What a Carrousel position exercises (``GameSpec.features``): the rulings
the legal-move corpus (``tools/perft.py``) covers, beyond what every game is
tagged with (player count, move kinds, options, house rules)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcore.moves import Move
from cardcore.table import Table
from cardcore_plugins.carrousel.state import Build


def features(table: Table, state: Any, moves: Sequence[Move]) -> set[str]:
    out = set()
    builds = [b for b in state.board if type(b) is Build]
    if builds:
        out.add("C8 build on the table")
    if any(b.owner == state.to_act for b in builds):
        out.add("C8b owner bound")
    if len({b.value for b in builds}) < len(builds):
        out.add("C8c two builds of one value")
    if any(m.kind == "capture" and m.card is not None and m.card.rank > 10 for m in moves):
        out.add("C7 face capture")
    if any(m.kind == "capture" and len(m.takes) >= 3 for m in moves):
        out.add("C6 groups")
    if any(m.kind == "sweep" for m in moves):
        out.add("C9 broom")
    if any(m.kind == "trail" for m in moves) and any(m.kind != "trail" for m in moves):
        out.add("C10 free trail")
    if any(m.kind == "build" and m.get("value") > 10 for m in moves):
        out.add("C8 build above 10")
    if not state.stock:
        out.add("C11 last hands")
    return out
