"""``cardcore study``: every metric against hand-computed values, a planted
unfair house rule caught, the base game not flagged more often than the
intervals allow, the same results for every ``--jobs``, resuming, the
report self-contained."""

from __future__ import annotations

import builtins
import dataclasses
import json
import math
import re
from pathlib import Path

import pytest
from conftest import REGISTRY, cli_json, run_cli

from cardcore.game import HouseRuleSpec, SideScore
from cardcore.hookspecs import hookimpl
from cardcore.plugins import discover
from cardcore.runner import Listener, make_players, play_match
from cardcore.study import Collect, parse_variant, run
from cardcore.study.metrics import (
    Blocks,
    Shape,
    chi2_sf,
    comeback,
    deal_margin,
    deal_spread,
    differences,
    fairness_p,
    lead_changes,
    match_sums,
    metrics_from,
    skill_sums,
    win_shares,
    with_intervals,
)
from cardcore.table import Table

TWO = Shape(2, ((0,), (1,)))
FOUR = Shape(4, ((0, 2), (1, 3)))


def _deal(points, first=0, dealer=1, moves=10, decisions=4, choices=12, kinds=None, leads=None):
    return {
        "points": points,
        "first": first,
        "dealer": dealer,
        "moves": moves,
        "decisions": decisions,
        "choices": choices,
        "kinds": kinds or {"capture": 6, "trail": 4},
        "leads": leads,
    }


# ---- the metrics, by hand ---------------------------------------------------------
def test_per_deal_facts():
    assert win_shares([5, 3]) == [1.0, 0.0]
    assert win_shares([4, 4]) == [0.5, 0.5]
    assert win_shares([2, 7, 7]) == [0.0, 0.5, 0.5]
    assert deal_margin([10, 4, 7]) == 3.0  # first less second
    assert deal_spread([10, 4, 7]) == 6.0  # first less last
    assert deal_margin([6, 6]) == 0.0


def test_lead_changes_and_comebacks():
    # running totals: (5,0) A, (5,8) B, (12,8) A, (12,12) tie, (12,20) B → 3 changes
    points = [[5, 0], [0, 8], [7, 0], [0, 4], [0, 8]]
    assert lead_changes(points) == 3
    assert lead_changes([[3, 3], [1, 0]]) == 0  # a tie first, then a leader: no change
    # half-way of 4 deals is after deal 2: totals (1,6), side 1 leads; side 0 wins: a comeback
    assert comeback([[1, 0], [0, 6], [9, 0], [1, 0]], [0]) is True
    assert comeback([[1, 0], [0, 6], [9, 0], [1, 0]], [1]) is False
    assert comeback([[2, 2], [0, 1]], [1]) is None  # tied at half-way
    assert comeback([[5, 0]], [0]) is None  # one deal: no half-way


def test_chi_square_tail():
    assert chi2_sf(3.841459, 1) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(5.991465, 2) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(7.814728, 3) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(9.487729, 4) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(0.0, 3) == 1.0
    # 60 wins against 40 of 100: x = (10² + 10²) / 50 = 4, df 1
    assert fairness_p([60, 40]) == pytest.approx(math.erfc(math.sqrt(2)), rel=1e-12)
    assert fairness_p([50, 50]) == 1.0


