"""A state declared once (cardcore/state.py): clone, new, JSON and cards derived
from FIELDS, for a game that writes none of them, and the declaration's errors."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardcore.cards import Card
from cardcore.deck import DeckSpec, deal_rounds, shuffled
from cardcore.errors import CardcoreError
from cardcore.game import DealState, GamePlugin, GameSpec, NoOptions, Observation, PositionError, SideScore
from cardcore.hookspecs import hookimpl
from cardcore.moves import Move, make_move
from cardcore.position import PositionReader
from cardcore.position_file import position_from_data
from cardcore.seats import make_sides
from cardcore.state import (
    DEALER,
    HANDS,
    STOCK,
    TO_ACT,
    Field,
    cards,
    flag,
    one_of,
    side_cards,
    side_or_none,
    slots,
    value,
)
from cardcore.table import Table
from cardcore.testing import check_random_playouts, fingerprint


def _dump_marks(marks: dict[int, list[Card]]) -> dict[str, list[str]]:
    return {str(k): [c.name for c in v] for k, v in marks.items()}


def _read_marks(r: PositionReader, key: str, s: Any) -> dict[int, list[Card]]:
    return {int(k): r.cards(f"{key}.{k}", v) for k, v in r.get(key, {}).items()}


class TrickState(DealState):
    """A game of one trick after another, highest rank takes, with a field of each shape."""

    FIELDS = (
        DEALER,
        TO_ACT,
        HANDS,
        cards("trick", key="table"),
        STOCK,
        side_cards("won"),
        value("last_winner", read=side_or_none),
        value("mode", "plain", read=one_of(("plain", "double"), "plain", "plain or double")),
        value("done", False, read=flag),
        Field("marks", "dict", cards=True, dump=_dump_marks, read=_read_marks),
        Field(
            "seen", "dicts", per="seat", dump=lambda v: [sorted(d) for d in v], read=lambda r, k, s: s.seen
        ),
        Field("ranks", "set", dump=sorted, read=lambda r, k, s: set(r.get(k, []))),
        Field("passed", "list", per="seat", default=False, dump=list, read=lambda r, k, s: s.passed),
        value("order", key=None, new=lambda table: tuple(range(table.players))),
        cards("widow", hidden=True),  # face down: redeal_unseen deals it anew
    )
    __slots__ = slots(FIELDS)

    trick: list[Card]
    won: list[list[Card]]
    last_winner: int | None
    mode: str
    done: bool
    marks: dict[int, list[Card]]
    seen: list[dict[int, list[str]]]
    ranks: set[int]
    passed: list[bool]
    order: tuple[int, ...]
    widow: list[Card]

    def check_position(self, r: PositionReader) -> None:
        if self.done and any(self.hands):
            raise PositionError("done: cards are still in hand")


class Tricks(GamePlugin[NoOptions]):
    state_class = TrickState  # no state hook, no clone, no JSON written here

    @hookimpl
    def cardcore_build_deck(self, table: Table) -> list[Card]:
        return DeckSpec().build()

    @hookimpl
    def cardcore_deal(self, table: Table, match: Any, rng: random.Random, record: Any) -> TrickState:
        deck = shuffled(table.deck, rng)
        s = TrickState.new(table, match.dealer)
        i = deal_rounds(s.hands, deck, match.dealer, 5)
        s.widow, s.stock = deck[i : i + 3], deck[i + 3 :]
        return s

    @hookimpl
    def cardcore_legal_moves(self, state: TrickState) -> list[Move]:
        return [make_move("play", c) for c in state.hands[state.to_act]]

    @hookimpl
    def cardcore_apply_move(self, state: TrickState, move: Move) -> TrickState:
        assert move.card is not None
        state.hands[state.to_act].remove(move.card)
        state.trick.append(move.card)
        state.ranks.add(move.card.rank)
        n = state.players
        if len(state.trick) < n:
            state.to_act = (state.to_act + 1) % n
            return state
        best = max(range(n), key=lambda i: state.trick[i].rank)
        winner = (state.to_act + 1 + best) % n
        state.won[winner] += state.trick
        state.marks.setdefault(winner, []).append(state.won[winner].pop())
        state.trick = []
        state.last_winner = state.to_act = winner
        state.done = not any(state.hands)
        return state

    @hookimpl
    def cardcore_is_deal_over(self, state: TrickState) -> bool:
        return state.done

    @hookimpl
    def cardcore_score_deal(self, state: TrickState) -> list[SideScore]:
        return [SideScore(seats, len(state.won[i])) for i, seats in enumerate(state.table.sides)]

    @hookimpl
    def cardcore_observe(self, state: TrickState, seat: int | None) -> Observation:
        return Observation.of(state, seat, {"table": list(state.trick)})


TRICKS = GameSpec(
    name="tricks",
    title="Tricks",
    min_players=2,
    max_players=4,
    default_players=3,
    options_model=NoOptions,
    plugin=Tricks,
    sides=lambda players, options: make_sides(players, False),
)


def test_a_game_writing_no_state_plumbing_passes_the_conformance_suite():
    for players in (2, 3, 4):
        stats = check_random_playouts(Table(TRICKS, players), deals=4, seed=players, round_trip_every=1)
        assert stats.moves > 0


def test_the_derived_json_and_reading():
    t = Table(TRICKS, 3)
    s = t.new_match(2).start_deal()
    data = t.dump_state(s)
    assert list(data)[4:] == [
        "dealer",
        "to_act",
        "hands",
        "table",
        "stock",
        "won",
        "last_winner",
        "mode",
        "done",
        "marks",
        "seen",
        "ranks",
        "passed",
        "widow",
    ]
    assert data["hands"]["0"] == [c.name for c in s.hands[0]] and data["won"] == {"0": [], "1": [], "2": []}
    again = t.load_state(data)
    assert fingerprint(again) == fingerprint(s) and again.order == (0, 1, 2)
    # a problem names its field; the class's own check runs last
    for change, needle in [
        ({"table": ["ZZ"]}, "table[0]"),
        ({"won": {"7": []}}, "won: no side '7'"),
        ({"last_winner": 5}, "last_winner: no side '5'"),
        ({"mode": "triple"}, "mode: plain or double"),
        ({"done": True}, "done: cards are still in hand"),
        ({"table": [data["hands"]["0"][0]]}, "appears more often"),
    ]:
        with pytest.raises(CardcoreError, match=needle.replace("[", r"\[")):
            position_from_data({**data, **change}, _Registry())


class _Registry:
    def game(self, name: str) -> GameSpec:
        return TRICKS

    def house_rule(self, name: str, game: str) -> Any:
        raise AssertionError(name)


def test_clone_copies_every_container_and_shares_the_cards():
    t = Table(TRICKS, 3)
    s = t.new_match(3).start_deal()
    s.marks = {0: [s.stock[0]]}
    s.seen[1][4] = ["x"]
    twin = s.clone()
    assert type(twin) is TrickState and fingerprint(twin) == fingerprint(s) and twin.table is t
    for name in ("hands", "trick", "stock", "won", "marks", "seen", "ranks", "passed"):
        assert getattr(twin, name) is not getattr(s, name), name
    assert all(a is not b for a, b in zip(twin.hands, s.hands, strict=True))
    assert twin.marks[0] is not s.marks[0] and twin.seen[1][4] is not s.seen[1][4]
    assert twin.hands[0][0] is s.hands[0][0]  # cards are shared
    assert twin.order is s.order  # immutable values too


def test_the_derived_methods_are_straight_line_code():
    """No loop over the fields and no attribute by name at clone time (the
    source is generated once per class, like dataclasses' __init__)."""
    from cardcore_plugins.canasta.state import CanastaState

    for cls in (TrickState, CanastaState):
        code = cls.clone.__code__
        assert not {"getattr", "setattr", "FIELDS"} & set(code.co_names)
        assert "s.table = self.table" in __import__("inspect").getsource(cls.clone)


def test_a_new_deal_has_the_declared_defaults():
    t = Table(TRICKS, 4)
    s = TrickState.new(t, 2)
    assert (s.dealer, s.to_act, s.hands, s.stock) == (2, 3, [[], [], [], []], [])
    assert s.won == [[], [], [], []] and s.won[0] is not s.won[1]
    assert (s.last_winner, s.mode, s.done, s.marks, s.ranks) == (None, "plain", False, {}, set())
    assert s.seen == [{}, {}, {}, {}] and s.passed == [False] * 4 and s.order == (0, 1, 2, 3)


def test_a_method_the_class_writes_is_kept():
    class Own(TrickState):
        __slots__ = ()

        def clone(self) -> Own:
            return self

    s = Own.new(Table(TRICKS, 2), 0)
    assert type(s) is Own and s.clone() is s  # its own clone; new derived for Own
    assert type(TrickState.new(Table(TRICKS, 2), 0).clone()) is TrickState

    class Again(TrickState):
        __slots__ = ()

    t = Table(TRICKS, 2)
    assert type(Again.new(t, 0).clone()) is Again  # derived anew for the subclass


def _declare(fields: tuple[Field, ...], slot_names: tuple[str, ...] | None = None) -> type:
    namespace = {"FIELDS": fields, "__slots__": slots(fields) if slot_names is None else slot_names}
    return type("Bad", (DealState,), namespace)


@pytest.mark.parametrize(
    "fields,slot_names,needle",
    [
        ((DEALER, TO_ACT, HANDS), None, "the core's field stock is missing"),
        ((DEALER, TO_ACT, HANDS, STOCK, cards("stock")), None, "stock is declared twice"),
        ((DEALER, TO_ACT, HANDS, STOCK, cards("a", key="x"), cards("b", key="x")), None, "JSON key 'x'"),
        ((DEALER, TO_ACT, HANDS, STOCK, value("x")), None, "x is in the JSON but has no read="),
        ((DEALER, TO_ACT, HANDS, STOCK, value("x", [], read=flag)), None, "mutable default"),
        ((DEALER, TO_ACT, HANDS, STOCK, Field("x", "tuple", key=None)), None, "no shape 'tuple'"),
        ((DEALER, TO_ACT, HANDS, STOCK, Field("x", "lists", None, "side", True, True)), None, "hidden"),
        ((DEALER, TO_ACT, HANDS, STOCK, Field("x", "set", cards=True, read=flag)), None, "cards are held"),
        ((DEALER, TO_ACT, HANDS, STOCK), ("x",), "the slot(s) x have no field"),
        ((DEALER, TO_ACT, HANDS, STOCK, value("x", key=None)), (), "x not in __slots__"),
        ((value("dealer", read=flag), TO_ACT, HANDS, STOCK), None, "dealer is the core's"),
    ],
)
def test_a_wrong_declaration_is_refused_when_the_class_is_made(fields, slot_names, needle):
    with pytest.raises(TypeError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        _declare(fields, slot_names)


def test_hidden_fields_are_what_a_seat_imagines_anew():
    from cardcore.game import redeal_unseen

    assert TrickState.HIDDEN == (("hands", True), ("stock", False), ("widow", False))
    t = Table(TRICKS, 3)
    s = t.new_match(4).start_deal()
    rng = random.Random(1)
    moved = 0
    for _ in range(20):
        sample = redeal_unseen(s, 1, rng)
        assert sample.hands[1] == s.hands[1] and sample.won == s.won
        assert [len(h) for h in sample.hands] == [len(h) for h in s.hands] and len(sample.widow) == 3
        hidden = [*sample.hands[0], *sample.hands[2], *sample.stock, *sample.widow]
        assert sorted(map(id, hidden)) == sorted(map(id, [*s.hands[0], *s.hands[2], *s.stock, *s.widow]))
        moved += sample.widow != s.widow
    assert moved > 15
