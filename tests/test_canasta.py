"""Canasta, one test per ruling (N1–N18) at least, from position files."""

from __future__ import annotations

import pytest
import yaml
from conftest import POSITIONS, cli_json

from cardcore.cards import card
from cardcore.errors import IllegalMoveError
from cardcore.moves import Move
from cardcore.position_file import position_from_data
from cardcore.table import Table
from cardcore.testing import check_random_playouts
from cardcore_plugins.canasta import moves as canasta_moves
from cardcore_plugins.canasta import rules
from cardcore_plugins.canasta.checks import DealEnds
from cardcore_plugins.canasta.state import new_state

CN = POSITIONS / "canasta"


def load(name: str, registry, **changes):
    raw = yaml.safe_load((CN / name).read_text())
    raw.update(changes)
    return position_from_data(raw, registry)


def texts(t, s) -> list[str]:
    return [t.move_text(m, s) for m in t.legal_moves(s)]


def play(t, s, text: str) -> None:
    moves = t.legal_moves(s)
    by_text = {t.move_text(m, s): m for m in moves}
    assert text in by_text, f"{text!r} not in {list(by_text)}"
    t.apply(s, by_text[text], moves)


# ---- N1 N2 N4 N16 N17: players, deck, deal --------------------------------------
@pytest.mark.parametrize("players,hand,target,sides", [(4, 11, 5000, 2), (3, 13, 7500, 3), (2, 15, 5000, 2)])
def test_n1_n2_n4_deal(registry, players, hand, target, sides):
    t = Table.from_names(registry, "canasta", players)
    assert len(t.deck) == 108 and len({id(c) for c in t.deck}) == 108
    assert sum(c.name == "JOKER" for c in t.deck) == 4
    assert len(t.sides) == sides
    assert t.pm.get_plugin("canasta").target == target
    for seed in range(10):
        m = t.new_match(seed)
        s = m.start_deal()
        # every hand is full: the first player's red threes were laid and replaced (N7),
        # the others' wait in hand for their first turn
        assert [len(h) for h in s.hands] == [hand] * players
        assert not any(c.rank == 3 and c.suit in "HD" for c in s.hands[s.to_act])
        top = s.discard[-1]
        assert not (top.rank in (0, 2) or (top.rank == 3 and top.suit in "HD"))
        assert s.frozen_start == (len(s.discard) > 1)  # N4: a covered upcard freezes


def test_n4_upcard_rule_and_hoyle(registry):
    t = Table.from_names(registry, "canasta", 4)
    s = new_state(t, 0, [0, 0])
    s.stock = [card("JOKER"), card("3H"), card("7C"), card("8C")]
    t.hook.canasta_start_pile(state=s)
    assert [c.name for c in s.discard] == ["JOKER", "3H", "7C"] and s.frozen_start
    s = new_state(t, 0, [0, 0])
    s.stock = [card("3S"), card("8C")]
    t.hook.canasta_start_pile(state=s)
    assert [c.name for c in s.discard] == ["3S"] and not s.frozen_start
    hoyle = Table.from_names(registry, "canasta", 4, {}, ["canasta.hoyle_upcard"])
    s = new_state(hoyle, 0, [0, 0])
    s.stock = [card("3S"), card("8C")]
    hoyle.hook.canasta_start_pile(state=s)
    assert [c.name for c in s.discard] == ["3S"] and s.frozen_start  # N18 Hoyle
    s = new_state(hoyle, 0, [0, 0])
    s.stock = [card("2D"), card("8C")]
    hoyle.hook.canasta_start_pile(state=s)
    assert [c.name for c in s.discard] == ["2D"] and s.frozen_start


# ---- N5 N16 N17: drawing --------------------------------------------------------
@pytest.mark.parametrize("players,drawn", [(4, 1), (3, 2), (2, 2)])
def test_n5_draw_one_or_two(registry, players, drawn):
    data = yaml.safe_load((CN / "n10_pile_minimum.yaml").read_text())
    data["players"] = players
    data["hands"] = {k: v for k, v in data["hands"].items() if k < players}
    data["scores"] = {}
    data["dealer"] = players - 1
    t, s = position_from_data(data, registry)
    before = len(s.hands[0])
    play(t, s, "draw")
    assert len(s.hands[0]) == before + drawn


# ---- N7: red threes ---------------------------------------------------------------
def test_n7_red_threes_laid_and_replaced(registry):
    t = Table.from_names(registry, "canasta", 4)
    s = new_state(t, 3, [0, 0])
    s.hands = [[card("3H"), card("5C")], [card("4C")], [card("4D")], [card("4H")]]
    s.stock = [card("3D"), card("9C"), card("9D")]
    s.discard = [card("7C")]
    rules.begin_turn(s, 0)
    assert [c.name for c in s.red_threes[0]] == ["3H", "3D"]  # the replacement was a red three too
    assert [c.name for c in s.hands[0]] == ["5C", "9C"]
    assert [c.name for c in s.stock] == ["9D"]


def test_n7_red_three_in_a_taken_pile_not_replaced(registry):
    t, s = load("n9_frozen.yaml", registry, discard=["3H", "7C", "8S", "5D"])
    play(t, s, "take the pile (4 cards) with 5H 5S")
    assert [c.name for c in s.red_threes[0]] == ["3H"]
    assert sorted(c.name for c in s.hands[0]) == ["7C", "8S", "9C", "JOKER"]


def test_n7_red_threes_negative_without_melds():
    data = cli_json("score", str(CN / "n7_red_threes_no_meld.yaml"), "--json")
    side1 = data["sides"][1]
    assert side1["breakdown"] == {
        "base": 0,
        "canastas": 0,
        "red_threes": -100,
        "going_out": 0,
        "hand": -20,
    }
    assert side1["points"] == -120


