"""The conformance suite (cardcore/testing.py) fails when it should: purposely
broken rules are caught, one for each check (dead ends, a field the JSON
drops, a view or a move that shows a hidden card, a game that is not
deterministic, samplers that peek or change what the seat knows)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from conftest import position

from cardcore.game import HouseRuleSpec, redeal_unseen
from cardcore.hookspecs import hookimpl
from cardcore.table import Table
from cardcore.testing import (
    ConformanceError,
    check_determinism,
    check_hidden_information,
    check_no_dead_end,
    check_random_playouts,
    check_sampling,
    check_table,
    leaks,
)
from cardcore_plugins.canasta import rules


class OfferEveryTake:
    """A broken house rule: offers every pile take N9 allows, dead ends included
    (as the first release did)."""

    @hookimpl(wrapper=True)
    def cardcore_legal_moves(self, state):
        moves = yield
        if state.phase == "draw" and state.stock:
            moves += [m for m in rules.take_options(state) if m not in moves]
        return moves


class DropLastCapture:
    """A broken game variant: its JSON forgets who captured last."""

    @hookimpl(wrapper=True)
    def cardcore_state_to_json(self, state):
        data = yield
        data.pop("last_capture", None)
        return data


def test_dead_end_take_is_caught_in_a_position(registry):
    t, s = position("canasta/g1_pile_take_strands.yaml", registry)
    stranding = rules.take_options(s)
    assert stranding and all(m not in t.legal_moves(s) for m in stranding)
    with pytest.raises(ConformanceError, match="G1"):
        check_no_dead_end(t, s, stranding, "g1_pile_take_strands")
    check_no_dead_end(t, s, t.legal_moves(s), "g1_pile_take_strands")  # the real moves pass


def test_dead_end_moves_are_caught_in_playouts(registry):
    broken = HouseRuleSpec("test.offer_every_take", "canasta", "broken", OfferEveryTake())
    t = Table(registry.game("canasta"), 4, house_rules=[broken])
    with pytest.raises(ConformanceError, match="G1"):
        check_random_playouts(t, deals=40, seed=3)


def test_a_field_the_json_drops_is_caught(registry):
    broken = HouseRuleSpec("test.drop_last_capture", "carrousel", "broken", DropLastCapture())
    t = Table(registry.game("carrousel"), 2, house_rules=[broken])
    with pytest.raises(ConformanceError, match="round trip"):
        check_random_playouts(t, deals=3, seed=1, round_trip_every=1, dead_ends=False)


class NamesTheCardDrawn:
    """A broken house rule: the text of a draw (public: the log, the printer,
    every witness) names the cards drawn, which are now in the drawer's hand."""

    drawn: list = []

    @hookimpl(wrapper=True)
    def cardcore_apply_move(self, state, move):
        seat = state.to_act
        had = {id(c) for c in state.hands[seat]}
        result = yield
        self.drawn = [c for c in state.hands[seat] if id(c) not in had] if move.kind == "draw" else []
        return result

    @hookimpl(wrapper=True)
    def cardcore_move_text(self, state, move):
        text = yield
        if move.kind == "draw" and self.drawn:
            return f"{text} {' '.join(c.name for c in self.drawn)}"
        return text


def test_a_move_that_names_a_hidden_card_is_caught(registry):
    broken = HouseRuleSpec("test.names_the_card_drawn", "canasta", "broken", NamesTheCardDrawn())
    t = Table(registry.game("canasta"), 4, house_rules=[broken])
    with pytest.raises(
        ConformanceError, match=r"step \d+: the move of seat \d 'draw \w+.*' shows the others"
    ):
        check_hidden_information(t, deals=1, seed=3)


class ShowsTheNextCard:
    """A broken house rule: the view tells, in words, the next card of the stock."""

    @hookimpl(wrapper=True)
    def cardcore_observe(self, state, seat):
        obs = yield
        if state.stock:
            return dataclasses.replace(obs, public={**obs.public, "note": f"next: {state.stock[-1]}!"})
        return obs


