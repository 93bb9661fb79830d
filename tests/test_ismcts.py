"""The ismcts bot: plays every game legally through the engine (which checks
each move), deterministically for a seed and an iteration budget, and takes
its options from the kind spec."""

from __future__ import annotations

import pytest
from conftest import GAMES, cli_json, largest_table, run_cli, smallest_table

# every installed game, with its fewest and its most players
SEARCHED = sorted({(g, t[0]) for g in GAMES for t in (smallest_table(g), largest_table(g))})


@pytest.mark.parametrize("game,players", SEARCHED)
def test_ismcts_plays_and_is_deterministic(game, players):
    # Canasta's search, and any with more players, is slow: fewer iterations
    iterations, deals = ("3", 1) if game == "canasta" or players > 2 else ("20", 2)
    options = dict(largest_table(game)[1] if players == largest_table(game)[0] else smallest_table(game)[1])
    args = (
        "simulate", game, "--players", str(players), "--deals", str(deals), "--seed", "3", "--json",
        "--seat", f"0=ismcts:iterations={iterations}", "--bot", "greedy",
        *(a for k, v in options.items() for a in ("--option", f"{k}={str(v).lower()}")),
        *(("--seat", f"2=ismcts:iterations={iterations}") if players == 4 else ()),
    )  # fmt: skip
    a, b = cli_json(*args), cli_json(*args)
    for x in (a, b):
        x.pop("seconds"), x.pop("cpu_seconds")
    assert a == b and a["deals"] == deals


def test_ismcts_options():
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "ismcts:height=2")
    assert code == 2 and "has no option 'height'" in out and "iterations" in out
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "ismcts:rollout=clever")
    assert code == 2 and "rollout='clever' is no player kind" in out
    code, out = run_cli(
        "simulate", "carrousel", "--players", "2", "--deals", "1", "--seed", "1",
        "--seat", "0=ismcts:iterations=5,rollout=greedy",
    )  # fmt: skip
    assert code == 0, out


def test_ismcts_beats_random_in_carrousel():
    data = cli_json(
        "simulate", "carrousel", "--players", "2", "--deals", "6", "--seed", "2", "--json",
        "--seat", "0=ismcts:iterations=40", "--bot", "random",
    )  # fmt: skip
    assert data["points_total"][0] > data["points_total"][1]


@pytest.mark.parametrize("game", GAMES)
def test_a_prior_is_tried_first_and_wins_ties(registry, game):
    """With one iteration, ``prior=greedy`` plays greedy's move: it is the
    root's first child and the only one tried."""
    import random

    from cardcore.decision import Decision
    from cardcore.ismcts import IsmctsPlayer
    from cardcore.table import Table

    table = Table.from_names(registry, game, *smallest_table(game))
    state = table.new_match(4).start_deal()
    seat = state.to_act
    for _ in range(6):  # a few positions of the deal
        moves = tuple(table.legal_moves(state))
        rng = random.Random(9)
        bot = IsmctsPlayer(table, seat, rng, iterations=1, prior="greedy")
        decision = Decision(table, table.new_match(4), state, seat, 1, 0)
        same = table.player_kinds["greedy"](table, seat, random.Random(random.Random(9).random()))
        observation = table.observe(state, seat)
        expected = same.choose(observation if same.needs_observation else None, moves)
        assert bot.choose(observation, moves, decision) == expected
        while not table.is_deal_over(state):
            state = table.apply(state, table.legal_moves(state)[0])
            if state.to_act == seat:
                break
        if table.is_deal_over(state):
            break


def test_confidence_keeps_the_prior_s_move_unless_the_search_is_sure(registry):
    """``confidence``: an unreachable bar always plays the prior's move; with
    none the search's most tried move stands (the two differ somewhere)."""
    import random

    from cardcore.decision import Decision
    from cardcore.ismcts import IsmctsPlayer
    from cardcore.table import Table

    table = Table.from_names(registry, "carrousel", 2)
    match = table.new_match(5)
    differed = kept = 0
    for _ in range(3):
        state = match.start_deal()
        while not table.is_deal_over(state):
            seat = state.to_act
            moves = tuple(table.legal_moves(state))
            if len(moves) > 1:
                observation = table.observe(state, seat)
                greedy = table.player_kinds["greedy"](table, seat, random.Random(0)).choose(None, moves)
                picks = []
                for confidence in (0, 1e9):
                    bot = IsmctsPlayer(
                        table, seat, random.Random(3), iterations=60, prior="greedy", confidence=confidence
                    )
                    decision = Decision(table, match, state, seat, 1, 0)
                    picks.append(bot.choose(observation, moves, decision))
                assert picks[1] == greedy
                differed += picks[0] != greedy
                kept += 1
            state = table.apply(state, moves[0])
        match.end_deal(state)
    assert kept > 10 and differed > 0


def test_a_prior_must_be_a_kind_of_the_game():
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "ismcts:prior=oracle")
    assert code == 2 and "prior='oracle' is no player kind" in out


