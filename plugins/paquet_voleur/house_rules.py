"""Paquet voleur's built-in house rules, for the options of P5 and P7.

Each wraps one hook of the game without touching the game's code, exactly as
a third-party house rule would.
"""

from __future__ import annotations

from collections.abc import Generator

from cardcore.game import HouseRuleSpec, house_rules_hook
from cardcore.hookspecs import hookimpl
from cardcore.moves import Move
from cardcore_plugins.paquet_voleur.moves import pair
from cardcore_plugins.paquet_voleur.state import PVState
from cardcore_plugins.paquet_voleur.words import T


class TakeAllOfRank:
    """P5 option: a pair takes every table card of the played card's rank."""

    @hookimpl(wrapper=True)
    def cardcore_legal_moves(self, state: PVState) -> Generator[None, list[Move], list[Move]]:
        moves = yield
        out: list[Move] = []
        seen = set()
        for m in moves:
            card = m.card
            if m.kind != "pair" or card is None:
                out.append(m)
            elif card not in seen:
                seen.add(card)
                out.append(pair(card, tuple(t for t in state.board if t.rank == card.rank)))
        return out


class LastTakerTakesTable:
    """P7 option: the side that last paired or stole takes the cards left on the table."""

    @hookimpl
    def cardcore_finish_deal(self, state: PVState) -> None:
        if state.last_taker is not None and state.board:
            state.piles[state.last_taker].extend(state.board)
            state.board.clear()


HOUSE_RULES = [
    HouseRuleSpec(
        name="paquet_voleur.take_all_of_rank",
        game="paquet_voleur",
        # i18n: a pair: a card played takes a table card of its rank (P5a)
        summary=T("A pair takes every table card of the rank played, not just one (P5)."),
        plugin=TakeAllOfRank(),
        ruling="P5",
    ),
    HouseRuleSpec(
        name="paquet_voleur.last_taker_takes_table",
        game="paquet_voleur",
        summary=T("At the end of the deal, the last side to pair or steal takes the table (P7)."),
        plugin=LastTakerTakesTable(),
        ruling="P7",
    ),
]


cardcore_register_house_rules = house_rules_hook(HOUSE_RULES)
