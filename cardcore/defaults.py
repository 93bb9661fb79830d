"""The core's own hook implementations: the rule defaults every game may
override (the player kinds are ``cardcore.kinds``').

All are ``trylast`` so that a game's (and a house rule's) answer comes first.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardcore.game import redeal_unseen
from cardcore.hookspecs import hookimpl
from cardcore.moves import Move, default_move_text
from cardcore.state import state_class

if TYPE_CHECKING:
    from cardcore.cards import Card
    from cardcore.game import DealState
    from cardcore.match import Match
    from cardcore.table import Table


@hookimpl(trylast=True)
def cardcore_first_dealer(table: Table, rng: random.Random, record: Callable[..., None]) -> int:
    dealer = rng.randrange(table.players)
    record("first_dealer", dealer=dealer)
    return dealer


@hookimpl(trylast=True)
def cardcore_is_match_over(match: Match) -> bool:
    return True


@hookimpl(trylast=True)
def cardcore_match_winners(match: Match) -> list[int]:
    best = max(match.scores)
    return [i for i, s in enumerate(match.scores) if s == best]


@hookimpl(trylast=True)
def cardcore_next_dealer(match: Match, state: DealState) -> int:
    return (match.dealer + 1) % match.table.players


@hookimpl(trylast=True)
def cardcore_sample_state(state: DealState, seat: int, rng: random.Random) -> DealState:
    """The other hands and the stock, shuffled together and dealt back in
    their sizes: right for games whose only hidden cards are those."""
    return redeal_unseen(state, seat, rng)


@hookimpl(trylast=True)
def cardcore_move_text(state: DealState | None, move: Move) -> str:
    return default_move_text(move)


# ---- the state's hooks, derived from the FIELDS it declares (cardcore.state) ----
@hookimpl(trylast=True)
def cardcore_state_to_json(state: DealState) -> dict[str, Any]:
    return state.to_json()


@hookimpl(trylast=True)
def cardcore_state_from_json(table: Table, data: dict[str, Any]) -> DealState:
    """The state class the game's plugin names (``state_class``) reads the position."""
    return state_class(table).from_json(table, data)


@hookimpl(trylast=True)
def cardcore_state_cards(state: DealState) -> list[Card]:
    return state.all_cards()
