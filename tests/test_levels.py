"""The levels a person picks (``cardcore.levels``): registered for every game
and player count, each a documented configuration, deterministic for a seed
and an iteration budget, chosen like any player kind. (Their time budgets are
a benchmark's: ``benchmarks/search_bench.py --check``, not a test.)"""

from __future__ import annotations

import random

import pytest
from conftest import GAMES, REGISTRY, cli_json, run_cli

from cardcore.decision import Decision
from cardcore.errors import TableError
from cardcore.levels import LEVELS, Mistaken, level_spec
from cardcore.runner import make_player, parse_kind
from cardcore.table import Table

TABLES = [
    (g, n) for g in GAMES for n in range(REGISTRY.game(g).min_players, REGISTRY.game(g).max_players + 1)
]


@pytest.mark.parametrize("game,players", TABLES)
def test_every_level_is_a_player_kind_of_every_game_and_player_count(game, players):
    table = Table(REGISTRY.game(game), players)
    for level in LEVELS:
        assert level in table.player_kinds
        spec = level_spec(table, level)
        kind, _ = parse_kind(spec)
        assert kind in table.player_kinds and kind not in LEVELS
        player = make_player(table, level, 0, random.Random(0))
        assert hasattr(player, "choose")
    # expert searches; hard searches with a smaller budget, or is one of the game's own
    # bots other than normal's (Paquet voleur's `careful` at three and four players)
    hard, expert = (parse_kind(level_spec(table, lv)) for lv in ("hard", "expert"))
    assert expert[0] == "ismcts"
    if hard[0] == "ismcts":
        assert expert[1]["iterations"] > hard[1]["iterations"] > 0
    else:
        assert hard[0] in table.plugin.bots and hard[0] != "greedy"
    assert level_spec(table, "normal") == "greedy"
    assert isinstance(make_player(table, "easy", 0, random.Random(0)), Mistaken)


@pytest.mark.parametrize("game,players", TABLES)
def test_a_level_that_names_a_learned_model_plays_with_it(game, players):
    """A level's ``value=learned`` or ``infer=learned`` finds the game's model
    file in the package (``<game>/inference/``): the search would play on
    without it, silently (the points held, the plain redeal), were the file
    left out of the install or its name changed."""
    table = Table(REGISTRY.game(game), players)
    checked = 0
    for level in LEVELS:
        kind, options = parse_kind(level_spec(table, level))
        if kind != "ismcts" or "learned" not in (options.get("value"), options.get("infer")):
            continue
        player = make_player(table, level, 0, random.Random(0))
        player = getattr(player, "inner", player)  # a level that errs (``Mistaken``) wraps its search
        if options.get("value") == "learned":
            assert player.evaluator is not None, f"{game} {players}p {level}: no value model shipped"
        if options.get("infer") == "learned":
            assert player.inference is not None, f"{game} {players}p {level}: no inference model shipped"
        checked += 1
    if not checked:
        pytest.skip("no level of this table names a learned model")


def _decisions(table, seed, count):
    """(match, state, seat) at the first ``count`` decisions of a greedy deal."""
    match = table.new_match(seed)
    state = match.start_deal()
    out = []
    greedy = [table.player_kinds["greedy"](table, s, random.Random(0)) for s in range(table.players)]
    while not table.is_deal_over(state) and len(out) < count:
        moves = table.legal_moves(state)
        seat = state.to_act
        if len(moves) > 1:
            out.append((match, state.clone(), seat))
        bot = greedy[seat]
        table.apply(state, bot.choose(table.observe(state, seat) if bot.needs_observation else None, moves))
    return out


def _choices(table, spec, where, seed):
    picks = []
    for match, state, seat in where:
        player = make_player(table, spec, seat, random.Random(seed))
        moves = tuple(table.legal_moves(state))
        decision = Decision(table, match, state.clone(), seat, 1, 0)
        picks.append(player.choose(table.observe(state, seat), moves, decision))
    return picks


