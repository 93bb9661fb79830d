"""A conformance suite any game or house rule can run in its own tests.

``check_random_playouts`` plays seeded deals with the given bots and checks, at
every step, what must hold for every game:

* card conservation: the cards of the state are exactly the deck's, each
  physical copy once (``cardcore_state_cards``);
* every move played is in ``legal_moves()``, and ``legal_moves()`` has no
  duplicates and is never empty while the deal goes on;
* the state survives a JSON round trip unchanged (up to which copy of two
  identical cards is which) with the same legal moves, and playing on a clone
  leaves the original untouched;
* the deal's scores come out for every side.

It returns counts for the caller to assert on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardcore.game import DealState
from cardcore.match import DealResult
from cardcore.runner import make_players
from cardcore.table import Table


class ConformanceError(AssertionError):
    pass


@dataclass
class PlayoutStats:
    deals: int = 0
    moves: int = 0
    max_moves_listed: int = 0


def _check_cards(table: Table, state: DealState, where: str) -> None:
    cards = table.state_cards(state)
    if len(cards) != len(set(map(id, cards))):
        raise ConformanceError(f"{where}: a card is in two places")
    if sorted(c.sort_key for c in cards) != sorted(c.sort_key for c in table.deck):
        raise ConformanceError(f"{where}: cards not conserved")


def check_random_playouts(
    table: Table,
    deals: int,
    seed: int = 0,
    kinds: Sequence[str] | None = None,
    round_trip_every: int = 7,
    on_deal: Callable[[DealState, DealResult], Any] | None = None,
) -> PlayoutStats:
    """Play ``deals`` deals (matches restart as needed) and check the invariants."""
    kinds = list(kinds or ["random"] * table.players)
    players = make_players(table, kinds, seed)
    master = random.Random(seed)
    stats = PlayoutStats()
    match = table.new_match(master.getrandbits(63))
    while stats.deals < deals:
        if match.over:
            match = table.new_match(master.getrandbits(63))
        state = match.start_deal()
        where = f"seed {seed} deal {stats.deals + 1}"
        _check_cards(table, state, where)
        step = 0
        while not table.is_deal_over(state):
            moves = table.legal_moves(state)
            if not moves:
                raise ConformanceError(f"{where}: no legal move but the deal is not over")
            if len(set(moves)) != len(moves):
                raise ConformanceError(f"{where}: duplicate legal moves")
            stats.max_moves_listed = max(stats.max_moves_listed, len(moves))
            player = players[state.to_act]
            obs = table.observe(state, state.to_act) if player.needs_observation else None
            move = player.choose(obs, moves)
            if move not in moves:
                raise ConformanceError(f"{where}: the bot played an illegal move {move}")
            if step % round_trip_every == 0:
                dumped = table.dump_state(state)
                again = table.load_state(dumped)
                if table.dump_state(again) != dumped:
                    raise ConformanceError(f"{where}: JSON round trip changed the state")
                # copies of one card (two decks) are interchangeable: compare by notation
                if [table.move_json(m) for m in table.legal_moves(again)] != [
                    table.move_json(m) for m in moves
                ]:
                    raise ConformanceError(f"{where}: round trip changed the legal moves")
                twin = state.clone()
                table.apply(twin, move, moves)
                if table.dump_state(state) != dumped:
                    raise ConformanceError(f"{where}: playing on a clone changed the original")
            table.apply(state, move, moves)
            _check_cards(table, state, where)
            step += 1
        stats.moves += step
        result = match.end_deal(state)
        if len(result.sides) != len(table.sides):
            raise ConformanceError(f"{where}: scores for {len(result.sides)} sides")
        if on_deal is not None:
            on_deal(state, result)
        stats.deals += 1
    return stats
