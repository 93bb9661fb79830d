"""The conformance suite (cardcore/testing.py) fails when it should: purposely
broken rules are caught."""

from __future__ import annotations

import pytest
from conftest import position

from cardcore.game import HouseRuleSpec
from cardcore.hookspecs import hookimpl
from cardcore.table import Table
from cardcore.testing import ConformanceError, check_no_dead_end, check_random_playouts
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