def test_n7_four_red_threes(registry):
    t, s = load("n14_score.yaml", registry, red_threes={0: ["3H", "3D", "3H", "3D"], 1: []})
    assert t.score_deal(s)[0].breakdown["red_threes"] == 800
    t, s = load(
        "n14_score.yaml",
        registry,
        red_threes={0: [], 1: ["3H", "3D", "3H", "3D"]},
        melds={0: [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]], 1: []},
    )
    assert t.score_deal(s)[1].breakdown["red_threes"] == -800


# ---- N6 N9: the pile ------------------------------------------------------------------
def test_n6_black_three_blocks_next_player_only(registry):
    t, s = load("n6_black_three.yaml", registry)
    assert texts(t, s) == ["draw"]
    play(t, s, "draw")
    play(t, s, "discard 5H")  # 5H now covers the black three
    s.to_act = 0  # the same player again, for the test: the pile is open
    s.phase = "draw"
    assert "take the pile (4 cards) with 5S 5H" not in texts(t, s)  # only one natural 5 left
    t2, s2 = load("n6_black_three.yaml", registry, discard=["7C", "3S", "5D"])
    assert "take the pile (3 cards) with 5H 5S" in texts(t2, s2)


def test_n9_frozen_pile_natural_pair_only(registry):
    t, s = load("n9_frozen.yaml", registry)
    assert texts(t, s) == ["draw", "take the pile (4 cards) with 5H 5S"]
    t, s = load("n9_frozen.yaml", registry, discard=["7C", "8S", "5D"])  # no wild: not frozen
    assert texts(t, s) == [
        "draw",
        "take the pile (3 cards) with 5H 5S",
        "take the pile (3 cards) with 5H JOKER",
    ]


def test_n6_discarded_wild_blocks_and_freezes(registry):
    t, s = load("n9_frozen.yaml", registry, discard=["7C", "8S", "5D", "2S"])
    assert texts(t, s) == ["draw"]  # a wild on top: the pile cannot be taken (N9)
    with pytest.raises(IllegalMoveError, match="N9"):
        t.apply(s, Move("take_pile", None, tuple(s.discard), (("cards", ()),)))


def test_n9_frozen_for_a_side_that_has_not_melded(registry):
    t, s = load("n9_frozen.yaml", registry, discard=["7C", "8S", "5D"], melds={})
    assert texts(t, s) == ["draw", "take the pile (3 cards) with 5H 5S"]


def test_n9_add_top_to_own_meld(registry):
    t, s = load("n9_frozen.yaml", registry, discard=["7C", "8S", "KH"])
    assert "take the pile (3 cards) onto the K meld" in texts(t, s)
    play(t, s, "take the pile (3 cards) onto the K meld")
    assert len(s.melds[0][13]) == 4 and len(s.hands[0]) == 6


def test_n9_one_card_cannot_take_one_card_pile(registry):
    t, s = load("n13_exhausted.yaml", registry, stock=["9D", "9H"])
    assert texts(t, s) == ["draw"]
    t, s = load("n13_exhausted.yaml", registry, stock=["9D", "9H"], discard=["7C", "KD"])
    assert "take the pile (2 cards) onto the K meld" in texts(t, s)


# ---- N10: the initial meld ------------------------------------------------------------
@pytest.mark.parametrize(
    "score,minimum", [(-10, 15), (0, 50), (1400, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120)]
)
def test_n10_minimum_from_score(score, minimum):
    assert rules.minimum_for(score) == minimum


@pytest.mark.parametrize(
    "score,steps_to_commit",
    [
        (-10, []),  # 15: KD KH KS = 30 is enough
        (1400, ["meld QH QS QD"]),  # 50: 30 + 30
        (1500, ["meld QH QS QD", "add JOKER to the Q meld"]),  # 90: 30 + 30 + 50
        (3000, None),  # 120: 110 is the most this hand can reach
    ],
)
def test_n10_thresholds_top_card_counts_rest_not(registry, score, steps_to_commit):
    t, s = load("n10_pile_minimum.yaml", registry, scores={0: score, 1: 0})
    if steps_to_commit is None:
        assert texts(t, s) == ["draw"]  # N10a: 110 cannot reach 120, so the pile is not offered
        return
    play(t, s, "take the pile (3 cards) with KH KS")
    assert s.phase == "pile" and rules.meld_points(s.staged) == 30  # the aces under KD do not count
    for step in steps_to_commit:
        assert "lay down the initial meld" not in texts(t, s)
        play(t, s, step)
    play(t, s, "lay down the initial meld")
    assert s.phase == "play" and 13 in s.melds[0]
    assert {"AC", "AD"} <= {c.name for c in s.hands[0]}  # the rest of the pile is taken


def test_n10_initial_meld_from_hand_is_staged(registry):
    t, s = load("n10_pile_minimum.yaml", registry, discard=["4D"])
    play(t, s, "draw")
    assert "discard 7C" in texts(t, s)
    play(t, s, "meld QD QH QS")  # the hand is kept sorted after a draw
    assert s.staged and "discard 7C" not in texts(t, s)  # commit or withdraw first
    assert "lay down the initial meld" not in texts(t, s)  # 30 < 50
    play(t, s, "add JOKER to the Q meld")
    play(t, s, "lay down the initial meld")
    assert s.melds[0][12] and "discard 7C" in texts(t, s)


# ---- N8: meld limits --------------------------------------------------------------------
def test_n8_meld_limits(registry):
    t, s = load("n12_go_out.yaml", registry, hands={0: ["QH", "JOKER", "2C", "9D", "9S", "7H"]})
    moves = texts(t, s)
    assert not any(m.startswith("meld QH") for m in moves)  # two naturals at least
    assert "meld 9D 9S JOKER" in moves and "meld 9D 9S 2C" in moves
    t, s = load(
        "n12_go_out.yaml",
        registry,
        hands={0: ["KH", "JOKER", "9D", "9S"]},
        melds={0: [["KS", "KD", "2D", "2H", "2S"]], 1: []},
    )
    moves = texts(t, s)
    assert "add KH to the K meld" in moves
    assert "add JOKER to the K meld" not in moves  # three wild cards at most
    assert not any(m.startswith("meld K") for m in moves)  # one meld per rank


