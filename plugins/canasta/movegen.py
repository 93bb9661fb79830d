"""Canasta's legal moves, one atomic decision at a time (N5 … N13, G1).

A turn is decomposed as (``docs/canasta.md``):

1. ``draw`` phase: ``draw`` (one card, two with 2 or 3 players) or
   ``take_pile`` with the hand cards that meld its top card (N9);
2. ``pile`` phase, only when the pile was taken for the side's initial meld:
   the top card's meld and further melds from hand are *staged* (``meld``,
   ``add``) until they reach the minimum (N10); ``commit`` then takes the rest
   of the pile, ``withdraw`` puts everything back and the player draws instead;
3. ``play`` phase: ``meld`` (a new meld of three cards), ``add`` (one card to
   a meld), ``commit``/``withdraw`` for staged initial melds, ``ask_go_out``
   (4 players), ``discard`` (ends the turn), ``stop`` (N13a);
4. ``answer`` phase: the partner answers ``yes`` or ``no`` (N12).

A move is listed only if the player can still finish his turn after it
without taking anything back (G1): ``finish.can_finish`` answers that.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcore.cards import Card
from cardcore.moves import Move
from cardcore.moves import tuple_new as _new
from cardcore_plugins.canasta import moves
from cardcore_plugins.canasta.cards import (
    RANK_NAMES,
    RED_THREES,
    VALUES,
    WILD,
)
from cardcore_plugins.canasta.finish import (
    BLACK_THREE,
    JOKER,
    TWO,
    Shape,
    StageParts,
    Tally,
    Turn,
    best_stage,
    can_finish,
    cards_in,
    forced_discards,
    shape,
    stage_after,
    stage_parts,
    stage_total,
    staged_go_out,
    tally,
)
from cardcore_plugins.canasta.melds import (
    canastas_needed,
    count_canastas,
    frozen_for,
    meld_points,
)
from cardcore_plugins.canasta.state import (
    ANSWER,
    DRAW,
    PILE,
    CanastaState,
    wild_count,
)


def must_go_out(state: CanastaState, team: int) -> bool:
    """N12: the partner's yes binds; N8/N12c: black threes meld only going out."""
    return state.asked == "yes" or BLACK_THREE in state.melds[team] or BLACK_THREE in state.staged


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
    team = state.team_at[seat]
    r = top.rank
    frozen = frozen_for(state, team)
    pile = tuple(state.discard)
    out: list[Move] = []
    if r in state.melds[team] and not frozen:  # N9a: never onto a meld while frozen
        out.append(Move("take_pile", None, pile, (("cards", ()),)))
    same = [c for c in hand if c.rank == r]  # naturals: the top card is no wild card
    if len(same) >= 2:
        out.append(Move("take_pile", None, pile, (("cards", (same[0], same[1])),)))
    if same and not frozen and r not in state.melds[team]:
        for w in hand_classes(hand)[1]:  # one wild card of each kind
            out.append(Move("take_pile", None, pile, (("cards", (same[0], w)),)))
    return out


def take_finishes(state: CanastaState, m: Move, t: Turn) -> bool:
    """G1 and N10a for a pile take: after it the player can still end his turn;
    for the side's initial meld, the top card with cards from hand can reach
    the minimum (and the rest of the pile comes only once it does)."""
    seat = state.to_act
    team = state.team_at[seat]
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


def exhausted_takes(state: CanastaState) -> list[Move]:
    """N13: with the stock empty, the pile may (and must) be taken only by adding
    its top card to a meld of the player's side, frozen or not (N13b). The
    caller keeps only the takes after which the player can finish (G1)."""
    if not state.discard:
        return []
    top = state.discard[-1]
    if WILD[top] or top.rank == 3:
        return []
    team = state.team_at[state.to_act]
    if top.rank in state.melds[team]:
        return [Move("take_pile", None, tuple(state.discard), (("cards", ()),))]
    return []