def test_metrics_of_two_constructed_matches():
    m1 = {  # over: side 0 wins; leader after each deal: 0, 1 → one change; half-way (deal 1) leader 0
        "k": 0,
        "over": True,
        "winners": [1],
        "deals": [
            _deal([10, 2], first=0, moves=10, decisions=4, choices=12, leads=3),
            _deal(
                [0, 20],
                first=1,
                moves=20,
                decisions=6,
                choices=18,
                kinds={"capture": 5, "build": 15},
                leads=0,
            ),
        ],
    }
    m2 = {  # cut short (not over): counts for the deals, not for the match figures
        "k": 1,
        "over": False,
        "winners": [],
        "deals": [_deal([3, 3], first=1, moves=30, decisions=0, choices=0, kinds={"trail": 30})],
    }
    t: dict[str, float] = {}
    for m in (m1, m2):
        for k, v in match_sums(TWO, m).items():
            t[k] = t.get(k, 0.0) + v
    got = metrics_from(TWO, t)
    # deal wins: side 0 1 + 0 + 0.5, side 1 0 + 1 + 0.5, over 3 deals
    assert got["seat_win_share"] == pytest.approx([1.5 / 3, 1.5 / 3])
    # the first player's side won deal 1 (seat 0), deal 2 (seat 1), half of deal 3
    assert got["first_player_advantage"] == pytest.approx(2.5 / 3 - 0.5)
    assert got["win_share_from_first"] == pytest.approx([2.5 / 3, 0.5 / 3])
    assert got["moves_per_deal"] == pytest.approx(60 / 3)
    assert got["decisions_per_deal"] == pytest.approx(10 / 3)
    assert got["choices_per_decision"] == pytest.approx(30 / 10)
    assert got["margin"] == pytest.approx((8 + 20 + 0) / 3)
    assert got["deals_per_match"] == 2.0  # the finished match only
    assert got["lead_changes"] == 1.0
    assert got["deal_lead_changes"] == 1.5  # (3 + 0) / 2: the third deal's standing unknown
    assert got["comeback_rate"] == 1.0  # side 0 led at half-way, side 1 won
    assert got["fairness_p"] == 1.0
    assert got["move_kinds"] == pytest.approx({"build": 15 / 60, "capture": 11 / 60, "trail": 34 / 60})


def test_four_seats_share_their_side():
    m = {"k": 0, "over": False, "winners": [], "deals": [_deal([9, 1], first=3)]}
    got = metrics_from(FOUR, match_sums(FOUR, m))
    assert got["seat_win_share"] == [1.0, 0.0, 1.0, 0.0]
    assert got["first_player_advantage"] == -0.5  # seat 3 (side 1) played first and lost
    assert got["win_share_from_first"] == [0.0, 1.0, 0.0, 1.0]


class Standings(Listener):
    """The lead changes of each deal, the other way round: the running score
    at the deal's start and after each move (the step record), the last one
    the position the deal ended on, never its result: by the game's mid-deal
    count (Carrousel's ``cardcore_score_position``: the piles as they stand,
    C12), else its own deal count of the position (Paquet voleur: the piles, P7)."""

    def __init__(self, table):
        self.table, self.per_deal, self.seen = table, [], []

    def _score(self, state):
        held = self.table.hook.cardcore_score_position(state=state.clone())
        return [s.points for s in held or self.table.plugin.cardcore_score_deal(state)]

    def deal_start(self, match, state):
        self.seen = [self._score(state)]

    def move(self, match, state, step):
        self.seen.append(self._score(state))

    def deal_end(self, match, state, result):
        self.seen[-1] = self._score(state)  # the last move's position, as the game tidied it
        leader, changes = None, 0
        for points in self.seen:
            top = [i for i, p in enumerate(points) if p == max(points)]
            if len(top) == 1:
                changes += leader is not None and top[0] != leader
                leader = top[0]
        self.per_deal.append(changes)


@pytest.mark.parametrize(("game", "players"), [("carrousel", 2), ("carrousel", 4), ("paquet_voleur", 3)])
def test_lead_changes_within_a_deal_follow_the_standing(game, players):
    table = Table.from_names(REGISTRY, game, players)
    seed = 7
    collect, check = Collect(table), Standings(table)
    play_match(table, make_players(table, ["greedy"] * players, seed), seed, [collect, check], max_deals=6)
    assert [d["leads"] for d in collect.deals] == check.per_deal
    assert any(check.per_deal)  # the lead does change within deals


class DealerZeroPoint:
    """Test only: a score-only rule, seat 0's side +1 point in every deal
    seat 0 deals (nothing else changes: the same cards, the same play)."""

    @hookimpl(wrapper=True)
    def cardcore_score_deal(self, state):
        sides = yield
        if state.dealer != 0:
            return sides
        return [dataclasses.replace(s, points=s.points + 1) if 0 in s.seats else s for s in sides]


