"""Canasta's rules (N1–N17): legal moves and their effect, one atomic decision
at a time.

A turn is decomposed as (``docs/canasta.md``):

1. ``draw`` phase: ``draw`` (one card, two with 2 or 3 players) or
   ``take_pile`` with the hand cards that meld its top card (N9);
2. ``pile`` phase, only when the pile was taken for the side's initial meld:
   the top card's meld and further melds from hand are *staged* (``meld``,
   ``add``) until they reach the minimum (N10); ``commit`` then takes the rest
   of the pile, ``withdraw`` puts everything back and the player draws instead;
3. ``play`` phase: ``meld`` (a new meld of three cards), ``add`` (one card to
   a meld), ``commit``/``withdraw`` for staged initial melds, ``ask_go_out``
   (4 players), ``discard`` (ends the turn), ``stop`` (N13);
4. ``answer`` phase: the partner answers ``yes`` or ``no`` (N12).

A player can never get stuck: staging can always be withdrawn, and a move is
only legal if the player can still finish his turn afterwards (keep a card to
discard, or be able to go out).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from cardcore.cards import Card
from cardcore.moves import Move
from cardcore_plugins.canasta.cards import (
    MELD_RANKS,
    RANK_NAMES,
    VALUES,
    WILD,
    is_black_three,
    is_red_three,
)
from cardcore_plugins.canasta.finish import (
    BLACK_THREE,
    CLASS_VALUE,
    JOKER,
    TWO,
    Shape,
    Tally,
    best_stage,
    can_go_out,
    can_go_out_from,
    canastas,
    cards_in,
    shape,
    tally,
)
from cardcore_plugins.canasta.state import (
    ANSWER,
    DRAW,
    PILE,
    PLAY,
    CanastaState,
    partnership_teams,
    wild_count,
)

CANASTA = 7


def _key(c: Card) -> tuple[int, int, str, int]:
    return c.sort_key  # hands are kept sorted: suit, then rank


RANK_NUMBER = {name: r for r, name in RANK_NAMES.items()}


def canastas_needed(state: CanastaState) -> int:
    """N11: one canasta with 4 players, two with 2 or 3."""
    return 1 if state.players == 4 else 2


def minimum_for(score: int) -> int:
    """N10: the initial-meld minimum from the cumulative score."""
    if score < 0:
        return 15
    if score < 1500:
        return 50
    if score < 3000:
        return 90
    return 120


def partner_of(state: CanastaState, seat: int) -> int | None:
    if state.players != 4:
        return None
    return (seat + 2) % 4


def meld_points(melds: dict[int, list[Card]]) -> int:
    return sum(VALUES[c] for m in melds.values() for c in m)


def frozen_for(state: CanastaState, team: int) -> bool:
    """N9: frozen for a side until it has melded; for everyone while the pile
    holds a wild card or was started frozen (N4)."""
    if not state.melds[team] or state.frozen_start:
        return True
    return any(WILD[c] for c in state.discard)


def count_canastas(melds: dict[int, list[Card]]) -> int:
    return sum(1 for m in melds.values() if len(m) >= CANASTA)


# ---- turn bookkeeping ---------------------------------------------------------
def lay_red_threes(state: CanastaState, seat: int, replace: bool) -> None:
    """N7: red threes in hand are laid for the side (and replaced from the stock)."""
    hand = state.hands[seat]
    team = state.team_of(seat)
    while True:
        reds = [c for c in hand if is_red_three(c)]
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
    team = state.team_of(seat)
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
    hand.sort(key=_key)


def exhausted_takes(state: CanastaState) -> list[Move]:
    """N13: with the stock empty, the pile may (and must) be taken only by adding
    its top card to a meld of the player's side, frozen or not (N13b). The
    caller keeps only the takes after which the player can finish (G1)."""
    if not state.discard:
        return []
    top = state.discard[-1]
    if WILD[top] or top.rank == 3:
        return []
    team = state.team_of(state.to_act)
    if top.rank in state.melds[team]:
        return [Move("take_pile", None, tuple(state.discard), (("cards", ()),))]
    return []


def begin_turn(state: CanastaState, seat: int) -> None:
    """Start ``seat``'s turn: reset the turn, lay dealt red threes (N7), and end
    the deal if the stock is out and the pile cannot be taken (N13)."""
    state.to_act = seat
    state.phase = DRAW
    state.staged = {}
    state.pile_held = []
    state.asked = None
    state.withdrew = ""
    state.touched = False
    state.melded_now = False
    state.laid = False
    state.new_ranks = set()
    lay_red_threes(state, seat, replace=True)
    if state.last_red_three and not state.stock:
        state.phase = PLAY  # N13: his replacement was the stock's last card, a red three
    elif not state.stock and not exhausted_takes(state):
        state.over = True


def end_turn(state: CanastaState) -> None:
    seat = state.to_act
    if state.melded_now:
        state.has_melded[seat] = True
    begin_turn(state, (seat + 1) % state.players)


def form_partnership(state: CanastaState, alone: int) -> None:
    """N17: the player who first takes the pile plays alone; the other two
    become partners, their melds of the same rank merged."""
    old_teams, old_melds, old_reds = state.teams, state.melds, state.red_threes
    state.pile_taker = alone
    state.teams = partnership_teams(state.players, alone)
    state.melds = [{} for _ in state.teams]
    state.red_threes = [[] for _ in state.teams]
    for team, melds, reds in zip(old_teams, old_melds, old_reds, strict=True):
        new = state.team_of(team[0])
        for r, m in melds.items():
            state.melds[new].setdefault(r, []).extend(m)
        state.red_threes[new].extend(reds)


def _pile_taken(state: CanastaState, pile: list[Card], partnership: bool) -> None:
    """The rest of a taken pile goes to hand; red threes in it are laid, not replaced."""
    seat = state.to_act
    state.hands[seat].extend(pile)
    state.hands[seat].sort(key=_key)
    state.frozen_start = False
    lay_red_threes(state, seat, replace=False)
    if partnership and state.players == 3 and state.pile_taker is None:
        form_partnership(state, seat)


# ---- legal moves ----------------------------------------------------------------
class Turn(NamedTuple):
    """What decides whether a turn can still be finished (G1)."""

    need: int  # canastas to go out (N11)
    minimum: int  # the side's initial minimum, 0 once it has melded (N10)
    may_out: bool  # going out is allowed (N12, ``canasta_may_go_out``)
    must_out: bool  # the partner said yes, or black threes are down (N12, N12c)
    last_red: bool  # the stock ended with a red three: no discard (N13a)


def must_go_out(state: CanastaState, team: int) -> bool:
    """N12: the partner's yes binds; N8/N12c: black threes meld only going out."""
    return state.asked == "yes" or BLACK_THREE in state.melds[team] or BLACK_THREE in state.staged


