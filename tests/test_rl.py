"""cardcore[rl]: every installed game as a PettingZoo environment (its API and
seed tests), the same deal and points as ``simulate`` for the same seed and
moves, and observation vectors that depend only on what the seat may see.
Skipped where the extra is not installed (pip install -e '.[rl]')."""

from __future__ import annotations

import random

import pytest
from conftest import EVERY_TABLE

from cardcore.game import DealState
from cardcore.match import DealResult, Match
from cardcore.moves import Move
from cardcore.runner import Listener, make_players, play_match
from cardcore.seeds import match_seed
from cardcore.simulate import SimSpec, play_chunk

np = pytest.importorskip("numpy", reason="cardcore[rl] is not installed (pip install -e '.[rl]')")
pettingzoo_test = pytest.importorskip("pettingzoo.test", reason="cardcore[rl] is not installed")
rl = pytest.importorskip("cardcore.rl.aec", reason="cardcore[rl] is not installed")

IDS = [f"{g}-{p}" for g, p, _ in EVERY_TABLE]


# the two warnings PettingZoo's classic environments give too: a dict observation (the vector and its mask)
@pytest.mark.filterwarnings("ignore:Observation space for each agent", "ignore:Observation is not a NumPy")
@pytest.mark.parametrize(("game", "players", "options"), EVERY_TABLE, ids=IDS)
def test_pettingzoo_api_and_seed(game, players, options):
    pettingzoo_test.api_test(rl.env(game, players, options), num_cycles=200)
    pettingzoo_test.seed_test(lambda: rl.env(game, players, options), num_cycles=200)


@pytest.mark.filterwarnings("ignore:Observation space for each agent", "ignore:Observation is not a NumPy")
@pytest.mark.parametrize(("game", "players", "options"), EVERY_TABLE, ids=IDS)
def test_generic_encoding_serves_every_game(game, players, options):
    """The fallback (what a game that declares no encoding gets) passes the API test too."""
    from cardcore.rl.encoding import GenericEncoding

    table = rl.make_table(game, players, options)
    pettingzoo_test.api_test(rl.env(table, encoding=GenericEncoding(table)), num_cycles=100)


def test_declared_encodings():
    """The built-in games' own encodings (docs/RL.md), each part adding up to its size."""
    from cardcore.rl.encoding import encoding_for

    for game, players, options in EVERY_TABLE:
        enc = encoding_for(rl.make_table(game, players, options))
        assert sum(n for _, n in enc.parts) == enc.size
        assert sum(n for _, n in enc.action_parts) == enc.actions
        assert enc.name == game  # each built-in game declares its own
        if game == "paquet_voleur":
            assert enc.actions == 52 * 5 + 52 * (len(rl.make_table(game, players, options).sides) - 1)


class _Recorder(Listener):
    def __init__(self) -> None:
        self.hands: list[list[str]] = []
        self.moves: list[Move] = []
        self.seats: list[int] = []

    def deal_start(self, match: Match, state: DealState) -> None:
        self.hands = [[c.name for c in h] for h in state.hands]

    def before_move(self, match: Match, state: DealState, moves: list[Move], move: Move) -> None:
        self.moves.append(move)
        self.seats.append(state.to_act)

    def deal_end(self, match: Match, state: DealState, result: DealResult) -> None:
        self.points = result.points


@pytest.mark.parametrize(("game", "players", "options"), EVERY_TABLE, ids=IDS)
def test_same_seed_same_moves_same_deal_as_simulate(game, players, options):
    """``simulate --seed 11 --deals 1`` (its ``play_chunk``) and an episode
    reset with seed 11 that plays the same moves: the same hands, the same points."""
    seed = 11
    kinds = ("random",) * players
    spec = SimSpec(game, players, tuple(sorted(options.items())), (), kinds, seed)
    simulated = play_chunk(spec, 0, 1, max_deals=1).records[0].deals[0][0]
    env = rl.raw_env(game, players, options)
    table = env.table
    recorder = _Recorder()
    k_seed = match_seed(seed, 0)
    play_match(table, make_players(table, kinds, k_seed), k_seed, [recorder], max_deals=1)
    assert tuple(recorder.points) == simulated
    env.reset(seed=seed)
    assert [[c.name for c in h] for h in env.state.hands] == recorder.hands
    for move in recorder.moves:
        assert not any(env.terminations.values())
        (action,) = [a for a, m in env.legal_moves().items() if m == move]
        env.step(action)
    assert all(env.terminations.values())
    assert env.last_result.points == recorder.points
    for side, seats in enumerate(table.sides):
        for s in seats:
            assert env.rewards[f"seat_{s}"] == recorder.points[side]


