"""Paquet voleur, one test per ruling (P1–P8) at least, from position files."""

from __future__ import annotations

import random

import pytest
from conftest import POSITIONS, cli_json, position

from cardcore.cards import card
from cardcore.errors import IllegalMoveError
from cardcore.moves import Move
from cardcore.table import Table
from cardcore.testing import check_random_playouts
from cardcore_plugins.paquet_voleur.state import ranks_of

PV = POSITIONS / "paquet_voleur"


def moves_json(name: str) -> list[dict]:
    return cli_json("moves", str(PV / name), "--json")["moves"]


def test_p1_sides_without_and_with_partnerships(registry):
    assert Table.from_names(registry, "paquet_voleur", 4).sides == ((0,), (1,), (2,), (3,))
    t = Table.from_names(registry, "paquet_voleur", 4, {"partnerships": True})
    assert t.sides == ((0, 2), (1, 3))


def test_p1_partnerships_need_four_players(registry):
    from cardcore.errors import TableError

    with pytest.raises(TableError, match="P1"):
        Table.from_names(registry, "paquet_voleur", 3, {"partnerships": True})


def test_p1_p5b_no_steal_from_own_side():
    moves = moves_json("p1_partner_pile.yaml")
    # 7H steals side 1's pile (top 7C); QS may not steal its own side's pile (top QC)
    assert [(m["kind"], m["card"]) for m in moves] == [("steal", "7H")]
    assert moves[0]["from"] == 1
    assert moves[0]["takes"] == ["8D", "7C"]


def test_p2_deck_and_ranks_only(registry):
    t = Table.from_names(registry, "paquet_voleur", 2)
    assert len(t.deck) == 52 and len(set(t.deck)) == 52
    # 5H pairs 5C: suits never matter
    moves = moves_json("p5_pair_steal.yaml")
    assert {"kind": "pair", "card": "5H", "takes": ["5C"], "text": "5H pairs 5C"} in moves


def test_p3_first_dealer_and_cut(registry):
    t = Table.from_names(registry, "paquet_voleur", 4)
    for seed in range(30):
        match = t.new_match(seed)
        first = match.take_events()[0]
        dealt = first["dealt"]
        assert dealt[-1][1][0] == "J" and all(c[0] != "J" for _, c in dealt[:-1])
        assert [s for s, _ in dealt] == [i % 4 for i in range(len(dealt))]
        assert match.dealer == first["dealer"] == dealt[-1][0]
        match.start_deal()
        (cut,) = match.take_events()
        assert cut["kind"] == "cut"
        assert cut["seat"] == (match.dealer - 1) % 4  # the dealer's right
        assert 5 <= cut["at"] <= 47


class _NoShuffle(random.Random):
    def shuffle(self, x):  # keep new-deck order
        pass

    def randint(self, a, b):
        return 5


def test_p4_deal_one_at_a_time_with_a_table_card_per_round(registry):
    t = Table.from_names(registry, "paquet_voleur", 3)
    match = t.new_match(0)
    match.dealer = 1
    state = t.hook.cardcore_deal(table=t, match=match, rng=_NoShuffle(), record=match.record)
    deck = t.deck[5:] + t.deck[:5]  # cut at 5
    # round r: seats 2, 0, 1 (from the dealer's left), then one table card
    for seat, offset in ((2, 0), (0, 1), (1, 2)):
        assert state.hands[seat] == [deck[r * 4 + offset] for r in range(4)]
    assert state.board == [deck[r * 4 + 3] for r in range(4)]
    assert state.stock == deck[16:]
    assert state.to_act == 2


def test_p5_pair_or_steal_and_no_trail():
    moves = moves_json("p5_pair_steal.yaml")
    assert [m["text"] for m in moves] == [
        "5H pairs 5C",
        "5H pairs 5S",
        "5H steals side 1's pile (2 cards)",
    ]


def test_p5c_trail_only_when_nothing_else():
    moves = moves_json("p5_trail_only.yaml")
    assert [m["text"] for m in moves] == ["9C trails", "4H trails"]


def test_p5c_a_trail_tells_every_seat_the_ranks_the_trailer_lacks(registry):
    """P5c: he trails only when no card of his can pair or steal, so the cards
    he keeps have none of the table's ranks nor of an opponent's top (not his
    own side's: P5b). Public, in the position's JSON, and read back."""
    t, s = position("paquet_voleur/p5_trail_only.yaml", registry)
    t.apply(s, Move("trail", card("9C")))
    assert ranks_of(s.lacks[0]) == [2, 5, 13]  # 5C, KD on the table; side 1's top 2C; not his own 9D
    assert s.lacks[1] == 0
    data = t.dump_state(s)
    assert data["lacks"] == {"0": ["2", "5", "K"]}
    again = t.load_state(data)
    assert again.lacks == s.lacks and t.dump_state(again) == data


