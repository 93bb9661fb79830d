"""Learned inference of the hidden hands (``cardcore/infer.py``, ``ismcts:infer=learned``,
``python -m cardcore.learn``; docs/INFERENCE.md): it reads only what the seat may know
(its probabilities and its imagined deals are the same for every arrangement of the
unseen cards the seat cannot tell apart), its imagined deals are legal and consistent,
play needs no numpy, and training is deterministic."""

from __future__ import annotations

import json
import random

import pytest

from cardcore import infer
from cardcore.decision import Decision
from cardcore.infer import FEATURES, Inference, Model, load_model, model_path
from cardcore.kinds import make_player
from cardcore.runner import play_match
from cardcore.table import Table

#: weights that make every feature count (the shipped model's may be small)
STRONG = Model((0.0, -2.0, -0.5, 0.2, 0.5))


class _Watcher:
    """Greedy at a seat that follows the game with an ``Inference`` and, at each
    decision, hands ``check(inference, decision)`` the decision (the test may
    look at the real deal; the inference never does)."""

    needs_observation = False

    def __init__(self, table, seat, check, model=STRONG):
        self.table = table
        self.inner = make_player(table, "greedy", seat, random.Random(seat))
        self.inference = Inference(table, seat, model, random.Random(7))
        self.witness = self.inference.witness
        self.check = check
        self.rng = random.Random(3)

    def choose(self, observation, moves, decision):
        self.check(self.inference, decision)
        move = self.inner.choose(None, moves, decision)
        self.inference.moved(decision, move, self.rng)
        return move


def _twin(table, decision, rng):
    """Another arrangement of the cards ``decision``'s seat cannot see, drawn by the
    game's sampler (so it agrees with all the seat knows): a ``Decision`` on it."""
    true = decision._state
    state = decision.sample(rng)
    assert table.observe(state, decision.seat) == table.observe(true, decision.seat)
    assert table.dump_state(state).get("lacks") == table.dump_state(true).get("lacks")
    return Decision(table, decision.match, state, decision.seat, decision.deal, decision.index)


def _reading(inference, decision, seed):
    samples = [decision.sample(random.Random(f"{seed}/{i}")) for i in range(12)]
    infos = inference.cards(samples)
    return [(i.card.name, i.places, [round(p, 12) for p in inference.probabilities(i)]) for i in infos]


@pytest.mark.parametrize("game,players", [("paquet_voleur", 2), ("paquet_voleur", 3), ("carrousel", 2)])
def test_what_the_model_says_does_not_change_when_the_unseen_cards_are_redealt(registry, game, players):
    table = Table(registry.game(game), players)
    checked = {"decisions": 0, "read": 0}

    def check(inference, decision):
        if decision.index % 3:
            return
        real = _reading(inference, decision, decision.index)
        pool = inference.pool(decision, 16, random.Random(decision.index))
        for k in range(2):
            twin = _twin(table, decision, random.Random(f"twin/{decision.index}/{k}"))
            assert _reading(inference, twin, decision.index) == real
            other = inference.pool(twin, 16, random.Random(decision.index))
            assert (pool is None) == (other is None)
            if pool is not None:
                assert [table.dump_state(s) for s in pool.states] == [
                    table.dump_state(s) for s in other.states
                ]
                assert pool.cumulative == other.cumulative
        checked["decisions"] += 1
        checked["read"] += any(p[0] < 1 and len(p) > 1 for _, _, p in real) and bool(inference.reader.seen)

    seats = [_Watcher(table, s, check) for s in range(players)]
    play_match(table, seats, 11, max_deals=1)
    assert checked["decisions"] >= 8
    assert checked["read"] >= 3  # the history was read, not only the base rates


