"""Canasta's greedy at three players: it does not take the pile first, which
would leave it alone against the two others (N17), unless a house rule keeps
everyone alone; once the partnership is made it takes the pile as before."""

import random

from cardcore.plugins import discover
from cardcore.table import Table

REGISTRY = discover()


def _first_takes(house_rules=()):
    """Over deals of greedy at seat 0 (random players beside it): how often it
    took a pile of 3 or more while its taker would play alone, how often once
    not, and how often it could have taken one while alone."""
    table = Table.from_names(REGISTRY, "canasta", 3, {}, list(house_rules))
    alone_takes = later_takes = offered_alone = 0
    for seed in range(20):
        match = table.new_match(seed)
        state = match.start_deal()
        # greedy at seat 0; random players beside it, who take the pile at times
        kinds = ("greedy", "random", "random")
        bots = [table.player_kinds[kind](table, s, random.Random(s)) for s, kind in enumerate(kinds)]
        while not table.is_deal_over(state):
            seat = state.to_act
            moves = table.legal_moves(state)
            obs = table.observe(state, seat)
            move = bots[seat].choose(obs, moves)
            if seat != 0:
                table.apply(state, move)
                continue
            takes = [m for m in moves if m.kind == "take_pile" and len(m.takes) >= 3]
            if takes and any(m.kind == "draw" for m in moves):
                if obs.public.get("alone_if_taken"):
                    offered_alone += 1
                    alone_takes += move.kind == "take_pile"
                else:
                    later_takes += move.kind == "take_pile"
            table.apply(state, move)
    return alone_takes, later_takes, offered_alone


def test_greedy_draws_rather_than_take_the_pile_alone_against_two_n17():
    alone, later, offered = _first_takes()
    assert offered > 0 and alone == 0
    assert later > 0  # once the partnership is made it takes a pile of 3 or more as before


def test_greedy_takes_the_pile_when_everyone_plays_alone_n17():
    _alone, later, offered = _first_takes(["canasta.every_man_for_himself"])
    assert offered == 0 and later > 0


def test_the_view_says_whether_the_taker_would_play_alone_n17():
    alone = ["canasta.every_man_for_himself"]
    for players, house_rules, said in ((3, [], True), (2, [], False), (3, alone, False)):
        table = Table.from_names(REGISTRY, "canasta", players, {}, house_rules)
        state = table.new_match(1).start_deal()
        assert table.observe(state, state.to_act).public.get("alone_if_taken", False) is said
