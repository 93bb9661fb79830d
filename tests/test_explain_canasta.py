"""Canasta's explanations are true (issue 21): every reason given for an
illegal move is checked against the position by claim checkers, over random
deals with 2, 3 and 4 players (``tests/explaincheck.py``), and the wrong
reasons found at the terminal have a regression test each."""

from __future__ import annotations

import re

import pytest
from explaincheck import check_explanations
from test_canasta import load

from cardcore.cards import card
from cardcore.moves import Move
from cardcore.table import Table
from cardcore_plugins.canasta import moves as cm
from cardcore_plugins.canasta.cards import RANK_NAMES, WILD
from cardcore_plugins.canasta.melds import canastas_needed, count_canastas, frozen_for
from cardcore_plugins.canasta.state import DRAW

PLURAL = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "3": "threes"}
WORDS = {"no canasta": 0, "one canasta": 1, "two canastas": 2}
RANK_OF_WORDS = {PLURAL.get(n, n + "s"): r for r, n in RANK_NAMES.items()}


def _side(state):
    team = state.team_of(state.to_act)
    return team, {**state.melds[team], **state.staged}


def canastas_claim(table, state, move, reason):
    """ "needs N canasta(s) … it would have K": N is the side's need (N11), and
    a side that has its canastas already is never said to lack them."""
    need = re.search(r"needs (no canasta|one canasta|two canastas) for your side", reason)
    if not need:
        return None
    if WORDS[need.group(1)] != canastas_needed(state):
        return f"says the side needs {need.group(1)}; it needs {canastas_needed(state)}"
    _, melds = _side(state)
    have = count_canastas(melds)
    would = re.search(r"it would have (no canasta|one canasta|two canastas|\d+ canastas)", reason)
    if would:
        k = WORDS.get(would.group(1))
        if have >= canastas_needed(state):
            return f"says the side would lack canastas; it has {have}"
        if k is not None and k < have:
            return f"says the side would have {k} canastas; it has {have} already"
    return None


def meld_rank_claim(table, state, move, reason):
    """ "has no meld of R" / "has a meld of R already", against the side's
    melds and staged melds."""
    _, melds = _side(state)
    none = re.search(r"has no meld of (\w+)", reason)
    if none and none.group(1) in RANK_OF_WORDS and RANK_OF_WORDS[none.group(1)] in melds:
        return f"says the side has no meld of {none.group(1)}; it has one"
    some = re.search(r"has a meld of (\w+) already", reason)
    if some and RANK_OF_WORDS.get(some.group(1)) not in melds:
        return f"says the side has a meld of {some.group(1)}; it has none"
    return None


def wild_claim(table, state, move, reason):
    """ "X is a wild card" / "X is not a wild card": true of X."""
    for name, neg in re.findall(r"\b([0-9AJQK]{1,2}[CDHS]|JOKER) is (not )?a wild card", reason):
        wild = WILD[card(name)]
        if wild == bool(neg):
            return f"says {name} is {'not ' if neg else ''}a wild card"
    return None


def pile_claim(table, state, move, reason):
    """The pile: frozen for the side when said so; its top card what it is said to be."""
    team = state.team_of(state.to_act)
    if "the pile is frozen" in reason and not frozen_for(state, team):
        return "says the pile is frozen; it is not"
    top = re.search(r"top card (\S+) is a (wild card|black three)", reason)
    if top:
        c = state.discard[-1] if state.discard else None
        if c is None or c.name != top.group(1):
            return f"names the top card {top.group(1)}; it is {c}"
        if (top.group(2) == "black three") != (c.rank == 3 and c.suit in "CS"):
            return f"says {c} is a {top.group(2)}"
    if "the pile is empty" in reason and state.discard:
        return "says the pile is empty"
    return None


def phase_claim(table, state, move, reason):
    """The turn's phase and the partner's answer, as said."""
    if "first draw" in reason and state.phase != DRAW:
        return f"says to draw first; the phase is {state.phase}"
    if "already this turn" in reason and "drawn" in reason and state.phase == DRAW:
        return "says he has drawn already; he has not"
    if "your partner said no" in reason and state.asked != "no":
        return f"says the partner said no; asked is {state.asked}"
    if "your partner said yes" in reason and "black threes" not in reason and state.asked != "yes":
        return f"says the partner said yes; asked is {state.asked}"
    if "your partner asked" in reason and state.phase != "answer":
        return "says the partner asked; he did not"
    return None


def minimum_claim(table, state, move, reason):
    """ "initial minimum of N": the side has not melded and N is its minimum (N10)."""
    said = re.search(r"initial minimum of (\d+)", reason)
    if not said:
        return None
    seat = state.to_act
    if state.melds[state.team_of(seat)]:
        return "speaks of an initial minimum; the side has melded"
    minimum = table.plugin.initial_minimum(state, seat)
    if int(said.group(1)) != minimum:
        return f"says the minimum is {said.group(1)}; it is {minimum}"
    return None