def test_p5c_what_a_seat_lacks_is_forgotten_when_new_cards_come(registry):
    """P6: new cards go only to empty hands, so nothing is known of them."""
    import yaml

    from cardcore.position_file import position_from_data

    raw = yaml.safe_load((PV / "p6_redeal.yaml").read_text())
    raw["lacks"] = {"0": ["K"], "1": ["9"]}
    t, s = position_from_data(raw, registry)
    t.apply(s, Move("pair", card("5H"), (card("5C"),)))  # the last card: a redeal (P6)
    assert s.lacks == [0] * 3


def test_p5c_lacks_in_a_position_file_are_checked(registry):
    """A position's ``lacks`` cannot name a rank its seat holds, nor a rank that is none."""
    import yaml

    from cardcore.errors import CardcoreError
    from cardcore.position_file import position_from_data

    raw = yaml.safe_load((PV / "p5c_lacks.yaml").read_text())
    _t, s = position_from_data(raw, registry)
    assert ranks_of(s.lacks[1]) == [2, 5, 13]
    for lacks, error in (
        ({"1": ["7"]}, "lacks: seat 1 holds 7S, of a rank it lacks"),
        ({"1": ["Z"]}, "lacks: 'Z' is not a rank"),
        ({"2": ["5"]}, "lacks"),
        (["5"], "lacks: expected a mapping of seats to ranks"),
    ):
        with pytest.raises(CardcoreError, match=error):
            position_from_data({**raw, "lacks": lacks}, registry)


def test_p5_illegal_trail_names_the_rule(registry):
    t, s = position("paquet_voleur/p5_pair_steal.yaml", registry)
    with pytest.raises(IllegalMoveError, match=r"P5c"):
        t.apply(s, Move("trail", card("9C")))
    assert t.dump_state(s) == t.dump_state(position("paquet_voleur/p5_pair_steal.yaml")[1])


def test_p5_pair_puts_own_card_on_top(registry):
    t, s = position("paquet_voleur/p5_pair_steal.yaml", registry)
    t.apply(s, Move("pair", card("5H"), (card("5S"),)))
    assert s.piles[0] == [card("5S"), card("5H")]
    assert s.board == [card("5C"), card("KD")]
    assert s.to_act == 1


def test_p5b_steal_takes_whole_pile(registry):
    t, s = position("paquet_voleur/p5_pair_steal.yaml", registry)
    t.apply(s, Move("steal", card("5H"), (card("3C"), card("5D")), (("from", 1),)))
    assert s.piles[0] == [card("3C"), card("5D"), card("5H")]
    assert s.piles[1] == []


def test_p5_house_rule_take_all_of_rank():
    data = cli_json("moves", str(PV / "p5_pair_steal.yaml"), "--json")  # default: one 5 per pair
    assert sum(m["kind"] == "pair" for m in data["moves"]) == 2
    import yaml

    from cardcore.position_file import position_from_data

    raw = yaml.safe_load((PV / "p5_pair_steal.yaml").read_text())
    raw["house_rules"] = ["paquet_voleur.take_all_of_rank"]
    from cardcore.plugins import discover

    t, s = position_from_data(raw, discover())
    moves = t.legal_moves(s)
    pairs = [m for m in moves if m.kind == "pair"]
    assert pairs == [Move("pair", card("5H"), (card("5C"), card("5S")))]


def test_p6_redeal_as_far_as_the_stock_goes(registry):
    t, s = position("paquet_voleur/p6_redeal.yaml", registry)
    t.apply(s, Move("pair", card("5H"), (card("5C"),)))
    assert [len(h) for h in s.hands] == [3, 3, 2]
    assert s.hands[0] == [card("AC"), card("4C"), card("8C")]
    assert s.stock == [] and s.board == []
    assert s.to_act == 0  # P6a: after a redeal, the player left of the dealer (seat 2)


def test_p6a_after_a_redeal_left_of_the_dealer_plays_first(registry):
    import yaml

    from cardcore.position_file import position_from_data

    raw = yaml.safe_load((PV / "p6_redeal.yaml").read_text())
    raw["stock"] = [f"{r}{s}" for s in "CH" for r in ("A", 2, 3, 4, 6, 7)]  # 12 cards: full hands
    for dealer in range(3):
        raw["dealer"] = dealer
        t, s = position_from_data(raw, registry)
        t.apply(s, Move("pair", card("5H"), (card("5C"),)))
        assert [len(h) for h in s.hands] == [4, 4, 4]
        assert s.to_act == (dealer + 1) % 3


def test_p3a_face_up_deal_starts_at_seat_0(registry):
    for players in (2, 3, 4):
        t = Table.from_names(registry, "paquet_voleur", players)
        for seed in range(10):
            dealt = t.new_match(seed).take_events()[0]["dealt"]
            assert dealt[0][0] == 0
            assert [s for s, _ in dealt] == [i % players for i in range(len(dealt))]


def test_p6_table_turned_up_when_empty(registry):
    import yaml

    from cardcore.position_file import position_from_data

    raw = yaml.safe_load((PV / "p6_redeal.yaml").read_text())
    raw["stock"] = [f"{r}{s}" for s in "CH" for r in ("A", 2, 3, 4, 6, 7, 8)]  # 14 cards
    t, s = position_from_data(raw, registry)
    t.apply(s, Move("pair", card("5H"), (card("5C"),)))
    assert [len(h) for h in s.hands] == [4, 4, 4]
    assert [c.name for c in s.board] == ["7H", "8H"]  # up to four: only two are left


