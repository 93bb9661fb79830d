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

from collections import Counter
from collections.abc import Callable

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


def _combined(state: CanastaState, team: int) -> dict[int, list[Card]]:
    if not state.staged:
        return state.melds[team]
    out = dict(state.melds[team])
    for r, m in state.staged.items():
        out[r] = out.get(r, []) + m
    return out


def count_canastas(melds: dict[int, list[Card]]) -> int:
    return sum(1 for m in melds.values() if len(m) >= CANASTA)


def can_go_out(melds: dict[int, list[Card]], hand: list[Card], need: int, may_discard: bool = True) -> bool:
    """Whether every card of ``hand`` (but one discard, if allowed) can be melded
    onto ``melds`` and new melds so that the side has ``need`` canastas (N8, N11)."""
    if not hand:
        return count_canastas(melds) >= need
    if _fits(melds, hand, need):
        return True
    if may_discard:
        seen = set()
        for i, c in enumerate(hand):
            if c.name in seen:
                continue
            seen.add(c.name)
            rest = hand[:i] + hand[i + 1 :]
            if not rest:
                if count_canastas(melds) >= need:
                    return True
            elif _fits(melds, rest, need):
                return True
    return False


def _fits(melds: dict[int, list[Card]], hand: list[Card], need: int) -> bool:
    wilds = sum(1 for c in hand if WILD[c])
    naturals = Counter(c.rank for c in hand if not WILD[c])
    sizes: dict[int, int] = {}
    caps: dict[int, int] = {}
    for r, m in melds.items():
        sizes[r] = len(m)
        caps[r] = 0 if r == 3 else max(0, 3 - wild_count(m))
    mandatory = 0
    for r, k in naturals.items():
        if r == 3:  # black threes: three or four, no wild card, going out (N8)
            if 3 in sizes:
                sizes[3] += k
            elif k >= 3:
                sizes[3], caps[3] = k, 0
            else:
                return False
        elif r in sizes:
            sizes[r] += k
        elif k >= 3:
            sizes[r], caps[r] = k, 3
        elif k == 2:
            sizes[r], caps[r] = 3, 2
            mandatory += 1
        else:
            return False
    if wilds < mandatory:
        return False
    free = wilds - mandatory
    if free > sum(caps.values()):
        return False
    done = sum(1 for s in sizes.values() if s >= CANASTA)
    for gap in sorted(CANASTA - s for r, s in sizes.items() if s < CANASTA and CANASTA - s <= caps[r]):
        if free >= gap:
            free -= gap
            done += 1
    return done >= need


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
    its top card to a meld of the player's side."""
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
    """N9: the ways to take the pile."""
    if not state.discard or state.withdrew:  # no second try after a withdrawal
        return []
    top = state.discard[-1]
    if WILD[top] or top.rank == 3:
        return []
    seat = state.to_act
    hand = state.hands[seat]
    if len(hand) == 1 and len(state.discard) == 1:
        return []
    team = state.team_of(seat)
    r = top.rank
    frozen = frozen_for(state, team)
    pile = tuple(state.discard)
    out: list[Move] = []
    if r in state.melds[team] and not frozen:
        out.append(Move("take_pile", None, pile, (("cards", ()),)))
    pair = _first(hand, lambda c: c.rank == r and not WILD[c], 2)
    if pair:
        out.append(Move("take_pile", None, pile, (("cards", tuple(pair)),)))
    if not frozen and r not in state.melds[team]:
        one = _first(hand, lambda c: c.rank == r and not WILD[c], 1)
        if one:
            for w in _wild_kinds(hand):
                out.append(Move("take_pile", None, pile, (("cards", (one[0], w)),)))
    # the hand must not end up empty (no discard left) unless the pile brings cards
    return [m for m in out if len(hand) - len(m.get("cards")) + len(pile) - 1 > 0]


def legal_moves(state: CanastaState, may_go_out: bool, minimum: int) -> list[Move]:
    if state.phase == ANSWER:
        return [Move("answer", None, (), (("yes", True),)), Move("answer", None, (), (("yes", False),))]
    if state.phase == DRAW:
        if not state.stock:
            return exhausted_takes(state)
        return [Move("draw"), *take_options(state)]
    return play_moves(state, may_go_out, minimum)


