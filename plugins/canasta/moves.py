"""Canasta's moves, typed: their kinds and a constructor per kind.

The engine's currency stays the generic ``Move`` named tuple ``(kind, card,
takes, extra)``. Bots, house rules and tests build moves with these
constructors; the move generator (``movegen.py``) builds the same tuples
inline in its loops (a constructor call costs about 90 ns per move).
"""

from __future__ import annotations

from typing import Final, Literal

from cardcore.cards import Card
from cardcore.i18n import Text
from cardcore.moves import Move
from cardcore_plugins.canasta.words import T, Tn, rank

Kind = Literal[
    "draw", "take_pile", "meld", "add", "commit", "withdraw", "ask_go_out", "answer", "discard", "stop"
]
KINDS: Final[tuple[Kind, ...]] = (
    "draw",
    "take_pile",
    "meld",
    "add",
    "commit",
    "withdraw",
    "ask_go_out",
    "answer",
    "discard",
    "stop",
)


def draw() -> Move:
    """N5: draw from the stock (two cards with 2 or 3 players)."""
    return Move("draw")


def take_pile(pile: tuple[Card, ...], cards: tuple[Card, ...] = ()) -> Move:
    """N9: take ``pile``, melding its top card with ``cards`` from hand (none:
    onto the side's meld of that rank)."""
    return Move("take_pile", None, pile, (("cards", cards),))


def meld(cards: tuple[Card, ...], rank: str) -> Move:
    """N8: a new meld of three cards of ``rank`` (``A``, ``K`` … ``4``, ``3``)."""
    return Move("meld", None, (), (("cards", cards), ("rank", rank)))


def add(card: Card, rank: str) -> Move:
    """N8: ``card`` added to the side's (or the staged) meld of ``rank``."""
    return Move("add", card, (), (("rank", rank),))


def commit() -> Move:
    """N10: lay down the staged initial meld."""
    return Move("commit")


def withdraw() -> Move:
    """Take back the staged initial meld (a convenience, G1)."""
    return Move("withdraw")


def ask_go_out() -> Move:
    """N12: "May I go out?"."""
    return Move("ask_go_out")


def answer(yes: bool) -> Move:
    """N12: the partner's answer, which binds."""
    return Move("answer", None, (), (("yes", yes),))


def discard(card: Card) -> Move:
    """N5: discard ``card``; the turn ends."""
    return Move("discard", card)


def stop() -> Move:
    """N13a: the stock ended with a red three: the deal ends."""
    return Move("stop")


# ---- the moves in words (``cardcore_move_text``) ---------------------------------
# i18n: a move: draw from the stock
DRAW_TEXT = T("draw")
# i18n: a move: take the discard pile (its top card melded by the cards said after)
TAKE_TEXT = T("take the pile")
# i18n: a move (N12): ask one's partner for leave to go out, i.e. to end the deal
ASK_TEXT = T("ask partner: may I go out?")
# i18n: a move: the partner's answer to "may I go out?"
YES_TEXT = T("answer: yes, go out")
# i18n: a move: the partner's answer to "may I go out?"
NO_TEXT = T("answer: no")
# i18n: a move (N10): the side's first melds, staged until now, laid on the table
COMMIT_TEXT = T("lay down the initial meld")
# i18n: a move: the staged first melds taken back into the hand
WITHDRAW_TEXT = T("take back the initial meld")
# i18n: a move (N13a): the stock ended with a red three; the player ends the deal
STOP_TEXT = T("stop: the deal ends")
SIMPLE_TEXTS = {
    "draw": DRAW_TEXT,
    "ask_go_out": ASK_TEXT,
    "commit": COMMIT_TEXT,
    "withdraw": WITHDRAW_TEXT,
    "stop": STOP_TEXT,
}


def move_text(move: Move) -> Text | None:
    """A move in words (a ``Text``: its English value the log's)."""
    k = move.kind
    simple = SIMPLE_TEXTS.get(k)
    if simple is not None:
        return simple
    if k == "take_pile":
        cards = move.get("cards")
        n = len(move.takes)
        if not move.takes:
            return TAKE_TEXT
        if not cards:
            # i18n: {n}: the pile's size; {rank}: the rank of the side's meld (a letter or a number)
            return Tn(
                "take the pile ({n} card) onto the {rank} meld",
                "take the pile ({n} cards) onto the {rank} meld",
                n,
                rank=rank(move.takes[-1].name[:-1]),
            )
        # i18n: {n}: the pile's size; {cards}: the cards from the hand melded with the pile's top card
        return Tn(
            "take the pile ({n} card) with {cards}",
            "take the pile ({n} cards) with {cards}",
            n,
            cards=list(cards),
        )
    if k == "meld":
        # i18n: a move: a new meld (three or more cards of one rank) laid on the table; {cards}: its cards
        return T("meld {cards}", cards=list(move.get("cards")))
    if k == "add":
        # i18n: a move: {card} added to the side's meld of rank {rank} (a letter or a number)
        return T("add {card} to the {rank} meld", card=move.card, rank=rank(move.get("rank")))
    if k == "discard":
        # i18n: a move: {card} laid on the discard pile, ending the turn
        return T("discard {card}", card=move.card)
    if k == "answer":
        return YES_TEXT if move.get("yes") else NO_TEXT
    return None
