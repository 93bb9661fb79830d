"""What a move does to a Canasta deal, and the turn's bookkeeping: drawing
(red threes laid and replaced, N7), the pile taken (N9, N17), melds, going
out (N12), the next turn (N13)."""

from __future__ import annotations

from cardcore.cards import Card
from cardcore.moves import Move
from cardcore_plugins.canasta.cards import RED_THREES, is_red_three
from cardcore_plugins.canasta.melds import CANASTA, RANK_NUMBER, partner_of
from cardcore_plugins.canasta.movegen import exhausted_takes
from cardcore_plugins.canasta.state import (
    ANSWER,
    DRAW,
    HAND_ORDER,
    PILE,
    PLAY,
    CanastaState,
    partnership_teams,
    reset_turn,
    set_teams,
)


def lay_red_threes(state: CanastaState, seat: int, replace: bool) -> None:
    """N7: red threes in hand are laid for the side (and replaced from the stock)."""
    hand = state.hands[seat]
    team = state.team_at[seat]
    while True:
        reds = [c for c in hand if c in RED_THREES]
        if not reds:
            return
        for c in reds:
            hand.remove(c)
            state.red_threes[team].append(c)
        if not replace:
            return
        draw_cards(state, seat, len(reds))


def draw_cards(state: CanastaState, seat: int, n: int) -> None:
    """Draw ``n`` cards from the stock; a red three drawn is laid and replaced at
    once (N7); if the last card of the stock is a red three, note it (N13)."""
    hand = state.hands[seat]
    team = state.team_at[seat]
    got = 0
    while got < n and state.stock:
        c = state.stock.pop(0)
        if is_red_three(c):
            state.red_threes[team].append(c)
            if not state.stock:
                state.last_red_three = True
            continue
        hand.append(c)
        got += 1
    hand.sort(key=HAND_ORDER)


def begin_turn(state: CanastaState, seat: int) -> None:
    """Start ``seat``'s turn: reset the turn, lay dealt red threes (N7), and end
    the deal if the stock is out and the pile cannot be taken (N13)."""
    state.to_act = seat
    reset_turn(state)
    lay_red_threes(state, seat, replace=True)
    if state.last_red_three and not state.stock:
        state.phase = PLAY  # N13: his replacement was the stock's last card, a red three
    elif not state.stock and not exhausted_takes(state):
        state.over = True


def end_turn(state: CanastaState) -> None:
    seat = state.to_act
    if state.melded_now:
        state.has_melded[seat] = True
    begin_turn(state, (seat + 1) % len(state.hands))


def form_partnership(state: CanastaState, alone: int) -> None:
    """N17: the player who first takes the pile plays alone; the other two
    become partners, their melds of the same rank merged."""
    old_teams, old_melds, old_reds = state.teams, state.melds, state.red_threes
    state.pile_taker = alone
    set_teams(state, partnership_teams(state.players, alone))
    state.melds = [{} for _ in state.teams]
    state.red_threes = [[] for _ in state.teams]
    for team, melds, reds in zip(old_teams, old_melds, old_reds, strict=True):
        new = state.team_at[team[0]]
        for r, m in melds.items():
            state.melds[new].setdefault(r, []).extend(m)
        state.red_threes[new].extend(reds)


def _pile_taken(state: CanastaState, pile: list[Card], partnership: bool) -> None:
    """The rest of a taken pile goes to hand; red threes in it are laid, not replaced."""
    seat = state.to_act
    state.hands[seat].extend(pile)
    state.known[seat].extend(c for c in pile if not is_red_three(c))  # everyone saw them taken
    state.hands[seat].sort(key=HAND_ORDER)
    state.frozen_start = False
    lay_red_threes(state, seat, replace=False)
    if partnership and state.players == 3 and state.pile_taker is None:
        form_partnership(state, seat)


LEAVE_HAND = frozenset(("take_pile", "meld", "add", "discard"))  # the moves that take cards from a hand


def apply(state: CanastaState, m: Move, partnership_on_pile: bool) -> None:
    seat = state.to_act
    _apply(state, m, partnership_on_pile)
    known = state.known[seat]
    if known and m.kind in LEAVE_HAND:  # what left his hand is known no more (it is on the table)
        held = {id(c) for c in state.hands[seat]}
        state.known[seat] = [c for c in known if id(c) in held]


def _apply(state: CanastaState, m: Move, partnership_on_pile: bool) -> None:
    seat = state.to_act
    hand = state.hands[seat]
    kind = m.kind
    if kind == "draw":
        draw_cards(state, seat, 1 if len(state.hands) == 4 else 2)  # N5
        state.phase = PLAY
    elif kind == "take_pile":
        _take_pile(state, m, hand, partnership_on_pile)
    elif kind == "meld":
        _meld(state, m, hand)
    elif kind == "add":
        _add(state, m, hand)
    elif kind == "commit":
        _commit(state, partnership_on_pile)
    elif kind == "withdraw":
        _withdraw(state, seat, hand)
    elif kind == "ask_go_out":
        state.asked = "pending"
        state.phase = ANSWER
        state.to_act = _partner(state, seat)
        return
    elif kind == "answer":
        state.asked = "yes" if m.get("yes") else "no"
        state.phase = PILE if state.staged else PLAY  # asked in the pile phase: back to it (N12a)
        state.to_act = _partner(state, seat)
        return
    elif kind == "discard":
        card = m.card
        assert card is not None
        hand.remove(card)
        state.discard.append(card)
    elif kind == "stop":
        state.over = True
        return
    if not hand and not state.staged and state.phase == PLAY:
        _go_out(state, seat)
        return
    if kind == "discard":
        end_turn(state)


