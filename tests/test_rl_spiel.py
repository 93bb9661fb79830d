"""cardcore[rl]: every installed game as an OpenSpiel game: OpenSpiel's own
random-simulation check on each example table, the deal of chance outcome i
that of ``simulate --seed i``, the observer's tensor the environments' vector."""

from __future__ import annotations

import random

import pytest
from conftest import EVERY_TABLE

from cardcore.seeds import match_seed

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install -e '.[rl]')")
spiel = pytest.importorskip("cardcore.rl.spiel")
np = pytest.importorskip("numpy")

IDS = [f"{g}-{p}" for g, p, _ in EVERY_TABLE]


@pytest.mark.parametrize(("game", "players", "options"), EVERY_TABLE, ids=IDS)
def test_random_sim_test(game, players, options):
    import json

    spiel.register()
    loaded = pyspiel.load_game(f"cardcore_{game}", {"players": players, "options": json.dumps(options)})
    assert loaded.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert loaded.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(loaded, num_sims=2, serialize=False, verbose=False)


def test_chance_deals_as_simulate_and_tensors_match_the_environment():
    from cardcore.rl.aec import raw_env

    spiel.register()
    game = pyspiel.load_game("cardcore_paquet_voleur", {"players": 2})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1000
    state.apply_action(7)
    table = game.table
    dealt = table.new_match(match_seed(7, 0)).start_deal()
    assert [[c.name for c in h] for h in dealt.hands] == [list(h) for h in state.first_hands]
    env = raw_env(table)
    env.reset(seed=7)
    rng = random.Random(1)
    while not state.is_terminal():
        seat = state.current_player()
        assert env.seat == seat
        assert state.legal_actions() == sorted(env.legal_moves())
        for p in range(2):
            assert np.array_equal(
                np.array(state.observation_tensor(p), np.float32), env.observe(f"seat_{p}")["observation"]
            )
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        env.step(action)
    assert state.returns() == [env.rewards["seat_0"], env.rewards["seat_1"]]
    text = state.information_state_string(0)
    assert text.startswith("seat 0 dealt ") and '"kind"' in text


def test_openspiel_ismcts_plays_with_the_games_sampler():
    """OpenSpiel's own (Python) ISMCTS plays a few decisions, the worlds it
    imagines drawn by the game's sampler: each keeps the seat's information
    state as it is."""
    from open_spiel.python.algorithms import ismcts, mcts

    spiel.register()
    game = pyspiel.load_game("cardcore_paquet_voleur", {"players": 2})
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        uct_c=20.0,
        max_simulations=10,
        random_state=np.random.RandomState(0),
    )
    resample = spiel.resampler(1)
    bot.set_resampler(resample)
    state = game.new_initial_state()
    state.apply_action(3)
    for _ in range(6):
        player = state.current_player()
        imagined = resample(state, player)
        assert imagined.information_state_string(player) == state.information_state_string(player)
        assert imagined.legal_actions() == state.legal_actions()
        action = bot.step(state) if player == 0 else state.legal_actions()[0]
        assert action in state.legal_actions()
        state.apply_action(action)
