"""Canasta's built-in house rules: the options of N17 and N18."""

from __future__ import annotations

from cardcore.game import HouseRuleSpec, house_rules_hook
from cardcore.hookspecs import hookimpl
from cardcore_plugins.canasta.cards import WILD, is_black_three, is_red_three
from cardcore_plugins.canasta.state import CanastaState
from cardcore_plugins.canasta.words import T


class HoyleUpcard:
    """N18, the Hoyle reading of the upcard: a red three turned up is covered by
    the next card; a wild card or a black three turned up stays on top and
    freezes the pile."""

    @hookimpl
    def canasta_start_pile(self, state: CanastaState) -> bool:
        while state.stock:
            c = state.stock.pop(0)
            state.discard.append(c)
            if is_red_three(c):
                continue
            if WILD[c] or is_black_three(c):
                state.frozen_start = True
            break
        return True


class PermissionRequired:
    """N18: with 4 players, a player may go out only after asking his partner
    "May I go out?" and hearing yes."""

    @hookimpl
    def canasta_may_go_out(self, state: CanastaState, seat: int) -> bool | None:
        if state.players != 4:
            return None  # no partner: the game decides
        return state.asked == "yes"


class EveryManForHimself:
    """N17/N18: with 3 players, everyone plays alone for the whole deal."""

    @hookimpl
    def canasta_partnership_on_pile(self, state: CanastaState) -> bool:
        return False


HOUSE_RULES = [
    HouseRuleSpec(
        name="canasta.hoyle_upcard",
        game="canasta",
        # i18n: a house rule; "upcard": the card turned up to start the discard pile; "freezes the
        # pile": the pile may then be taken only with a natural pair (N9)
        summary=T("Hoyle's upcard: a wild card or black three turned up freezes the pile (N18)."),
        plugin=HoyleUpcard(),
        ruling="N18",
    ),
    HouseRuleSpec(
        name="canasta.permission_required",
        game="canasta",
        # i18n: a house rule: "going out", ending the deal by melding every card
        summary=T("With 4 players, ask your partner and hear yes before going out (N18)."),
        plugin=PermissionRequired(),
        ruling="N18",
        players=(4,),
    ),
    HouseRuleSpec(
        name="canasta.every_man_for_himself",
        game="canasta",
        # i18n: a house rule (without it, the first to take the pile makes a partnership, N17)
        summary=T("With 3 players, everyone plays alone for the whole deal (N17, N18)."),
        plugin=EveryManForHimself(),
        ruling="N17",
        players=(3,),
    ),
]


cardcore_register_house_rules = house_rules_hook(HOUSE_RULES)