def _partner(state: CanastaState, seat: int) -> int:
    """The partner who answers "May I go out?" (N12: only with partners)."""
    partner = partner_of(state, seat)
    assert partner is not None
    return partner


def _take_pile(state: CanastaState, m: Move, hand: list[Card], partnership_on_pile: bool) -> None:
    """N9: the pile's top card and the hand's cards that go with it; onto the
    side's meld of that rank, a new meld, or (N10) a staged initial meld."""
    team = state.team_at[state.to_act]
    top = state.discard[-1]
    used = list(m.get("cards"))
    for c in used:
        hand.remove(c)
    r = top.rank
    rest = state.discard[:-1]
    state.discard = []
    state.melded_now = True
    if r in state.melds[team]:
        state.melds[team][r].extend([top, *used])
        state.touched = state.touched or r not in state.new_ranks
        state.phase = PLAY
        _pile_taken(state, rest, partnership_on_pile)
    elif state.melds[team]:
        state.melds[team][r] = [top, *used]
        state.new_ranks.add(r)
        state.phase = PLAY
        _pile_taken(state, rest, partnership_on_pile)
    else:  # N10: the initial meld is staged until it reaches the minimum
        state.staged[r] = [top, *used]
        state.pile_held = rest
        state.phase = PILE


def _meld(state: CanastaState, m: Move, hand: list[Card]) -> None:
    """A new meld from the hand: staged while the initial meld is short (N10)."""
    team = state.team_at[state.to_act]
    cards = list(m.get("cards"))
    for c in cards:
        hand.remove(c)
    r = RANK_NUMBER[m.get("rank")]
    if state.phase == PILE or not state.melds[team]:
        state.staged[r] = cards
    else:
        state.melds[team][r] = cards
        state.new_ranks.add(r)
    state.melded_now = True
    state.laid = True


def _add(state: CanastaState, m: Move, hand: list[Card]) -> None:
    """A card added to a staged meld or to one of the side's melds."""
    team = state.team_at[state.to_act]
    card = m.card
    assert card is not None
    hand.remove(card)
    r = RANK_NUMBER[m.get("rank")]
    if r in state.staged:
        state.staged[r].append(card)
    else:
        state.melds[team][r].append(card)
        if r not in state.new_ranks:
            state.touched = True
    state.melded_now = True
    state.laid = True


def _commit(state: CanastaState, partnership_on_pile: bool) -> None:
    """The staged initial meld goes down (N10); the pile held with it is taken."""
    team = state.team_at[state.to_act]
    for r, cards in state.staged.items():
        state.melds[team].setdefault(r, []).extend(cards)
        state.new_ranks.add(r)
    state.staged = {}
    if state.phase == PILE:
        held, state.pile_held = state.pile_held, []
        state.phase = PLAY
        _pile_taken(state, held, partnership_on_pile)


def _withdraw(state: CanastaState, seat: int, hand: list[Card]) -> None:
    """The staged cards back to the hand (N10), the pile's top card back on
    the pile; the cards everyone saw are known to be in the hand."""
    staged = list(state.staged.values())
    state.staged = {}
    state.melded_now = False
    if state.phase == PILE:
        # the pile's top card begins the first staged meld: it goes back on the pile
        top = staged[0][0]
        hand.extend(staged[0][1:])
        for cards in staged[1:]:
            hand.extend(cards)
        state.discard = [*state.pile_held, top]
        state.pile_held = []
        state.phase = DRAW
        state.withdrew = "pile"
    else:
        for cards in staged:
            hand.extend(cards)
        state.withdrew = "play"
    state.known[seat].extend(c for cards in staged for c in cards if c in hand)  # seen, taken back
    hand.sort(key=HAND_ORDER)


def _go_out(state: CanastaState, seat: int) -> None:
    """N12: the deal ends; concealed if the whole hand went down this turn,
    with a canasta, by a player who had not melded before and added nothing to
    his partner's melds."""
    team = state.team_at[seat]
    state.went_out = seat
    own_canasta = any(len(state.melds[team][r]) >= CANASTA for r in state.new_ranks if r in state.melds[team])
    state.went_out_concealed = not state.has_melded[seat] and not state.touched and own_canasta
    if state.melded_now:
        state.has_melded[seat] = True


def deal_over(state: CanastaState) -> bool:
    return state.over or state.went_out is not None