@pytest.mark.parametrize("game", GAMES)
def test_a_level_is_deterministic_for_a_seed_and_an_iteration_budget(game):
    table = Table(REGISTRY.game(game), 2)
    where = _decisions(table, 5, 4)
    for spec in ("hard:iterations=6", "expert:iterations=6", "easy"):
        assert _choices(table, spec, where, 1) == _choices(table, spec, where, 1)
    # a level given a budget is its configuration with that budget, nothing else
    for level in ("hard", "expert"):
        kind, options = parse_kind(level_spec(table, level))
        options["iterations"] = 6
        spec = kind + ":" + ",".join(f"{k}={v}" for k, v in options.items())
        assert _choices(table, f"{level}:iterations=6", where, 1) == _choices(table, spec, where, 1)


def test_normal_is_greedy_and_easy_errs_at_its_share_of_decisions():
    table = Table(REGISTRY.game("carrousel"), 2)
    where = _decisions(table, 8, 60)
    greedy = _choices(table, "greedy", where, 2)
    assert _choices(table, "normal", where, 2) == greedy
    errs = 0
    for seed in range(5):  # one easy bot a seat, asked at each decision in turn
        easy = [make_player(table, "easy", s, random.Random(seed)) for s in range(table.players)]
        for (_, state, seat), move in zip(where, greedy, strict=True):
            errs += easy[seat].choose(None, tuple(table.legal_moves(state))) != move
    # a share of 0.5 errs, less the random moves that happen to be greedy's own
    assert 0.15 * 5 * len(where) < errs < 0.5 * 5 * len(where)


def test_levels_at_the_command_line_and_their_errors():
    data = cli_json(
        "simulate", "carrousel", "--players", "2", "--deals", "1", "--seed", "4", "--json",
        "--seat", "0=hard:iterations=5", "--seat", "1=easy",
    )  # fmt: skip
    assert data["deals"] == 1
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--seat", "1=normal:iterations=5")
    assert code == 2 and "level 'normal' of carrousel does not search" in out
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--seat", "1=hard:depth=3")
    assert code == 2 and "has no option 'depth'" in out and "iterations" in out
    code, out = run_cli(
        "arena", "paquet_voleur", "--players", "2", "--bot", "hard:iterations=3", "--bot", "easy",
        "--deals", "2", "--json",
    )  # fmt: skip
    assert code == 0, out


def test_a_table_of_the_config_file_seats_levels(tmp_path):
    from cardcore.config import build_table, load_config

    path = tmp_path / "games.yaml"
    path.write_text(
        "tables:\n  t:\n    game: carrousel\n    players:\n"
        "      - {name: Ana, kind: human}\n      - {name: Bot, kind: 'hard:iterations=50'}\n"
    )
    _, kinds = build_table(load_config(path).tables["t"], REGISTRY)
    assert kinds == ["human", "hard:iterations=50"]
    path.write_text(
        "tables:\n  t:\n    game: carrousel\n    players:\n      - {kind: human}\n      - {kind: hardest}\n"
    )
    with pytest.raises(TableError, match=r"players\.1\.kind: unknown player kind 'hardest'"):
        build_table(load_config(path).tables["t"], REGISTRY)


def test_the_lobby_lists_the_levels_first_and_play_defaults_to_normal(tmp_path):
    from cardcore.commands.base import default_bot as _default_bot
    from cardcore.web.lobby import Lobby

    lobby = Lobby(REGISTRY, None, tmp_path)
    for g in lobby.catalog()["games"]:
        assert g["kinds"][: 1 + len(LEVELS)] == ["human", *LEVELS]
        assert {"greedy", "ismcts", "random"} <= set(g["kinds"])
    for game in GAMES:
        assert _default_bot(Table(REGISTRY.game(game))) == "normal"


@pytest.mark.parametrize(
    "game,level",
    [("carrousel", "expert:iterations=1000"), ("paquet_voleur", "expert"), ("canasta", "hard")],
)
def test_the_hint_asks_the_games_hint_level(game, level):
    """``players.advise`` plays what the game's hint level plays (its search,
    with the hint's RNG, ``hint_rng``: a secret of the match, never a fixed
    number): ``hard``, or Paquet voleur's ``expert``, Carrousel's at 1,000
    iterations (their ``hard`` at two players is kept weak for the ladder;
    Carrousel's ``expert`` takes longer than a hint's 500 ms)."""
    from cardcore.players import advise, hint_rng

    table = Table(REGISTRY.game(game), 2)
    assert table.plugin.hint_level == level
    for match, state, seat in _decisions(table, 3, 3):
        moves = tuple(table.legal_moves(state))
        observation = table.observe(state, seat)
        move, why, rows = advise(
            table, seat, observation, moves, Decision(table, match, state.clone(), seat, 1, 0)
        )
        asked = Decision(table, match, state.clone(), seat, 1, 0)
        bot = make_player(table, level, seat, hint_rng(asked))
        assert move == bot.choose(observation, moves, asked)
        assert rows and why.startswith("I would play")
        if level.startswith("expert"):  # its hundreds of imagined deals, not hard's ten
            assert sum(tries for _m, tries, _p in rows) > 10


