"""A match from Python in one call: ``cardcore.play(game, seats=[...], seed=...)``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore.simulate import MatchRecord, SimSpec, play_chunk


def play(
    game: str,
    seats: Sequence[str] = ("normal", "normal"),
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    house_rules: Sequence[str] = (),
    deals: int | None = None,
    log: bool = False,
) -> MatchRecord:
    """Play one match of ``game`` with a player of each kind of ``seats``
    (``random``, ``normal``, ``expert``, ``greedy`` …; one per seat) and return
    its record: each deal's points per side and moves, whether it is over,
    its winning sides, and with ``log`` its game log (JSON lines). The match
    is match 0 of ``cardcore simulate GAME --seed SEED`` with those players:
    the same deal, the same moves. ``deals``: stop after that many deals.

        >>> import cardcore
        >>> cardcore.play("paquet_voleur", seats=["normal", "random"], seed=1).winners
    """
    spec = SimSpec(
        game,
        len(seats),
        tuple(sorted((options or {}).items())),
        tuple(house_rules),
        tuple(seats),
        seed,
        log=log,
    )
    record: MatchRecord = play_chunk(spec, 0, 1, max_deals=deals).records[0]
    return record