def can_finish(melds: Shape, base: int, hand: Tally, held: Tally, pending: bool, t: Turn) -> bool:
    """G1: whether the player, in the play or pile phase, can still end his turn
    without taking anything back: discard keeping a card, stop (N13a), or go out.

    ``melds`` are the side's melds, or, while ``pending`` (an initial meld is
    staged, N10), the staged melds worth ``base``; ``held`` the rest of a pile
    taken for the initial meld, which comes to hand when it is laid down.
    """
    n = cards_in(hand)
    may_discard = not t.last_red
    if not pending:
        if n == 0:  # he melded his last card: he went out
            return t.may_out and canastas(melds) >= t.need
        if t.must_out:
            return t.may_out and can_go_out_from(melds, 0, hand, t.need, may_discard, t.minimum)
        if t.last_red or n >= 2:
            return True  # stop (N13a), or discard and keep a card
        return t.may_out and can_go_out_from(melds, 0, hand, t.need, True, t.minimum)
    p = cards_in(held)
    if not t.must_out:
        # N10a: lay down the minimum, then discard (or stop) with a card left
        budget = n + p - (1 if t.last_red else 2)
        if budget >= 0 and base + best_stage(melds, hand, budget) >= t.minimum:
            return True
    if not t.may_out:
        return False
    if not p:
        return can_go_out_from(melds, base, hand, t.need, may_discard, t.minimum)
    return _stage_then_go_out(melds, base, hand, held, t)