def turn_for(state: CanastaState, may_go_out: bool, minimum: int) -> Turn:
    """What decides whether ``state.to_act`` can still end his turn (G1): the
    canastas his side needs (N11), ``minimum`` (0 once it has melded, N10),
    ``may_go_out`` (N12), whether he must go out (N12, N12c), N13a."""
    must = must_go_out(state, state.team_at[state.to_act])
    return _new(Turn, (canastas_needed(state), minimum, may_go_out, must, state.last_red_three))


def legal_moves(state: CanastaState, may_go_out: bool, minimum: int) -> list[Move]:
    """Every legal move of ``state.to_act``; ``minimum`` is his side's initial
    minimum (0 once it has melded), ``may_go_out`` the ``canasta_may_go_out``
    answer."""
    if state.phase == ANSWER:
        return [moves.answer(True), moves.answer(False)]
    t = turn_for(state, may_go_out, minimum)
    if state.phase == DRAW:
        if not state.stock:
            return [m for m in exhausted_takes(state) if take_finishes(state, m, t)]  # N13, N13b
        takes = take_options(state)
        return [DRAW_MOVE, *(m for m in takes if take_finishes(state, m, t))] if takes else [DRAW_MOVE]
    return play_moves(state, t)


# a meld or add: the move, its cards, its rank, their points
Candidate = tuple[Move, tuple[Card, ...], int, int]
RED = -3  # the key of red threes among the kinds of cards held (black threes are 3)
NOT_MELDED = frozenset((0, 2, BLACK_THREE))  # classes never a meld's rank (but black threes going out)
# moves are immutable: one discard move per card, one add move per card and meld rank, made once
DISCARDS: dict[Card, Move] = {c: Move("discard", c) for c in VALUES}
ADDS: dict[Card, dict[int, Move]] = {
    c: {r: Move("add", c, (), (("rank", name),)) for r, name in RANK_NAMES.items()} for c in VALUES
}
DRAW_MOVE, COMMIT, WITHDRAW, ASK, STOP = (
    moves.draw(),
    moves.commit(),
    moves.withdraw(),
    moves.ask_go_out(),
    moves.stop(),
)


def hand_classes(hand: list[Card]) -> tuple[dict[int, list[Card]], list[Card], dict[int, Card]]:
    """One pass over a hand: its cards by class (``finish.py``: ranks, ``3``
    black threes only, ``0`` jokers, ``2`` twos; red threes are never held,
    N7), one wild card of each kind in hand order, and the first card of each
    class in hand order (N8a: suits never matter but for threes, so a move is
    listed once per rank, laid with that card: the engine's choice)."""
    by_class: dict[int, list[Card]] = {}
    wild_kinds: list[Card] = []
    kinds: dict[int, Card] = {}
    for c in hand:  # (``in`` and a store are cheaper than setdefault and get)
        r = c.rank
        if r == 3 and c in RED_THREES:  # (laid at once, N7: only a hand-made position holds one)
            if RED not in kinds:
                kinds[RED] = c
            continue
        if r in by_class:
            by_class[r].append(c)
        else:
            by_class[r] = [c]
            kinds[r] = c
            if r == 0 or r == 2:
                wild_kinds.append(c)
    return by_class, wild_kinds, kinds


