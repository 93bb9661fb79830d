"""Carrousel's built-in house rules (the ruling options C7a, C10 and C10a)."""

from __future__ import annotations

import random
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING

from cardcore.cards import Card
from cardcore.game import HouseRuleSpec, house_rules_hook
from cardcore.hookspecs import hookimpl
from cardcore.moves import Move
from cardcore_plugins.carrousel.state import CarrouselState
from cardcore_plugins.carrousel.words import T

if TYPE_CHECKING:
    from cardcore.match import Match
    from cardcore.table import Table


class FreeTrail:
    """C10 option: a player may trail even when he could capture or build
    (never the broom, never while he owns a build)."""

    @hookimpl
    def carrousel_may_trail(self, state: CarrouselState, forced: bool) -> bool:
        return True


class SpecialsBack:
    """C10a: jokers and the broom turned up on the first table go back into the
    stock (at random places, from the match's RNG) and are replaced by the next
    cards of the stock."""

    @hookimpl(wrapper=True)
    def cardcore_deal(
        self, table: Table, match: Match, rng: random.Random, record: Callable[..., None]
    ) -> Generator[None, CarrouselState, CarrouselState]:
        state = yield
        back: list[Card] = []
        board = state.board
        for i, c in enumerate(board):
            while c.special:  # type: ignore[union-attr]
                back.append(c)  # type: ignore[arg-type]  # a loose card: no builds on a new table
                c = state.stock.pop(0)
                board[i] = c
        for c in back:
            state.stock.insert(rng.randrange(len(state.stock) + 1), c)
        if back:
            record("specials_back", cards=[c.name for c in back])
        return state


class StrictPairs:
    """C7a: face cards are taken one for one only; three alike on the first
    table mean a redeal; a third one cannot be trailed onto two."""

    @hookimpl(wrapper=True)
    def cardcore_deal(
        self, table: Table, match: Match, rng: random.Random, record: Callable[..., None]
    ) -> Generator[None, CarrouselState, CarrouselState]:
        state = yield
        if _three_alike(state):
            record("redeal", reason="three face cards alike on the table (C7a)")
            # deal again through the whole chain (this wrapper included)
            again: CarrouselState = table.hook.cardcore_deal(table=table, match=match, rng=rng, record=record)
            return again
        return state

    @hookimpl(wrapper=True)
    def cardcore_legal_moves(self, state: CarrouselState) -> Generator[None, list[Move], list[Move]]:
        moves = yield
        out: list[Move] = []
        for m in moves:
            card = m.card
            if card is not None and card.rank > 10:
                if m.kind == "capture" and len(m.takes) == 3:
                    out.extend(type(m)("capture", card, (t,)) for t in m.takes)
                    continue
                if m.kind == "trail" and _faces_on_table(state, card.rank) >= 2:
                    continue
            out.append(m)
        if not out:  # only a third face card to trail: he must still play a card
            return moves
        return out

    @hookimpl(wrapper=True)
    def cardcore_explain_illegal(
        self, state: CarrouselState, move: Move
    ) -> Generator[None, str | None, str | None]:
        reason = yield
        card = move.card
        if card is None or card.rank <= 10 or card.special:
            return reason
        if move.kind == "trail" and _faces_on_table(state, card.rank) >= 2 and reason is None:
            # i18n: "strict pairs": the house rule's name in words (carrousel.strict_pairs, C7a)
            return T("with strict pairs no third card of a face rank may lie on the table (C7a)")
        if move.kind == "capture" and len(move.takes) > 1:
            return T("with strict pairs a face card takes one card of its rank, never three (C7a)")
        return reason


def _faces_on_table(state: CarrouselState, rank: int) -> int:
    return sum(1 for it in state.board if getattr(it, "rank", 0) == rank)


def _three_alike(state: CarrouselState) -> bool:
    return any(_faces_on_table(state, r) >= 3 for r in (11, 12, 13))


HOUSE_RULES = [
    HouseRuleSpec(
        name="carrousel.free_trail",
        game="carrousel",
        # i18n: to trail: to lay a card on the table without capturing anything
        summary=T("Trail a card even when a capture or build is possible (C10)."),
        plugin=FreeTrail(),
        ruling="C10",
    ),
    HouseRuleSpec(
        name="carrousel.strict_pairs",
        game="carrousel",
        summary=T("Face cards one for one only; three alike on the first table: redeal (C7a)."),
        plugin=StrictPairs(),
        ruling="C7a",
    ),
    HouseRuleSpec(
        name="carrousel.specials_back",
        game="carrousel",
        summary=T("Jokers and the broom turned up on the first table go back into the stock (C10a)."),
        plugin=SpecialsBack(),
        ruling="C10a",
    ),
]


cardcore_register_house_rules = house_rules_hook(HOUSE_RULES)
