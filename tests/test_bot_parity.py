"""A bot's fast path reads the same as its slow one (issue 47): a bot with
``choose_imagined(state, moves)`` (what a search's rollouts call, reading its
seat's view straight from an imagined state) plays what ``choose`` plays on
that seat's ``Observation`` of the same state, at every decision of random
deals of every game and player count."""

from __future__ import annotations

import random

import pytest
from conftest import EVERY_TABLE

from cardcore.decision import Decision
from cardcore.levels import LEVELS
from cardcore.table import Table


def _fast_bots(table: Table, seat: int) -> dict[str, object]:
    """The table's bots that have a fast path, one for ``seat``."""
    bots = {}
    for kind, factory in table.player_kinds.items():
        if kind in ("human", "ismcts", *LEVELS):
            continue
        bot = factory(table, seat, random.Random(seat))
        if hasattr(bot, "choose_imagined"):
            bots[kind] = bot
    return bots


@pytest.mark.parametrize("game,players,options", EVERY_TABLE)
def test_choose_imagined_plays_what_choose_plays(registry, game, players, options):
    table = Table.from_names(registry, game, players, options)
    rng = random.Random(47)
    checked = 0
    for deal in range(3):
        match = table.new_match(rng.getrandbits(32))
        state = match.start_deal()
        index = 0
        while not table.is_deal_over(state):
            moves = table.legal_moves(state)
            seat = state.to_act
            if len(moves) > 1:
                for kind, bot in _fast_bots(table, seat).items():
                    observation = table.observe(state, seat)
                    decision = Decision(table, match, state.clone(), seat, deal + 1, index)
                    slow = bot.choose(observation if bot.needs_observation else None, moves, decision)  # type: ignore[attr-defined]
                    fast = bot.choose_imagined(state.clone(), moves)  # type: ignore[attr-defined]
                    assert fast == slow, f"{kind} at seat {seat}, deal {deal + 1}, move {index}"
                    checked += 1
            state = table.apply(state, moves[rng.randrange(len(moves))], moves)
            index += 1
    if any(_fast_bots(table, 0)):
        assert checked > 20