def play_moves(state: CanastaState, t: Turn) -> list[Move]:
    """The play and pile phases: melds, adds, commit/withdraw, stop, discards,
    "May I go out?" — each only if the turn can still be finished after it (G1).

    Two shortcuts past ``finish.can_finish`` keep this fast (both checked
    against it in ``tests/test_canasta_movegen.py``): the initial minimum of a
    staged meld or add on counts (``finish.stage_after``), and going out, which
    a meld or add allows only if the position before it did (``out_now``,
    asked once), and allows then if it lays natural cards only. What is left
    is the slow path, the solver asked after the move (:func:`lay_finishes`,
    which ``verify.py`` asks too)."""
    hand = state.hands[state.to_act]
    melds = state.melds[state.team_at[state.to_act]]
    staged = state.staged
    pending = state.phase == PILE or bool(staged)
    staging = pending or not melds  # melds of a side that has not melded are staged (N10)
    by_class, wild_kinds, kinds = hand_classes(hand)
    counts = {r: len(cs) for r, cs in by_class.items()}
    cands = meld_candidates(state, melds, staging, t.may_out, by_class, wild_kinds, kinds)

    out: list[Move] = []
    ssh = shape(staged) if staging else {}  # the staged melds' shape
    base = meld_points(staged) if staged else 0
    held = tally(state.pile_held) if state.pile_held else {}
    sh: Shape | None = ssh if staging else None  # the melds' shape (the side's: when needed)
    out_now: bool | None  # could he go out from here, if allowed (N12)? (None: not asked yet)
    if not melds:  # every meld and add is staged: N10a on counts (finish.stage_after)
        out_now = _initial_lays(out, cands, ssh, staged, base, counts, held, len(hand), t)
    else:
        sh, out_now = _lays(out, cands, melds, sh, staging, base, counts, held, len(hand), t)

    if pending:
        if staged and base >= t.minimum and _commit_finishes(ssh, counts, held, t):
            out.append(COMMIT)
        if staged and not t.must_out:
            out.append(WITHDRAW)  # a convenience: no legal path needs it (G1)
    elif t.last_red:
        # N13a: may meld, may not discard; the deal ends. N13c: not once he must
        # go out (black threes down, N12c; the partner's yes, N12)
        if not t.must_out:
            out.append(STOP)
    else:
        out += discards(hand, t, melds, kinds)
    # N12a: "May I go out?" once, before laying any card but the pile's meld,
    # when he can go out, and when a "no" would still leave him a way to end
    # his turn (G1); in the last red three's turn too (N13c)
    asks = len(state.hands) == 4 and state.asked is None and not state.laid
    if asks and _may_ask(out_now, sh, melds, staged, staging, base, counts, held, pending, t):
        out.append(ASK)
    return out  # never empty in play (G1); a hand-made dead end lists nothing


def _initial_lays(
    out: list[Move],
    cands: list[Candidate],
    ssh: Shape,
    staged: dict[int, list[Card]],
    base: int,
    counts: Tally,
    held: Tally,
    n: int,
    t: Turn,
) -> bool | None:
    """The melds and adds of a side that has not melded (staged, N10) put in
    ``out`` when the turn can still end after them (G1): the initial minimum
    reached on counts, or going out. Returns ``out_now``, if it was asked."""
    parts: StageParts | None = None
    budget = jokers = twos = 0
    reach = free = False
    out_now: bool | None = None
    for move, used, r, points in cands:
        got = base + points
        if r != BLACK_THREE and not t.must_out:  # black threes bind him to go out (N12c)
            # N10a: lay down the minimum, then discard (or stop) with a card left
            if parts is None:
                parts = stage_parts(ssh, counts)
                budget = n + cards_in(held) - (1 if t.last_red else 2)
                jokers, twos = counts.get(JOKER, 0), counts.get(TWO, 0)
                total, laid = stage_total(parts, jokers, twos)  # before any meld or add
                reach = base + total >= t.minimum  # no meld or add makes it more
                free = laid <= budget  # the card limit does not bind
            left = budget - len(used)
            if reach and left >= 0:
                wild = used[-1].rank if WILD[used[-1]] else None  # a wild card comes last
                if wild is None and free:
                    out.append(move)  # natural cards the best staging lays anyway: the same total
                    continue
                wilds = wild is not None
                gain = 0
                if left:
                    grown_parts = stage_after(parts, ssh, counts, r, len(used) - wilds, wilds)
                    left_j, left_t = jokers - (wild == JOKER), twos - (wild == TWO)
                    gain, cards = stage_total(grown_parts, left_j, left_t)
                    if cards > left:  # the card limit binds: the exact search
                        grown, after = _grown(ssh, counts, used, r)
                        gain = best_stage(grown, after, left)
                if got + gain >= t.minimum:
                    out.append(move)
                    continue
        # or go out in this turn
        if out_now is None:
            out_now = _out_now(ssh, staged, base, counts, held, t)
        if out_now and t.may_out:
            grown, after = _grown(ssh, counts, used, r)
            if staged_go_out(grown, got, after, held, t):
                out.append(move)
    return out_now


