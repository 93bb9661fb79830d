"""Canasta's move generator takes shortcuts past G1's solver (N10a on counts,
``finish.stage_after``; going out, N12, only if the position before could): over
random deals, the melds and adds it lists are exactly those after which
``finish.can_finish`` says the turn can still end."""

from __future__ import annotations

import random

import pytest

from cardcore.table import Table
from cardcore_plugins.canasta.cards import VALUES, WILD
from cardcore_plugins.canasta.finish import BLACK_THREE, Turn, can_finish, shape, tally
from cardcore_plugins.canasta.melds import meld_points
from cardcore_plugins.canasta.movegen import hand_classes, meld_candidates, must_go_out
from cardcore_plugins.canasta.state import DRAW, PILE


def solver_melds(state, may_out: bool, minimum: int) -> list:
    """Every meld and add candidate, kept when ``can_finish`` holds after it."""
    seat = state.to_act
    team = state.team_of(seat)
    melds = state.melds[team]
    t = Turn(2 if state.players < 4 else 1, minimum, may_out, must_go_out(state, team), state.last_red_three)
    staging = state.phase == PILE or bool(state.staged) or not melds
    by_class, wild_kinds, kinds = hand_classes(state.hands[seat])
    counts = tally(state.hands[seat])
    sh = shape(state.staged) if staging else shape(melds)
    base = meld_points(state.staged)
    held = tally(state.pile_held)
    kept = []
    for move, used, r, _ in meld_candidates(state, melds, staging, may_out, by_class, wild_kinds, kinds):
        tm = t._replace(must_out=True) if r == BLACK_THREE else t
        # the position after it, written out here (not movegen._grown): the oracle stands apart
        after = dict(counts)
        for u in used:
            after[u.rank] -= 1
        grown = dict(sh)
        size, wilds = grown.get(r, (0, 0))
        grown[r] = (size + len(used), wilds + sum(1 for u in used if WILD[u]))
        got = base + sum(VALUES[u] for u in used) if staging else 0
        if can_finish(grown, got, after, held, staging, tm):
            kept.append(move)
    return kept


@pytest.mark.parametrize(
    "players,house_rules",
    [(2, []), (3, []), (4, []), (4, ["canasta.permission_required"]), (3, ["canasta.every_man_for_himself"])],
)
def test_listed_melds_and_adds_are_the_solvers(registry, players, house_rules):
    """With ``canasta.permission_required`` a player may not go out unasked (``may_out`` false)."""
    table = Table.from_names(registry, "canasta", players, {}, house_rules)
    may_go_out = table.direct("canasta_may_go_out", "state", "seat")
    initial_minimum = table.direct("canasta_initial_minimum", "state", "seat", "score")
    rng = random.Random(players)
    checked = 0
    for _ in range(40):
        state = table.new_match(rng.getrandbits(63)).start_deal()
        while not table.fast_is_deal_over(state):
            moves = table.fast_legal_moves(state)
            if state.phase not in (DRAW, "answer"):
                seat = state.to_act
                minimum = 0
                if not state.melds[state.team_of(seat)]:
                    minimum = initial_minimum(state, seat, state.scores[table.side_of[seat]])
                listed = [m for m in moves if m.kind in ("meld", "add")]
                assert listed == solver_melds(state, may_go_out(state, seat), minimum)
                checked += 1
            state = table.fast_apply_move(state, rng.choice(moves))
    assert checked > 1000