def test_copies_are_counted_and_texts_read(registry):
    """Two decks: naming a 5H is no leak while a 5H is in sight, naming a second
    one while the other copy is in the stock is; a card named inside a text
    counts as well."""
    broken = HouseRuleSpec("test.shows_the_next_card", "canasta", "broken", ShowsTheNextCard())
    t = Table(registry.game("canasta"), 4, house_rules=[broken])
    s = t.new_match(1).start_deal()
    top = s.discard[-1]
    twin = next(c for c in t.deck if c.name == top.name and c is not top)
    for place in (*s.hands, s.stock):  # the other copy of the pile's top goes to the top of the stock
        if twin in place:
            place[place.index(twin)] = s.stock[-1]
            s.stock[-1] = twin
            break
    assert [leaks(t, s, seat) for seat in (0, 1, 2, 3, None)] == [[top.name]] * 5
    s.discard[-1], s.stock[-1] = twin, top  # the same names: still one too many
    assert leaks(t, s, None) == [top.name]
    plain = Table(registry.game("canasta"), 4)
    assert leaks(plain, s, None) == []  # the pile's top alone is in sight


class ShuffledMoves:
    """A broken house rule: lists the legal moves in an order drawn from the
    global ``random`` (not the match's RNG)."""

    @hookimpl(wrapper=True)
    def cardcore_legal_moves(self, state):
        moves = yield
        random.shuffle(moves)
        return moves


def test_a_game_that_is_not_deterministic_is_caught(registry):
    broken = HouseRuleSpec("test.shuffled_moves", "paquet_voleur", "broken", ShuffledMoves())
    t = Table(registry.game("paquet_voleur"), 3, house_rules=[broken])
    with pytest.raises(
        ConformanceError, match=r"deal 1: the same seed and bots played .* at move \d+ \(not deterministic\)"
    ):
        check_determinism(t, seed=1, deals=2)
    check_determinism(Table(registry.game("paquet_voleur"), 3), seed=1, deals=2)  # the game itself is


class PeekingSampler:
    """A broken sampler: imagines every hand as it really is."""

    @hookimpl
    def cardcore_sample_state(self, state, seat, rng):
        return state.clone()


class HandChangingSampler:
    """A broken sampler: redeals the seat's own hand with the rest."""

    @hookimpl
    def cardcore_sample_state(self, state, seat, rng):
        return redeal_unseen(state, (seat + 1) % len(state.hands), rng)


class InPlaceSampler:
    """A broken sampler: redeals the real state instead of a copy."""

    @hookimpl
    def cardcore_sample_state(self, state, seat, rng):
        sample = redeal_unseen(state, seat, rng)
        state.hands[:], state.stock[:] = sample.hands, sample.stock
        return sample


class SizeChangingSampler:
    """A broken sampler: deals the next seat one card more from the stock."""

    @hookimpl
    def cardcore_sample_state(self, state, seat, rng):
        sample = redeal_unseen(state, seat, rng)
        if sample.stock:
            sample.hands[(seat + 1) % len(sample.hands)].append(sample.stock.pop())
        return sample


@pytest.mark.parametrize(
    "sampler,problem",
    [
        (PeekingSampler, "samples imagine another hand otherwise .* peek"),
        (HandChangingSampler, "the sample changed the seat's own hand"),
        (InPlaceSampler, "sampling changed the real state"),
        (SizeChangingSampler, "the sample's hands and stock hold"),
    ],
)
@pytest.mark.parametrize("game,players", [("carrousel", 2), ("canasta", 4)])
def test_a_dishonest_sampler_is_caught(registry, game, players, sampler, problem):
    broken = HouseRuleSpec("test.sampler", game, "broken", sampler())
    t = Table(registry.game(game), players, house_rules=[broken])
    with pytest.raises(ConformanceError, match=problem):
        check_sampling(t, deals=1, seed=2)


@pytest.mark.parametrize(
    "game,players,rule", [("paquet_voleur", 3, []), ("carrousel", 4, ["carrousel.free_trail"])]
)
def test_the_whole_suite_in_one_call(registry, game, players, rule):
    """What a third-party game's or house rule's test runs: every check passes
    on the built-in games, and each counted something."""
    t = Table.from_names(registry, game, players, {}, rule)
    report = check_table(t, deals=2, seed=1)
    assert report.playouts.deals == 2 and report.playouts.moves > 0
    assert report.views > 0 and report.moves_replayed > 0
    assert report.sampling.samples > 0 and report.sampling.varied > 0