def _lays(
    out: list[Move],
    cands: list[Candidate],
    melds: dict[int, list[Card]],
    sh: Shape | None,
    staging: bool,
    base: int,
    counts: Tally,
    held: Tally,
    n: int,
    t: Turn,
) -> tuple[Shape | None, bool | None]:
    """The melds and adds of a side that has melded put in ``out`` when the
    turn can still end after them (G1). Returns the melds' shape and
    ``out_now``, if they were needed."""
    out_now: bool | None = None
    for move, used, r, points in cands:
        # Turn(...) rather than t._replace(...): a Python-level call 5 times dearer
        tm = Turn(t.need, t.minimum, t.may_out, True, t.last_red) if r == BLACK_THREE else t
        if not staging and not tm.must_out and not t.last_red:
            if n - len(used) >= 2:
                out.append(move)  # a card is left to discard: nothing more to check
                continue
            # he melds all but one card at most: he must go out
            if sh is None:
                sh = shape(melds)
            if out_now is None:
                out_now = _out_now(sh, melds, 0, counts, held, t)
            if not (out_now and t.may_out):
                continue
        if sh is None:
            sh = shape(melds)
        if tm.must_out and not staging and not WILD[used[-1]]:
            # natural cards only (a wild card comes last): the melds and the hand
            # left are the same to the go-out test as before (finish.fits)
            if out_now is None:
                out_now = _out_now(sh, melds, 0, counts, held, t)
            if out_now and t.may_out:
                out.append(move)
            continue
        got = base + points if staging else 0
        if _lay_finishes(sh, counts, used, r, got, held, staging, tm):  # the slow path
            out.append(move)
    return sh, out_now


def _lay_finishes(
    sh: Shape, counts: Tally, used: tuple[Card, ...], r: int, got: int, held: Tally, staging: bool, t: Turn
) -> bool:
    """G1 after a meld or add of ``used`` on rank ``r``: the solver asked
    (``sh``, ``counts``: the melds and the hand before it; ``got``: the staged
    melds' points after it, while ``staging``)."""
    grown, after = _grown(sh, counts, used, r)
    return can_finish(grown, got, after, held, staging, t)


def lay_finishes(state: CanastaState, used: tuple[Card, ...], r: int, t: Turn) -> bool:
    """G1 for a meld or add of ``used`` (cards of ``state.to_act``'s hand) on
    rank ``r``, by the solver from the position: the rule that
    :func:`play_moves` takes its shortcuts past (and asks on its slow path),
    and that ``verify.py`` asks."""
    seat = state.to_act
    melds = state.melds[state.team_at[seat]]
    staged = state.staged
    staging = state.phase == PILE or bool(staged) or not melds
    tm = Turn(t.need, t.minimum, t.may_out, True, t.last_red) if r == BLACK_THREE else t
    got = meld_points(staged) + sum(VALUES[u] for u in used) if staging else 0
    sh = shape(staged) if staging else shape(melds)
    counts = tally(state.hands[seat])
    return _lay_finishes(sh, counts, used, r, got, tally(state.pile_held), staging, tm)