def play_moves(state: CanastaState, may_go_out: bool, minimum: int) -> list[Move]:
    seat = state.to_act
    hand = state.hands[seat]
    team = state.team_of(seat)
    melds = state.melds[team]
    need = canastas_needed(state)
    staging = state.phase == PILE or not melds
    extra = len(state.pile_held)  # cards a commit will bring into the hand
    must_out = state.asked == "yes"
    min_left = 1 if state.last_red_three else 2  # keep a card to discard (N12, N13)
    candidates: list[Move] = []

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
            candidates.append(Move("meld", None, (), (("cards", tuple(nat[:3])), ("rank", name))))
        for w in wild_kinds:
            candidates.append(Move("meld", None, (), (("cards", (nat[0], nat[1], w)), ("rank", name))))
    blacks = [c for c in hand if is_black_three(c)]
    if len(blacks) >= 3 and 3 not in open_ranks and not no_new:
        candidates.append(Move("meld", None, (), (("cards", tuple(blacks[:3])), ("rank", "3"))))
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
                if r != 3 and wild_count(m) < 3:
                    candidates.append(Move("add", c, (), (("rank", RANK_NAMES[r]),)))
        elif c.rank in targets and (c.rank != 3 or is_black_three(c)):
            candidates.append(Move("add", c, (), (("rank", RANK_NAMES[c.rank]),)))

    out: list[Move] = []
    for m in candidates:
        used = 1 if m.kind == "add" else 3
        left = len(hand) - used + (extra if staging and state.staged else 0)
        black = rank_of(m) == 3 or (m.card is not None and is_black_three(m.card))
        if black and (not may_go_out or left > 1):
            continue  # N8: black threes are melded only by a player going out this turn
        if left >= min_left and not must_out:
            out.append(m)
            continue
        if not may_go_out:
            continue
        after_melds = _after(state, team, m)
        after_hand = _hand_after(hand, m)
        if staging and (state.staged or m.kind == "meld"):
            after_hand = after_hand + state.pile_held
        if can_go_out(after_melds, after_hand, need, may_discard=not state.last_red_three):
            out.append(m)

    if state.staged:
        points = meld_points(state.staged)
        if points >= minimum:
            after_hand = hand + state.pile_held
            combined = _combined(state, team)
            goes_out_ok = may_go_out and count_canastas(combined) >= need
            if (after_hand or goes_out_ok) and (not must_out or can_go_out(combined, after_hand, need)):
                out.append(Move("commit"))
        out.append(Move("withdraw"))
        return out

    if state.last_red_three:
        out.append(Move("stop"))  # N13: may meld, may not discard; the deal ends
        return out
    # discard: ends the turn; the last card only when going out (N12)
    seen = set()
    for c in hand:
        if c.name in seen:
            continue
        seen.add(c.name)
        if len(hand) == 1:
            if may_go_out and count_canastas(melds) >= need:
                out.append(Move("discard", c))
        elif not must_out:
            out.append(Move("discard", c))
    # N12: "May I go out?" is asked first, before melding in this turn
    asking = state.players == 4 and state.asked is None and not state.melded_now
    if asking and can_go_out(melds, hand, need):
        # a side that has not melded must also reach its minimum (N10): melding
        # all but the most valuable card is the least it will lay down
        values = [VALUES[c] for c in hand]
        if melds or sum(values) - max(values) >= minimum:
            out.append(Move("ask_go_out"))
    if not out:
        out.append(Move("stop"))  # nothing is possible: the deal ends (see docs)
    return out


def _hand_after(hand: list[Card], m: Move) -> list[Card]:
    used = [m.card] if m.kind == "add" else list(m.get("cards"))
    rest = list(hand)
    for c in used:
        rest.remove(c)
    return rest


def _after(state: CanastaState, team: int, m: Move) -> dict[int, list[Card]]:
    combined = {r: list(v) for r, v in _combined(state, team).items()}
    if m.kind == "add":
        combined[rank_of(m)].append(m.card)  # type: ignore[arg-type]
    else:
        combined[rank_of(m)] = list(m.get("cards"))
    return combined


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
        r = rank_of(m)
        if state.phase == PILE or not state.melds[team]:
            state.staged[r] = cards
        else:
            state.melds[team][r] = cards
            state.new_ranks.add(r)
        state.melded_now = True
    elif kind == "add":
        hand.remove(m.card)
        r = rank_of(m)
        if r in state.staged:
            state.staged[r].append(m.card)  # type: ignore[arg-type]
        else:
            state.melds[team][r].append(m.card)  # type: ignore[arg-type]
            if r not in state.new_ranks:
                state.touched = True
        state.melded_now = True
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
        state.phase = PLAY
        state.to_act = partner_of(state, seat)  # type: ignore[assignment]
        return
    elif kind == "discard":
        hand.remove(m.card)
        state.discard.append(m.card)  # type: ignore[arg-type]
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
        if frozen_for(state, team):
            return "the pile is frozen for your side: take it only with a natural pair (N9)"
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
            return "black threes are melded only when going out in the same turn (N8)"
        if any(not WILD[c] and c.rank != r for c in cards):
            return "a meld holds cards of one rank, and wild cards (N8)"
        if sum(1 for c in cards if not WILD[c]) < 2:
            return "a meld needs at least two natural cards (N8)"
        if r in state.melds[team]:
            return "a side has at most one meld of each rank (N8)"
    if m.kind in ("meld", "add") and len(hand) - len(used) < 2 and rank_of(m) != 3:
        return (
            "keep a card to discard: melding down to one card or none is going out, "
            "which needs the canastas (N11) and, if asked, the partner's yes (N12)"
        )
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
