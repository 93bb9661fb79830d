"""An example house rule from a separate package.

``kings_double.paquet_voleur``: in Paquet voleur every king in a side's pile
counts as two cards.  It wraps the game's ``cardcore_score_deal`` hook and
never touches the game's code.
"""

from __future__ import annotations

from collections.abc import Callable, Generator

from cardcore import HouseRuleSpec, SideScore, hookimpl


class KingsDouble:
    @hookimpl(wrapper=True)
    def cardcore_score_deal(self, state) -> Generator[None, list[SideScore], list[SideScore]]:
        scores = yield
        out = []
        for side, score in zip(state.piles, scores, strict=True):
            kings = sum(1 for c in side if c.rank == 13)
            breakdown = {**score.breakdown, "kings_bonus": kings}
            out.append(SideScore(score.seats, score.points + kings, breakdown))
        return out


SPEC = HouseRuleSpec(
    name="kings_double.paquet_voleur",
    game="paquet_voleur",
    summary="Every king in a pile counts as two cards (example third-party house rule).",
    plugin=KingsDouble(),
)


@hookimpl
def cardcore_register_house_rules(register: Callable[[HouseRuleSpec], None]) -> None:
    register(SPEC)
