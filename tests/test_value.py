"""The learned evaluation (``cardcore/value.py``, ``ismcts:value=learned``,
issue 52): its file checked when loaded, its margin what its weights say, the
search scoring cut playouts with it (and with the points held where no model
is shipped), its options checked, and training that fits what it measures."""

from __future__ import annotations

import dataclasses
import random

import pytest

from cardcore.errors import TableError
from cardcore.kinds import make_player
from cardcore.rl.encoding import encoding_for
from cardcore.runner import play_match
from cardcore.table import Table
from cardcore.value import Evaluator, ValueModel, features, held_margin, load_value


def _zero(table: Table, **weights: float) -> ValueModel:
    encoding = encoding_for(table)
    return ValueModel(
        encoding.name,
        encoding.size,
        weights.get("bias", 0.0),
        weights.get("turn", 0.0),
        (0.0,) * encoding.size,
        {},
        None,
    )


def _position(table: Table, seed: int, moves: int):
    """A deal of ``seed`` after ``moves`` moves of the first legal move."""
    match = table.new_match(seed)
    state = match.start_deal()
    for _ in range(moves):
        state_moves = table.fast_legal_moves(state)
        table.fast_apply_move(state, state_moves[0])
    return state


def test_a_value_file_round_trips_and_bad_ones_are_refused(registry):
    table = Table(registry.game("carrousel"), 2)
    model = _zero(table, bias=1.5)
    again = ValueModel.from_json(model.to_json())
    assert again == model
    data = model.to_json()
    with pytest.raises(ValueError, match="finite"):
        ValueModel.from_json({**data, "bias": float("nan")})
    with pytest.raises(ValueError, match="observation weights"):
        ValueModel.from_json({**data, "observation": data["observation"][:-1]})
    with pytest.raises(ValueError, match="encoding"):
        Evaluator(table, dataclasses.replace(model, encoding="another"))


def test_the_margin_is_the_held_margin_plus_the_weights_reading(registry):
    """Zero weights give the points held; a bias adds itself; a weight on an
    entry of the observation adds that entry times the weight; the turn
    weight counts only when the seat's side is to play."""
    table = Table(registry.game("carrousel"), 2)
    state = _position(table, 3, 5)
    held = held_margin(table, state, 0)[0]
    assert Evaluator(table, _zero(table)).margin(state, 0) == pytest.approx(held)
    assert Evaluator(table, _zero(table, bias=7.0)).margin(state, 0) == pytest.approx(held + 7.0)
    _, vector, _, turn = features(table, encoding_for(table), state, 0)
    entry = next(i for i, v in enumerate(vector) if v)
    weights = [0.0] * len(vector)
    weights[entry] = 2.0
    model = dataclasses.replace(_zero(table, turn=3.0), observation=tuple(weights))
    expected = held + 2.0 * vector[entry] + (3.0 if turn else 0.0)
    assert Evaluator(table, model).margin(state, 0) == pytest.approx(expected)


def _reference_margin(table: Table, model: ValueModel, state, seat: int) -> float:
    """The model's definition, from ``features``: the held margin, the bias,
    the turn weight, each observation entry times its weight, each named
    score key times its weight."""
    margin, vector, keys, turn = features(table, encoding_for(table), state, seat)
    total = model.bias + (model.turn if turn else 0.0)
    total += sum(w * v for w, v in zip(model.observation, vector, strict=True))
    total += sum(model.keys[k] * v for k, v in keys.items() if k in model.keys)
    return margin + total


