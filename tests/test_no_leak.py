"""What a seat imagines depends only on what it may know (issue 46's first
item): the hint and every search bot imagine the unseen cards with the game's
sampler, which lays them out in their canonical order before it shuffles
(``cardcore.game.unseen_order``), and the hint's RNG is a secret of the match
(``players.hint_rng``), never a fixed number. The kit's ``check_no_leak`` for
every installed game and table, shown failing on purpose-built leaks (a
sampler that shuffles the true order, a *why not?* that looks into another
hand), and the attack replayed: the hints a seat receives do not single out
the true arrangement among those it cannot tell apart."""

from __future__ import annotations

import random

import pytest
from conftest import EVERY_TABLE

from cardcore.decision import Decision
from cardcore.game import HouseRuleSpec
from cardcore.hookspecs import hookimpl
from cardcore.players import advise
from cardcore.table import Table
from cardcore.testing import ConformanceError, check_no_leak


@pytest.mark.parametrize("game,players,options", EVERY_TABLE)
def test_what_a_seat_imagines_depends_only_on_what_it_may_know(registry, game, players, options):
    """The kit's property over a whole deal of every table: arrangements of the
    unseen cards that leave the seat's view unchanged give the same imagined
    deal, the same search (move and estimates) and the same *why not?*."""
    t = Table.from_names(registry, game, players, options)
    stats = check_no_leak(t, deals=1, seed=46, kinds=["greedy"] * players)
    assert stats.positions > 3 and stats.twins > 3 and stats.searches > 0 and stats.whys > 0


def _true_order_redeal(state, seat, rng):
    """The sampler of the last release: the unseen cards collected in their
    true order (each other hand, then the stock) and shuffled."""
    sample = state.clone()
    places = [h for i, h in enumerate(sample.hands) if i != seat] + [sample.stock]
    unseen = [c for place in places for c in place]
    rng.shuffle(unseen)
    at = 0
    for place in places:
        place[:] = unseen[at : at + len(place)]
        at += len(place)
    return sample


class TrueOrderSampler:
    """A leaky sampler: a fixed permutation of the truth for a given RNG."""

    @hookimpl
    def cardcore_sample_state(self, state, seat, rng):
        return _true_order_redeal(state, seat, rng)


class PeekingWhy:
    """A leaky explanation: names the card another seat holds."""

    @hookimpl
    def cardcore_explain_illegal(self, state, move):
        held = move.card is not None and any(move.card in h for h in state.hands)
        if held and move.card not in state.hands[state.to_act]:
            return "somebody else holds it"
        return None


@pytest.mark.parametrize("game,players", [("carrousel", 2), ("paquet_voleur", 3), ("canasta", 4)])
def test_a_sampler_that_shuffles_the_true_order_is_caught(registry, game, players):
    broken = HouseRuleSpec("test.true_order", game, "leaky", TrueOrderSampler())
    t = Table(registry.game(game), players, house_rules=[broken])
    with pytest.raises(ConformanceError, match=r"imagines another deal .* true order"):
        check_no_leak(t, deals=1, seed=46)


def test_a_why_that_looks_into_another_hand_is_caught(registry):
    broken = HouseRuleSpec("test.peeking_why", "carrousel", "leaky", PeekingWhy())
    t = Table(registry.game("carrousel"), 2, house_rules=[broken])
    with pytest.raises(ConformanceError, match=r"why not .* answered otherwise"):
        check_no_leak(t, deals=1, seed=46, search=None)


def _mid_deal(table: Table, seed: int, moves: int):
    """A match and a deal ``moves`` greedy moves in, at a real choice."""
    from cardcore.runner import make_players

    match = table.new_match(seed)
    state = match.start_deal()
    bots = make_players(table, ["greedy"] * table.players, seed)
    for _ in range(moves):
        legal = table.legal_moves(state)
        move = bots[state.to_act].choose(table.observe(state, state.to_act), legal)
        state = table.apply(state, move, legal)
    while len(table.legal_moves(state)) < 2:
        state = table.apply(state, table.legal_moves(state)[0])
    return match, state


def _hints(table: Table, match, state, twins: int):
    """The hint for the truth and for ``twins`` arrangements the seat cannot
    tell apart from it (drawn by the game's own sampler)."""
    seat = state.to_act
    view = table.observe(state, seat).to_json()
    arrangements = [state] + [table.sample_state(state, seat, random.Random(k)) for k in range(twins)]
    said = []
    for s in arrangements:
        assert table.observe(s, seat).to_json() == view  # he cannot tell them apart
        moves = tuple(table.legal_moves(s))
        move, text, rows = advise(
            table, seat, table.observe(s, seat), moves, Decision(table, match, s, seat, 1, 9)
        )
        said.append((str(move), str(text), [(str(m), n, round(p, 6)) for m, n, p in rows]))
    return said


@pytest.mark.parametrize("game,players,moves", [("paquet_voleur", 2, 6), ("carrousel", 2, 3)])
def test_the_hint_does_not_single_out_the_true_arrangement(registry, game, players, moves):
    """The attack of issue 46: a seat computes the hint offline for every
    arrangement it cannot tell apart and keeps those that match the hint it
    got. Now every arrangement gives the hint it got: nothing is singled out.
    The control: with the last release's sampler, the same replay does tell
    arrangements apart (the test can see a leak)."""
    t = Table(registry.game(game), players)
    match, state = _mid_deal(t, 7, moves)
    hints = _hints(t, match, state, 5)
    assert all(h == hints[0] for h in hints)

    broken = HouseRuleSpec("test.true_order", game, "leaky", TrueOrderSampler())
    leaky = Table(registry.game(game), players, house_rules=[broken])
    match, state = _mid_deal(leaky, 7, moves)
    hints = _hints(leaky, match, state, 5)
    assert len({repr(h) for h in hints}) > 1  # the old sampler's hints differ with the hidden cards


def test_the_hint_rng_is_the_matchs_secret_not_a_fixed_number(registry):
    """The same decision of one match gets the same hint (derived from the match's
    seed); another match (another secret seed) draws other imagined deals."""
    from cardcore.players import hint_rng

    t = Table(registry.game("carrousel"), 2)
    match, state = _mid_deal(t, 7, 3)
    d = Decision(t, match, state, state.to_act, 1, 9)
    assert hint_rng(d).random() == hint_rng(d).random()
    other = t.new_match(8)
    assert hint_rng(Decision(t, other, state, state.to_act, 1, 9)).random() != hint_rng(d).random()
    assert hint_rng(d).random() != random.Random(0).random()
