"""Canasta's arrays for learning agents (``cardcore_rl_encoding``;
``cardcore.rl``, docs/RL.md). K = 53 kinds of card (52 and the joker; the two
decks' copies counted together), in the deck's order; R = 13 ranks (A, 2 … K).

Action ids: ``draw`` 0, ``commit`` 1, ``withdraw`` 2, ``ask_go_out`` 3,
``answer`` yes 4 / no 5, ``stop`` 6; ``discard`` card: ``7 + card``; ``add``
card to the meld of a rank: ``7 + K + R·card + rank``; ``meld`` of a rank:
``7 + K + R·K + MELDS·rank + j``; ``take_pile``: ``7 + K + R·K + MELDS·R + j``,
where j numbers the decision's melds of that rank (its takes of the pile) by
the cards they lay, in the deck's order. The legal list holds one move per
kind of card where suits do not matter (N8a), so the ids name kinds of card. A
meld past the ``MELDS``-th of a rank (a take past the ``TAKES``-th) is not offered.

Observation: the hand (K); the pile's top (K), its size (/108), whether it is
frozen for the seat's side; the phase (draw, pile, play, answer); for each side
in the deal from the seat's own on (one slot per seat: with partners the later
slots stay empty; with 3 players the sides change, N17), its melded cards (K),
its canastas natural and mixed (/5), red threes (/4), melded points (/1000)
and whether the pile is frozen for it; the match scores by side (/5000,
capped at 4); the staged initial meld (K) and its points (/1000); the initial
minimum (/120); "May I go out?" asked (pending, yes, no); whoever takes the
pile would play alone (3 players); each seat's hand size (/108); the stock
(/108); whether the seat dealt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from cardcore.game import DealState, Observation
from cardcore.moves import Move
from cardcore.rl.encoding import Encoding, Vector
from cardcore_plugins.canasta.melds import canasta_kind, frozen_for, meld_points

if TYPE_CHECKING:
    from cardcore.table import Table
    from cardcore_plugins.canasta.state import CanastaState

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK = {r: i for i, r in enumerate(RANKS)}
SIMPLE = {"draw": 0, "commit": 1, "withdraw": 2, "ask_go_out": 3, "stop": 6}
PHASES = ("draw", "pile", "play", "answer")
ASKED = ("pending", "yes", "no")
MELDS = 24
TAKES = 24
HIGH = 4.0  # no entry is larger: a kind's copies (the jokers: 4), the capped scores


class CanastaEncoding(Encoding):
    name = "canasta"

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        # the game's own answers a view reads (N10's minimum, N17's alone): ``observe_state``
        from cardcore_plugins.canasta.game import Canasta

        plugin = table.plugin
        # the view is the game's own and this class writes it: observe_state reads the state
        direct = type(self).observe is CanastaEncoding.observe and table.observes_as_game()
        self._game = plugin if isinstance(plugin, Canasta) and direct else None
        k, r, p = len(self.cards), len(RANKS), self.players
        self.meld_at = 7 + k + r * k
        self.take_at = self.meld_at + MELDS * r
        self.actions = self.take_at + TAKES
        self.action_parts = (
            *(
                (kind, 1)
                for kind in ("draw", "commit", "withdraw", "ask_go_out", "answer yes", "answer no", "stop")
            ),
            ("discard", k),
            ("add", r * k),
            ("meld", MELDS * r),
            ("take_pile", TAKES),
        )
        self.side_size = k + 6
        self.parts = (
            ("hand", k),
            ("pile top", k),
            ("pile size, frozen for the side", 2),
            ("phase", len(PHASES)),
            *(
                (f"side of seat +{i}: melded cards, canastas, red threes, points, frozen", k + 6)
                for i in range(p)
            ),
            *((f"score, side of seat +{i}", 1) for i in range(p)),
            ("staged cards", k),
            ("staged points, initial minimum", 2),
            ("asked", len(ASKED)),
            ("alone if taken", 1),
            *((f"hand size, seat +{i}", 1) for i in range(p)),
            ("stock", 1),
            ("dealer", 1),
        )
        self.high = HIGH

    def observe(self, obs: Observation, out: Vector) -> None:
        k, p = len(self.cards), self.players
        seat = obs.seat if obs.seat is not None else 0
        count = self.cards.count
        public = obs.public
        count(obs.hand, out, 0)
        pile = public["pile"]
        if pile["top"] is not None:
            count([pile["top"]], out, k)
        at = 2 * k
        out[at] = pile["size"] / self.deck
        out[at + 1] = 1.0 if pile["frozen"] else 0.0
        at += 2
        out[at + PHASES.index(str(public["phase"]))] = 1.0
        at += len(PHASES)
        slots = self._slots(public["sides"], seat)
        for slot, side in slots.items():
            base = at + slot * self.side_size
            for meld in side["melds"]:
                count(meld["cards"], out, base)
                if meld["canasta"] == "natural":
                    out[base + k] += 0.2
                elif meld["canasta"] == "mixed":
                    out[base + k + 1] += 0.2
            out[base + k + 2] = len(side["red_threes"]) / 4
            out[base + k + 3] = min(HIGH, side["meld_points"] / 1000)
            out[base + k + 4] = 1.0 if side["frozen"] else 0.0
        at += p * self.side_size
        for slot, score in self._slots(public["scores"], seat).items():
            out[at + slot] = max(0.0, min(HIGH, score["points"] / 5000))
        at += p
        for meld in public.get("staged", ()):
            count(meld["cards"], out, at)
        at += k
        out[at] = min(HIGH, public.get("staged_points", 0) / 1000)
        out[at + 1] = min(HIGH, public.get("initial_minimum", 0) / 120)
        at += 2
        asked = public.get("asked")
        if asked in ASKED:
            out[at + ASKED.index(asked)] = 1.0
        at += len(ASKED)
        out[at] = 1.0 if public.get("alone_if_taken") else 0.0
        at += 1
        for i in range(p):
            out[at + i] = obs.hand_sizes[(seat + i) % p] / self.deck
        at += p
        out[at] = obs.stock / self.deck
        out[at + 1] = 1.0 if obs.dealer == seat else 0.0

    def observe_state(self, table: Table, state: DealState, seat: int, out: Vector) -> None:
        """``observe(table.observe(state, seat), out)`` written straight from
        the state (the learned evaluation's reader at every cut playout's end),
        when the view is Canasta's own and this class's ``observe`` writes it;
        else through the view. The same entries in the same order as
        ``observe`` and ``cardcore_observe`` (a test compares them on every
        player count's positions): what the seat's view shows, no other hand."""
        game = self._game
        if game is None or table.plugin is not game:
            super().observe_state(table, state, seat, out)
            return
        cs = cast("CanastaState", state)
        k, p = len(self.cards), self.players
        count = self.cards.count
        count(cs.hands[seat], out, 0)
        pile = cs.discard
        if pile:
            count([pile[-1]], out, k)
        at = 2 * k
        out[at] = len(pile) / self.deck
        team = cs.team_at[seat]
        out[at + 1] = 1.0 if frozen_for(cs, team) else 0.0
        at += 2
        out[at + PHASES.index(str(cs.phase))] = 1.0
        at += len(PHASES)
        for i, (seats, melds, reds) in enumerate(zip(cs.teams, cs.melds, cs.red_threes, strict=True)):
            base = at + self._slot(seats, seat) * self.side_size
            for _, cards in sorted(melds.items()):
                count(cards, out, base)
                kind = canasta_kind(cards)
                if kind == "natural":
                    out[base + k] += 0.2
                elif kind == "mixed":
                    out[base + k + 1] += 0.2
            out[base + k + 2] = len(reds) / 4
            out[base + k + 3] = min(HIGH, meld_points(melds) / 1000)
            out[base + k + 4] = 1.0 if frozen_for(cs, i) else 0.0
        at += p * self.side_size
        for seats, points in zip(self.sides, cs.scores, strict=True):
            out[at + self._slot(seats, seat)] = max(0.0, min(HIGH, points / 5000))
        at += p
        if cs.staged:
            for cards in cs.staged.values():
                count(cards, out, at)
            out[at + k] = min(HIGH, meld_points(cs.staged) / 1000)
        at += k
        if not cs.melds[team]:
            out[at + 1] = min(HIGH, game.initial_minimum(cs, seat) / 120)
        at += 2
        if cs.asked in ASKED:
            out[at + ASKED.index(cs.asked)] = 1.0
        at += len(ASKED)
        out[at] = 1.0 if game.alone_if_taken(cs) else 0.0
        at += 1
        hands = cs.hands
        for i in range(p):
            out[at + i] = len(hands[(seat + i) % p]) / self.deck
        at += p
        out[at] = len(cs.stock) / self.deck
        out[at + 1] = 1.0 if cs.dealer == seat else 0.0

    def _slots(self, sides: Sequence[dict[str, Any]], seat: int) -> dict[int, dict[str, Any]]:
        """Each side at the slot of its first seat from ``seat`` on."""
        return {self._slot(side["seats"], seat): side for side in sides}

    def _slot(self, seats: Sequence[int], seat: int) -> int:
        """A side's slot: its first seat from ``seat`` on."""
        return min((s - seat) % self.players for s in seats)

    def _laid(self, move: Move) -> list[int]:
        index = self.cards.index
        cards = move.get("cards") or ()
        return sorted(index[c.name] for c in cards)

    def actions_of(self, moves: Sequence[Move], obs: Observation) -> list[int]:
        k, r = len(self.cards), len(RANKS)
        index = self.cards.index
        out = [-1] * len(moves)
        melds: dict[int, list[int]] = {}
        takes: list[int] = []
        for i, m in enumerate(moves):
            kind = m.kind
            if kind in SIMPLE:
                out[i] = SIMPLE[kind]
            elif kind == "answer":
                out[i] = 4 if m.get("yes") else 5
            elif kind == "discard":
                assert m.card is not None
                out[i] = 7 + index[m.card.name]
            elif kind == "add":
                assert m.card is not None
                out[i] = 7 + k + r * index[m.card.name] + RANK[m.get("rank")]
            elif kind == "meld":
                melds.setdefault(RANK[m.get("rank")], []).append(i)
            elif kind == "take_pile":
                takes.append(i)
            else:
                raise ValueError(f"canasta's encoding: no action id for a move of kind {kind!r}")
        for rank, at in melds.items():
            at.sort(key=lambda i: self._laid(moves[i]))
            for j, i in enumerate(at[:MELDS]):
                out[i] = self.meld_at + MELDS * rank + j
        takes.sort(key=lambda i: self._laid(moves[i]))
        for j, i in enumerate(takes[:TAKES]):
            out[i] = self.take_at + j
        return out

    def action(self, move: Move, obs: Observation, index: int) -> int:
        """A move's id needs the decision's other moves (its j): ``actions_of``."""
        raise NotImplementedError("canasta's encoding numbers a decision's moves: actions_of(moves, obs)")