def test_a_score_only_rule_leaves_lead_changes_within_a_deal_unchanged(tmp_path):
    reg = discover()
    reg.house_rules["test.dealer_zero_point"] = HouseRuleSpec(
        "test.dealer_zero_point", "carrousel", "seat 0 +1 when it deals", DealerZeroPoint()
    )
    out = tmp_path / "s"
    got = run(
        "carrousel",
        2,
        ["bonus=+test.dealer_zero_point"],
        deals=150,
        skill_deals=0,
        greedy_deals=0,
        seed=2,
        registry=reg,
        out=out,
        report=False,
    )
    assert got["variants"][1]["paired"] is True

    def deals(name):
        lines = (out / "chunks" / f"{name}.deals.jsonl").read_text().splitlines()
        return {(r["k"], i): d for r in map(json.loads, lines) for i, d in enumerate(r["deals"])}

    base, bonus = deals("base"), deals("bonus")
    # the bonus moves the match score, so who deals next (C13): the deals dealt alike are compared
    alike = [k for k in base if k in bonus and base[k]["fp"] == bonus[k]["fp"]]
    assert len(alike) > 100
    assert [base[k]["leads"] for k in alike] == [bonus[k]["leads"] for k in alike]
    assert sum(base[k]["leads"] for k in alike) > 50  # the deals do turn
    bonused = [k for k in alike if bonus[k]["dealer"] == 0]
    assert bonused and all(bonus[k]["points"][0] == base[k]["points"][0] + 1 for k in bonused)


def test_skill_margin_is_the_mean_over_rotations():
    assert skill_sums([4.0, -2.0]) == {"decks": 1.0, "skill": 1.0}
    assert metrics_from(TWO, {"decks": 2.0, "skill": 3.0})["skill"] == 1.5


def test_intervals_paired_and_not():
    units = {k: {"deals": 1.0, "margin": float(k % 5)} for k in range(100)}
    shifted = {k: {"deals": 1.0, "margin": float(k % 5) + 1.0} for k in range(100)}
    a, b = Blocks(units, 1, 100), Blocks(shifted, 1, 100)

    def fn(t):
        return {"margin": t["margin"] / t["deals"]}

    own = with_intervals(a, fn, "s")["margin"]
    assert own["value"] == 2.0 and own["ci95"][0] < 2.0 < own["ci95"][1]
    paired = differences(a, b, fn, True, "s")["margin"]
    assert paired["diff"] == 1.0 and paired["ci95"] == [1.0, 1.0] and paired["significant"] is True
    apart = differences(a, b, fn, False, "s")["margin"]
    assert apart["ci95"][0] < 1.0 < apart["ci95"][1] and apart["ci95"][1] - apart["ci95"][0] > 0.3
    same = differences(a, a, fn, True, "s")["margin"]
    assert same["diff"] == 0.0 and same["significant"] is False


# ---- variants -------------------------------------------------------------------
def test_variant_specs():
    v = parse_variant("mix=deck=54,+carrousel.free_trail, suit=spades")
    assert v.name == "mix" and v.options == {"deck": 54, "suit": "spades"}
    assert v.house_rules == ("carrousel.free_trail",)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--variant", "nothing"], "expected NAME=SPEC"),
        (["--variant", "x=decks=54"], "variant x"),
        (["--variant", "x=+carrousel.free_trial"], "carrousel.free_trail"),
        (["--variant", "x=deck"], "neither option=value"),
        (["--variant", "base=deck=54"], "two variants"),
        (["--table", "nowhere"], "no table"),
        (["--table", "evening"], "not of carrousel"),
        (["--bot", "human"], "bots only"),
        (["--search-bot", "ismcts:iter=3"], "no option 'iter'"),
    ],
)
def test_bad_variants_are_one_line(args, said):
    code, out = run_cli("study", "carrousel", "--players", "2", "--deals", "5", *args)
    assert code == 2, out
    assert said in out and "Traceback" not in out and len(out.strip().splitlines()) == 1


def test_a_table_of_the_config_file_is_a_variant():
    got = cli_json(
        "study",
        "carrousel",
        "--players",
        "2",
        "--deals",
        "20",
        "--skill-deals",
        "0",
        "--table",
        "karuzele_duel",
        "--json",
    )
    duel = got["variants"][1]
    assert duel["name"] == "karuzele_duel" and duel["options"] == {"deck": 54, "suit": "spades"}
    assert duel["house_rules"] == ["carrousel.specials_back"]