def _commit_finishes(ssh: Shape, counts: Tally, held: Tally, t: Turn) -> bool:
    """G1 for laying down the staged initial meld (shape ``ssh``; its minimum
    reached, N10): the rest of the pile comes to hand, then he can end his turn."""
    after = dict(counts)
    for r, k in held.items():
        after[r] = after.get(r, 0) + k
    return can_finish(ssh, 0, after, {}, False, Turn(t.need, 0, t.may_out, t.must_out, t.last_red))


def commit_finishes(state: CanastaState, t: Turn) -> bool:
    """:func:`_commit_finishes` from the position (``verify.py``)."""
    counts = tally(state.hands[state.to_act])
    return _commit_finishes(shape(state.staged), counts, tally(state.pile_held), t)


def _may_ask(
    out_now: bool | None,
    sh: Shape | None,
    melds: dict[int, list[Card]],
    staged: dict[int, list[Card]],
    staging: bool,
    base: int,
    counts: Tally,
    held: Tally,
    pending: bool,
    t: Turn,
) -> bool:
    """N12a, G1: whether he may ask "May I go out?" (4 players, not asked yet,
    nothing laid but the pile's meld): he can go out (``out_now``, if asked
    already), and after a "no" he could still end his turn."""
    if out_now is None:
        out_now = _out_now(sh, staged if staging else melds, base if staging else 0, counts, held, t)
    if not out_now:
        return False
    if sh is None:
        sh = shape(melds)
    refused = _new(Turn, (t.need, t.minimum, False, False, t.last_red))
    return can_finish(sh, base, counts, held, pending, refused)


def ask_finishes(state: CanastaState, t: Turn) -> bool:
    """:func:`_may_ask` from the position (``verify.py``): the other
    conditions of N12a (4 players, not asked, nothing laid) apart."""
    melds = state.melds[state.team_at[state.to_act]]
    staged = state.staged
    pending = state.phase == PILE or bool(staged)
    staging = pending or not melds
    sh = shape(staged) if staging else shape(melds)
    counts = tally(state.hands[state.to_act])
    held = tally(state.pile_held)
    return _may_ask(None, sh, melds, staged, staging, meld_points(staged), counts, held, pending, t)


def _out_now(
    sh: Shape | None, melds: dict[int, list[Card]], base: int, counts: Tally, held: Tally, t: Turn
) -> bool:
    """Could he go out from here, if allowed (N12)? ``melds`` are the side's,
    or the staged ones while staging, worth ``base``; ``sh`` their shape, if at
    hand. Most hands fail at once on two lone cards (``finish.forced_discards``),
    for which the shape is not needed."""
    if not held and forced_discards(melds, counts) is None:
        return False
    t_out = _new(Turn, (t.need, t.minimum, True, True, t.last_red))
    return staged_go_out(shape(melds) if sh is None else sh, base, counts, held, t_out)


def _grown(sh: Shape, counts: Tally, used: tuple[Card, ...], r: int) -> tuple[Shape, Tally]:
    """The melds' shape and the hand's counts once ``used`` is laid on rank ``r``."""
    after = dict(counts)
    for u in used:
        after[u.rank] -= 1
    grown = dict(sh)
    size, wilds = grown.get(r, (0, 0))
    grown[r] = (size + len(used), wilds + sum(1 for u in used if WILD[u]))
    return grown, after


