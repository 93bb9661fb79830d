"""Deal scoring (N14, N7, N12)."""

from __future__ import annotations

from cardcore.cards import Card
from cardcore.i18n import NP_
from cardcore_plugins.canasta.cards import RED_THREES as RED_THREE_CARDS
from cardcore_plugins.canasta.cards import VALUES, WILD
from cardcore_plugins.canasta.state import CanastaState
from cardcore_plugins.canasta.words import T

CANASTA = 7

# The breakdown's labels: texts whose English values are the keys the logs and JSON keep
# (the terminal shows ``red_threes`` as "red threes").
# i18n: a score's part (N14): the points of the side's melded cards
BASE = T("base")
# i18n: a score's part (N14): the bonuses of the side's canastas (melds of seven: 500 natural, 300 mixed)
CANASTAS = T("canastas")
# i18n: a score's part (N7): the side's red threes (the key of the data: say "red threes")
RED_THREES = T("red_threes")
# i18n: a score's part (N14): the bonus for going out, ending the deal (the key of the data: say "going out")
GOING_OUT = T("going_out")
# i18n: a score's part (N14): the cards left in the side's hands, counted against it
HAND = T("hand")


# The same labels as a page reads a breakdown's keys (``pgettext("breakdown", key with
# spaces)``: a frame carries the keys as data, not these texts)
BREAKDOWN_LABELS = (
    NP_("breakdown", "base"),
    NP_("breakdown", "canastas"),
    NP_("breakdown", "red threes"),
    NP_("breakdown", "going out"),
    NP_("breakdown", "hand"),
)


def team_breakdown(state: CanastaState, team: int) -> dict[str, int]:
    melds = state.melds[team]
    base = sum(VALUES[c] for m in melds.values() for c in m)
    canastas = 0
    for m in melds.values():
        if len(m) >= CANASTA:
            canastas += 300 if any(WILD[c] for c in m) else 500
    reds = len(state.red_threes[team])
    red = 800 if reds == 4 else 100 * reds
    if not melds:
        red = -red  # N7: no meld, red threes count against the side
    out = 0
    # N13a: after the stock ended with a red three nobody scores for going out
    if state.went_out is not None and state.went_out in state.teams[team] and not state.last_red_three:
        out = 200 if state.went_out_concealed else 100
    hand: list[Card] = [c for s in state.teams[team] for c in state.hands[s]]
    penalty = -sum(VALUES[c] for c in hand if c not in RED_THREE_CARDS)  # N3, N7a: never hand cards
    return {
        BASE: base,
        CANASTAS: canastas,
        RED_THREES: red,
        GOING_OUT: out,
        HAND: penalty,
    }