# ---- the shape of the JSON, and its cross-checks against simulate and arena --------
def test_json_shape_and_the_same_deals_as_simulate_and_arena():
    got = cli_json(
        "study",
        "carrousel",
        "--players",
        "2",
        "--deals",
        "150",
        "--skill-deals",
        "2",
        "--search-bot",
        "ismcts:iterations=4",
        "--variant",
        "ft=+carrousel.free_trail",
        "--seed",
        "3",
        "--json",
    )
    for key in ("game", "players", "deals", "skill_deals", "seed", "variants"):
        assert key in got
    base, ft = got["variants"]
    assert base["name"] == "base" and "vs_base" not in base and ft["name"] == "ft"
    wanted = {
        "seat_win_share",
        "first_player_advantage",
        "fairness_p",
        "moves_per_deal",
        "choices_per_decision",
        "deals_per_match",
        "margin",
        "lead_changes",
        "comeback_rate",
        "skill_greedy_vs_random",
        "skill_search_vs_greedy",
        "move_kinds",
    }
    assert wanted <= set(base["metrics"]) and wanted <= set(ft["vs_base"])
    for m in wanted:
        assert set(base["metrics"][m]) == {"value", "ci95"}
        assert {"diff", "ci95", "significant", "p"} <= set(ft["vs_base"][m])
    assert ft["vs_base"]["fairness_p"]["diff"] is None  # no difference of two p-values
    for v in (base, ft):
        places = v["places"]
        assert len(places["share"]) == len(places["ci95"]) == 2 and places["dealer"] == 1
        assert places["share"] == base["metrics"]["win_share_from_first"]["value"] or v is ft
        assert 0 <= places["p"] <= 1 and places["edge"] in (None, 0, 1)
    assert got["correction"] == "benjamini-hochberg" and got["tests"] >= 4
    for f in got["verdicts"]:
        assert {"variant", "metric", "text", "p", "p_adjusted"} <= set(f) and f["p_adjusted"] < 0.05
    assert ft["paired"] is True and ft["same_deals"] == 1.0  # free trailing changes no deal dealt
    # the base game's deals are simulate's: the same seed, the same deal wins
    sim = cli_json(
        "simulate",
        "carrousel",
        "--players",
        "2",
        "--deals",
        "150",
        "--seed",
        "3",
        "--bot",
        "greedy",
        "--json",
    )
    shares = [w / 150 for w in sim["deal_wins"]]
    ties = sum(1 for p in sim["deal_points"] if p[0] == p[1])
    assert base["metrics"]["seat_win_share"]["value"] == pytest.approx(
        [s - ties / 150 / 2 for s in shares], abs=1e-6
    )
    assert base["metrics"]["moves_per_deal"]["value"] == pytest.approx(sim["moves"] / 150)
    # and its greedy-random decks are the arena's
    arena = cli_json(
        "arena",
        "carrousel",
        "--players",
        "2",
        "--bot",
        "greedy",
        "--bot",
        "random",
        "--deals",
        "150",
        "--seed",
        "3",
        "--json",
    )
    assert base["metrics"]["skill_greedy_vs_random"]["value"] == pytest.approx(
        arena["bots"][0]["mean_margin"], abs=1e-3
    )


def _strip(result):
    return {k: v for k, v in result.items() if k not in ("seconds", "cpu_seconds")}


def test_the_same_results_for_every_jobs():
    args = (
        "study",
        "carrousel",
        "--players",
        "4",
        "--deals",
        "90",
        "--skill-deals",
        "2",
        "--search-bot",
        "ismcts:iterations=3",
        "--variant",
        "short=deck=54",
        "--seed",
        "5",
        "--json",
    )
    one = cli_json(*args, "--jobs", "1")
    two = cli_json(*args, "--jobs", "2")
    assert _strip(one) == _strip(two)
    assert one["variants"][1]["paired"] is False  # another deck: other deals