def test_p7_table_belongs_to_nobody():
    data = cli_json("score", str(PV / "p7_end.yaml"), "--json")
    assert [s["points"] for s in data["sides"]] == [4, 2, 4]
    assert data["sides"][1] == {"seats": [1], "points": 2, "breakdown": {"cards": 2}}


def test_p7_house_rule_last_taker_takes_table(registry):
    import yaml

    from cardcore.position_file import position_from_data

    raw = yaml.safe_load((PV / "p7_end.yaml").read_text())
    raw["house_rules"] = ["paquet_voleur.last_taker_takes_table"]
    t, s = position_from_data(raw, registry)
    t.finish_deal(s)
    assert [x.points for x in t.score_deal(s)] == [4, 4, 4]


def test_p7_deal_ends_when_stock_and_hands_are_empty(registry):
    t, s = position("paquet_voleur/p7_end.yaml", registry)
    assert t.is_deal_over(s)


def test_p8_one_deal_by_default_and_cumulative_option():
    one = cli_json("simulate", "paquet_voleur", "--matches", "3", "--seed", "4", "--json")
    assert one["deals"] == 3
    three = cli_json(
        "simulate",
        "paquet_voleur",
        "--option",
        "deals=3",
        "--matches",
        "2",
        "--seed",
        "4",
        "--json",
    )
    assert three["deals"] == 6 and three["matches"] == 2


@pytest.mark.parametrize("players,partnerships", [(2, False), (3, False), (4, False), (4, True)])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_random_playouts(registry, players, partnerships, bot):
    t = Table.from_names(registry, "paquet_voleur", players, {"partnerships": partnerships})
    kinds = [bot if i % 2 == 0 else "random" for i in range(players)]

    def on_deal(state, result):
        # P7: every card is in a pile or left on the table
        assert sum(result.points) + len(state.board) == 52

    stats = check_random_playouts(t, deals=40, seed=players, kinds=kinds, on_deal=on_deal)
    assert stats.moves == 40 * 48  # every card but the 4 first table cards is played


def test_random_playouts_with_house_rules(registry):
    t = Table.from_names(
        registry,
        "paquet_voleur",
        3,
        {},
        ["paquet_voleur.take_all_of_rank", "paquet_voleur.last_taker_takes_table"],
    )
    check_random_playouts(t, deals=30, seed=9)


def test_greedy_takes_the_most(registry):
    t, s = position("paquet_voleur/p5_pair_steal.yaml", registry)
    from cardcore_plugins.paquet_voleur.bots import GreedyPlayer

    move = GreedyPlayer(t, 0, random.Random(0)).choose(None, t.legal_moves(s))
    assert move.kind == "steal"


def test_careful_bot_keeps_its_pile_out_of_reach(registry):
    """The careful bot pairs with the rank nobody can still hold (every other
    copy seen), where greedy pairs the first card; from an imagined deal and
    honestly (counting from the decision's imagined deal) alike."""
    from cardcore.decision import Decision

    t, s = position("paquet_voleur/careful_counts.yaml", registry)
    moves = t.legal_moves(s)
    assert [(m.card, m.takes) for m in moves] == [(card("9S"), (card("9D"),)), (card("5H"), (card("5C"),))]
    rng = random.Random(0)
    greedy = t.player_kinds["greedy"](t, 0, rng)
    careful = t.player_kinds["careful"](t, 0, rng)
    assert greedy.choose(None, moves) == moves[0]
    assert careful.choose_imagined(s, moves) == moves[1]
    for seed in range(5):
        decision = Decision(t, t.new_match(seed), s.clone(), 0, 1, 0)
        assert careful.choose(None, moves, decision) == moves[1]
    # with the other 5s unseen (in the stock), the 5 is no safer than the 9: the first is played
    raw = s.clone()
    raw.piles[0][0], raw.stock[0] = raw.stock[0], raw.piles[0][0]  # 5D to the stock, 9H to a pile
    assert careful.choose_imagined(raw, t.legal_moves(raw)) == moves[0]


def test_careful_bot_trails_what_the_opponent_lacks(registry):
    """A trail (P5c) lays the card the next opponent is least likely to pair:
    here the rank he is known to lack (``lacks``) rather than the first card."""
    from cardcore.position_file import position_from_data

    raw = {
        "game": "paquet_voleur",
        "players": 2,
        "dealer": 1,
        "to_act": 0,
        "hands": {0: ["7H", "QC"], 1: ["2S", "3S"]},
        "table": ["5C", "KD"],
        "stock": ["7S", "QH", "9C", "2D", "8C", "8D", "10H", "JS"],
        "piles": {0: ["4C"], 1: ["3H", "6S"]},
        "lacks": {1: ["Q"]},
    }
    t, s = position_from_data(raw, registry)
    moves = t.legal_moves(s)
    assert [m.kind for m in moves] == ["trail", "trail"]
    careful = t.player_kinds["careful"](t, 0, random.Random(0))
    assert careful.choose_imagined(s, moves).card == card("QC")
