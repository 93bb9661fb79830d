"""Paquet voleur's engine loop: the legal moves (P5), a move applied, the
turn passed and the cards dealt again (P6) — what a search calls at every
step of its playouts, compiled by ``tools/compile.py`` where a compiler is
present (the Python source is the reference)."""

from __future__ import annotations

from cardcore.deck import deal_more
from cardcore.moves import Move
from cardcore.moves import tuple_new as _new
from cardcore_plugins.paquet_voleur.state import PVState

HAND = 4  # P4: four cards each
BOARD = 4  # P4: one table card per round of dealing


def deal_round(state: PVState) -> None:
    """P6: four cards to each player, one at a time clockwise from the dealer's
    left, as far as the stock goes; then turn up to four table cards if the table is empty."""
    stock = state.stock
    deal_more(state.hands, stock, state.dealer, HAND)
    state.lacks = [0] * len(state.hands)  # new cards: nothing known of them
    if not state.board:
        take = min(BOARD, len(stock))
        state.board.extend(stock[:take])
        del stock[:take]


def legal_moves(state: PVState) -> list[Move]:
    """P5: pair or steal with any hand card; trail only when neither is possible."""
    seat = state.to_act
    hand = state.hands[seat]
    mine = state.table.side_of[seat]
    board = state.board
    tops = [
        (side, pile)
        for side, pile in enumerate(state.piles)
        if side != mine and pile  # P5b: not his own pile, not his partner's
    ]
    moves = []
    for c in hand:
        rank = c.rank
        for t in board:
            if t.rank == rank:  # P2: only ranks matter
                moves.append(_new(Move, ("pair", c, (t,), ())))
        for side, pile in tops:
            if pile[-1].rank == rank:
                moves.append(_new(Move, ("steal", c, tuple(pile), (("from", side),))))
    if moves:
        return moves
    return [_new(Move, ("trail", c, (), ())) for c in hand]  # P5c


def advance(state: PVState) -> None:
    """Pass the turn clockwise, redealing when every hand is empty (P6)."""
    hands = state.hands
    n = len(hands)
    start = state.to_act + 1
    if state.stock and not any(hands):
        deal_round(state)
        start = state.dealer + 1  # P6a: the player left of the dealer plays first
    for step in range(n):
        seat = (start + step) % n
        if hands[seat]:
            state.to_act = seat
            return


def _read_trail(state: PVState, seat: int, side: int) -> None:
    """P5c: what the trail about to be made shows of the trailer's other cards (``PVState.lacks``)."""
    mask = state.lacks[seat]
    for t in state.board:
        mask |= 1 << t.rank
    for s, pile in enumerate(state.piles):
        if s != side and pile:
            mask |= 1 << pile[-1].rank
    state.lacks[seat] = mask


def apply_move(state: PVState, move: Move) -> PVState:
    """P5: the card played pairs (P5a), steals (P5b) or trails (P5c); then the turn
    passes (P6). A trail tells every seat the ranks the trailer lacks (``PVState.lacks``)."""
    seat = state.to_act
    side = state.table.side_of[seat]
    card = move.card
    assert card is not None  # every Paquet voleur move plays a card
    state.hands[seat].remove(card)
    kind = move.kind
    board = state.board
    if kind == "trail":
        if state.reading:
            # P5c: he trails only when none of his cards can pair or steal, so those he keeps
            # have none of the table's ranks nor of an opponent's top: public, for the search
            _read_trail(state, seat, side)
        board.append(card)
    else:
        pile = state.piles[side]
        if kind == "pair":
            for t in move.takes:
                board.remove(t)
            pile.extend(move.takes)
        else:  # steal: the whole pile onto his own
            src = state.piles[move.get("from")]
            pile.extend(src)
            src.clear()
        pile.append(card)  # his own card on top (P5a, P5b)
        state.last_taker = side
    advance(state)
    return state
