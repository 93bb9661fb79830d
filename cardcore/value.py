"""Learned evaluation of a position: what a seat's side may still expect to
gain or lose in the rest of the deal, beyond the points it holds now
(``ismcts:value=learned``; issue 52; docs/INFERENCE.md, "The learned evaluation").

A search that stops its playouts after ``depth`` moves scores the position as
it stands (``Table.score_position``: the points each side holds). What that
count leaves out — the cards still to be won, a meld half made, who plays
next — is what this model adds: a linear function of

- the seat's observation at that position, as the game's fixed-size
  encoding writes it (``cardcore.rl.encoding``: its hand, the table, what each
  seat has shown …; the seat's view only: the model reads no other hand);
- each side's points and their breakdown as ``score_position`` counts them
  (relative to the seat's side: its own first);
- whether the seat's side is to play.

Its output, added to the margin held now (the seat's side's points less the
mean of the other sides'), estimates the margin at the deal's end had both
sides played on as the rollout bot (``greedy``) plays: the number a playout
to the end would have given, without playing it. The weights are fitted by
ridge regression on the game's own simulated deals (``python -m cardcore.learn
value``) and shipped beside the game (``<game package>/inference/value-<n>p.json``,
with the command, seeds and sizes that made them). Play needs no numpy: a
sum over the few non-zero entries of the observation.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce
from operator import add, mul
from typing import TYPE_CHECKING, Any

from cardcore.game import DealState
from cardcore.infer import shipped
from cardcore.rl.encoding import Encoding, encoding_for

if TYPE_CHECKING:
    from cardcore.table import Table


def held_margin(table: Table, state: DealState, seat: int) -> tuple[float, list[Any]]:
    """``seat``'s side's points less the mean of the other sides' in
    ``state`` as ``score_position`` counts them, and the sides' scores."""
    rows = table.score_position(state)
    mine = table.side_of[seat]
    points = [s.points for s in rows]
    others = [p for i, p in enumerate(points) if i != mine]
    return points[mine] - (sum(others) / len(others) if others else 0), rows


def score_keys(rows: Sequence[Any], mine: int) -> dict[str, float]:
    """The sides' points and breakdowns, named relative to the side ``mine``
    (``"0:points"`` its own, ``"1:aces"`` the next side's …)."""
    out: dict[str, float] = {}
    n = len(rows)
    for k, row in enumerate(rows):
        rel = (k - mine) % n
        out[f"{rel}:points"] = float(row.points)
        for key, v in row.breakdown.items():
            out[f"{rel}:{key}"] = float(v)
    return out


@dataclass(frozen=True)
class ValueModel:
    """Trained weights: ``bias``, ``turn`` (the seat's side to play), one per
    entry of the encoding's observation (``encoding`` named and ``size`` long,
    checked when loaded) and one per score key (``keys``)."""

    encoding: str
    size: int
    bias: float
    turn: float
    observation: tuple[float, ...]
    keys: dict[str, float]
    meta: Any = None

    def to_json(self) -> dict[str, Any]:
        return {
            "encoding": self.encoding,
            "size": self.size,
            "bias": self.bias,
            "turn": self.turn,
            "observation": list(self.observation),
            "keys": dict(self.keys),
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ValueModel:
        observation = tuple(float(w) for w in data["observation"])
        keys = {str(k): float(v) for k, v in dict(data["keys"]).items()}
        numbers = [float(data["bias"]), float(data["turn"]), *observation, *keys.values()]
        if not all(math.isfinite(w) for w in numbers):
            raise ValueError("a value model's weights must be finite numbers")
        if len(observation) != int(data["size"]):
            raise ValueError(f"a value model of {len(observation)} observation weights, not {data['size']}")
        return cls(
            str(data["encoding"]),
            int(data["size"]),
            float(data["bias"]),
            float(data["turn"]),
            observation,
            keys,
            data.get("meta"),
        )


def features(
    table: Table, encoding: Encoding, state: DealState, seat: int
) -> tuple[float, list[float], dict[str, float], bool]:
    """What the model reads of ``state`` for ``seat``: the held margin, the
    observation vector, the score keys and whether its side is to play.
    ``state`` may be changed (``score_position`` is counted last: a game
    without its own count finishes the deal to count it)."""
    vector = [0.0] * encoding.size
    encoding.observe(table.observe(state, seat), vector)
    mine = table.side_of[seat]
    turn = table.side_of[state.to_act] == mine
    margin, rows = held_margin(table, state, seat)
    return margin, vector, score_keys(rows, mine), turn


class Evaluator:
    """A table's value model at play: ``margin(state, seat)`` is the margin the
    seat's side may expect at the deal's end (``state`` may be changed).

    It is called at the end of every cut playout (``ismcts``), so it adds up
    what ``features`` reads without building its names: the score keys'
    weights split once by side (``_sides``), the observation's dot product
    added up in C, term after term in the entries' order (``reduce(add,
    map(mul, …))``: the same sums as a loop over the non-zero entries, on
    every Python; ``sum`` compensates its rounding from 3.12 on)."""

    def __init__(self, table: Table, model: ValueModel) -> None:
        encoding = encoding_for(table)
        if encoding.name != model.encoding or encoding.size != model.size:
            raise ValueError(
                f"a value model for the encoding {model.encoding} ({model.size}), "
                f"not {encoding.name} ({encoding.size})"
            )
        self.table = table
        self.encoding = encoding
        self.model = model
        self._sides: list[dict[str, float]] = [{} for _ in table.sides]  # relative side → key → weight
        prefixes = {str(i): i for i in range(len(table.sides))}  # score_keys' names: "0:points", "1:aces" …
        for name, w in model.keys.items():
            rel, colon, key = name.partition(":")
            if colon and rel in prefixes:
                self._sides[prefixes[rel]][key] = w

    def margin(self, state: DealState, seat: int) -> float:
        table = self.table
        model = self.model
        if table.fast_is_deal_over(state):
            return held_margin(table, state, seat)[0]  # the deal's own result: nothing to predict
        vector = [0.0] * model.size
        self.encoding.observe_state(table, state, seat, vector)  # the seat's view, as features() reads it
        mine = table.side_of[seat]
        turn = table.side_of[state.to_act] == mine
        total = reduce(add, map(mul, model.observation, vector), model.bias + (model.turn if turn else 0.0))
        margin, rows = held_margin(table, state, seat)  # counted last, as features() does
        sides = self._sides
        n = len(rows)
        for k, row in enumerate(rows):  # score_keys' order: each side's points, then its breakdown
            kw = sides[(k - mine) % n]
            w = kw.get("points")
            # as score_keys names them: a breakdown's own "points", were there one, stands for it
            if w is not None and "points" not in row.breakdown:
                total += w * float(row.points)
            for key, v in row.breakdown.items():
                w = kw.get(key)
                if w is not None:
                    total += w * float(v)
        return margin + total


def value_path(table: Table) -> Any:
    """Where the game's value model for this many players lies (it may not exist)."""
    return shipped(table, f"value-{table.players}p.json")


def load_value(table: Table) -> ValueModel | None:
    """The game's shipped value model for the table's player count, or None."""
    try:
        text = value_path(table).read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, OSError):
        return None
    return ValueModel.from_json(json.loads(text))