# ---- a planted unfair house rule, and the base game's false alarms --------------
class SeatZeroBonus:
    """Test only: seat 0's side gets 5 points more every deal."""

    @hookimpl(wrapper=True)
    def cardcore_score_deal(self, state):
        sides = yield
        return [dataclasses.replace(s, points=s.points + 5) if 0 in s.seats else s for s in sides]


def _registry_with_bonus():
    reg = discover()
    reg.house_rules["test.seat_zero_bonus"] = HouseRuleSpec(
        "test.seat_zero_bonus", "carrousel", "seat 0 gets +5 a deal", SeatZeroBonus()
    )
    return reg


def test_a_planted_first_seat_advantage_is_flagged():
    assert SideScore((0,), 1)  # the rule changes SideScore.points only
    got = run(
        "carrousel",
        2,
        ["unfair=+test.seat_zero_bonus"],
        deals=200,
        skill_deals=0,
        greedy_deals=0,
        seed=11,
        registry=_registry_with_bonus(),
    )
    base, unfair = got["variants"]
    share = unfair["metrics"]["seat_win_share"]
    assert share["ci95"][0][0] > 0.5  # seat 0 wins more than its share, its interval says so
    assert unfair["metrics"]["fairness_p"]["value"] < 0.01  # equality rejected
    assert unfair["vs_base"]["seat_win_share"]["significant"][0] is True
    assert unfair["paired"] is True  # the bonus changes no deal dealt
    assert base["metrics"]["fairness_p"]["value"] > 0.05
    # said in words: the variant favours seat 0 (a difference) and its seats are unequal (chi-square)
    said = [f for f in got["verdicts"] if f["variant"] == "unfair"]
    rise = [f for f in said if f["kind"] == "difference" and f["metric"] == "seat_win_share"]
    assert rise and rise[0]["item"] == 0 and rise[0]["diff"] > 0
    assert "With unfair, seat 0 wins" in rise[0]["text"] and "favours seat 0" in rise[0]["text"]
    assert any(f["kind"] == "seats" and f["item"] == 0 and "seat 0" in f["text"] for f in said)
    assert not [f for f in got["verdicts"] if f["variant"] == "base" and f["kind"] == "seats"]
    p = unfair["metrics"]["fairness_p"]["value"]
    assert p < 0.01 and p != round(p, 6)  # kept unrounded
    assert rise[0]["p_adjusted"] < 0.05 and "(corrected p " in rise[0]["text"]


def test_p_values_are_said_below_a_thousandth_and_corrected_together():
    from cardcore.study.metrics import benjamini_hochberg
    from cardcore.study.say import p_value

    assert p_value(0.0) == "< 0.001" and p_value(3e-12) == "< 0.001" and p_value(0.0449) == "0.045"
    # Benjamini–Hochberg by hand: m = 4; sorted 0.01, 0.02, 0.03, 0.5 → ×4/1, ×4/2, ×4/3, ×4/4
    assert benjamini_hochberg([0.03, 0.5, 0.01, 0.02]) == pytest.approx([0.04, 0.5, 0.04, 0.04])
    assert benjamini_hochberg([0.9, 0.8]) == pytest.approx([0.9, 0.9])


class DealerBonus:
    """Test only: the dealer's side (in Paquet voleur the last to play, P5)
    scores one card more in every deal."""

    @hookimpl(wrapper=True)
    def cardcore_score_deal(self, state):
        sides = yield
        return [dataclasses.replace(s, points=s.points + 1) if state.dealer in s.seats else s for s in sides]


def test_the_dealers_edge_in_three_player_paquet_voleur_is_flagged():
    """Every place in the turn order is tested, not only the first: the
    dealer, who plays last (P5), is found with the edge at 3,000 deals
    (random bots: cheap deals; the planted one-card bonus makes it certain)."""
    from cardcore.study import Variant

    reg = discover()
    reg.house_rules["test.dealer_bonus"] = HouseRuleSpec(
        "test.dealer_bonus", "paquet_voleur", "the dealer's side +1 card", DealerBonus()
    )
    got = run(
        "paquet_voleur",
        3,
        deals=3000,
        skill_deals=0,
        greedy_deals=0,
        seed=5,
        bot="random",
        registry=reg,
        base=Variant("base", {}, ("test.dealer_bonus",)),
    )
    (base,) = got["variants"]
    assert base["house_rules"] == ["test.dealer_bonus"]
    places = base["places"]
    assert places["dealer"] == 2  # the dealer plays last (P5)
    assert places["edge"] == 2 and places["p"] < 0.01
    assert places["ci95"][2][0] > 1 / 3  # its share's interval above the fair third
    said = [f for f in got["verdicts"] if f["kind"] == "places"]
    assert said and said[0]["item"] == 2 and "the order of play favours the dealer" in said[0]["text"]