def _stage_then_go_out(staged: Shape, base: int, hand: Tally, held: Tally, t: Turn) -> bool:
    """Whether staging more from hand reaches the minimum, after which the hand
    and the rest of the pile all meld but a discard (rare: a small pile taken
    for the initial meld, going out in the same turn). A search over the staged
    melds and the hand's counts, each position once."""
    seen: set[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, tuple[int, int]], ...]]] = set()

    def walk(staged: Shape, base: int, hand: Tally) -> bool:
        key = (tuple(sorted((r, k) for r, k in hand.items() if k)), tuple(sorted(staged.items())))
        if key in seen:
            return False
        seen.add(key)
        if base >= t.minimum:
            after = dict(hand)
            for r, k in held.items():
                after[r] = after.get(r, 0) + k
            if can_go_out(staged, after, t.need, not t.last_red):
                return True
        for used, r in _stage_steps(staged, hand):
            rest = dict(hand)
            for c in used:
                rest[c] -= 1
            size, w = staged.get(r, (0, 0))
            grown = dict(staged)
            grown[r] = (size + len(used), w + sum(1 for c in used if c in (JOKER, TWO)))
            if walk(grown, base + sum(CLASS_VALUE[c] for c in used), rest):
                return True
        return False

    return walk(staged, base, dict(hand))


def _stage_steps(staged: Shape, hand: Tally) -> list[tuple[tuple[int, ...], int]]:
    """The meld and add moves on counts: (classes used, rank)."""
    steps: list[tuple[tuple[int, ...], int]] = []
    wild = [c for c in (JOKER, TWO) if hand.get(c)]
    for r, k in hand.items():
        if not k or r in (JOKER, TWO):
            continue
        if r in staged:
            steps.append(((r,), r))
        elif k >= 3:
            steps.append(((r, r, r), r))
        if r not in staged and k >= 2 and r != BLACK_THREE:
            steps.extend(((r, r, w), r) for w in wild)
    for r, (_, w) in staged.items():
        if r != BLACK_THREE and w < 3:
            steps.extend(((c,), r) for c in wild)
    return steps


def _first(hand: list[Card], pred: Callable[[Card], bool], n: int) -> list[Card] | None:
    got = [c for c in hand if pred(c)][:n]
    return got if len(got) == n else None


def _wild_kinds(hand: list[Card]) -> list[Card]:
    """One wild card of each kind in hand (a joker, a two): suits never matter."""
    out: list[Card] = []
    seen = set()
    for c in hand:
        if WILD[c]:
            kind = c.rank == 0
            if kind not in seen:
                seen.add(kind)
                out.append(c)
    return out


def take_options(state: CanastaState) -> list[Move]:
    """N9: the ways to take the pile, before G1's check."""
    if not state.discard or state.withdrew:  # no second try after a withdrawal
        return []
    top = state.discard[-1]
    if WILD[top] or top.rank == 3:
        return []
    seat = state.to_act
    hand = state.hands[seat]
    if len(hand) == 1 and len(state.discard) == 1:
        return []  # N9: one card cannot take a pile of one card
    team = state.team_of(seat)
    r = top.rank
    frozen = frozen_for(state, team)
    pile = tuple(state.discard)
    out: list[Move] = []
    if r in state.melds[team] and not frozen:  # N9a: never onto a meld while frozen
        out.append(Move("take_pile", None, pile, (("cards", ()),)))
    pair = _first(hand, lambda c: c.rank == r and not WILD[c], 2)
    if pair:
        out.append(Move("take_pile", None, pile, (("cards", tuple(pair)),)))
    if not frozen and r not in state.melds[team]:
        one = _first(hand, lambda c: c.rank == r and not WILD[c], 1)
        if one:
            for w in _wild_kinds(hand):
                out.append(Move("take_pile", None, pile, (("cards", (one[0], w)),)))
    return out