def test_n8_natural_canasta_turned_mixed(registry):
    t, s = load("n12_go_out.yaml", registry, hands={0: ["JOKER", "9D", "9S"]})
    before = t.score_deal(s)[0].breakdown["canastas"]
    play(t, s, "add JOKER to the K meld")
    assert (before, t.score_deal(s)[0].breakdown["canastas"]) == (500, 300)


def test_n8_black_threes_only_when_going_out(registry):
    hands = {0: ["3C", "3S", "3C", "9H"], 1: ["4C"], 2: ["4D"], 3: ["4H"]}
    t, s = load("n12_go_out.yaml", registry, hands=hands)
    assert "meld 3C 3S 3C" in texts(t, s)  # then 9H is discarded: out
    play(t, s, "meld 3C 3S 3C")
    play(t, s, "discard 9H")
    assert s.went_out == 0
    t, s = load("n12_go_out.yaml", registry, hands={**hands, 0: ["3C", "3S", "3C", "9H", "9D"]})
    assert "meld 3C 3S 3C" not in texts(t, s)
    t, s = load("n12_go_out.yaml", registry, hands=hands, melds={0: [["5C", "5S", "5D"]], 1: []})
    assert "meld 3C 3S 3C" not in texts(t, s)  # no canasta: cannot go out


# ---- N11 N12: going out -------------------------------------------------------------------
def test_n11_going_out_without_canasta_refused(registry):
    t, s = load("n12_go_out.yaml", registry, melds={0: [["5C", "5S", "5D"]], 1: []})
    assert texts(t, s) == ["discard 5H", "discard 9C"]  # adding 5H would leave one card


def test_n12_go_out_and_score(registry):
    t, s = load("n12_go_out.yaml", registry)
    play(t, s, "add 5H to the 5 meld")
    assert texts(t, s) == ["discard 9C"]
    play(t, s, "discard 9C")
    assert s.went_out == 0 and not s.went_out_concealed and t.is_deal_over(s)
    assert t.score_deal(s)[0].breakdown["going_out"] == 100


def test_n12_ask_permission(registry):
    t, s = load("n12_go_out.yaml", registry)
    play(t, s, "ask partner: may I go out?")
    assert s.to_act == 2 and texts(t, s) == ["answer: yes, go out", "answer: no"]
    no = s.clone()
    play(t, no, "answer: no")
    assert no.to_act == 0 and texts(t, no) == ["discard 5H", "discard 9C"]
    play(t, s, "answer: yes, go out")
    assert s.to_act == 0 and texts(t, s) == ["add 5H to the 5 meld"]  # he must go out


def test_n18_permission_required(registry):
    t, s = load("n12_go_out.yaml", registry, house_rules=["canasta.permission_required"])
    assert texts(t, s) == ["discard 5H", "discard 9C", "ask partner: may I go out?"]


def test_n12_concealed_going_out(registry):
    hand = ["KH", "KS", "KD", "KC", "KH", "KS", "KD", "5H", "5S", "5D", "9C"]
    t, s = load("n12_go_out.yaml", registry, hands={0: hand}, melds={}, scores={0: 0, 1: 0})
    for step in [
        "meld KH KS KD",
        "add KC to the K meld",
        "add KH to the K meld",
        "add KS to the K meld",
        "add KD to the K meld",
        "meld 5H 5S 5D",
        "lay down the initial meld",
        "discard 9C",
    ]:
        play(t, s, step)
    assert s.went_out == 0 and s.went_out_concealed
    b = t.score_deal(s)[0].breakdown
    assert b["going_out"] == 200 and b["canastas"] == 500 and b["base"] == 85


def test_n12_not_concealed_when_adding_to_partner_melds(registry):
    t, s = load("n12_go_out.yaml", registry)
    play(t, s, "add 5H to the 5 meld")
    play(t, s, "discard 9C")
    assert not s.went_out_concealed


# ---- N13: the end of the stock --------------------------------------------------------------
def test_n13_exhausted_stock_forced_take(registry):
    t, s = load("n13_exhausted.yaml", registry)
    assert texts(t, s) == ["take the pile (1 card) onto the K meld"]  # one card may take one
    play(t, s, "take the pile (1 card) onto the K meld")
    assert texts(t, s) == ["discard 9S"]
    play(t, s, "discard 9S")
    assert s.went_out == 0
    t, s = load("n13_exhausted.yaml", registry, discard=["QD"])
    assert t.is_deal_over(s)  # cannot take: the deal ends
    t.finish_deal(s)
    assert t.score_deal(s)[0].breakdown["going_out"] == 0


def test_n13b_forced_take_only_if_the_turn_can_end(registry):
    # no canasta: after taking KD onto the kings he would hold 9S alone and could
    # neither discard it (going out needs a canasta) nor meld it (G1): the deal ends
    t, s = load("n13_exhausted.yaml", registry, melds={0: [["KH", "KS", "KC"]], 1: []})
    assert texts(t, s) == []
    assert t.is_deal_over(s)


def test_n13b_forced_take_even_when_frozen(registry):
    # a wild card in the pile freezes it (N9a), but the forced take of N13 stands
    t, s = load("n13_exhausted.yaml", registry, discard=["JOKER", "KD"], hands={0: ["9S", "9D"]})
    assert texts(t, s) == ["take the pile (2 cards) onto the K meld"]


def test_n13_last_stock_card_red_three(registry):
    t, s = load("n12_go_out.yaml", registry, phase="draw", stock=["3D"], discard=["7C"])
    play(t, s, "draw")
    assert [c.name for c in s.red_threes[0]] == ["3D"] and s.last_red_three
    moves = texts(t, s)
    assert not any(m.startswith("discard") for m in moves) and "stop: the deal ends" in moves
    play(t, s, "stop: the deal ends")
    assert t.is_deal_over(s) and s.went_out is None