class SeatZeroCard:
    """Test only: a +1-point rule, seat 0 one card more in every deal of
    Paquet voleur (a card is a point, P7)."""

    @hookimpl(wrapper=True)
    def cardcore_score_deal(self, state):
        sides = yield
        return [dataclasses.replace(s, points=s.points + 1) if 0 in s.seats else s for s in sides]


def test_a_one_point_rule_is_flagged_at_the_size_the_power_line_says():
    """A pilot too small to find the rule says how many deals would; a study
    of that size, on other seeds, finds it and names seat 0. The power line
    is the variance seen: the paired difference's bootstrap standard error."""
    reg = discover()
    reg.house_rules["test.seat_zero_card"] = HouseRuleSpec(
        "test.seat_zero_card", "paquet_voleur", "seat 0 +1 card", SeatZeroCard()
    )

    def study(deals, seed):
        got = run(
            "paquet_voleur",
            2,
            ["plus1=+test.seat_zero_card"],
            deals=deals,
            skill_deals=0,
            greedy_deals=0,
            seed=seed,
            bot="random",
            registry=reg,
        )
        said = [f for f in got["verdicts"] if f["variant"] == "plus1" and f["metric"] == "seat_win_share"]
        return got["variants"][1]["power"], said

    power, said = study(600, 1)
    assert not said  # too small: no verdict
    need = power["deals_needed"]
    assert need > 600 and need < 1500, power
    _, said = study(need, 101)
    assert said and said[0]["item"] == 0 and "favours seat 0" in said[0]["text"]


def test_until_precision_plays_on_until_the_win_shares_are_narrow_enough():
    kw = {"deals": 100, "skill_deals": 0, "greedy_deals": 0, "seed": 1, "bot": "random"}
    grown = run("paquet_voleur", 3, until_precision=0.12, **kw)
    assert grown["deals"] == 400 and grown["precision"]["reached"]  # 100, 200, 400
    assert grown["precision"]["widest"] <= 0.12
    once = run("paquet_voleur", 3, **(kw | {"deals": 400}))  # the same as one study of that size
    assert {k: v for k, v in grown.items() if k != "precision"} | {"seconds": 0, "cpu_seconds": 0} == (
        once | {"seconds": 0, "cpu_seconds": 0}
    )


def test_the_base_game_is_not_flagged_more_often_than_the_intervals_allow():
    flagged_p = flagged_ci = 0
    repeats = 20
    for seed in range(repeats):
        got = run("carrousel", 2, deals=200, skill_deals=0, greedy_deals=0, seed=100 + seed)
        m = got["variants"][0]["metrics"]
        flagged_p += m["fairness_p"]["value"] < 0.05
        lo, hi = m["seat_win_share"]["ci95"][0]
        flagged_ci += not lo <= 0.5 <= hi
    # 5% of 20 is 1; four or more alarms of a fair game would happen by chance 1.6% of the time
    assert flagged_p <= 3 and flagged_ci <= 3, (flagged_p, flagged_ci)


