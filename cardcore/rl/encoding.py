"""Fixed-size arrays for learning agents: a game's action ids and observation
vector (``Encoding``), declared by the game (the hook ``cardcore_rl_encoding``)
or made by the generic fallback (``GenericEncoding``).

This module imports nothing beyond the core (no numpy): a game's encoding
writes plain numbers into the array it is given (``out[i] = v`` or
``out[i] += v``), a numpy vector in ``cardcore.rl``'s environments, a list in
a test. An encoding reads only an ``Observation`` (what one seat may see) and
the legal moves that seat is given: it cannot leak what the seat may not know.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from cardcore.cards import Card
from cardcore.game import DealState, Observation
from cardcore.moves import Move

if TYPE_CHECKING:
    from cardcore.table import Table


class Vector(Protocol):
    """Where an encoding writes: a zeroed, fixed-size, indexable array."""

    def __getitem__(self, index: int, /) -> Any: ...
    def __setitem__(self, index: int, value: float, /) -> None: ...
    def __len__(self) -> int: ...


class Encoding:
    """A game's fixed-size arrays (what ``cardcore_rl_encoding`` returns).

    ``actions``: the number of action ids (0 … ``actions`` − 1); ``size``: the
    length of the observation vector; ``high``: no entry of it is larger (none
    is negative). ``parts``: the vector's sections in order, ``(name,
    length)``, for the documentation and a reader (their lengths add up to
    ``size``). ``name``: what the encoding is called (``generic`` for the
    fallback).

    ``observe(obs, out)`` writes the seat's observation into ``out`` (zeroed,
    ``size`` long); ``action_parts``: the action ids' ranges in order,
    ``(kind, count)`` (their counts add up to ``actions``: a learner may share
    weights within a kind); ``action(move, obs, index)`` gives the id of a legal move
    (``index``: its place in the legal list): one fixed id per move shape
    (discard this card, capture these …), distinct for the legal moves of one
    decision (the environments refuse a decision where two share an id); −1:
    the move is not offered (past a cap). ``actions_of(moves, obs)`` gives the
    ids of a decision's whole legal list (the environments call it): by
    default ``action`` of each; an encoding whose ids number the moves of one
    shape among themselves (the j-th capture with this card) overrides it.
    """

    name: str = "encoding"
    actions: int = 0
    high: float = 1.0
    parts: tuple[tuple[str, int], ...] = ()
    action_parts: tuple[tuple[str, int], ...] = ()

    def __init__(self, table: Table) -> None:
        """What every encoding reads of its table: the deck's kinds of card
        (``cards``), the sides, the players, the deck's size, each seat's side."""
        self.cards = CardIndex(table.deck)
        self.sides = table.sides
        self.players = table.players
        self.deck = len(table.deck)
        self.side_of = table.side_of

    @functools.cached_property
    def size(self) -> int:
        """The observation vector's length: its parts' lengths added up."""
        return sum(n for _, n in self.parts)

    def observe(self, obs: Observation, out: Vector) -> None:
        raise NotImplementedError

    def observe_state(self, table: Table, state: DealState, seat: int, out: Vector) -> None:
        """What ``observe(table.observe(state, seat), out)`` writes, for a caller
        that holds the state (``cardcore.value.Evaluator``: at the end of every
        cut playout of a search). A game may write it straight from its state,
        without building the ``Observation``, when the view is its own
        (``Table.observes_as_game``: no house rule wraps or answers
        ``cardcore_observe``); it reads then what the view shows and nothing
        more (a test should compare the two: Canasta's, ``tests/test_value.py``)."""
        self.observe(table.observe(state, seat), out)

    def action(self, move: Move, obs: Observation, index: int) -> int:
        raise NotImplementedError

    def actions_of(self, moves: Sequence[Move], obs: Observation) -> list[int]:
        """The id of each legal move, in the list's order (−1: not offered)."""
        action = self.action
        return [action(m, obs, i) for i, m in enumerate(moves)]

    def describe(self) -> dict[str, Any]:
        """The encoding as data (``cardcore.rl`` documents it, a test reads it)."""
        return {
            "name": self.name,
            "actions": self.actions,
            "size": self.size,
            "parts": list(self.parts),
            "action_parts": list(self.action_parts),
        }


class CardIndex:
    """One index per kind of card of a table's deck (its copies share it: the
    vectors count them), in the deck's sort order: ``index[card.name]``."""

    def __init__(self, deck: Iterable[Card]) -> None:
        kinds: dict[str, tuple[Any, ...]] = {}
        for c in deck:
            kinds.setdefault(c.name, c.sort_key[:3])
        self.names = sorted(kinds, key=lambda n: kinds[n])
        self.index = {n: i for i, n in enumerate(self.names)}
        self.copies = max((sum(1 for c in deck if c.name == n) for n in self.names), default=1)

    def __len__(self) -> int:
        return len(self.names)

    def count(self, cards: Iterable[Card], out: Vector, at: int, weight: float = 1.0) -> None:
        """Add ``weight`` at ``at + index`` for each card of ``cards``."""
        index = self.index
        for c in cards:
            i = index.get(c.name)
            if i is not None:
                out[at + i] += weight


def cards_in(value: Any) -> list[Card]:
    """Every card in a view's value (lists, tuples, dicts, nested)."""
    if isinstance(value, Card):
        return [value]
    if isinstance(value, dict):
        return [c for v in value.values() for c in cards_in(v)]
    if isinstance(value, (list, tuple, set, frozenset)):
        return [c for v in value for c in cards_in(v)]
    return []


def relative_sides(sides: Sequence[Sequence[int]], seat: int) -> list[int]:
    """The sides' indexes from the side of ``seat`` on (its own first, then
    in side order after it): the vectors are the same for every seat."""
    mine = next(i for i, s in enumerate(sides) if seat in s)
    return [(mine + k) % len(sides) for k in range(len(sides))]


class GenericEncoding(Encoding):
    """The fallback for a game that declares no encoding: the legal list
    padded to ``cap`` (action id = the move's place in the list; moves past
    ``cap`` are not offered), and the observation's cards counted by kind.

    The vector: the hand; the public cards outside any side's item; for each
    side from the seat's own on, the cards of its items (a view item with
    ``seats``) and the sum of their ``size`` (cards not shown: a pile); each
    seat's hand size from the seat's own on; the stock; whether the seat is
    the dealer. Counts are divided by the deck's size where they are sizes.
    """

    name = "generic"

    def __init__(self, table: Table, cap: int = 128) -> None:
        super().__init__(table)
        k = len(self.cards)
        self.actions = cap
        self.action_parts = (("legal list", cap),)
        self.parts = (
            ("hand", k),
            ("table", k),
            *((f"side {i} cards", k) for i in range(len(self.sides))),
            *((f"side {i} size", 1) for i in range(len(self.sides))),
            *((f"seat {i} hand size", 1) for i in range(self.players)),
            ("stock", 1),
            ("dealer", 1),
        )
        self.high = float(max(self.cards.copies, 1))  # each physical card is in one place: a count

    def observe(self, obs: Observation, out: Vector) -> None:
        k = len(self.cards)
        seat = obs.seat if obs.seat is not None else 0
        self.cards.count(obs.hand, out, 0)
        order = relative_sides(self.sides, seat)
        where = {side: n for n, side in enumerate(order)}
        nsides = len(self.sides)
        side_at = 2 * k
        size_at = side_at + nsides * k
        for key, value in obs.public.items():
            if key == "scores":
                continue
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, dict) and "seats" in item:
                    side = self._side(item["seats"])
                    if side is None:
                        continue
                    n = where[side]
                    self.cards.count(cards_in(item), out, side_at + n * k)
                    size = item.get("size")
                    if isinstance(size, int):
                        out[size_at + n] += size / self.deck
                else:
                    self.cards.count(cards_in(item), out, k)
        at = size_at + nsides
        for i in range(self.players):
            sizes = obs.hand_sizes
            if sizes:
                out[at + i] = sizes[(seat + i) % self.players] / self.deck
        at += self.players
        out[at] = obs.stock / self.deck
        out[at + 1] = 1.0 if obs.dealer == seat else 0.0

    def _side(self, seats: Any) -> int | None:
        if not isinstance(seats, (list, tuple)) or not seats:
            return None
        for i, s in enumerate(self.sides):
            if seats[0] in s:
                return i
        return None

    def action(self, move: Move, obs: Observation, index: int) -> int:
        return index if index < self.actions else -1


def encoding_for(table: Table, generic: bool = False) -> Encoding:
    """The table's encoding: the game's (``cardcore_rl_encoding``, which a
    house rule may wrap or replace), else (or with ``generic``) the fallback."""
    if not generic:
        declared: Encoding | None = table.hook.cardcore_rl_encoding(table=table)
        if declared is not None:
            return declared
    return GenericEncoding(table)