def count_claim(table, state, move, reason):
    """ "you hold only N X": he holds N cards named X."""
    said = re.search(r"you hold only (\d+) (\S+)", reason)
    if said:
        held = sum(1 for c in state.hands[state.to_act] if c.name == said.group(2))
        if held != int(said.group(1)):
            return f"says he holds {said.group(1)} {said.group(2)}; he holds {held}"
    return None


CLAIMS = [canastas_claim, meld_rank_claim, wild_claim, pile_claim, phase_claim, minimum_claim, count_claim]


@pytest.mark.parametrize("players,deals", [(2, 2), (3, 2), (4, 3)])
def test_canasta_explanations_are_true(registry, players, deals):
    table = Table.from_names(registry, "canasta", players)
    got = check_explanations(table, deals, seed=players, claims=CLAIMS, every=4, limit=1500)
    assert got["explained"] > 200


def test_explanations_with_permission_required(registry):
    table = Table.from_names(registry, "canasta", 4, {}, ["canasta.permission_required"])
    check_explanations(table, 2, seed=7, claims=CLAIMS, every=5, limit=800)


# ---- the wrong reasons found at the terminal ------------------------------------------------------
def test_add_a_card_held_as_the_other_copy(registry):
    """``why add qs`` with 8♥ Q♠ in hand: the hand holds the second QS; the
    person's QS is the first. Never "not in your hand": the side has no meld
    of queens to add it to."""
    t, s = load("n12_go_out.yaml", registry)
    s.hands[0] = [card("8H"), card("QS", 1)]
    reason = t.explain_illegal(s, Move("add", card("QS")))
    assert "not in your hand" not in reason
    assert reason == "your side has no meld of queens to add QS to (N8)"
    # with a meld of queens, but no canasta: adding QS leaves one card, and going out needs one
    t, s = load("n12_go_out.yaml", registry, melds={0: [["QC", "QD", "QH"]], 1: []})
    s.hands[0] = [card("8H"), card("QS", 1)]
    reason = t.explain_illegal(s, Move("add", card("QS")))
    assert "N11" in reason and "one canasta" in reason and "not in your hand" not in reason


def test_meld_down_to_one_card_without_a_canasta(registry):
    """``why meld 8c 8d joker`` holding 5♠ 8♣ 8♦ JOKER, the side without a
    canasta: the block is going out (N11), not the joker's copy."""
    t, s = load("n12_go_out.yaml", registry, melds={0: [["KC", "KD", "KH"]], 1: []})
    s.hands[0] = [card("5S"), card("8C", 1), card("8D", 1), card("JOKER", 3)]
    full = Move("meld", None, (), (("cards", (card("8C"), card("8D"), card("JOKER"))), ("rank", "8")))
    bare = Move("meld", card("JOKER"))  # what the terminal's ``why`` passes: the last card typed
    for move in (full, bare):
        reason = t.explain_illegal(s, move)
        assert "not in your hand" not in reason
        assert "needs one canasta for your side (N11)" in reason, reason


def test_a_twin_of_a_listed_move_is_said_legal(registry):
    """A move the generator lists with other cards of the same classes (N8a:
    another suit; N2: the other copy) is legal (``cardcore_named_move`` plays
    it): the reason is the rule's own (``verify.py``), never a block that the
    listed move does not meet. (Before the rules and their reasons were one
    body, these were "not a legal move now", a G1 block, and the pile's shapes.)"""
    t, s = load("n12_go_out.yaml", registry)
    s.hands[0] = [card("5H"), card("5D", 1), card("9C")]
    legal = t.legal_moves(s)
    for move, text in [
        (Move("discard", card("5D", 1)), "discard 5D"),
        (cm.add(card("5D", 1), "5"), "add 5D to the 5 meld"),
    ]:
        assert move not in legal and t.named_move(s, move, legal) is not None
        assert t.explain_illegal(s, move) == f"that move is legal: {text} (either copy of a card, N2, N8a)"
    t, s = load(
        "n9_frozen.yaml",
        registry,
        hands={0: ["5H", "5S", "5C", "JOKER", "9C"], 1: ["4C"], 2: ["4D"], 3: ["4H"]},
    )
    take = cm.take_pile(tuple(s.discard), (card("5C"), card("5S")))
    legal = t.legal_moves(s)
    assert take not in legal and t.named_move(s, take, legal) is not None
    assert t.explain_illegal(s, take).startswith("that move is legal: take the pile (4 cards) with 5C 5S")
    # a twin the rules refuse keeps its reason: the pile is frozen, a natural and a wild card will not do
    wild = cm.take_pile(tuple(s.discard), (card("5C"), card("JOKER")))
    assert "the pile is frozen for your side" in t.explain_illegal(s, wild)