def take_finishes(state: CanastaState, m: Move, t: Turn) -> bool:
    """G1 and N10a for a pile take: after it the player can still end his turn;
    for the side's initial meld, the top card with cards from hand can reach
    the minimum (and the rest of the pile comes only once it does)."""
    seat = state.to_act
    team = state.team_of(seat)
    top = state.discard[-1]
    used = m.get("cards")
    hand = tally(state.hands[seat])
    for c in used:
        hand[c.rank] -= 1
    held = tally(state.discard[:-1])
    wilds = sum(1 for c in used if WILD[c])
    melds = state.melds[team]
    if melds:  # the top card's meld goes down at once; the pile comes to hand
        sh = shape(melds)
        size, w = sh.get(top.rank, (0, 0))
        sh[top.rank] = (size + 1 + len(used), w + wilds)
        for r, k in held.items():
            hand[r] = hand.get(r, 0) + k
        return can_finish(sh, 0, hand, {}, False, t)
    staged = {top.rank: (1 + len(used), wilds)}
    base = VALUES[top] + sum(VALUES[c] for c in used)
    return can_finish(staged, base, hand, held, True, t)


def legal_moves(state: CanastaState, may_go_out: bool, minimum: int) -> list[Move]:
    """Every legal move of ``state.to_act``; ``minimum`` is his side's initial
    minimum (0 once it has melded), ``may_go_out`` the ``canasta_may_go_out``
    answer."""
    if state.phase == ANSWER:
        return [Move("answer", None, (), (("yes", True),)), Move("answer", None, (), (("yes", False),))]
    team = state.team_of(state.to_act)
    t = Turn(canastas_needed(state), minimum, may_go_out, must_go_out(state, team), state.last_red_three)
    if state.phase == DRAW:
        if not state.stock:
            return [m for m in exhausted_takes(state) if take_finishes(state, m, t)]  # N13, N13b
        return [Move("draw"), *(m for m in take_options(state) if take_finishes(state, m, t))]
    return play_moves(state, t)


def play_moves(state: CanastaState, t: Turn) -> list[Move]:
    """The play and pile phases: melds, adds, commit/withdraw, stop, discards,
    "May I go out?" — each only if the turn can still be finished after it (G1)."""
    seat = state.to_act
    hand = state.hands[seat]
    team = state.team_of(seat)
    melds = state.melds[team]
    pending = state.phase == PILE or bool(state.staged)
    staging = pending or not melds  # melds of a side that has not melded are staged (N10)
    sh = shape(state.staged) if staging else shape(melds)
    base = meld_points(state.staged)
    held = tally(state.pile_held)
    counts = tally(hand)
    n = len(hand)
    candidates: list[tuple[Move, tuple[Card, ...], int]] = []

    # new melds of three cards (N8); staged while the side has not melded (N10)
    open_ranks = set(melds) | set(state.staged)
    by_rank: dict[int, list[Card]] = {}
    for c in hand:
        if not WILD[c]:
            by_rank.setdefault(c.rank, []).append(c)
    wild_kinds = _wild_kinds(hand)
    no_new = staging and state.withdrew == "play"  # no second try at an initial meld
    for r in MELD_RANKS:
        nat = by_rank.get(r)
        if no_new or not nat or r in open_ranks or len(nat) < 2:
            continue
        name = RANK_NAMES[r]
        if len(nat) >= 3:
            cards = tuple(nat[:3])
            candidates.append((Move("meld", None, (), (("cards", cards), ("rank", name))), cards, r))
        for w in wild_kinds:
            cards = (nat[0], nat[1], w)
            candidates.append((Move("meld", None, (), (("cards", cards), ("rank", name))), cards, r))
    blacks = [c for c in hand if is_black_three(c)]
    if len(blacks) >= 3 and BLACK_THREE not in open_ranks and not no_new and t.may_out:
        cards = tuple(blacks[:3])  # N8, N12c: only by a player going out this turn
        candidates.append((Move("meld", None, (), (("cards", cards), ("rank", "3"))), cards, BLACK_THREE))
    # one card added to a meld (N8)
    targets = dict(melds)
    targets.update(state.staged)
    seen: set[str] = set()
    for c in hand:
        if c.name in seen:
            continue
        seen.add(c.name)
        if WILD[c]:
            for r, m in sorted(targets.items()):
                if r != BLACK_THREE and wild_count(m) < 3:  # N8; N17a: merged melds take no more
                    candidates.append((Move("add", c, (), (("rank", RANK_NAMES[r]),)), (c,), r))
        elif c.rank in targets and (c.rank != BLACK_THREE or is_black_three(c)):
            candidates.append((Move("add", c, (), (("rank", RANK_NAMES[c.rank]),)), (c,), c.rank))

    out: list[Move] = []
    for move, used, r in candidates:
        black = r == BLACK_THREE
        tm = t._replace(must_out=True) if black else t
        if not staging and not tm.must_out and not t.last_red and n - len(used) >= 2:
            out.append(move)  # a card is left to discard: nothing more to check
            continue
        after = dict(counts)
        for u in used:
            after[u.rank] -= 1
        grown = dict(sh)
        size, wilds = grown.get(r, (0, 0))
        grown[r] = (size + len(used), wilds + sum(1 for u in used if WILD[u]))
        got = base + sum(VALUES[u] for u in used) if staging else 0
        if can_finish(grown, got, after, held, staging, tm):
            out.append(move)

    if pending:
        if state.staged and base >= t.minimum:
            after = dict(counts)
            for r, k in held.items():
                after[r] = after.get(r, 0) + k
            if can_finish(sh, 0, after, {}, False, t._replace(minimum=0)):
                out.append(Move("commit"))
        if state.staged and not t.must_out:
            out.append(Move("withdraw"))  # a convenience: no legal path needs it (G1)
    elif t.last_red:
        out.append(Move("stop"))  # N13a: may meld, may not discard; the deal ends
    else:
        # discard: ends the turn; the last card only when going out (N12)
        seen = set()
        for c in hand:
            if c.name in seen:
                continue
            seen.add(c.name)
            if n == 1:
                if t.may_out and count_canastas(melds) >= t.need:
                    out.append(Move("discard", c))
            elif not t.must_out:
                out.append(Move("discard", c))
    # N12a: "May I go out?" once, before laying any card but the pile's meld,
    # when he can go out, and when a "no" would still leave him a way to end
    # his turn (G1)
    if (
        state.players == 4
        and state.asked is None
        and not state.laid
        and not t.last_red
        and can_finish(sh, base, counts, held, pending, t._replace(may_out=True, must_out=True))
        and can_finish(sh, base, counts, held, pending, t._replace(may_out=False, must_out=False))
    ):
        out.append(Move("ask_go_out"))
    return out  # never empty in play (G1); a hand-made dead end lists nothing