@pytest.mark.parametrize(("game", "players", "options"), EVERY_TABLE, ids=IDS)
def test_observation_blind_to_unseen_cards(game, players, options):
    """Every 7th step, for every seat: the cards it cannot see dealt anew (the
    game's sampler, ``Table.sample_state``) leave its vector and, for the seat
    to act, its action mask as they were; the encoding's action ids of one
    decision are distinct (the environment checks it at every step)."""
    env = rl.raw_env(game, players, options)
    table = env.table
    rng = random.Random(5)
    env.reset(seed=5)
    steps = 0
    while not all(env.terminations.values()) and steps < 400:
        if steps % 7 == 0:
            state = env.state
            for seat in range(players):
                agent = f"seat_{seat}"
                mine = env.observe(agent)
                twin = table.sample_state(state, seat, random.Random(steps))
                env.state = twin
                if agent == env.agent_selection:
                    env._decision()
                other = env.observe(agent)
                env.state = state
                env._decision()
                assert np.array_equal(mine["observation"], other["observation"]), (steps, seat)
                assert np.array_equal(mine["action_mask"], other["action_mask"]), (steps, seat)
        assert len(env.legal_moves()) == len(env.moves)  # every legal move has its id (none past a cap)
        env.step(env.random_action(rng))
        steps += 1


def test_rewards_per_side_and_margin():
    env = rl.raw_env("paquet_voleur", 4, {"partnerships": True}, reward="margin")
    env.reset(seed=3)
    rng = random.Random(0)
    while not all(env.terminations.values()):
        env.step(env.random_action(rng))
    points = env.last_result.points
    r = {a: env.rewards[a] for a in env.agents}
    assert r["seat_0"] == r["seat_2"] == points[0] - points[1]
    assert r["seat_1"] == r["seat_3"] == points[1] - points[0]


def test_match_episode_plays_every_deal():
    env = rl.raw_env("paquet_voleur", 2, {"deals": 3}, episode="match")
    env.reset(seed=1)
    rng = random.Random(0)
    total = {a: 0.0 for a in env.possible_agents}
    while not all(env.terminations.values()):
        env.step(env.random_action(rng))
        for a in env.agents:
            total[a] += env.rewards[a]
    assert len(env.match.deals) == 3 and env.match.over
    assert [total["seat_0"], total["seat_1"]] == env.match.scores


def test_render_is_the_terminals_view():
    env = rl.raw_env("carrousel", 2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "your hand" in text and "to play:" in text


@pytest.mark.parametrize(("game", "players", "options"), EVERY_TABLE, ids=IDS)
def test_gymnasium_check_env(game, players, options):
    from gymnasium.utils.env_checker import check_env

    from cardcore.rl.gym import gym_env

    others = ["random"] * (players - 1)
    env = gym_env(game, players, seat=players - 1, others=others, options=options)
    check_env(env, skip_render_check=True)


def test_gym_others_by_kind_and_function():
    from cardcore.rl.gym import gym_env

    seen = []

    def first(observation, moves):
        seen.append(observation.seat)
        return moves[0]

    env = gym_env("carrousel", 3, seat=1, others=["normal", first])
    obs, _ = env.reset(seed=9)
    done = False
    total = 0.0
    while not done:
        obs, reward, done, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        total += reward
    assert set(seen) == {2}
    assert total == info["points"][1]
    with pytest.raises(ValueError, match="not legal"):
        env = gym_env("carrousel", 3, seat=1, others=["random", "random"], illegal="raise")
        obs, _ = env.reset(seed=9)
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


def test_gym_others_play_as_simulate_makes_them():
    """The learner replaying seat 0's moves of ``simulate --seed 5`` (random
    against greedy): the others, made from the match's seed as ``simulate``
    makes them, play the same moves, and the deal ends with the same points."""
    from cardcore.rl.gym import gym_env

    kinds = ("random", "greedy")
    spec = SimSpec("paquet_voleur", 2, (), (), kinds, 5)
    simulated = play_chunk(spec, 0, 1, max_deals=1).records[0].deals[0][0]
    env = gym_env("paquet_voleur", 2, seat=0, others=["greedy"])
    table = env.table
    recorder = _Recorder()
    seed = match_seed(5, 0)
    play_match(table, make_players(table, kinds, seed), seed, [recorder], max_deals=1)
    env.reset(seed=5)
    done, info = False, {}
    for seat, move in zip(recorder.seats, recorder.moves, strict=True):
        if seat != 0:
            continue  # greedy's move: the environment plays it
        assert not done and env.aec.seat == 0
        ids = env.aec.legal_moves()
        _, _, done, _, info = env.step(next(a for a, m in ids.items() if m == move))
    assert done and tuple(info["points"]) == simulated