def test_the_search_benchmark_runs_and_checks_the_budgets():
    """``benchmarks/search_bench.py`` on a tiny sample: its rows and its
    budget check (the check's verdict is the machine's, not asserted)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parent.parent / "benchmarks" / "search_bench.py"
    args = [sys.executable, str(bench), "paquet_voleur", "--players", "2", "--positions", "3", "--json"]
    out = subprocess.run(
        [*args, "--bot", "hard:iterations=4", "--bot", "normal"], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert [r["bot"] for r in rows] == ["hard:iterations=4", "normal"]
    assert all(r["decisions"] == 3 and r["p95_ms"] >= r["median_ms"] >= 0 for r in rows)
    assert rows[0]["iterations_per_second"] > 0 and rows[1]["iterations_per_second"] is None
    checked = subprocess.run(
        [*args, "--check", "--positions", "2"], capture_output=True, text=True, timeout=120
    )
    assert checked.returncode in (0, 1) and "budget" in checked.stdout


def test_the_search_benchmark_draws_its_positions_from_the_kind_named():
    """``search_bench --play KIND``: the positions come from deals that kind
    played (a search given its decision, so it searches); greedy's by default."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    try:
        import search_bench
    finally:
        sys.path.pop(0)
    table = Table(REGISTRY.game("paquet_voleur"), 2)

    def played(play):
        return [
            [str(m) for _s, _seat, m in history]
            for _m, _st, _seat, history in search_bench.positions(table, 11, 6, 2, play)
        ]

    greedy = played(None)
    assert greedy == played("greedy") and any(greedy)
    assert played("random") != greedy
    searched = played("ismcts:iterations=30,prior=greedy,rollout=greedy")
    assert searched != greedy and searched != played("ismcts:iterations=1")  # it searched


def test_the_hint_says_when_it_kept_a_move_it_tried_less():
    """With ``confidence`` the search may keep its prior's move though another
    was tried more and did better: the hint says so instead of calling its
    move the one tried most."""
    from cardcore.players import _why_this

    table = Table(REGISTRY.game("carrousel"), 2)
    _match, state, _seat = next(iter(_decisions(table, 1, 1)))
    kept, other = tuple(table.legal_moves(state))[:2]
    less = str(_why_this(table, kept, [(other, 30, 5.0), (kept, 10, 3.0)]))
    assert "too few imagined deals to be sure" in less and "tried most" not in less
    most = str(_why_this(table, kept, [(kept, 30, 3.0), (other, 10, 5.0)]))
    assert "the move I tried most" in most and "looked better in fewer tries" in most
    assert "points" not in less and "points" not in most  # no figure against the advice (issue 48, item 7)


def test_the_clairvoyant_benchmark_sees_every_hand(registry):
    """``benchmarks/clairvoyant.py``: its bot's imagined deals hold every hand
    as it is (only the stock shuffled), and the arena runs with it."""
    import importlib.util
    import json
    import random
    import subprocess
    import sys
    from pathlib import Path

    from cardcore.decision import Decision
    from cardcore.table import Table

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "clairvoyant.py"
    spec = importlib.util.spec_from_file_location("clairvoyant", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    table = Table.from_names(registry, "paquet_voleur", 2)
    match = table.new_match(2)
    state = match.start_deal()
    seen = module._Seeing(Decision(table, match, state, 0, 1, 0)).sample(random.Random(1))
    assert seen.hands == state.hands and sorted(seen.stock) == sorted(state.stock)
    out = subprocess.run(
        [sys.executable, str(path), "paquet_voleur", "--players", "2", "--deals", "1", "--json",
         "--bot", "clairvoyant:level=hard", "--bot", "normal"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert [b["bot"] for b in json.loads(out.stdout)["bots"]] == ["clairvoyant:level=hard", "normal"]