# ---- applying a move --------------------------------------------------------------
def apply(state: CanastaState, m: Move, partnership_on_pile: bool) -> None:
    seat = state.to_act
    hand = state.hands[seat]
    team = state.team_of(seat)
    kind = m.kind
    if kind == "draw":
        draw_cards(state, seat, 1 if state.players == 4 else 2)  # N5
        state.phase = PLAY
    elif kind == "take_pile":
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
    elif kind == "meld":
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
    elif kind == "add":
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
    elif kind == "commit":
        for r, cards in state.staged.items():
            state.melds[team].setdefault(r, []).extend(cards)
            state.new_ranks.add(r)
        state.staged = {}
        if state.phase == PILE:
            held, state.pile_held = state.pile_held, []
            state.phase = PLAY
            _pile_taken(state, held, partnership_on_pile)
    elif kind == "withdraw":
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
        hand.sort(key=_key)
    elif kind == "ask_go_out":
        state.asked = "pending"
        state.phase = ANSWER
        state.to_act = partner_of(state, seat)  # type: ignore[assignment]
        return
    elif kind == "answer":
        state.asked = "yes" if m.get("yes") else "no"
        state.phase = PILE if state.staged else PLAY  # asked in the pile phase: back to it (N12a)
        state.to_act = partner_of(state, seat)  # type: ignore[assignment]
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


def _go_out(state: CanastaState, seat: int) -> None:
    """N12: the deal ends; concealed if the whole hand went down this turn,
    with a canasta, by a player who had not melded before and added nothing to
    his partner's melds."""
    team = state.team_of(seat)
    state.went_out = seat
    own_canasta = any(len(state.melds[team][r]) >= CANASTA for r in state.new_ranks if r in state.melds[team])
    state.went_out_concealed = not state.has_melded[seat] and not state.touched and own_canasta
    if state.melded_now:
        state.has_melded[seat] = True


def deal_over(state: CanastaState) -> bool:
    return state.over or state.went_out is not None


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


def rank_of(m: Move) -> int | None:
    """The rank (as a number) a ``meld`` or ``add`` move names in its ``rank`` field."""
    name = m.get("rank")
    return None if name is None else RANK_NUMBER.get(name)