@pytest.mark.parametrize(
    ("game", "players"), [("canasta", 2), ("paquet_voleur", 3), ("carrousel", 4), ("canasta", 4)]
)
def test_the_evaluators_sum_is_the_models_definition(registry, game, players):
    """The evaluator's fast sum (its score keys split by side once, the dot
    product in C) gives what the model's definition gives, for every seat,
    along a deal, with a weight drawn for every entry and every score key
    (named relative to the seat's side: with three or four sides, or two
    partnerships, a wrong turn of them shows)."""
    table = Table(registry.game(game), players)
    states = [_position(table, 11, moves) for moves in (0, 7, 19, 40)]
    states = [s for s in states if not table.fast_is_deal_over(s)]
    assert states
    names = {
        k
        for s in states
        for seat in range(players)
        for k in features(table, encoding_for(table), s.clone(), seat)[2]
    }
    rng = random.Random(52)
    # a few names of no score (another side's, none, an unknown key, a number spelled otherwise)
    # and a few of the real ones left out: no weight, no term
    kept = sorted(names)[::3] + sorted(names)[1::3]
    bogus = ["9:points", "points", "0:nope", "00:points", ":points"]
    model = dataclasses.replace(
        _zero(table, bias=rng.uniform(-5, 5), turn=rng.uniform(-5, 5)),
        observation=tuple(rng.uniform(-1, 1) for _ in range(encoding_for(table).size)),
        keys={k: rng.uniform(-1, 1) for k in kept + bogus},
    )
    evaluator = Evaluator(table, model)
    for state in states:
        for seat in range(players):
            fast = evaluator.margin(state.clone(), seat)
            assert fast == pytest.approx(
                _reference_margin(table, model, state.clone(), seat), rel=1e-9, abs=1e-9
            )


def _walk(table: Table, seed: int, deals: int):
    """Every position of ``deals`` deals from ``seed`` played by random moves."""
    rng = random.Random(seed)
    for d in range(deals):
        match = table.new_match(seed + d)
        state = match.start_deal()
        while not table.fast_is_deal_over(state):
            yield state
            moves = table.fast_legal_moves(state)
            table.fast_apply_move(state, rng.choice(moves))


@pytest.mark.parametrize(
    ("players", "house_rules"),
    [
        (2, ()),
        (3, ()),
        (4, ()),
        (3, ("canasta.every_man_for_himself",)),
        (4, ("canasta.permission_required",)),
    ],
)
def test_the_state_reader_writes_what_the_view_shows(registry, players, house_rules):
    """``Encoding.observe_state`` (the evaluator's reader: Canasta writes it
    straight from the state) writes, for every seat at every position of
    random deals, exactly what the encoding writes of the seat's view: the
    same numbers, entry for entry (a float summed otherwise would differ),
    staged melds, "May I go out?", N17's lone taker and house rules included."""
    table = Table.from_names(registry, "canasta", players, house_rules=house_rules)
    encoding = encoding_for(table)
    assert table.observes_as_game()
    seen = 0
    for state in _walk(table, 5200 + players, 3):
        for seat in range(players):
            direct = [0.0] * encoding.size
            encoding.observe_state(table, state, seat, direct)
            viewed = [0.0] * encoding.size
            encoding.observe(table.observe(state, seat), viewed)
            assert direct == viewed, (seen, seat)
            seen += 1
    assert seen > 300


def test_a_wrapped_view_is_read_through_the_view(registry):
    """A house rule that answers ``cardcore_observe`` (here: one that hides the
    pile's top) is what the evaluator's reader reads: the view, not the state."""
    from cardcore.game import HouseRuleSpec
    from cardcore.hookspecs import hookimpl

    class HideTop:
        @hookimpl(wrapper=True)
        def cardcore_observe(self, state, seat):
            obs = yield
            obs.public["pile"] = {**obs.public["pile"], "top": None}
            return obs

    rule = HouseRuleSpec(name="test.hide_top", game="canasta", summary="", plugin=HideTop())
    table = Table(registry.game("canasta"), 2, house_rules=[rule])
    assert not table.observes_as_game()
    encoding = encoding_for(table)
    state = _position(table, 11, 3)
    direct = [0.0] * encoding.size
    encoding.observe_state(table, state, 0, direct)
    viewed = [0.0] * encoding.size
    encoding.observe(table.observe(state, 0), viewed)
    assert direct == viewed
    assert not any(direct[len(encoding.cards) : 2 * len(encoding.cards)])  # no top: the rule's view