def test_the_check_catches_a_model_that_looks_at_the_hidden_cards(registry):
    """The control: features that peek at the real deal differ between twins."""
    table = Table(registry.game("paquet_voleur"), 2)
    differed = []

    class Peeking(Inference):
        def cards(self, samples):
            infos = super().cards(samples)
            for i in infos:  # the real deal's other hand: what a leak would read
                held = i.card in self.peek.hands[1 - self.seat]
                i.features[0][1] = 0.0 if held else 1.0  # contra: "not there" when it is not
            return infos

    def check(inference, decision):
        if decision.index % 4 or not decision._state.stock:
            return
        inference.__class__ = Peeking
        inference.peek = decision._state
        real = _reading(inference, decision, 1)
        twin = _twin(table, decision, random.Random(decision.index))
        inference.peek = twin._state
        differed.append(_reading(inference, twin, 1) != real)
        inference.__class__ = Inference

    play_match(table, [_Watcher(table, s, check) for s in range(2)], 5, max_deals=1)
    assert any(differed)


@pytest.mark.parametrize("game,players", [("paquet_voleur", 2), ("paquet_voleur", 3), ("carrousel", 2)])
def test_the_learned_sampler_deals_legal_consistent_states(registry, game, players):
    table = Table(registry.game(game), players)
    drawn = [0]

    def check(inference, decision):
        true = decision._state
        seat = decision.seat
        pool = inference.pool(decision, 24, random.Random(decision.index))
        if pool is None:
            return
        assert all(w > 0 for w in (pool.cumulative[0], pool.total))
        rng = random.Random(1)
        for _ in range(6):
            s = pool.draw(rng)
            drawn[0] += 1
            assert sorted(c.name for c in s.all_cards()) == sorted(c.name for c in table.deck)
            assert [len(h) for h in s.hands] == [len(h) for h in true.hands]
            assert len(s.stock) == len(true.stock)
            assert s.hands[seat] == true.hands[seat]  # the seat's own cards where they are
            assert table.observe(s, seat) == table.observe(true, seat)
            if game == "paquet_voleur":
                assert s.board == true.board and s.piles == true.piles and s.lacks == true.lacks
                for p, hand in enumerate(s.hands):  # a rank a seat is known to lack is not in its hand
                    assert not any(true.lacks[p] >> c.rank & 1 for c in hand)
            assert table.fast_legal_moves(s) == table.fast_legal_moves(true)  # the seat's own moves

    play_match(table, [_Watcher(table, s, check) for s in range(players)], 3, max_deals=1)
    assert drawn[0] >= 30


@pytest.mark.parametrize("game", ["paquet_voleur", "carrousel"])
def test_the_shipped_model_says_how_it_was_made(registry, game):
    table = Table(registry.game(game), 2)
    assert load_model(table) is not None
    data = json.loads(model_path(table).read_text(encoding="utf-8"))
    assert data["features"] == list(FEATURES)
    meta = data["meta"]
    assert meta["command"].startswith("python -m cardcore.learn train")
    assert meta["seeds"][1] < 100_000 and meta["cards"] > 10_000
    assert model_path(table).stat().st_size < 10_000


def test_training_is_deterministic_and_beats_uniform_on_its_data():
    np = pytest.importorskip("numpy")
    from cardcore import learn

    rows = learn.generate("paquet_voleur", 2, range(1, 4), kinds=("greedy",), every=3, samples=8)
    again = learn.generate("paquet_voleur", 2, range(1, 4), kinds=("greedy",), every=3, samples=8)
    assert [(r.info.card, r.truth, r.info.features) for r in rows] == [
        (r.info.card, r.truth, r.info.features) for r in again
    ]
    weights = learn.fit(rows)
    assert weights == learn.fit(again) and all(np.isfinite(weights))
    result = learn.measure(rows, Model(weights))
    assert result["logloss"]["model"] < result["logloss"]["uniform"]
    assert infer.Model.from_json(Model(weights).to_json()).weights == weights


@pytest.mark.parametrize("game", ["paquet_voleur", "carrousel"])
def test_a_place_ruled_out_never_holds_the_card(game):
    """What the rules rule out is certain: over real games the card is never there
    (a Carrousel build, legal only with a card of its value kept, rules nothing out)."""
    from cardcore import learn

    rows = learn.generate(game, 2, [2], kinds=("greedy",), every=2, samples=8)
    assert sum(any(r.info.ruled_out) for r in rows) > 10
    assert not any(r.info.ruled_out[r.truth] for r in rows)