# ---- N14 N15: scoring and the match -----------------------------------------------------------
def test_n14_worked_score():
    data = cli_json("score", str(CN / "n14_score.yaml"), "--json")
    assert data["sides"][0] == {
        "seats": [0, 2],
        "points": 950,
        "breakdown": {"base": 150, "canastas": 500, "red_threes": 200, "going_out": 100, "hand": 0},
    }
    assert data["sides"][1]["points"] == 20


def test_n15_match_end(registry):
    t = Table.from_names(registry, "canasta", 4)
    m = t.new_match(0)
    m.scores = [5000, 4990]
    assert t.hook.cardcore_is_match_over(match=m)
    m.scores = [5100, 5100]
    assert not t.hook.cardcore_is_match_over(match=m)
    t3 = Table.from_names(registry, "canasta", 3)
    m3 = t3.new_match(0)
    m3.scores = [5000, 0, 0]
    assert not t3.hook.cardcore_is_match_over(match=m3)  # 7500 with 3 players


# ---- N16 N17: two and three players ----------------------------------------------------------
def test_n16_two_canastas_to_go_out(registry):
    t, s = load("n12_go_out.yaml", registry, players=2, dealer=1, hands={0: ["5H", "9C"], 1: ["4C"]})
    assert texts(t, s) == ["discard 5H", "discard 9C"]  # one canasta is not enough


def test_n17_three_players_partnership_on_pile(registry):
    data = {
        "game": "canasta",
        "players": 3,
        "dealer": 2,
        "to_act": 0,
        "hands": {0: ["5H", "5S", "9C"], 1: ["4C", "4D"], 2: ["6C", "6D"]},
        "stock": ["9D", "9H"],
        "discard": ["7C", "5D"],
        "melds": {0: [["KH", "KS", "KD"]], 1: [["QH", "QS", "QD"]], 2: [["QC", "QH", "QS"]]},
        "scores": {0: 0, 1: 0, 2: 0},
    }
    t, s = position_from_data(data, registry)
    play(t, s, "take the pile (2 cards) with 5H 5S")
    assert s.teams == [(0,), (1, 2)]
    assert len(s.melds[1][12]) == 6  # the partners' queens merged
    scores = t.score_deal(s)
    assert scores[1].points == scores[2].points and scores[1].seats == (1, 2)
    t2, s2 = position_from_data({**data, "house_rules": ["canasta.every_man_for_himself"]}, registry)
    play(t2, s2, "take the pile (2 cards) with 5H 5S")
    assert s2.teams == [(0,), (1,), (2,)]


def test_n17_going_out_before_the_pile_is_taken(registry):
    data = {
        "game": "canasta",
        "players": 3,
        "to_act": 1,
        "hands": {0: [], 1: ["4C"], 2: ["6C"]},
        "melds": {
            0: [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]],
            1: [["QH", "QS", "QD"]],
            2: [["QC", "QH", "QS"]],
        },
        "went_out": 0,
    }
    t, s = position_from_data(data, registry)
    t.finish_deal(s)
    scores = t.score_deal(s)
    assert [x.seats for x in scores] == [(0,), (1, 2), (1, 2)]
    assert scores[1].points == 6 * 10 - 5 - 5  # the merged queens, minus both hands


# ---- decisions added after the first release (G1, N7a … N17a) ------------------------------------
def test_n12c_four_black_threes_go_out(registry):
    t, s = load("n12c_black_threes_go_out.yaml", registry)
    assert "meld 3C 3S 3C" in texts(t, s)
    play(t, s, "meld 3C 3S 3C")
    # black threes are down: he must go out this turn (no other discard)
    assert texts(t, s) == ["add 3S to the 3 meld"]
    play(t, s, "add 3S to the 3 meld")
    assert texts(t, s) == ["discard 9D"]
    play(t, s, "discard 9D")
    assert s.went_out == 0
    assert t.score_deal(s)[0].breakdown["going_out"] == 100


def test_n12c_after_a_yes_the_black_threes_go_down(registry):
    t, s = load("n12c_black_threes_go_out.yaml", registry)
    play(t, s, "ask partner: may I go out?")
    play(t, s, "answer: yes, go out")
    assert texts(t, s) == ["meld 3C 3S 3C"]  # never "stop"


def test_g1_pile_take_that_strands_is_not_legal(registry):
    t, s = load("g1_pile_take_strands.yaml", registry)
    assert texts(t, s) == ["draw"]
    with pytest.raises(IllegalMoveError, match="G1"):
        t.apply(s, Move("take_pile", None, tuple(s.discard), (("cards", (card("6C"), card("6S"))),)))
    # with a third card he keeps one to discard: the take is legal
    t, s = load("g1_pile_take_strands.yaml", registry, hands={0: ["6C", "6S", "5D", "9H"]})
    assert "take the pile (1 card) with 6C 6S" in texts(t, s)


def test_g1_initial_meld_that_strands_is_not_legal(registry):
    # not melded (minimum 15), holding 6C 6S 5D: the take would stage 6D 6C 6S
    # (15) and leave 5D alone, with nothing to keep after laying it down
    t, s = load("g1_pile_take_strands.yaml", registry, melds={}, scores={0: -10, 1: 0}, has_melded=[])
    assert texts(t, s) == ["draw"]


def test_n9_pair_takes_a_one_card_pile_to_go_out(registry):
    t, s = load("n9_pair_takes_to_go_out.yaml", registry)
    assert texts(t, s) == ["draw", "take the pile (1 card) with 5C 5H"]
    play(t, s, "take the pile (1 card) with 5C 5H")
    assert s.went_out == 0 and t.is_deal_over(s)
    assert t.score_deal(s)[0].breakdown["going_out"] == 100
    # without a canasta he could not go out: no take
    t, s = load("n9_pair_takes_to_go_out.yaml", registry, melds={0: [["KH", "KS", "KD"]], 1: []})
    assert texts(t, s) == ["draw"]
    # with permission required he must ask first: going out on the take is not allowed
    t, s = load("n9_pair_takes_to_go_out.yaml", registry, house_rules=["canasta.permission_required"])
    assert texts(t, s) == ["draw"]


