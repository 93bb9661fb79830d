"""Carrousel's arrays for learning agents (``cardcore_rl_encoding``;
``cardcore.rl``, docs/RL.md). K is the number of kinds of card of the table's
deck (56 with every special card), in the deck's order; every side and seat
is counted from the seat's own on.

Action ids: ``trail`` card: ``card``; the broom's ``sweep``: ``K``;
``capture`` with card: ``K + 1 + CAPTURES·card + j``; ``build`` with card:
``K + 1 + CAPTURES·K + BUILDS·card + j``, where j numbers that card's
captures (builds) of the decision in a fixed order: by the cards taken
(by value, then the cards laid onto) in the deck's order. A capture past the
``CAPTURES``-th of one card (a build past the ``BUILDS``-th) is not offered
(random play never came near: 35 and 12 at most over 900 deals).

Observation: the hand (K), the loose table cards (K), for each side its
builds' cards (K), their values (/20, summed), the cards it has captured
(/K) and whether it captured last; each seat's hand size (/K), the stock
(/K), whether the seat dealt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardcore.game import Observation
from cardcore.moves import Move
from cardcore.rl.encoding import Encoding, Vector, relative_sides

if TYPE_CHECKING:
    from cardcore.table import Table

CAPTURES = 48
BUILDS = 32


class CarrouselEncoding(Encoding):
    name = "carrousel"

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        k, n = len(self.cards), len(self.sides)
        self.actions = k + 1 + CAPTURES * k + BUILDS * k
        self.action_parts = (("trail", k), ("sweep", 1), ("capture", CAPTURES * k), ("build", BUILDS * k))
        self.parts = (
            ("hand", k),
            ("table: loose cards", k),
            *((f"builds' cards, side +{i}", k) for i in range(n)),
            *((f"builds' values, side +{i}", 1) for i in range(n)),
            *((f"captured, side +{i}", 1) for i in range(n)),
            *((f"captured last, side +{i}", 1) for i in range(n)),
            *((f"hand size, seat +{i}", 1) for i in range(self.players)),
            ("stock", 1),
            ("dealer", 1),
        )
        self.high = 1.0

    def observe(self, obs: Observation, out: Vector) -> None:
        k, n = len(self.cards), len(self.sides)
        seat = obs.seat if obs.seat is not None else 0
        count = self.cards.count
        place = {side: i for i, side in enumerate(relative_sides(self.sides, seat))}
        count(obs.hand, out, 0)
        builds = 2 * k
        values = builds + n * k
        for item in obs.public["table"]:
            if isinstance(item, dict):
                p = place[self.side_of[item["owner"]]]
                count(item["build"], out, builds + p * k)
                out[values + p] = min(1.0, out[values + p] + item["value"] / 20)
            else:
                count([item], out, k)
        captured = values + n
        for side, pile in enumerate(obs.public["captured"]):
            out[captured + place[side]] = pile["size"] / k
        last = obs.public["last_capture"]
        if last is not None:
            out[captured + n + place[self.side_of[last["seats"][0]]]] = 1.0
        at = captured + 2 * n
        for i in range(self.players):
            out[at + i] = obs.hand_sizes[(seat + i) % self.players] / k
        at += self.players
        out[at] = obs.stock / k
        out[at + 1] = 1.0 if obs.dealer == seat else 0.0

    def _key(self, move: Move) -> tuple[Any, ...]:
        index = self.cards.index
        if move.kind == "build":
            return (move.get("value"), sorted(index[c.name] for c in move.get("onto")))
        return (sorted(index[c.name] for c in move.takes),)

    def actions_of(self, moves: Sequence[Move], obs: Observation) -> list[int]:
        k = len(self.cards)
        index = self.cards.index
        out = [-1] * len(moves)
        groups: dict[tuple[str, int], list[int]] = {}
        for i, m in enumerate(moves):
            assert m.card is not None, m
            card = index[m.card.name]
            if m.kind == "trail":
                out[i] = card
            elif m.kind == "sweep":
                out[i] = k
            elif m.kind in ("capture", "build"):
                groups.setdefault((m.kind, card), []).append(i)
            else:
                raise ValueError(f"carrousel's encoding: no action id for a move of kind {m.kind!r}")
        for (kind, card), at in groups.items():
            at.sort(key=lambda i: self._key(moves[i]))
            cap, base = (CAPTURES, k + 1) if kind == "capture" else (BUILDS, k + 1 + CAPTURES * k)
            for j, i in enumerate(at[:cap]):
                out[i] = base + cap * card + j
        return out

    def action(self, move: Move, obs: Observation, index: int) -> int:
        """A move's id needs the decision's other moves (its j): ``actions_of``."""
        raise NotImplementedError("carrousel's encoding numbers a decision's moves: actions_of(moves, obs)")
