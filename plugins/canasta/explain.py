"""Why a Canasta move is not legal, naming the ruling (``cardcore_explain_illegal``)."""

from __future__ import annotations

from cardcore.moves import Move
from cardcore_plugins.canasta.cards import (
    WILD,
)
from cardcore_plugins.canasta.melds import frozen_for, rank_of
from cardcore_plugins.canasta.movegen import take_options
from cardcore_plugins.canasta.state import (
    ANSWER,
    DRAW,
    CanastaState,
)


def explain(state: CanastaState, m: Move) -> str:
    """Why ``m`` is not legal (naming the ruling)."""
    seat = state.to_act
    team = state.team_of(seat)
    if state.phase == ANSWER and m.kind != "answer":
        return "your partner asked to go out: answer yes or no (N12)"
    if state.phase != DRAW and m.kind in ("draw", "take_pile"):
        return "you have drawn or taken the pile already this turn (N5)"
    if m.kind == "take_pile":
        if not state.discard:
            return "the pile is empty"
        top = state.discard[-1]
        if WILD[top] or top.rank == 3:
            return "the pile cannot be taken when its top card is a wild card or a black three (N9)"
        if not state.stock:
            return "with the stock empty the pile is taken only onto a meld of your side (N13)"
        names = [c.name for c in m.get("cards", ())]
        if any([c.name for c in o.get("cards")] == names for o in take_options(state)):
            if not state.melds[team]:
                return (
                    "the pile's top card and cards from your hand cannot reach your initial "
                    "minimum and still leave you a way to end your turn (N10a, G1)"
                )
            return (
                "after this take you could not end your turn: no card left to discard "
                "and no way to go out (G1, N11)"
            )
        if frozen_for(state, team):
            return "the pile is frozen for your side: take it only with a natural pair (N9, N9a)"
        return "take the pile with two naturals, a natural and a wild card, or onto your meld (N9)"
    if state.phase == DRAW and m.kind != "draw":
        return "first draw from the stock or take the pile (N5)"
    hand = state.hands[seat]
    used = list(m.get("cards", ())) or ([m.card] if m.card is not None else [])
    missing = [c for c in used if c not in hand]
    if missing:
        return f"{missing[0]} is not in your hand"
    if m.kind == "meld":
        cards = list(m.get("cards", ()))
        r = rank_of(m)
        if r == 3:
            return "black threes are melded only when going out in the same turn (N8, N12c)"
        if any(not WILD[c] and c.rank != r for c in cards):
            return "a meld holds cards of one rank, and wild cards (N8)"
        if sum(1 for c in cards if not WILD[c]) < 2:
            return "a meld needs at least two natural cards (N8)"
        if r in state.melds[team]:
            return "a side has at most one meld of each rank (N8)"
    if m.kind in ("meld", "add") and len(hand) - len(used) < 2 and rank_of(m) != 3:
        return (
            "keep a card to discard: melding down to one card or none is going out, "
            "which needs the canastas (N11) and, if asked, the partner's yes (N12, G1)"
        )
    if m.kind in ("meld", "add") and not state.melds[team] and rank_of(m) != 3:
        return "your side could no longer reach its initial minimum after it (N10a, G1)"
    if m.kind == "meld":
        return "a new meld is three cards: three naturals, or two and a wild card (N8)"
    if m.kind == "discard":
        if state.staged:
            return "commit or withdraw your initial meld before discarding (N10)"
        if len(state.hands[seat]) == 1:
            return "you may discard your last card only when going out (N11, N12)"
        if state.asked == "yes":
            return "your partner said yes: you must go out this turn (N12)"
    if m.kind == "commit":
        return "the initial meld must reach its minimum first (N10)"
    if m.kind == "add":
        return "add a natural of the meld's rank, or a wild card while it has fewer than three (N8)"
    return "not a legal move now (N5)"