def test_n13a_no_going_out_bonus_after_the_last_red_three(registry):
    t, s = load("n13a_red_three_no_bonus.yaml", registry)
    assert texts(t, s) == [
        "add 5H to the 5 meld",  # N8a: one add per rank (5H and 5S held)
        "stop: the deal ends",
        "ask partner: may I go out?",  # N13c: he may ask in this turn too
    ]
    play(t, s, "add 5H to the 5 meld")
    play(t, s, "add 5S to the 5 meld")
    assert t.is_deal_over(s)
    assert t.score_deal(s)[0].breakdown["going_out"] == 0


def test_n7a_red_three_dealt_to_a_seat_whose_turn_never_comes():
    data = cli_json("score", str(CN / "n7a_red_three_never_laid.yaml"), "--json")
    side1 = data["sides"][1]
    assert side1["breakdown"]["red_threes"] == -100  # no meld: -100, as laid (N7)
    assert side1["breakdown"]["hand"] == -15  # 9C and 4C; the red three is no hand card (N3)
    assert side1["points"] == -115


def test_n10a_take_offered_only_when_the_minimum_can_be_reached(registry):
    t, s = load("n10a_take_needs_minimum.yaml", registry)
    assert texts(t, s) == ["draw"]
    with pytest.raises(IllegalMoveError, match="N10a"):
        t.apply(s, Move("take_pile", None, tuple(s.discard), (("cards", (card("KH"), card("KS"))),)))
    # with 1500 points the minimum is 90: still out of reach (30 + nothing)
    t, s = load("n10a_take_needs_minimum.yaml", registry, scores={0: 1500, 1: 0})
    assert texts(t, s) == ["draw"]
    # with QH QS QD, a joker and a two the hand reaches 130: KD KH KS 30, queens 30,
    # wild cards 70 (and 9H 8D are kept, one to discard)
    hand = ["KH", "KS", "QH", "QS", "QD", "JOKER", "2C", "9H", "8D"]
    t, s = load("n10a_take_needs_minimum.yaml", registry, hands={0: hand})
    assert "take the pile (2 cards) with KH KS" in texts(t, s)


def test_n10a_staged_meld_offered_only_while_the_minimum_can_be_reached(registry):
    # minimum 120 from hand: QH QS QD (30) and KH KS KD (30) reach 60 at most
    hand = ["KH", "KS", "KD", "QH", "QS", "QD", "9H", "8D"]
    t, s = load("n10a_take_needs_minimum.yaml", registry, hands={0: hand}, phase="play")
    assert not any(m.startswith("meld") for m in texts(t, s))
    t, s = load("n10a_take_needs_minimum.yaml", registry, hands={0: hand}, phase="play", scores={0: 0, 1: 0})
    assert "meld KH KS KD" in texts(t, s)  # 50 is in reach


def test_n12a_ask_when_going_out_by_melding_every_card(registry):
    t, s = load("n12a_ask_meld_all.yaml", registry)
    assert "ask partner: may I go out?" in texts(t, s)
    t, s = load("n12a_ask_meld_all.yaml", registry, house_rules=["canasta.permission_required"])
    assert "ask partner: may I go out?" in texts(t, s)
    play(t, s, "ask partner: may I go out?")
    play(t, s, "answer: yes, go out")
    for step in ["add JH to the J meld", "add JD to the J meld", "add JS to the J meld"]:
        play(t, s, step)
    assert s.went_out == 0


def test_n12a_ask_after_taking_the_pile(registry):
    # permission_required: he took the pile (the top card's meld is part of the
    # take) and may still ask before laying anything else
    t, s = load(
        "n12a_ask_meld_all.yaml",
        registry,
        phase="draw",
        hands={0: ["4C", "4D", "JH", "JD", "JS"]},
        discard=["9S", "4S"],
        house_rules=["canasta.permission_required"],
    )
    play(t, s, "take the pile (2 cards) with 4C 4D")
    assert "ask partner: may I go out?" in texts(t, s)
    play(t, s, "ask partner: may I go out?")
    play(t, s, "answer: yes, go out")
    for step in ["add JD to the J meld", "add JH to the J meld", "add JS to the J meld"]:
        play(t, s, step)
    assert texts(t, s) == ["discard 9S"]
    play(t, s, "discard 9S")
    assert s.went_out == 0


def test_n12a_ask_in_the_pile_phase_returns_to_it(registry):
    # an initial meld taken from the pile: he asks, hears yes, then must go out
    t, s = load(
        "n12a_ask_meld_all.yaml",
        registry,
        phase="draw",
        melds={},
        has_melded=[],
        scores={0: 0, 1: 0},
        hands={0: ["KC", "KD", "KH", "KS", "KC", "KD", "JH", "JD", "JS"]},
        discard=["4S", "KH"],
    )
    play(t, s, "take the pile (2 cards) with KC KD")
    assert s.phase == "pile" and "ask partner: may I go out?" in texts(t, s)
    play(t, s, "ask partner: may I go out?")
    play(t, s, "answer: yes, go out")
    assert s.phase == "pile" and "take back the initial meld" not in texts(t, s)


def test_n12b_concealed_after_taking_the_pile(registry):
    hand = ["KC", "KD", "KH", "KS", "KC", "KD", "5H", "5S", "5D"]
    t, s = load(
        "n12_go_out.yaml",
        registry,
        phase="draw",
        hands={0: hand},
        melds={},
        has_melded=[],
        scores={0: 0, 1: 0},
        discard=["5C", "KH"],
    )
    play(t, s, "take the pile (2 cards) with KC KD")
    for step in [
        "add KH to the K meld",
        "add KS to the K meld",
        "add KC to the K meld",
        "add KD to the K meld",
        "meld 5H 5S 5D",
        "lay down the initial meld",
        "add 5C to the 5 meld",  # the rest of the pile, melded too
    ]:
        play(t, s, step)
    assert s.went_out == 0 and s.went_out_concealed
    assert t.score_deal(s)[0].breakdown["going_out"] == 200