def test_the_search_scores_cut_playouts_with_the_model(registry, monkeypatch):
    """With ``value=learned`` the search's estimates move by the model's bias
    (every cut playout gains it); without a model shipped it plays as with
    the points held."""
    table = Table(registry.game("carrousel"), 2)
    spec = "ismcts:iterations=40,rollout=greedy,depth=3"

    def estimates(spec: str) -> list[float]:
        """The estimates of the search's first decision of several moves."""
        player = make_player(table, spec, 0, random.Random(9))
        first: list[float] = []
        choose = player.choose

        def choosing(observation, moves, decision=None):
            move = choose(observation, moves, decision)
            if len(moves) > 1 and not first:
                first.extend(points for _, _, points in player.estimates())
            return move

        player.choose = choosing
        seats = [player, make_player(table, "greedy", 1, random.Random(1))]
        play_match(table, seats, 12, max_deals=1)
        assert first
        return first

    monkeypatch.setattr("cardcore.ismcts.load_value", lambda table: None)
    held = estimates(spec + ",value=learned")
    assert held == estimates(spec)  # no model: the points held
    monkeypatch.setattr("cardcore.ismcts.load_value", lambda table: _zero(table, bias=1000.0))
    lifted = estimates(spec + ",value=learned")
    assert min(lifted) > max(held) + 500  # the first decision's playouts were cut, and scored by the model


def test_value_options_are_checked(registry):
    table = Table(registry.game("carrousel"), 2)
    with pytest.raises(TableError, match="value"):
        make_player(table, "ismcts:value=maybe,depth=4", 0, random.Random(0))
    with pytest.raises(TableError, match="depth"):
        make_player(table, "ismcts:value=learned", 0, random.Random(0))


def test_training_fits_better_than_the_points_held(registry):
    """On its own data the fitted model's error is below the points held's
    (it could not be above: zero weights are among the fits; a broken fit or
    label is), and the fit is the same for the same seeds."""
    pytest.importorskip("numpy")
    from cardcore.learn import fit_value, measure_value, value_rows

    table = Table(registry.game("paquet_voleur"), 2)
    rows = value_rows("paquet_voleur", 2, range(1, 13), "greedy", 3)
    assert rows and all(r.seed in range(1, 13) for r in rows)
    model = fit_value(rows, encoding_for(table), l2=10.0)
    measured = measure_value(rows, model)
    assert measured["mse"]["model"] < measured["mse"]["held"]
    assert (
        fit_value(value_rows("paquet_voleur", 2, range(1, 13), "greedy", 3), encoding_for(table), 10.0)
        == model
    )


def test_shipped_value_models_load_for_their_tables(registry):
    """Every value file shipped with a game loads and matches its table's encoding."""
    for game in registry.games:
        for players in range(2, 5):
            try:
                table = Table(registry.game(game), players)
            except Exception:
                continue
            model = load_value(table)
            if model is not None:
                Evaluator(table, model)


def test_recording_leaves_the_deal_as_it_would_have_gone(registry):
    """Canasta counts a position by finishing the deal (its staged melds back
    to the hand): the recorder reads a copy, so a deal recorded at every
    position ends as one recorded once."""
    pytest.importorskip("numpy")
    from cardcore.learn import value_rows

    for seed in (2, 5):
        every = value_rows("canasta", 2, [seed], "greedy", 1)
        once = value_rows("canasta", 2, [seed], "greedy", 100_000)
        assert len(every) > len(once) == 2
        assert {r.final for r in every} == {r.final for r in once}


def test_the_shipped_canasta_model_beats_the_points_held_on_fresh_deals(registry):
    """Canasta 2p's shipped evaluation (docs/INFERENCE.md: a fifth of the
    error removed on 750 fresh deals) predicts the deal's end better than the
    points held on fresh seeds of its own."""
    pytest.importorskip("numpy")
    from cardcore.learn import FRESH_SEED, measure_value, value_rows

    table = Table(registry.game("canasta"), 2)
    model = load_value(table)
    assert model is not None and model.meta["seeds"][1] < FRESH_SEED
    rows = value_rows("canasta", 2, range(FRESH_SEED + 5000, FRESH_SEED + 5060), "greedy", 4)
    measured = measure_value(rows, model)
    assert measured["removed"] > 0.05, measured


@pytest.mark.parametrize("game", ["canasta", "paquet_voleur"])
def test_the_conformance_kit_passes_with_the_learned_evaluation(registry, game):
    """The search scoring its cut playouts with the shipped model plays the
    same move with the same estimates whatever the cards its seat cannot see."""
    from cardcore.testing import check_no_leak

    table = Table(registry.game(game), 2)
    assert load_value(table) is not None
    stats = check_no_leak(table, 1, seed=3, every=9, search="ismcts:iterations=8,depth=6,value=learned")
    assert stats.searches >= 5
