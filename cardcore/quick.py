"""Python in a few lines: a match, ``cardcore.play(game, seats=[...],
seed=...)``; a simulation's deals as rows a DataFrame takes,
``cardcore.simulate(game, seats=[...], deals=N)`` (the module
``cardcore.simulate`` called: ``simulate.__call__`` is ``deal_rows``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore.simulate import MatchRecord, Merger, SimSpec, _table, backend_for, play_chunk, run_chunks


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


def deal_rows(
    game: str,
    seats: Sequence[str] = ("normal", "normal"),
    seed: int = 0,
    deals: int | None = None,
    matches: int | None = None,
    options: Mapping[str, Any] | None = None,
    house_rules: Sequence[str] = (),
    jobs: int = 1,
) -> list[dict[str, Any]]:
    """The deals of ``cardcore simulate GAME --seed SEED`` with a player of
    each kind of ``seats``, ``deals`` deals (100 when neither is given) or
    ``matches`` matches, as rows a DataFrame takes
    (``pandas.DataFrame(cardcore.simulate(...))``): per deal its ``match``
    and ``deal`` (from 1), its ``moves``, each side's points (``side_0``,
    ``side_1`` …) and its ``winner`` (the side with the most points, None on
    a tie). The same seed, the same rows, whatever ``jobs``."""
    if deals is None and matches is None:
        deals = 100
    spec = SimSpec(
        game, len(seats), tuple(sorted((options or {}).items())), tuple(house_rules), tuple(seats), seed
    )
    rows: list[dict[str, Any]] = []

    def keep(record: MatchRecord) -> None:
        for i, (points, moves) in enumerate(record.deals, 1):
            best = max(points)
            row: dict[str, Any] = {"match": record.number + 1, "deal": i, "moves": moves}
            row.update({f"side_{s}": p for s, p in enumerate(points)})
            row["winner"] = points.index(best) if list(points).count(best) == 1 else None
            rows.append(row)

    table = _table(spec.game, spec.players, spec.options, spec.house_rules)  # (made once a process)
    backend = backend_for("local", jobs)
    try:
        run_chunks(spec, backend, Merger(len(table.sides), deals, matches), keep)
    finally:
        backend.close(cancel=True)
    return rows