def test_n9a_frozen_pile_never_onto_a_meld(registry):
    # the pile holds a wild card: the top KH cannot go onto the side's kings
    t, s = load("n9_frozen.yaml", registry, discard=["7C", "2S", "8S", "KH"])
    assert not any("onto the K meld" in m for m in texts(t, s))
    with pytest.raises(IllegalMoveError, match="N9"):
        t.apply(s, Move("take_pile", None, tuple(s.discard), (("cards", ()),)))


def test_n17a_merged_melds_keep_their_wild_cards_but_take_no_more(registry):
    data = {
        "game": "canasta",
        "players": 3,
        "dealer": 2,
        "to_act": 1,
        "phase": "play",
        "pile_taker": 0,
        "hands": {0: ["9C"], 1: ["QC", "JOKER", "8D", "8S"], 2: ["6C", "6D"]},
        "stock": ["9D", "9H"],
        "discard": ["7C"],
        "melds": {0: [], 1: [["QH", "QS", "2D", "2C", "QD", "QS", "JOKER", "2H"]]},
    }
    t, s = position_from_data(data, registry)
    got = texts(t, s)
    assert "add QC to the Q meld" in got
    assert "add JOKER to the Q meld" not in got  # four wild cards already (N17a)


# ---- random playouts ----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("kinds", ["random", "greedy", "mixed"])
def test_random_playouts(registry, players, kinds):
    t = Table.from_names(registry, "canasta", players)
    seats = {"random": ["random"] * 4, "greedy": ["greedy"] * 4, "mixed": ["greedy", "random"] * 2}
    ends = DealEnds()
    check_random_playouts(
        t,
        deals=6,
        seed=players,
        kinds=seats[kinds][:players],
        round_trip_every=5,
        on_deal=ends.on_deal,
        on_move=ends.on_move,
    )
    assert ends.deals == 6 and ends.stops_otherwise == 0


def test_playouts_with_house_rules(registry):
    ends = DealEnds()
    t = Table.from_names(registry, "canasta", 4, {}, ["canasta.hoyle_upcard", "canasta.permission_required"])
    check_random_playouts(
        t, deals=4, seed=1, kinds=["greedy", "random", "greedy", "random"], on_deal=ends.on_deal
    )
    t3 = Table.from_names(registry, "canasta", 3, {}, ["canasta.every_man_for_himself"])
    check_random_playouts(t3, deals=4, seed=1, on_deal=ends.on_deal, on_move=ends.on_move)
    assert ends.deals == 8


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_canasta_deterministic(players):
    args = ("simulate", "canasta", "--players", str(players), "--deals", "20", "--seed", "1", "--json")
    a, b = cli_json(*args), cli_json(*args)
    a.pop("seconds"), b.pop("seconds"), a.pop("cpu_seconds"), b.pop("cpu_seconds")
    assert a == b and a["deals"] == 20


def test_greedy_beats_random():
    d = cli_json(
        "simulate",
        "canasta",
        "--players",
        "2",
        "--seat",
        "0=greedy",
        "--deals",
        "40",
        "--seed",
        "2",
        "--json",
    )
    assert d["deal_wins"][0] > 3 * d["deal_wins"][1]


def test_n17_each_player_minimum_from_own_score(registry):
    data = {
        "game": "canasta",
        "players": 3,
        "dealer": 2,
        "to_act": 0,
        "hands": {0: ["5H", "5S", "9C"], 1: ["4C", "4D"], 2: ["6C", "6D"]},
        "stock": ["9D", "9H"],
        "discard": ["7C"],
        "scores": {0: 1600, 1: 0, 2: -5},
    }
    t, s = position_from_data(data, registry)
    assert [t.observe(s, seat).public["initial_minimum"] for seat in range(3)] == [90, 50, 15]


def test_n12_n18_ask_before_a_concealed_going_out(registry):
    hand = ["KH", "KS", "KD", "KC", "KH", "KS", "KD", "5H", "5S", "5D", "9C"]
    t, s = load(
        "n12_go_out.yaml",
        registry,
        hands={0: hand},
        melds={},
        scores={0: 0, 1: 0},
        house_rules=["canasta.permission_required"],
    )
    play(t, s, "ask partner: may I go out?")
    play(t, s, "answer: yes, go out")
    for step in [
        "meld KH KS KD",
        "add KC to the K meld",
        "add KH to the K meld",
        "add KS to the K meld",
        "add KD to the K meld",
        "meld 5H 5S 5D",
        "lay down the initial meld",
        "discard 9C",
    ]:
        play(t, s, step)
    assert s.went_out == 0 and s.went_out_concealed


@pytest.mark.parametrize(
    "changes,move,reason",
    [
        ({}, Move("take_pile", None, (), (("cards", ()),)), "already this turn"),  # phase play
        ({"phase": "draw", "discard": ["7C", "2H"]}, Move("take_pile", None, (), (("cards", ()),)), "N9"),
        ({"phase": "draw"}, Move("discard", card("9C")), "N5"),
        ({}, Move("discard", card("KH")), "not in your hand"),
        ({"melds": {0: [["5C", "5S", "5D"]], 1: []}}, Move("add", card("5H"), (), (("rank", "5"),)), "N11"),
        (
            {"hands": {0: ["3C", "3S", "3C", "9H", "9D"]}},
            Move("meld", None, (), (("cards", (card("3C"), card("3S"), card("3C", 1))), ("rank", "3"))),
            "N8",
        ),
        (
            {"hands": {0: ["QH", "QS", "9H", "9D"]}},
            Move("meld", None, (), (("cards", (card("QH"), card("QS"), card("9H"))), ("rank", "Q"))),
            "N8",
        ),
        (
            {"hands": {0: ["QH", "JOKER", "2C", "9D", "9S"]}},
            Move("meld", None, (), (("cards", (card("QH"), card("JOKER"), card("2C"))), ("rank", "Q"))),
            "two natural",
        ),
    ],
)
def test_illegal_moves_name_the_rule(registry, changes, move, reason):
    t, s = load("n12_go_out.yaml", registry, **changes)
    with pytest.raises(IllegalMoveError, match=reason):
        t.apply(s, move)