# ---- resuming, the report --------------------------------------------------------
def test_an_interrupted_study_resumes_from_its_chunks(tmp_path):
    kw = {"deals": 60, "skill_deals": 2, "search_bot": "ismcts:iterations=3", "seed": 4, "greedy_deals": 20}
    whole = run("carrousel", 2, ["ft=+carrousel.free_trail"], **kw)
    out = tmp_path / "study"
    run("carrousel", 2, ["ft=+carrousel.free_trail"], out=out, **kw)
    chunks = out / "chunks"
    base = chunks / "base.deals.jsonl"
    lines = base.read_bytes().splitlines(keepends=True)
    base.write_bytes(b"".join(lines[:5]) + lines[5][:40])  # killed mid-line
    (chunks / "ft.deals.jsonl").unlink()
    (chunks / "ft.search.jsonl").write_bytes(b"")
    spent = json.loads((chunks / "time.json").read_text())  # the first run's seconds, kept
    assert spent["seconds"] > 0
    again = run("carrousel", 2, ["ft=+carrousel.free_trail"], out=out, **kw)
    assert _strip(again) == _strip(whole)
    assert again["seconds"] > spent["seconds"]  # the whole study's time, over both runs
    assert json.loads((out / "study.json").read_text())["variants"] == whole["variants"]
    code, said = run_cli("study", "carrousel", "--players", "2", "--deals", "99", "--out", str(out))
    assert code == 2 and "other parameters" in said


def test_the_report_is_one_self_contained_page(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "r"
    code, said = run_cli(
        "study",
        "carrousel",
        "--players",
        "2",
        "--deals",
        "60",
        "--skill-deals",
        "1",
        "--search-bot",
        "ismcts:iterations=3",
        "--variant",
        "short=deck=54",
        "--out",
        str(out),
    )
    assert code == 0, said
    page = (out / "index.html").read_text()
    assert page.count("<svg") >= 5
    links = re.findall(r"""(?:src|href)\s*=\s*["']?([^"'\s>]+)""", page)
    assert not [u for u in links if re.match(r"(?i)\s*(https?:)?//", u)], links
    assert "<script" not in page.lower() and "@import" not in page
    assert len(list((out / "figures").glob("*.png"))) == page.count("<svg")  # each plot as a PNG too
    for name in ("study.json", "deals.csv", "matches.csv", "skill.csv", "metrics.csv"):
        assert (out / name).stat().st_size > 0
    import csv

    rows = list(csv.DictReader((out / "deals.csv").open()))
    assert len(rows) == 120 and {r["variant"] for r in rows} == {"base", "short"}


def test_without_matplotlib_the_report_says_how_to_get_the_plots(tmp_path, monkeypatch):
    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    got = run("carrousel", 2, deals=30, skill_deals=0, greedy_deals=0, out=tmp_path / "r")
    page = (tmp_path / "r" / "index.html").read_text()
    assert "pip install 'cardcore[study]'" in html_unescape(page) and "<svg" not in page
    assert got["variants"][0]["metrics"]["moves_per_deal"]["value"] > 0


def html_unescape(text: str) -> str:
    import html

    return html.unescape(text)


def test_the_ray_backend_gives_the_same_results():
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'cardcore[ray]')")
    kw = {"deals": 40, "skill_deals": 1, "search_bot": "ismcts:iterations=3", "seed": 6, "greedy_deals": 10}
    local = run("carrousel", 2, ["short=deck=54"], **kw)
    try:
        on_ray = run("carrousel", 2, ["short=deck=54"], backend="ray", jobs=2, **kw)  # a local Ray
    finally:
        ray.shutdown()
    assert _strip(local) == _strip(on_ray)


def test_ray_missing_is_one_line(monkeypatch):
    real = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    code, out = run_cli("study", "carrousel", "--players", "2", "--deals", "5", "--backend", "ray")
    assert code == 2 and "pip install 'cardcore[ray]'" in out and len(out.strip().splitlines()) == 1


def test_docs_name_every_metric():
    page = (Path(__file__).parent.parent / "docs" / "STUDY.md").read_text()
    from cardcore.study import METRICS

    for m in METRICS:
        assert f"`{m}`" in page, m


# ---- the report in the reader's language -------------------------------------------
REPORT_ARGS = ("carrousel", "--players", "2", "--deals", "30", "--skill-deals", "1")
REPORT_ARGS += ("--search-bot", "ismcts:iterations=3", "--variant", "short=deck=54")