def meld_candidates(
    state: CanastaState,
    melds: dict[int, list[Card]],
    staging: bool,
    may_out: bool,
    by_class: dict[int, list[Card]],
    wild_kinds: list[Card],
    kinds: dict[int, Card],
) -> list[Candidate]:
    """New melds of three cards and one card added to a meld, as N8 shapes
    them (before G1's check): staged while the side has not melded (N10).
    Suits never matter: one move per rank (N8a). The hand comes sorted by
    :func:`hand_classes`."""
    out: list[Candidate] = []
    staged = state.staged
    no_new = staging and state.withdrew == "play"  # no second try at an initial meld
    if not no_new:
        for r in sorted(by_class):
            nat = by_class[r]
            if len(nat) < 2 or r in NOT_MELDED or r in melds or r in staged:
                continue
            name = RANK_NAMES[r]
            v = VALUES[nat[0]]  # N3: by rank
            if len(nat) >= 3:
                cards = (nat[0], nat[1], nat[2])
                out.append(
                    (_new(Move, ("meld", None, (), (("cards", cards), ("rank", name)))), cards, r, 3 * v)
                )
            for w in wild_kinds:
                cards = (nat[0], nat[1], w)
                move = _new(Move, ("meld", None, (), (("cards", cards), ("rank", name))))
                out.append((move, cards, r, 2 * v + VALUES[w]))
        if may_out and BLACK_THREE not in melds and BLACK_THREE not in staged:
            blacks = by_class.get(BLACK_THREE, ())
            if len(blacks) >= 3:
                threes = tuple(blacks[:3])  # N8, N12c: only by a player going out this turn
                move = Move("meld", None, (), (("cards", threes), ("rank", "3")))
                out.append((move, threes, BLACK_THREE, sum(VALUES[c] for c in threes)))
    if not melds and not staged:
        return out
    targets = dict(melds)
    targets.update(staged)
    wild_targets: list[int] | None = None
    for c in kinds.values():
        r = c.rank
        if r == 0 or r == 2:
            if wild_targets is None:  # N8; N17a: merged melds take no more
                wild_targets = [
                    r for r, m in sorted(targets.items()) if r != BLACK_THREE and wild_count(m) < 3
                ]
            adds = ADDS[c]
            one = (c,)
            v = VALUES[c]
            for r in wild_targets:
                out.append((adds[r], one, r, v))
        elif r in targets and c not in RED_THREES:
            out.append((ADDS[c][r], (c,), r, VALUES[c]))
    return out


def discards(hand: list[Card], t: Turn, melds: dict[int, list[Card]], kinds: dict[int, Card]) -> list[Move]:
    """N5, N12: a discard ends the turn; the last card only when going out
    (with the side's ``melds`` holding the canastas it needs), and nothing but
    going out once he must. ``kinds``: the first card of each rank in hand
    order (:func:`hand_classes`), one move each (N8a)."""
    if len(hand) == 1:
        return [DISCARDS[hand[0]]] if may_discard_last(melds, t) else []
    if t.must_out:
        return []
    return [DISCARDS[c] for c in kinds.values()]


def may_discard_last(melds: dict[int, list[Card]], t: Turn) -> bool:
    """N12: the last card is discarded only going out, the side's ``melds``
    holding the canastas it needs (N11)."""
    return t.may_out and count_canastas(melds) >= t.need


def _class(c: Card) -> int:
    """What of a card the rules see (N8a): its rank, red and black threes apart."""
    return RED if c in RED_THREES else c.rank


def _shape_of(m: Move) -> tuple[Any, ...]:
    """A move with each of its cards seen as its class (N8a)."""
    extra = tuple((k, tuple(_class(c) for c in v) if k == "cards" else v) for k, v in m.extra)
    return (m.kind, None if m.card is None else _class(m.card), m.takes, extra)


def named_move(state: CanastaState, move: Move, legal: Sequence[Move]) -> Move | None:
    """N8a: ``move`` if it lays a listed move's cards with others of the same
    classes, held by the player (a person who names his cards); else None."""
    if not isinstance(move, Move) or type(move.extra) is not tuple:
        return None
    try:
        shape_ = _shape_of(move)
        listed = any(_shape_of(m) == shape_ for m in legal if m.kind == move.kind)
    except (AttributeError, TypeError, ValueError):  # not cards where cards go
        return None
    if not listed:
        return None
    laid = [move.card] if move.card is not None else []
    laid += dict(move.extra).get("cards", ())
    hand = list(state.hands[state.to_act])
    for c in laid:
        if not any(h is c for h in hand):
            return None
        hand.remove(c)
    return move