def _canasta_meld_decision(registry):
    """A 2-player Canasta decision where greedy melds (greedy plays the deal to it)."""
    import random

    from cardcore.table import Table

    table = Table.from_names(registry, "canasta", 2)
    for seed in range(1, 40):
        match = table.new_match(seed)
        state = match.start_deal()
        bots = [table.player_kinds["greedy"](table, s, random.Random(0)) for s in range(2)]
        while not table.is_deal_over(state):
            moves = tuple(table.legal_moves(state))
            seat = state.to_act
            move = bots[seat].choose(table.observe(state, seat), moves)
            if move.kind == "meld" and len(moves) > 1:
                return table, match, state, seat
            table.apply(state, move)
    raise AssertionError("greedy never melded")


def test_macro_leaves_greedy_s_melds_to_it_and_searches_the_rest(registry):
    import random

    from cardcore.decision import Decision
    from cardcore.ismcts import IsmctsPlayer

    table, match, state, seat = _canasta_meld_decision(registry)
    moves = tuple(table.legal_moves(state))
    observation = table.observe(state, seat)
    greedy = table.player_kinds["greedy"](table, seat, random.Random(0)).choose(observation, moves)
    bot = IsmctsPlayer(table, seat, random.Random(1), iterations=30, prior="greedy", macro=True)
    assert bot.choose(observation, moves, Decision(table, match, state, seat, 1, 0)) == greedy
    assert bot.last_iterations == 0  # not searched
    plain = IsmctsPlayer(table, seat, random.Random(1), iterations=30, prior="greedy")
    plain.choose(observation, moves, Decision(table, match, state, seat, 1, 0))
    assert plain.last_iterations == 30
    assert "meld" in table.plugin.search_follows
    # in a whole deal the macro search still searches: the draws, the pile, the discards
    data = cli_json(
        "simulate", "canasta", "--players", "2", "--deals", "1", "--seed", "2", "--json",
        "--seat", "0=ismcts:iterations=4,prior=greedy,rollout=greedy,macro=true,puct=0.5,depth=30",
        "--bot", "greedy",
    )  # fmt: skip
    assert data["deals"] == 1


def _a_choice(registry, game):
    """A decision of a fresh deal (seed 6) with three legal moves or more:
    (table, match, state, seat, moves, observation)."""
    from cardcore.table import Table

    table = Table.from_names(registry, game, *smallest_table(game))
    match = table.new_match(6)
    state = match.start_deal()
    while len(table.legal_moves(state)) < 3:
        state = table.apply(state, table.legal_moves(state)[0])
    seat = state.to_act
    moves = tuple(table.legal_moves(state))
    return table, match, state, seat, moves, table.observe(state, seat)


@pytest.mark.parametrize("game", GAMES)
def test_puct_and_depth_are_deterministic_and_change_the_search(registry, game):
    import random

    from cardcore.decision import Decision
    from cardcore.ismcts import IsmctsPlayer

    table, match, state, seat, moves, observation = _a_choice(registry, game)

    def root(**options):
        bot = IsmctsPlayer(table, seat, random.Random(2), iterations=40, prior="greedy", **options)
        move = bot.choose(observation, moves, Decision(table, match, state.clone(), seat, 1, 0))
        return move, sorted((str(m), n) for m, n, _ in bot.estimates())

    for options in ({"puct": 0.5}, {"depth": 3}, {"puct": 0.5, "depth": 3}):
        assert root(**options) == root(**options)
    assert root() != root(depth=3) or root() != root(puct=0.5)  # the options do something
    greedy = table.player_kinds["greedy"](table, seat, random.Random(0))
    liked = greedy.choose(observation if greedy.needs_observation else None, moves)

    def tries_on_liked(**options):
        """The tries on the prior's move over five searches (five RNGs)."""
        total = 0
        for r in range(5):
            bot = IsmctsPlayer(table, seat, random.Random(r), iterations=40, prior="greedy", **options)
            bot.choose(observation, moves, Decision(table, match, state.clone(), seat, 1, 0))
            total += next(n for m, n, _ in bot.estimates() if m == liked)
        return total

    # a strong prior keeps far more tries on its move than the plain tree (UCT) gives it
    assert tries_on_liked(puct=0.9) > 2 * tries_on_liked()


def test_puct_and_macro_need_a_prior():
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "ismcts:puct=0.5")
    assert code == 2 and "name one (prior=greedy)" in out
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "ismcts:puct=1.5,prior=greedy")
    assert code == 2 and "puct=1.5" in out


@pytest.mark.parametrize("game", GAMES)
def test_explore_is_deterministic_and_changes_the_rollouts(registry, game):
    import random

    from cardcore.decision import Decision
    from cardcore.ismcts import IsmctsPlayer

    table, match, state, seat, moves, observation = _a_choice(registry, game)

    def root(explore):
        bot = IsmctsPlayer(table, seat, random.Random(2), iterations=40, rollout="greedy", explore=explore)
        move = bot.choose(observation, moves, Decision(table, match, state.clone(), seat, 1, 0))
        return move, sorted((str(m), n, round(p, 6)) for m, n, p in bot.estimates())

    assert root(0.3) == root(0.3)
    assert root(0.3) != root(0)  # some rollout moves are random: other results


