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

from collections.abc import Callable

from cardcore.cards import Card
from cardcore.moves import Move
from cardcore.moves import tuple_new as _new
from cardcore_plugins.canasta import moves
from cardcore_plugins.canasta.cards import (
    RANK_NAMES,
    VALUES,
    WILD,
    is_black_three,
)
from cardcore_plugins.canasta.finish import (
    BLACK_THREE,
    Turn,
    can_finish,
    shape,
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


def legal_moves(state: CanastaState, may_go_out: bool, minimum: int) -> list[Move]:
    """Every legal move of ``state.to_act``; ``minimum`` is his side's initial
    minimum (0 once it has melded), ``may_go_out`` the ``canasta_may_go_out``
    answer."""
    if state.phase == ANSWER:
        return [moves.answer(True), moves.answer(False)]
    team = state.team_of(state.to_act)
    t = Turn(canastas_needed(state), minimum, may_go_out, must_go_out(state, team), state.last_red_three)
    if state.phase == DRAW:
        if not state.stock:
            return [m for m in exhausted_takes(state) if take_finishes(state, m, t)]  # N13, N13b
        return [moves.draw(), *(m for m in take_options(state) if take_finishes(state, m, t))]
    return play_moves(state, t)


Candidate = tuple[Move, tuple[Card, ...], int]  # a meld or add: the move, its cards, its rank


def play_moves(state: CanastaState, t: Turn) -> list[Move]:
    """The play and pile phases: melds, adds, commit/withdraw, stop, discards,
    "May I go out?" — each only if the turn can still be finished after it (G1)."""
    hand = state.hands[state.to_act]
    melds = state.melds[state.team_of(state.to_act)]
    pending = state.phase == PILE or bool(state.staged)
    staging = pending or not melds  # melds of a side that has not melded are staged (N10)
    sh = shape(state.staged) if staging else shape(melds)
    base = meld_points(state.staged)
    held = tally(state.pile_held)
    counts = tally(hand)
    n = len(hand)

    out: list[Move] = []
    for move, used, r in meld_candidates(state, melds, staging, t.may_out):
        # Turn(...) rather than t._replace(...): a Python-level call 5 times dearer
        tm = Turn(t.need, t.minimum, t.may_out, True, t.last_red) if r == BLACK_THREE else t
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
            if can_finish(sh, 0, after, {}, False, Turn(t.need, 0, t.may_out, t.must_out, t.last_red)):
                out.append(moves.commit())
        if state.staged and not t.must_out:
            out.append(moves.withdraw())  # a convenience: no legal path needs it (G1)
    elif t.last_red:
        out.append(moves.stop())  # N13a: may meld, may not discard; the deal ends
    else:
        out += discards(hand, t, count_canastas(melds) >= t.need)
    # N12a: "May I go out?" once, before laying any card but the pile's meld,
    # when he can go out, and when a "no" would still leave him a way to end
    # his turn (G1)
    if (
        state.players == 4
        and state.asked is None
        and not state.laid
        and not t.last_red
        and can_finish(sh, base, counts, held, pending, Turn(t.need, t.minimum, True, True, False))
        and can_finish(sh, base, counts, held, pending, Turn(t.need, t.minimum, False, False, False))
    ):
        out.append(moves.ask_go_out())
    return out  # never empty in play (G1); a hand-made dead end lists nothing


def meld_candidates(
    state: CanastaState, melds: dict[int, list[Card]], staging: bool, may_out: bool
) -> list[Candidate]:
    """New melds of three cards and one card added to a meld, as N8 shapes
    them (before G1's check): staged while the side has not melded (N10).
    Suits never matter: one move per kind of card."""
    hand = state.hands[state.to_act]
    out: list[Candidate] = []
    open_ranks = set(melds) | set(state.staged)
    by_rank: dict[int, list[Card]] = {}
    wild_kinds: list[Card] = []  # one wild card of each kind (a joker, a two): suits never matter
    for c in hand:
        if WILD[c]:
            if not wild_kinds or (len(wild_kinds) == 1 and (wild_kinds[0].rank == 0) != (c.rank == 0)):
                wild_kinds.append(c)
        else:
            by_rank.setdefault(c.rank, []).append(c)
    no_new = staging and state.withdrew == "play"  # no second try at an initial meld
    if not no_new:
        for r in sorted(by_rank):
            nat = by_rank[r]
            if len(nat) < 2 or r == BLACK_THREE or r in open_ranks:
                continue
            name = RANK_NAMES[r]
            if len(nat) >= 3:
                cards = tuple(nat[:3])
                out.append((_new(Move, ("meld", None, (), (("cards", cards), ("rank", name)))), cards, r))
            for w in wild_kinds:
                cards = (nat[0], nat[1], w)
                out.append((_new(Move, ("meld", None, (), (("cards", cards), ("rank", name)))), cards, r))
        if may_out and BLACK_THREE not in open_ranks:
            blacks = [c for c in by_rank.get(BLACK_THREE, ()) if c.suit in ("C", "S")]
            if len(blacks) >= 3:
                cards = tuple(blacks[:3])  # N8, N12c: only by a player going out this turn
                out.append((Move("meld", None, (), (("cards", cards), ("rank", "3"))), cards, BLACK_THREE))
    targets = dict(melds)
    targets.update(state.staged)
    if not targets:
        return out
    wild_targets: list[int] | None = None
    seen: set[str] = set()
    for c in hand:
        if c.name in seen:
            continue
        seen.add(c.name)
        if WILD[c]:
            if wild_targets is None:  # N8; N17a: merged melds take no more
                wild_targets = [
                    r for r, m in sorted(targets.items()) if r != BLACK_THREE and wild_count(m) < 3
                ]
            for r in wild_targets:
                out.append((_new(Move, ("add", c, (), (("rank", RANK_NAMES[r]),))), (c,), r))
        elif c.rank in targets and (c.rank != BLACK_THREE or is_black_three(c)):
            out.append((_new(Move, ("add", c, (), (("rank", RANK_NAMES[c.rank]),))), (c,), c.rank))
    return out


def discards(hand: list[Card], t: Turn, has_canastas: bool) -> list[Move]:
    """N5, N12: a discard ends the turn; the last card only when going out,
    and nothing but going out once he must."""
    if len(hand) == 1:
        return [Move("discard", hand[0])] if t.may_out and has_canastas else []
    if t.must_out:
        return []
    first: dict[str, Card] = {}  # one move per kind of card, in hand order
    for c in hand:
        first.setdefault(c.name, c)
    return [_new(Move, ("discard", c, (), ())) for c in first.values()]
