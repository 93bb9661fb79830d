"""The Canasta go-out and initial-minimum solver (plugins/canasta/finish.py)
against a brute-force search over every way to place the cards (N8, N10, N11,
N12, G1)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from cardcore_plugins.canasta.finish import (
    BLACK_THREE,
    CLASS_VALUE,
    JOKER,
    TWO,
    best_stage,
    can_go_out,
    can_go_out_from,
    fits,
    stage_after,
    stage_parts,
    stage_total,
)

RANKS = [1, 4, 5, 9, 13]  # a few natural ranks keep the search small


def brute_fits(melds: dict[int, tuple[int, int]], hand: dict[int, int], need: int) -> bool:
    """Place every card of ``hand``: the naturals of a rank all go to that rank's
    meld (existing or new), each wild card to any meld; then check N8 and count
    canastas."""
    naturals = {r: k for r, k in hand.items() if k and r not in (JOKER, TWO)}
    wilds = hand.get(JOKER, 0) + hand.get(TWO, 0)
    sizes = {r: s for r, (s, _) in melds.items()}
    wild_in = {r: w for r, (_, w) in melds.items()}
    new = set()
    for r, k in naturals.items():
        if r in sizes:
            sizes[r] += k
        else:
            sizes[r], wild_in[r] = k, 0
            new.add(r)
    targets = sorted(sizes)
    for placement in itertools.product(targets, repeat=wilds):
        s = dict(sizes)
        w = dict(wild_in)
        for r in placement:
            s[r] += 1
            w[r] += 1
        ok = True
        for r in targets:
            added = placement.count(r)
            if r == BLACK_THREE and added:
                ok = False  # black threes take no wild card
            elif r in new and (s[r] < 3 or s[r] - w[r] < 2 or w[r] > 3):
                ok = False
            elif r not in new and added and w[r] > 3:
                ok = False  # the three-wild limit (N17a: a merged meld takes no more)
        if ok and sum(1 for r in targets if s[r] >= 7) >= need:
            return True
    return False


def brute_go_out(melds, hand, need, may_discard, minimum=0, base=0) -> bool:
    total = base + sum(CLASS_VALUE[r] * k for r, k in hand.items())
    if total >= minimum and brute_fits(melds, hand, need):
        return True
    if may_discard:
        for r in hand:
            if hand[r] and total - CLASS_VALUE[r] >= minimum:
                rest = dict(hand)
                rest[r] -= 1
                if brute_fits(melds, rest, need):
                    return True
    return False


def brute_best_stage(staged, hand, budget) -> int:
    classes = [r for r in hand if r != BLACK_THREE and hand[r]]
    best = 0
    for counts in itertools.product(*(range(hand[r] + 1) for r in classes)):
        used = dict(zip(classes, counts, strict=True))
        if 0 < sum(counts) <= budget and brute_fits(staged, used, 0):
            best = max(best, sum(CLASS_VALUE[r] * k for r, k in used.items()))
    return best


melds_st = st.dictionaries(
    st.sampled_from([*RANKS, BLACK_THREE]),
    st.tuples(st.integers(3, 7), st.integers(0, 4)).filter(lambda sw: sw[0] - sw[1] >= 2),
    max_size=3,
).map(lambda d: {r: (s, 0) if r == BLACK_THREE else (s, w) for r, (s, w) in d.items()})
hand_st = st.dictionaries(
    st.sampled_from([*RANKS, BLACK_THREE, JOKER, TWO]), st.integers(0, 4), max_size=5
).filter(lambda h: 1 <= sum(h.values()) <= 9)


@settings(max_examples=400, deadline=None)
@given(melds_st, hand_st, st.integers(0, 2), st.booleans())
def test_can_go_out_matches_brute_force(melds, hand, need, may_discard):
    assert can_go_out(melds, dict(hand), need, may_discard) == brute_go_out(melds, hand, need, may_discard)


@settings(max_examples=300, deadline=None)
@given(
    melds_st.map(lambda d: {r: v for r, v in d.items() if r != BLACK_THREE}),
    hand_st,
    st.integers(0, 2),
    st.booleans(),
    st.sampled_from([15, 50, 90, 120]),
    st.integers(0, 60),
)
def test_can_go_out_with_a_minimum_matches_brute_force(staged, hand, need, may_discard, minimum, base):
    got = can_go_out_from(staged, base, dict(hand), need, may_discard, minimum)
    assert got == brute_go_out(staged, hand, need, may_discard, minimum, base)


@settings(max_examples=300, deadline=None)
@given(
    melds_st.map(lambda d: {r: v for r, v in d.items() if r != BLACK_THREE}),
    hand_st,
    st.integers(0, 9),
)
def test_best_stage_matches_brute_force(staged, hand, budget):
    assert best_stage(staged, dict(hand), budget) == brute_best_stage(staged, hand, budget)


@settings(max_examples=300, deadline=None)
@given(
    melds_st.map(lambda d: {r: v for r, v in d.items() if r != BLACK_THREE}),
    hand_st,
    st.sampled_from(RANKS),
    st.sampled_from(["add", "add_wild", "triple", "pair", "pair_of_more"]),
    st.sampled_from([JOKER, TWO]),
)
def test_stage_after_matches_a_fresh_tally(staged, hand, r, step, wild):
    """N10a on counts (movegen.play_moves): the staging parts after a meld or
    an add, derived from those before, equal the parts of the new position;
    so do the points with no card limit."""
    staged, hand = dict(staged), dict(hand)  # made to allow the step
    steps = {"add": (1, 0), "add_wild": (0, 1), "triple": (3, 0), "pair": (2, 1), "pair_of_more": (2, 1)}
    naturals, wilds = steps[step]  # pair_of_more: two of three or more naturals, and a wild card
    if step.startswith("add"):
        size, w = staged.get(r, (3, 0))
        staged[r] = (size, min(w, 2))
    else:
        staged.pop(r, None)
    hand[r] = 2 if step == "pair" else max(3 if step == "pair_of_more" else naturals, hand.get(r, 0))
    hand[wild] = max(wilds, hand.get(wild, 0))
    k = hand[r]
    after = dict(hand)
    after[r] = k - naturals
    if wilds:
        after[wild] -= 1
    size, w = staged.get(r, (0, 0))
    grown = {**staged, r: (size + naturals + wilds, w + wilds)}
    derived = stage_after(stage_parts(staged, hand), staged, hand, r, naturals, wilds)
    assert derived == stage_parts(grown, after)
    fresh = stage_total(stage_parts(grown, after), after.get(JOKER, 0), after.get(TWO, 0))
    assert stage_total(derived, after.get(JOKER, 0), after.get(TWO, 0)) == fresh


def test_fits_examples():
    # N8: a pair takes a wild card; wild cards never meld alone
    assert fits({}, {9: 2, JOKER: 1}, 0)
    assert not fits({}, {9: 2}, 0)
    assert not fits({}, {JOKER: 2}, 0)
    # N12c: three or four black threes, no wild card
    assert fits({}, {BLACK_THREE: 4}, 0) and not fits({}, {BLACK_THREE: 2}, 0)
    assert not fits({BLACK_THREE: (3, 0)}, {TWO: 1}, 0)
    # N17a: a merged meld with four wild cards takes no more
    assert not fits({12: (8, 4)}, {TWO: 1}, 0) and fits({12: (8, 4)}, {12: 1}, 1)