def test_explore_needs_a_rollout_bot_and_is_a_share():
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "ismcts:explore=0.3")
    assert code == 2 and "explore=0.3" in out and "rollout=greedy" in out
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "ismcts:explore=2,rollout=greedy")
    assert code == 2 and "explore=2" in out


@pytest.mark.parametrize("game", GAMES)
def test_others_leave_the_other_seats_moves_to_the_prior(registry, game):
    """With ``others``, no other seat's reply in the tree is chosen by the
    statistics of the bot's own imagined deals: only the bot's own decisions
    are (``_mine`` is asked before every choice by statistics)."""
    import random

    from cardcore.decision import Decision
    from cardcore.ismcts import IsmctsPlayer

    table, match, state, seat, moves, observation = _a_choice(registry, game)
    asked: list[int] = []

    class Watched(IsmctsPlayer):
        def _mine(self, state):
            asked.append(state.to_act)
            return super()._mine(state)

    def search(**options):
        asked.clear()
        bot = Watched(table, seat, random.Random(2), iterations=150, prior="greedy", **options)
        move = bot.choose(observation, moves, Decision(table, match, state.clone(), seat, 1, 0))
        return move, sorted((str(m), n) for m, n, _ in bot.estimates()), set(asked)

    plain, first, again = search(), search(others=True), search(others=True)
    assert first == again  # deterministic for a seed and a budget
    assert plain[2] - {seat}, "the plain tree chooses the others' replies (the test could not fail)"
    assert first[2] <= {seat}
    assert sum(n for _, n in first[1]) == 150


def test_others_need_a_prior():
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "ismcts:others=true")
    assert code == 2 and "name one (prior=greedy)" in out


def test_plain_imagines_deals_by_the_plain_redeal(registry):
    """``plain=true`` ignores what the game reads from the public history: in a
    Paquet voleur position where seat 1 trailed and so lacks 2, 5 and K (P5c),
    the game's imagined deals never give him one, the plain redeal does; the
    search asks for plain deals only with the option."""
    import random

    from conftest import position

    from cardcore.decision import Decision
    from cardcore.ismcts import IsmctsPlayer

    table, state = position("paquet_voleur/p5c_lacks.yaml", registry)
    match = table.new_match(1)
    lacked = {2, 5, 13}
    decision = Decision(table, match, state, 0, 1, 0)
    rng = random.Random(4)
    inferred = [decision.sample(rng) for _ in range(60)]
    plain = [decision.sample(rng, plain=True) for _ in range(60)]
    assert not any(c.rank in lacked for s in inferred for c in s.hands[1])
    assert any(c.rank in lacked for s in plain for c in s.hands[1])
    assert all(sorted(s.hands[0]) == sorted(state.hands[0]) for s in plain)

    asked: list[bool] = []

    class Watched(Decision):
        def sample(self, rng, plain=False):
            asked.append(plain)
            return super().sample(rng, plain)

    moves = tuple(table.legal_moves(state))
    for option in (False, True):
        asked.clear()
        bot = IsmctsPlayer(table, 0, random.Random(2), iterations=30, plain=option)
        bot.choose(table.observe(state, 0), moves, Watched(table, match, state.clone(), 0, 1, 0))
        assert asked == [option] * 30


def test_plies_stop_a_deep_search_on_its_work_the_same_on_every_run(registry):
    """Issue 49: ``plies`` ends a search once its rollouts have played that
    many moves (after ``MIN_ITERATIONS``), a count of work: the same
    iterations and move on every run, fewer iterations than asked where the
    rollouts are long, all of them where the cap is not reached."""
    import random

    from cardcore.decision import Decision
    from cardcore.ismcts import MIN_ITERATIONS, IsmctsPlayer
    from cardcore.table import Table

    table = Table.from_names(registry, "canasta", 2)
    match = table.new_match(4)
    state = match.start_deal()
    while len(table.legal_moves(state)) < 2:
        state = table.apply(state, table.legal_moves(state)[0])
    seat, moves = state.to_act, tuple(table.legal_moves(state))
    observation = table.observe(state, seat)

    def search(**options):
        bot = IsmctsPlayer(table, seat, random.Random(3), rollout="greedy", **options)
        move = bot.choose(observation, moves, Decision(table, match, state, seat, 1, 0))
        return move, bot.last_iterations, bot.plies_done

    capped = search(iterations=200, plies=2000)
    assert capped == search(iterations=200, plies=2000)  # deterministic
    _move, iterations, plies = capped
    assert MIN_ITERATIONS <= iterations < 200 and plies >= 2000
    free = search(iterations=20)
    assert free[1] == 20 and free[2] > 0
    assert search(iterations=20, plies=10**7)[:2] == free[:2]  # a cap not reached changes nothing