def test_default_move_text_and_make_move():
    from cardcore.moves import default_move_text, make_move, move_to_json

    m = make_move("capture", card("7S"), [card("3C"), card("4H")], value=7, onto=(card("2C"),))
    assert m.extra == (("onto", (card("2C"),)), ("value", 7))
    assert default_move_text(m) == "capture 7S onto 2C value 7 takes 3C 4H"
    assert move_to_json(m, "t") == {
        "kind": "capture",
        "card": "7S",
        "text": "t",
        "takes": ["3C", "4H"],
        "onto": ["2C"],
        "value": 7,
    }


def test_n3_card_values():
    from cardcore_plugins.canasta.cards import VALUES

    by_name = {c.name: v for c, v in VALUES.items()}
    assert by_name["JOKER"] == 50
    assert by_name["AS"] == by_name["2H"] == 20
    assert all(by_name[f"{r}C"] == 10 for r in ("K", "Q", "J", "10", "9", "8"))
    assert all(by_name[f"{r}D"] == 5 for r in ("7", "6", "5", "4"))
    assert by_name["3S"] == by_name["3C"] == 5
    assert by_name["3H"] == by_name["3D"] == 100  # N7: red threes are bonus cards


# ---- decisions of the third release (N13c, N12d, N17b, N15a, N8a) ----------------------------------
def test_n13c_black_threes_then_every_card_never_stop(registry):
    t, s = load("n13c_last_red_three_go_out.yaml", registry)
    assert texts(t, s) == [
        "meld 3C 3S 3C",
        "add 9D to the 9 meld",
        "stop: the deal ends",
        "ask partner: may I go out?",  # N12a holds in this turn too
    ]
    play(t, s, "meld 3C 3S 3C")
    assert texts(t, s) == ["add 9D to the 9 meld"]  # black threes down: no stop while he holds cards
    play(t, s, "add 9D to the 9 meld")
    assert s.went_out == 0 and t.is_deal_over(s)
    assert t.score_deal(s)[0].breakdown["going_out"] == 0  # N13a: no bonus
    # 9D could not meld: the black threes are not offered at all
    t, s = load(
        "n13c_last_red_three_go_out.yaml",
        registry,
        melds={0: [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]], 1: []},
    )
    assert texts(t, s) == ["stop: the deal ends"]


def test_n13c_melding_the_last_card_needs_the_canastas(registry):
    # no canasta: adding 5H is fine (5S is kept), adding both would be going out
    t, s = load("n13a_red_three_no_bonus.yaml", registry, melds={0: [["5C", "5S", "5D"]], 1: []})
    play(t, s, "add 5H to the 5 meld")
    assert texts(t, s) == ["stop: the deal ends"]


def test_n13c_ask_and_permission_in_the_last_red_three_turn(registry):
    t, s = load("n13a_red_three_no_bonus.yaml", registry, house_rules=["canasta.permission_required"])
    # unasked he may not go out: one five added at most, then stop
    assert texts(t, s) == [
        "add 5H to the 5 meld",
        "stop: the deal ends",
        "ask partner: may I go out?",
    ]
    no = s.clone()
    play(t, no, "add 5H to the 5 meld")
    assert texts(t, no) == ["stop: the deal ends"]
    play(t, s, "ask partner: may I go out?")
    refused = s.clone()
    play(t, refused, "answer: no")
    play(t, refused, "add 5H to the 5 meld")
    assert texts(t, refused) == ["stop: the deal ends"]
    play(t, s, "answer: yes, go out")
    assert "stop: the deal ends" not in texts(t, s)  # the yes binds: he melds every card
    play(t, s, "add 5H to the 5 meld")
    play(t, s, "add 5S to the 5 meld")
    assert s.went_out == 0 and t.score_deal(s)[0].breakdown["going_out"] == 0


def _move(t, s, kind: str, rank: str | None = None):
    """The first legal move of ``kind`` (and ``rank``), played."""
    moves = t.legal_moves(s)
    m = next(m for m in moves if m.kind == kind and (rank is None or m.get("rank") == rank))
    t.apply(s, m, moves)


def _others_draw_and_discard(t, s) -> None:
    while s.to_act != 0:
        _move(t, s, "draw")
        _move(t, s, "discard")


def _go_out_with_kings_and_nines(t, s) -> None:
    _move(t, s, "draw")  # 6D
    _move(t, s, "meld", "K")
    for _ in range(4):
        _move(t, s, "add", "K")
    _move(t, s, "meld", "9")
    if any(m.kind == "commit" for m in t.legal_moves(s)):
        _move(t, s, "commit")
    assert texts(t, s) == ["discard 6D"]
    _move(t, s, "discard")
    assert s.went_out == 0


def test_n12d_added_in_an_earlier_turn_is_not_concealed(registry):
    t, s = load("n12d_added_before_not_concealed.yaml", registry)
    play(t, s, "add 5H to the 5 meld")
    play(t, s, "discard 8C")
    _others_draw_and_discard(t, s)
    _go_out_with_kings_and_nines(t, s)
    assert not s.went_out_concealed and t.score_deal(s)[0].breakdown["going_out"] == 100
    # the same last turn without the add before: concealed
    hand = ["KH", "KS", "KD", "KC", "KH", "KS", "KD", "9C", "9S", "9D"]
    t, s = load(
        "n12d_added_before_not_concealed.yaml", registry, hands={0: hand}, phase="draw", stock=["6D", "7S"]
    )
    _go_out_with_kings_and_nines(t, s)
    assert s.went_out_concealed and t.score_deal(s)[0].breakdown["going_out"] == 200