def _visible(page: str) -> str:
    """What a person reads on the page: the tags, the style and code spans
    taken out, each inline SVG as the texts of its ``<text>`` elements (the
    plots drawn with ``svg.fonttype: none``), the file names left out."""
    import html

    page = re.sub(r"<style>.*?</style>|<code>.*?</code>", " ", page, flags=re.S)
    page = re.sub(
        r"<svg.*?</svg>",
        lambda m: " ".join(re.findall(r"<text\b[^>]*>(.*?)</text>", m.group(0), flags=re.S)),
        page,
        flags=re.S,
    )
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    return re.sub(r"\b[\w/.-]+\.(?:csv|json|md)\b", " ", text)


def test_the_report_in_the_pseudo_locale_leaves_no_english(tmp_path, pseudo_locale):
    """Every word of the page (title, sentences, headings, the table's labels,
    notes) and of its plots (titles, axis labels, legends, panel titles) goes
    through the catalogs; left in English: ids only (the game, the variants,
    the bots, the options)."""
    matplotlib = pytest.importorskip("matplotlib")
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # the plots' words as text, not paths
        code, said = run_cli("--lang", pseudo_locale, "study", *REPORT_ARGS, "--out", str(tmp_path / "r"))
    assert code == 0, said
    page = (tmp_path / "r" / "index.html").read_text()
    assert f'<html lang="{pseudo_locale}">' in page
    text = _visible(page)
    assert "⟦" in text and text.count("<text") == 0
    allowed = {"carrousel", "base", "short", "deck", "greedy", "random", "ismcts", "iterations"}
    from pseudo_locale import english_left

    assert english_left(text, allowed) == []
    svg_words = " ".join(re.findall(r"<text\b[^>]*>(.*?)</text>", page, flags=re.S))
    assert "⟦" in svg_words  # the plots' own words were read (legends, axis labels)


def test_the_report_in_french_with_its_data_unchanged(tmp_path):
    """``--lang fr``: the page in French (``lang="fr"``), its plots' PNG files
    named as in English, and the data (``--json``, study.json, the CSV files)
    byte for byte the English, but the seconds spent."""
    pytest.importorskip("matplotlib")
    from cardcore import i18n

    said = {}
    try:
        for lang in ("en", "fr"):
            code, said[lang] = run_cli(
                "--lang", lang, "study", *REPORT_ARGS, "--json", "--out", str(tmp_path / lang)
            )
            assert code == 0, said[lang]
    finally:
        i18n.set_language(i18n.SOURCE)
    en, fr = tmp_path / "en", tmp_path / "fr"

    def timeless(text: str) -> str:
        return re.sub(r'"(cpu_)?seconds": [0-9.e-]+', '"seconds": 0', text)

    assert timeless(said["en"]) == timeless(said["fr"])
    assert timeless((en / "study.json").read_text()) == timeless((fr / "study.json").read_text())
    for name in ("deals.csv", "matches.csv", "skill.csv", "metrics.csv"):
        assert (en / name).read_bytes() == (fr / name).read_bytes(), name
    pngs = sorted(p.name for p in (en / "figures").glob("*.png"))
    assert pngs and pngs == sorted(p.name for p in (fr / "figures").glob("*.png"))
    assert "1_win_share_by_seat.png" in pngs
    page_en, page_fr = (en / "index.html").read_text(), (fr / "index.html").read_text()
    assert '<html lang="en">' in page_en and '<html lang="fr">' in page_fr
    assert "Every figure" in page_en and "Tous les chiffres" in page_fr
    assert "Part des victoires par place" in page_fr and "Win share by seat" not in page_fr
    assert html_unescape("Les intervalles sont des intervalles bootstrap à 95 %") in html_unescape(page_fr)
    assert "part des victoires, place 0" in page_fr  # the table's labels
    # the numbers as a French reader writes them (Babel): a decimal comma, a space between thousands
    text_en, text_fr = _visible(page_en), _visible(page_fr)
    assert re.search(r"\b0\.\d{3}\b", text_en) and not re.search(r"\b0,\d{3}\b", text_en)
    assert re.search(r"\b0,\d{3}\b", text_fr) and not re.search(r"\b0\.\d{3}\b", text_fr)
    assert "Verdicts" in page_fr and "< 0,001" in html_unescape(page_fr) + "< 0,001"
