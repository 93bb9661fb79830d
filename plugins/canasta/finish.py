"""Whether a turn can still be finished (G1) and whether a hand can go out
(N8, N11, N12), on card *counts*.

Suits never matter to these questions (but for threes), so hands are tallied
by class: the rank for natural cards (``1`` ace, ``4`` … ``13``), ``3`` for black
threes, ``0`` for jokers and ``2`` for twos (the wild cards). A meld is seen as
its ``(size, wild cards)``. Every function here is exact: the move generator
(``rules.py``) lists a move only when the player can still end his turn after
it (G1), and the tests compare these answers with a brute-force search.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from cardcore.cards import Card
from cardcore_plugins.canasta.cards import RED_THREES, VALUES, WILD, is_red_three

CANASTA = 7
JOKER, TWO, BLACK_THREE = 0, 2, 3
WILD_CLASSES = (JOKER, TWO)
# N3 by class (red threes are no hand cards)
CLASS_VALUE = {c.rank: v for c, v in VALUES.items() if not is_red_three(c)}

Tally = dict[int, int]
Shape = dict[int, tuple[int, int]]  # rank → (cards, wild cards)


def tally(cards: Iterable[Card]) -> Tally:
    """Counts by class; red threes are skipped (they are laid, never held, N7)."""
    out: Tally = {}
    for c in cards:
        r = c.rank
        if r == 3 and c in RED_THREES:
            continue
        out[r] = out.get(r, 0) + 1
    return out


def shape(melds: Mapping[int, list[Card]]) -> Shape:
    return {r: (len(m), sum(1 for c in m if WILD[c])) for r, m in melds.items()}


def merge(a: Shape, b: Mapping[int, list[Card]]) -> Shape:
    """``a`` with the melds ``b`` (staged melds joining the side's, N10)."""
    out = dict(a)
    for r, m in b.items():
        size, wilds = out.get(r, (0, 0))
        out[r] = (size + len(m), wilds + sum(1 for c in m if WILD[c]))
    return out


def value(t: Tally) -> int:
    return sum(CLASS_VALUE[r] * k for r, k in t.items())


def cards_in(t: Tally) -> int:
    return sum(t.values())


def canastas(melds: Shape) -> int:
    return sum(1 for size, _ in melds.values() if size >= CANASTA)


def melds_value(melds: Mapping[int, list[Card]]) -> int:
    return sum(VALUES[c] for m in melds.values() for c in m)


def fits(melds: Shape, hand: Tally, need: int) -> bool:
    """Whether *every* card of ``hand`` can be melded onto ``melds`` and new melds
    (N8: three or more of a rank, two natural at least, three wild at most;
    black threes three or four, no wild card) so that the side then has ``need``
    canastas (N11)."""
    wilds = hand.get(JOKER, 0) + hand.get(TWO, 0)
    sizes: dict[int, int] = {}
    caps: dict[int, int] = {}
    for r, (size, w) in melds.items():
        sizes[r] = size
        caps[r] = 0 if r == BLACK_THREE else max(0, 3 - w)  # N17a: merged melds may hold more
    mandatory = 0
    for r, k in hand.items():
        if r in WILD_CLASSES or not k:
            continue
        if r in sizes:
            sizes[r] += k
        elif r == BLACK_THREE:
            if k < 3:
                return False
            sizes[r], caps[r] = k, 0
        elif k >= 3:
            sizes[r], caps[r] = k, 3
        elif k == 2:
            sizes[r], caps[r] = 3, 2  # the pair takes one wild card
            mandatory += 1
        else:
            return False
    if wilds < mandatory:
        return False
    free = wilds - mandatory
    if free > sum(caps.values()):
        return False  # wild cards never meld alone (N8)
    done = sum(1 for s in sizes.values() if s >= CANASTA)
    if done >= need:
        return True
    for gap in sorted(CANASTA - s for r, s in sizes.items() if s < CANASTA and CANASTA - s <= caps[r]):
        if free < gap:
            break
        free -= gap
        done += 1
    return done >= need


def forced_discards(melds: Mapping[int, object], hand: Tally) -> list[int] | None:
    """The classes that must be the discard for ``hand`` to go out: a lone
    natural of a rank not melded (or one or two black threes, N8) can go
    nowhere else. None when more than one card would have to go."""
    forced: list[int] = []
    for r, k in hand.items():
        if not k or r in melds or r in WILD_CLASSES:
            continue
        if k == 1:
            forced.append(r)
        elif r == BLACK_THREE and k == 2:
            return None
    return forced if len(forced) <= 1 else None


def can_go_out(melds: Shape, hand: Tally, need: int, may_discard: bool = True) -> bool:
    """Whether every card of ``hand``, but one discard if allowed, can be melded
    so that the side has ``need`` canastas (N11, N12)."""
    return can_go_out_from(melds, 0, hand, need, may_discard, 0)


def can_go_out_from(
    staged: Shape, base: int, hand: Tally, need: int, may_discard: bool, minimum: int
) -> bool:
    """Whether every card of ``hand``, but one discard if allowed, can be melded
    onto ``staged`` and new melds so that the side has ``need`` canastas (N11,
    N12). For a side that has not melded, everything it lays in this turn is
    its initial meld and must reach ``minimum`` (N10); ``staged``, worth
    ``base``, is what the player has staged already (0 and {} once melded)."""
    forced = forced_discards(staged, hand)
    if forced is None or (forced and not may_discard):
        return False
    total = base + value(hand)
    if not forced:
        if total < minimum:
            return False  # a discard only lowers it
        if fits(staged, hand, need):
            return True
        if not may_discard:
            return False
        # the rest melds no better for a natural card less (a pair would need
        # a wild card, a meld shrinks): only a wild card too many can go (N8)
        forced = [r for r in WILD_CLASSES if hand.get(r)]
    for r in forced:
        if total - CLASS_VALUE[r] >= minimum:
            hand[r] -= 1
            ok = fits(staged, hand, need)
            hand[r] += 1
            if ok:
                return True
    return False


def wild_value(hand: Tally, n: int) -> int:
    """The most ``n`` wild cards of ``hand`` are worth: jokers first."""
    jokers = min(n, hand.get(JOKER, 0))
    return 50 * jokers + 20 * (n - jokers)


StageParts = tuple[int, int, int, list[int]]  # natural points, natural cards, wild room, pairs


def stage_parts(staged: Shape, hand: Tally) -> StageParts:
    """What :func:`best_stage` sums up with no card limit, wild cards apart:
    the points and the number of the naturals that meld at once (every
    natural of a staged rank, of a rank held three times or more), the room
    for wild cards in those melds, and the points of each rank held twice
    (a pair needs a wild card), best first. Black threes never count: they
    meld only going out (N8)."""
    nat_value = nat_cards = cap = 0
    pairs: list[int] = []
    for r, k in hand.items():
        if r in WILD_CLASSES or r == BLACK_THREE or not k:
            continue
        if r in staged:
            nat_value += CLASS_VALUE[r] * k
            nat_cards += k
        elif k >= 3:
            nat_value += CLASS_VALUE[r] * k
            nat_cards += k
            cap += 3
        elif k == 2:
            pairs.append(CLASS_VALUE[r])
    for r, (_, w) in staged.items():
        if r != BLACK_THREE and w < 3:
            cap += 3 - w
    pairs.sort(reverse=True)
    return nat_value, nat_cards, cap, pairs


def stage_total(parts: StageParts, jokers: int, twos: int) -> tuple[int, int]:
    """The most points of a staging with no card limit, and the cards it lays:
    every natural that melds, the best pairs with a wild card each, then
    every wild card that fits, jokers first (N3, N8)."""
    nat_value, nat_cards, cap, pairs = parts
    wilds = jokers + twos
    formed = min(len(pairs), wilds)
    placed = formed + min(wilds - formed, cap + 2 * formed)
    j = min(placed, jokers)
    value = nat_value + 50 * j + 20 * (placed - j)
    if formed:
        value += 2 * sum(pairs[:formed])
    return value, nat_cards + 2 * formed + placed


def stage_after(
    parts: StageParts, staged: Shape, hand: Tally, r: int, naturals: int, wilds: int
) -> StageParts:
    """:func:`stage_parts` once ``naturals`` natural cards and ``wilds`` wild
    cards (0 or 1) of ``hand`` are staged on rank ``r`` (a meld of three or an
    add; ``r`` is no black three), without tallying again."""
    nat_value, nat_cards, cap, pairs = parts
    v = CLASS_VALUE[r]
    if r in staged:  # an add: a natural leaves the hand for the meld, or a wild card fills its room
        return nat_value - v * naturals, nat_cards - naturals, cap - wilds, pairs
    k = hand[r]
    if k >= 3:  # the rank melded at once already; its room shrinks by the wild card
        return nat_value - v * naturals, nat_cards - naturals, cap - wilds, pairs
    rest = list(pairs)  # a pair with a wild card: the rank is staged, room for two more
    rest.remove(v)
    return nat_value, nat_cards, cap + 2, rest


def best_stage(staged: Shape, hand: Tally, budget: int) -> int:
    """The most points that cards of ``hand`` (at most ``budget`` of them) can
    add to the ``staged`` melds and new melds, black threes apart (they meld
    only when going out, N8). Used for the initial minimum (N10a)."""
    if budget <= 0:
        return 0
    value, cards = stage_total(stage_parts(staged, hand), hand.get(JOKER, 0), hand.get(TWO, 0))
    if cards <= budget:
        return value
    return _best_stage_within(staged, hand, budget)


def _best_stage_within(staged: Shape, hand: Tally, budget: int) -> int:
    """:func:`best_stage` when the card limit binds: a search over ranks of the
    best natural points for each (cards, wild cards) used."""
    wilds = hand.get(JOKER, 0) + hand.get(TWO, 0)
    best: dict[tuple[int, int], int] = {(0, 0): 0}
    ranks = {r for r in hand if r not in WILD_CLASSES and r != BLACK_THREE and hand[r]}
    ranks |= {r for r in staged if r != BLACK_THREE}
    for r in sorted(ranks):
        k = hand.get(r, 0)
        v = CLASS_VALUE[r]
        if r in staged:
            options = [(j, w) for j in range(k + 1) for w in range(max(0, 3 - staged[r][1]) + 1)]
        else:
            options = [(0, 0)] + [(j, w) for j in range(2, k + 1) for w in range(max(0, 3 - j), 4)]
        grown: dict[tuple[int, int], int] = {}
        for (n, w0), val in best.items():
            for j, w in options:
                key = (n + j + w, w0 + w)
                if key[0] > budget or key[1] > wilds:
                    continue
                got = val + v * j
                if grown.get(key, -1) < got:
                    grown[key] = got
        best = grown
    return max(val + wild_value(hand, w) for (_, w), val in best.items())


# ---- the turn ------------------------------------------------------------------
class Turn(NamedTuple):
    """What decides whether a turn can still be finished (G1)."""

    need: int  # canastas to go out (N11)
    minimum: int  # the side's initial minimum, 0 once it has melded (N10)
    may_out: bool  # going out is allowed (N12, ``canasta_may_go_out``)
    must_out: bool  # the partner said yes, or black threes are down (N12, N12c)
    last_red: bool  # the stock ended with a red three: no discard (N13a)


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
    if not t.must_out:
        # N10a: lay down the minimum, then discard (or stop) with a card left
        budget = n + cards_in(held) - (1 if t.last_red else 2)
        if budget >= 0 and base + best_stage(melds, hand, budget) >= t.minimum:
            return True
    return staged_go_out(melds, base, hand, held, t)


def staged_go_out(staged: Shape, base: int, hand: Tally, held: Tally, t: Turn) -> bool:
    """The other way to finish a turn with an initial meld staged (N10) than
    :func:`can_finish`'s: go out in it, every card of the hand and of the rest
    of the pile (``held``) melded but a discard (N12). Whatever a meld or add
    from hand leads to, the position before it reaches too: when this is False,
    it is False after any of them (``movegen.play_moves`` relies on it)."""
    if not t.may_out:
        return False
    if not cards_in(held):
        return can_go_out_from(staged, base, hand, t.need, not t.last_red, t.minimum)
    return _stage_then_go_out(staged, base, hand, held, t)


def _stage_then_go_out(staged: Shape, base: int, hand: Tally, held: Tally, t: Turn) -> bool:
    """Whether staging more from hand reaches the minimum, after which the hand
    and the rest of the pile all meld but a discard (rare: a small pile taken
    for the initial meld, going out in the same turn). A search over the staged
    melds and the hand's counts, each position once."""
    everything = dict(hand)
    for r, k in held.items():
        everything[r] = everything.get(r, 0) + k
    if not can_go_out(staged, everything, t.need, not t.last_red):
        return False  # no staging order melds what cannot meld at all
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