def test_n12d_staged_and_withdrawn_leaves_no_trace(registry):
    hands = {
        0: ["KH", "KS", "KD", "KC", "KH", "KS", "KD", "9C", "9S", "9D", "8C"],
        1: ["4S"],
        2: ["4D"],
        3: ["4H"],
    }
    t, s = load("n12d_added_before_not_concealed.yaml", registry, hands=hands, melds={}, has_melded=[])
    _move(t, s, "meld", "K")  # staged (N10)
    play(t, s, "take back the initial meld")
    play(t, s, "discard 8C")
    _others_draw_and_discard(t, s)
    _go_out_with_kings_and_nines(t, s)
    assert s.went_out_concealed and t.score_deal(s)[0].breakdown["going_out"] == 200


N17B = {
    "game": "canasta",
    "players": 3,
    "dealer": 2,
    "to_act": 0,
    "hands": {0: ["5H", "5S", "9C"], 1: ["4C", "4D", "9D"], 2: ["6C", "6D", "6S", "9H", "8D"]},
    "stock": ["9S", "8H", "8S", "7H"],
    "discard": ["7C", "5D"],
    "melds": {0: [["KH", "KS", "KD"]], 1: [["QH", "QS", "QD"]], 2: []},
    "red_threes": {0: [], 1: ["3H", "3D"], 2: ["3H", "3D"]},
    "scores": {0: 0, 1: 0, 2: 3000},
}


def test_n17b_once_partners_no_minimum_and_red_threes_together(registry):
    t, s = position_from_data(N17B, registry)
    play(t, s, "take the pile (2 cards) with 5H 5S")
    play(t, s, "discard 9C")
    assert s.teams == [(0,), (1, 2)]
    b = t.score_deal(s)[1].breakdown
    assert b["red_threes"] == 800  # four red threes of the two partners (N7), melded by seat 1
    play(t, s, "draw")
    play(t, s, "discard 9D")
    play(t, s, "draw")
    # seat 2 had not melded and his own minimum is 120 (N17), but his partner has melded:
    # the sixes (15) go down at once, not staged (N17b)
    assert "initial_minimum" not in t.observe(s, 2).public
    play(t, s, "meld 6C 6D 6S")
    assert not s.staged and [c.name for c in s.melds[1][6]] == ["6C", "6D", "6S"]


def test_n17b_partners_red_threes_negative_when_neither_melded(registry):
    t, s = position_from_data({**N17B, "melds": {0: [["KH", "KS", "KD"]], 1: [], 2: []}}, registry)
    play(t, s, "take the pile (2 cards) with 5H 5S")
    assert t.score_deal(s)[1].breakdown["red_threes"] == -800


def test_n15a_tied_at_the_top_with_three_players_play_on(registry):
    data = {
        "game": "canasta",
        "players": 3,
        "to_act": 1,
        "hands": {0: [], 1: ["4C"], 2: ["6C"]},
        "melds": {
            0: [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]],
            1: [["QH", "QS", "QD"]],
            2: [["QC", "QH", "QS"]],
        },
        "went_out": 0,
    }
    for before, over in (([0, 7460, 7460], False), ([0, 7460, 7450], True)):
        t, s = position_from_data(data, registry)
        m = t.new_match(0)
        m.scores = list(before)
        m.end_deal(s)  # seats 1 and 2 score as partners: 50 each
        assert m.scores[1:] == [before[1] + 50, before[2] + 50]
        assert m.over is over


def test_n8a_one_move_per_rank_listed(registry):
    t, s = load("n8a_one_move_per_rank.yaml", registry)
    listed = texts(t, s)
    # one discard per rank: 6, 8, Q, 2 and the black three (3C, 3S are one kind)
    discards = [x for x in listed if x.startswith("discard")]
    assert discards == ["discard 2C", "discard 3C", "discard 6C", "discard 8D", "discard QD"]
    adds = [x for x in listed if x.startswith("add")]
    assert adds == ["add 2C to the Q meld", "add QD to the Q meld"]  # one two, either suit
    melds = [x for x in listed if x.startswith("meld")]
    assert melds == ["meld 6C 6S 2C", "meld 8D 8D 2C"]  # pairs with one two (jokers and twos apart)
    moves = t.legal_moves(s)
    assert len(set(moves)) == len(moves)


def test_n8a_a_named_card_is_the_one_laid(registry):
    t, s = load("n8a_one_move_per_rank.yaml", registry)
    hand = s.hands[0]
    six_s = next(c for c in hand if c.name == "6S")
    named = canasta_moves.discard(six_s)
    assert named not in t.legal_moves(s)  # the list names the rank with 6C …
    t.apply(s, named)  # … and the person's 6S is laid
    assert s.discard[-1] is six_s and [c.name for c in s.hands[0]].count("6C") == 1
    # a card he does not hold, or of another rank, is no such move
    t, s = load("n8a_one_move_per_rank.yaml", registry)
    with pytest.raises(IllegalMoveError, match="6H"):
        t.apply(s, canasta_moves.discard(card("6H")))
    two_h = next(c for c in s.hands[0] if c.name == "2H")
    t.apply(s, canasta_moves.add(two_h, "Q"))
    assert [c.name for c in s.melds[0][12]][-1] == "2H"
    # the black threes: either is the one move; a named 3S is laid
    t, s = load("n8a_one_move_per_rank.yaml", registry)
    three_s = next(c for c in s.hands[0] if c.name == "3S")
    t.apply(s, canasta_moves.discard(three_s))
    assert s.discard[-1] is three_s


def test_n8a_the_pile_taken_with_named_cards(registry):
    t, s = load("n8a_one_move_per_rank.yaml", registry, phase="draw", discard=["4H", "6H"])
    listed = texts(t, s)
    takes = [x for x in listed if x.startswith("take")]
    assert takes == ["take the pile (2 cards) with 6C 6S", "take the pile (2 cards) with 6C 2C"]
    pile_move = next(m for m in t.legal_moves(s) if m.kind == "take_pile" and m.get("cards")[1].rank == 2)
    two_h = next(c for c in s.hands[0] if c.name == "2H")
    named = pile_move._replace(extra=(("cards", (pile_move.get("cards")[0], two_h)),))
    t.apply(s, named)
    assert two_h in s.melds[0][6]
