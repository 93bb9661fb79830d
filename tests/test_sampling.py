"""Determinization (``cardcore_sample_state``): a seat imagines the cards it
cannot see. Over random playouts of every game and player count (Canasta
after pile pickups and 3-player partnerships included), the kit's
``check_sampling``: a sample conserves the cards, leaves the seat's hand and
everything public where it is, keeps the other hands' and the stock's sizes,
changes nothing of the real state, and samples vary; here too, what is
particular to a game: the cards the seat knows an opponent holds kept
(Canasta), the asker of "May I go out?" able to (N12), build owners (C8),
the ranks a seat that trailed lacks (Paquet voleur, P5c)."""

from __future__ import annotations

import random

import pytest
from conftest import EVERY_TABLE

from cardcore.runner import make_players
from cardcore.table import Table
from cardcore.testing import check_sampling

TABLES = EVERY_TABLE


@pytest.mark.parametrize("game,players,options", TABLES)
def test_samples_agree_with_what_the_seat_knows(registry, game, players, options):
    """The kit's ``check_sampling`` (conservation, the seat's hand and all that
    is public kept, sizes kept, the real state untouched, samples that vary),
    and the cards the seat knows an opponent holds (Canasta's ``known``: a
    pile taken, a meld taken back) kept in his hand."""
    t = Table.from_names(registry, game, players, options)
    known_kept = 0

    def known_stay(state, seat, sample) -> None:
        nonlocal known_kept
        for other, cards_known in enumerate(getattr(state, "known", [])):
            if other != seat and cards_known:
                assert all(any(c is k for c in sample.hands[other]) for k in cards_known)
                known_kept += 1

    stats = check_sampling(t, deals=2, seed=6, kinds=["greedy"] * players, on_sample=known_stay)
    assert stats.samples > 10 and stats.varied > stats.samples // 2  # samples do differ from the truth
    if game == "canasta":
        assert known_kept > 0  # pile pickups happened, and their cards stayed put


def test_a_sample_never_shows_the_real_hidden_cards_more_than_chance(registry):
    """Redealing is random: over many samples, an opponent's real hand is not
    what the seat imagines (beyond the cards it knows)."""
    t = Table.from_names(registry, "carrousel", 2)
    state = t.new_match(3).start_deal()
    rng = random.Random(0)
    real = sorted(c.name for c in state.hands[1])
    same = sum(sorted(c.name for c in t.sample_state(state, 0, rng).hands[1]) == real for _ in range(200))
    assert same < 10


def test_canasta_the_asker_of_may_i_go_out_can_go_out_in_every_sample(registry):
    """N12: a player asks "May I go out?" only when he can go out, so while his
    partner answers, every deal the partner imagines lets the asker go out
    after a yes (a plain redeal of the unseen cards fails in about a third)."""
    from cardcore_plugins.canasta import moves as canasta_moves
    from cardcore_plugins.canasta.state import ANSWER

    t = Table.from_names(registry, "canasta", 4)
    bots = make_players(t, ["greedy"] * 4, 5)
    rng = random.Random(1)
    asked = 0
    for seed in range(12):
        state = t.new_match(seed).start_deal()
        while not t.is_deal_over(state):
            if state.phase == ANSWER:
                asked += 1
                for _ in range(10):
                    sample = t.sample_state(state, state.to_act, rng)
                    t.apply(sample, canasta_moves.answer(True))
                    assert t.legal_moves(sample), "the asker cannot go out in an imagined deal"
            moves = t.legal_moves(state)
            t.apply(state, bots[state.to_act].choose(t.observe(state, state.to_act), tuple(moves)), moves)
    assert asked >= 5


@pytest.mark.parametrize("tries", [200, 0])
def test_carrousel_build_owners_hold_a_card_of_its_value_in_every_sample(registry, monkeypatch, tries):
    """C8: the owner of a build kept a card of its value when he made it and
    has not played since, so every deal another seat imagines gives him one
    (a plain redeal of the unseen cards often does not). With no redeal left
    to try, a card of its value is swapped into his hand: still every card once."""
    from cardcore_plugins.carrousel import game as carrousel_game
    from cardcore_plugins.carrousel.cards import VALUES
    from cardcore_plugins.carrousel.state import Build

    monkeypatch.setattr(carrousel_game, "SAMPLE_TRIES", tries)

    owed = 0
    for players in (2, 4):
        t = Table.from_names(registry, "carrousel", players)
        bots = make_players(t, ["greedy"] * players, 5)
        rng = random.Random(2)
        for seed in range(6):
            state = t.new_match(seed).start_deal()
            while not t.is_deal_over(state):
                seat = state.to_act
                builds = [b for b in state.board if type(b) is Build and b.owner != seat]
                for _ in range(5 if builds else 0):
                    sample = t.sample_state(state, seat, rng)
                    for b in builds:
                        assert any(VALUES[c] == b.value for c in sample.hands[b.owner])
                        owed += 1
                    cards = t.state_cards(sample)
                    assert len({id(c) for c in cards}) == len(cards) == len(t.deck)
                    assert sample.hands[seat] == state.hands[seat]
                    assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
                moves = t.legal_moves(state)
                t.apply(state, bots[seat].choose(t.observe(state, seat), tuple(moves)), moves)
    assert owed > 20


@pytest.mark.parametrize("tries", [50, 0])
def test_paquet_voleur_a_seat_that_trailed_holds_none_of_the_ranks_it_lacks(registry, monkeypatch, tries):
    """P5c: a seat that trailed holds none of the ranks then on the table or on
    an opponent's top, until new cards come (``lacks``): true of the real deal
    at every decision (with the house rules too), and of every deal another
    seat imagines; every card once, the sizes kept. With no shuffle left to
    try, a plain redeal (still every card once)."""
    from cardcore_plugins.paquet_voleur import game as pv_game

    monkeypatch.setattr(pv_game, "SAMPLE_TRIES", tries)
    bound = 0
    for players, rules in ((2, ()), (3, ()), (4, ("paquet_voleur.take_all_of_rank",))):
        t = Table.from_names(registry, "paquet_voleur", players, house_rules=list(rules))
        bots = make_players(t, ["greedy"] * players, 5)
        rng = random.Random(3)
        for seed in range(4):
            state = t.new_match(seed).start_deal()
            while not t.is_deal_over(state):
                seat = state.to_act
                for s, hand in enumerate(state.hands):
                    assert not any(state.lacks[s] >> c.rank & 1 for c in hand)  # the inference is sound
                lacking = [s for s in range(players) if s != seat and state.lacks[s] and state.hands[s]]
                for _ in range(4 if lacking else 0):
                    sample = t.sample_state(state, seat, rng)
                    if tries:
                        for s in lacking:
                            assert not any(state.lacks[s] >> c.rank & 1 for c in sample.hands[s])
                            bound += 1
                    cards = t.state_cards(sample)
                    assert len({id(c) for c in cards}) == len(cards) == len(t.deck)
                    assert sample.hands[seat] == state.hands[seat]
                    assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
                    assert len(sample.stock) == len(state.stock)
                    assert state.reading and not (tries and sample.reading)  # playouts skip the reading
                moves = t.legal_moves(state)
                t.apply(state, bots[seat].choose(t.observe(state, seat), tuple(moves)), moves)
    assert bound > 20 or not tries
