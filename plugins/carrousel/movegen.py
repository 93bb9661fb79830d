"""Carrousel's legal moves: captures (C6, C7), builds (C8), the broom (C9),
trailing (C10).

Captures by sum are generated as *distinct sets of taken items*, never as
ways of splitting them into groups. Two searches give the same moves in the
same order (a test holds them to it):

- ``_small_table`` (up to ``SMALL`` valued items, all but a few tables in ten
  thousand): every set of items adding up to at most the highest hand value
  is listed once, packed in an int with its size and sum; captures are unions
  of disjoint groups, builds the sets a card lifts to another card's value.
- ``_large_table``: ``capture_sets`` searches the counts of each value that
  can be split into groups (items of one value are interchangeable for that
  question), then expands each count vector into the concrete sets of cards,
  so its work follows the number of distinct sets even when the ways to split
  them run into the hundreds of thousands.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from cardcore.cards import Card
from cardcore.moves import Move
from cardcore.moves import tuple_new as _new
from cardcore_plugins.carrousel.cards import BROOM_CARD, VALUES
from cardcore_plugins.carrousel.state import Build, CarrouselState, Item, item_cards


def capture_sets(values: Sequence[int], v: int) -> list[int]:
    """Every distinct non-empty set (bitmask) of items that splits into disjoint
    groups each adding up to ``v`` (C6), fewest items first.

    Whether a set splits depends only on how many items of each value it holds,
    so the search runs on *value counts* (``count_vectors``, kept for each
    multiset of values: the same multisets come back deal after deal), and
    each count vector is then expanded into the concrete sets of items. The
    work is about the number of distinct sets, never the number of ways to
    split them into groups.
    """
    by_value: dict[int, list[int]] = {}
    for i, x in enumerate(values):
        if x <= v:
            by_value.setdefault(x, []).append(i)
    if not by_value:
        return []
    vals = tuple(sorted(by_value))
    caps = tuple(len(by_value[x]) for x in vals)
    key = (vals, caps, v)
    vectors = REACHED.get(key)
    if vectors is None:
        if len(REACHED) > MEMO_SIZE:
            REACHED.clear()
        vectors = REACHED[key] = count_vectors(vals, caps, v)
    if not vectors:
        return []
    # the concrete item sets of each count vector
    choose: dict[tuple[int, int], list[int]] = {}
    out: list[int] = []
    for vector in vectors:
        masks = [0]
        for j, k in vector:
            picks = choose.get((j, k))
            if picks is None:
                idx = by_value[vals[j]]
                picks = choose[j, k] = [sum(1 << i for i in c) for c in combinations(idx, k)]
            masks = [a | b for a in masks for b in picks]
        out.extend(masks)
    out.sort(key=lambda mask: (mask.bit_count(), mask))
    return out


MEMO_SIZE = 100_000
REACHED: dict[tuple[tuple[int, ...], tuple[int, ...], int], list[tuple[tuple[int, int], ...]]] = {}


def count_vectors(vals: tuple[int, ...], caps: tuple[int, ...], v: int) -> list[tuple[tuple[int, int], ...]]:
    """Every non-zero count vector (``(value index, count)`` pairs) of a table
    holding ``caps[j]`` items of value ``vals[j]`` that splits into groups each
    adding up to ``v``: the shapes of one group, then every sum of shapes that
    fits the table."""
    m = len(vals)
    shapes: list[tuple[int, ...]] = []
    vec = [0] * m

    def shape(j: int, rest: int) -> None:
        if rest == 0:
            shapes.append(tuple(vec))
            return
        if j == m:
            return
        x = vals[j]
        for k in range(min(caps[j], rest // x), -1, -1):
            vec[j] = k
            shape(j + 1, rest - k * x)
        vec[j] = 0

    shape(0, v)
    if not shapes:
        return []
    # Count vectors are packed in one integer, 6 bits per value, so that adding a
    # shape is one addition and "fits the table" one subtraction: a guard bit
    # per field stays set as long as no count exceeds the table's.
    guard = sum(32 << (6 * j) for j in range(m))
    limit = sum(c << (6 * j) for j, c in enumerate(caps)) + guard
    packed = [sum(k << (6 * j) for j, k in enumerate(sh)) for sh in shapes]
    # Every splittable vector is a sum of shapes; adding them by their lowest
    # value (each new shape holds the lowest value so far) reaches each vector
    # while trying far fewer sums.
    lowest = [next(j for j, k in enumerate(sh) if k) for sh in shapes]
    order = sorted(range(len(shapes)), key=lambda i: lowest[i])
    steps = [(packed[i], lowest[i]) for i in order]
    reached: set[int] = set()
    frontier = [(0, m)]
    while frontier:
        grown = []
        for have, low in frontier:
            for sh, sh_low in steps:
                if sh_low > low:
                    break
                t = have + sh
                if t not in reached and (limit - t) & guard == guard:
                    reached.add(t)
                    grown.append((t, sh_low))
        frontier = grown
    out = []
    for t in reached:
        vector = []
        j = 0
        while t:
            k = t & 31
            if k:
                vector.append((j, k))
            t >>= 6
            j += 1
        out.append(tuple(vector))
    return out


def _cards_of(mask: int, items: Sequence[Item]) -> tuple[Card, ...]:
    """The cards of the items in ``mask``, in table order (a build's all)."""
    at = BITS[mask] if mask < len(BITS) else [i for i in range(mask.bit_length()) if mask >> i & 1]
    out: list[Card] = []
    for k in at:
        it = items[k]
        if type(it) is Build:
            out.extend(it.cards)
        else:
            out.append(it)  # type: ignore[arg-type]
    return tuple(out)


def generate(state: CarrouselState) -> tuple[list[Move], bool, bool]:
    """Captures, builds and sweeps of ``state.to_act``; whether he is forced
    (C10: some capture or build is possible, or he owns a build); and whether
    he is bound to capture his build now (C8: then these moves are all).

    The caller adds trails when the rules allow them (``carrousel_may_trail``).
    Tables of up to ``SMALL`` valued items (all but a few in ten thousand) take
    ``_small_table``, which lists their sets once; larger ones take the
    count-vector search (``capture_sets``) and ``_builds``. Both give the same
    moves in the same order (tested).
    """
    seat = state.to_act
    hand = state.hands[seat]
    board = state.board
    values_of = VALUES
    # the valued items of the table (C5): loose number cards, jokers and builds.
    items: list[Item] = []
    values: list[int] = []
    build_mask = 0
    loose_faces: dict[int, list[Card]] | None = None  # C7: face cards, by rank
    own_bit = 0
    for it in board:
        if type(it) is Build:
            bit = 1 << len(items)
            build_mask |= bit
            if it.owner == seat:
                own_bit = bit
            items.append(it)
            values.append(it.value)
        else:
            v = values_of[it]  # type: ignore[index]
            if v:
                items.append(it)
                values.append(v)
            elif it.rank > 10:  # type: ignore[union-attr]
                if loose_faces is None:
                    loose_faces = {}
                loose_faces.setdefault(it.rank, []).append(it)  # type: ignore[union-attr,arg-type]
    search = _small_table if len(items) <= SMALL else _large_table
    by_value, builds = search(hand, items, values, build_mask, own_bit)
    captures: list[Move] = []
    cards_of: dict[int, tuple[Card, ...]] = {}
    has_broom = False
    for c in hand:
        v = values_of[c]
        if v:
            for m in by_value.get(v, ()):
                taken = cards_of.get(m)
                if taken is None:
                    taken = cards_of[m] = _cards_of(m, items)
                captures.append(_new(Move, ("capture", c, taken, ())))
        elif c.rank > 10:  # C7: face cards one for one, or all three
            if own_bit or loose_faces is None:
                continue
            same = loose_faces.get(c.rank)
            if same is None:
                continue
            if len(same) == 3:
                captures.append(Move("capture", c, tuple(same)))
            else:
                captures.extend([Move("capture", c, (t,)) for t in same])
        else:
            has_broom = True
    sweep: list[Move] = []
    if has_broom:  # C9: the broom takes everything, builds included
        taken = tuple(x for it in board for x in item_cards(it))
        sweep.append(Move("sweep", BROOM_CARD, taken))
    if own_bit and (captures or sweep):
        # C8: on his next turn the owner must capture his build (or sweep it, C9)
        return captures + sweep, True, True
    forced = bool(captures or builds or (sweep and board) or own_bit)
    return captures + builds + sweep, forced, False


#: tables with more valued items than this take the count-vector search
SMALL = 8
#: ``_small_table`` packs a set of items into one int: its size << 13 | its
#: bitmask << 5 | its sum (sums are at most 20), so that the plain order of the
#: ints is the order moves list their sets in: fewest items first, then by bitmask
SIZE, MASK, SUM = 1 << 13, 5, 31
#: the same order for a bare bitmask
SET_ORDER: list[int] = [m.bit_count() << SMALL | m for m in range(1 << SMALL)]
#: the item indexes of each bitmask
BITS: list[tuple[int, ...]] = [tuple(k for k in range(SMALL) if m >> k & 1) for m in range(1 << SMALL)]


def _small_table(
    hand: Sequence[Card], items: Sequence[Item], values: Sequence[int], build_mask: int, own_bit: int
) -> tuple[dict[int, list[int]], list[Move]]:
    """The capture sets of each hand value (C6, C6b, C8c) and the builds (C8)
    on a small table: every set of items adding up to at most the highest hand
    value (at most one build in it) is listed once, with its sum; a capture of
    value v is a union of disjoint groups of sum v (a build only alone, C6b),
    a build a set whose sum the card lifts to the value of another hand card."""
    if not values:
        return {}, []
    values_of = VALUES
    hand_values = [values_of[c] for c in hand]
    top = max(hand_values)
    builds_at = build_mask << MASK
    sets = _packed_sets(values, build_mask, top)
    if len(sets) == 1:
        return {}, []
    by_value = _captures_by_value(sets, hand_values, builds_at, own_bit)
    if own_bit:
        return by_value, []  # C8: at most one build of his own
    return by_value, _small_builds(hand, hand_values, top, sets, items)


def _packed_sets(values: Sequence[int], build_mask: int, top: int) -> list[int]:
    """Every set of the table's items adding up to at most ``top``, with at
    most one build in it, packed (``SIZE``, ``MASK``, ``SUM``) and sorted in
    the order moves list their sets in; the empty set first."""
    sets = [0]
    builds_at = build_mask << MASK
    for k, x in enumerate(values):
        if x <= top:
            step = SIZE + (1 << (k + MASK)) + x
            room = top - x
            if build_mask >> k & 1:
                sets += [p + step for p in sets if p & SUM <= room and not p & builds_at]
            else:
                sets += [p + step for p in sets if p & SUM <= room]
    sets.sort()
    return sets


def _captures_by_value(
    sets: list[int], hand_values: list[int], builds_at: int, own_bit: int
) -> dict[int, list[int]]:
    """The capture sets (bitmasks) of each hand value: the unions of disjoint
    groups of that sum (C6), a build a group only by itself (C6b), the owner's
    build in every one of his (C8)."""
    by_value: dict[int, list[int]] = {v: [] for v in hand_values if v}
    for p in sets:
        groups = by_value.get(p & SUM)
        if groups is not None and (not p & builds_at or p < 2 * SIZE):
            groups.append(p >> MASK & 255)
    for v, masks in by_value.items():
        if len(masks) > 1:
            unions = {0}
            for g in masks:
                unions.update([u | g for u in unions if not u & g])
            unions.discard(0)
            masks = sorted(unions, key=SET_ORDER.__getitem__)
        if own_bit:
            masks = [m for m in masks if m & own_bit]  # C8: the owner must capture his build
        by_value[v] = masks
    return by_value


def _small_builds(
    hand: Sequence[Card], hand_values: list[int], top: int, sets: list[int], items: Sequence[Item]
) -> list[Move]:
    """The builds (C8) on a small table: a card played onto a set of items
    whose sum it lifts to the value of another card of the hand."""
    builds: list[Move] = []
    cards_of: dict[int, tuple[Card, ...]] = {}
    for c, hv in zip(hand, hand_values, strict=True):
        if not hv or hv == top:
            continue  # a build needs another card of higher value
        needs = {w - hv for w in hand_values if w > hv}
        for p in sets:
            t = p & SUM
            if t in needs:
                m = p >> MASK & 255
                onto = cards_of.get(m)
                if onto is None:
                    onto = cards_of[m] = _cards_of(m, items)
                builds.append(_new(Move, ("build", c, (), (("onto", onto), ("value", hv + t)))))
    return builds


def _large_table(
    hand: Sequence[Card], items: Sequence[Item], values: Sequence[int], build_mask: int, own_bit: int
) -> tuple[dict[int, list[int]], list[Move]]:
    """The capture sets of each hand value and the builds on a large table.

    C6b: a build is taken only by a card of its own value, as a group by
    itself; it never joins other items in a sum, so the sum search sees the
    loose items only (a build's slot holds a value above any card's)."""
    values_of = VALUES
    loose_values: list[int] = []
    build_bits: dict[int, list[int]] = {}
    for k, v in enumerate(values):
        if build_mask >> k & 1:
            build_bits.setdefault(v, []).append(1 << k)
            loose_values.append(NOT_LOOSE)
        else:
            loose_values.append(v)
    by_value: dict[int, list[int]] = {}
    for c in hand:
        v = values_of[c]
        if v and v not in by_value:
            masks = _with_builds(capture_sets(loose_values, v), build_bits.get(v))
            if own_bit:
                masks = [m for m in masks if m & own_bit]  # C8: the owner must capture his build
            by_value[v] = masks
    if own_bit:
        return by_value, []
    return by_value, _builds(hand, items, values)


NOT_LOOSE = 99  # above every card value (C5): a build never joins a sum (C6b)


def _with_builds(loose: list[int], builds: list[int] | None) -> list[int]:
    """C6b, C8c: every build of the card's value is a group by itself: add any
    of them to any loose capture (or take them alone), fewest items first."""
    if not builds:
        return loose
    combos = [0]
    for b in builds:
        combos += [c | b for c in combos]
    out = [a | c for a in [0, *loose] for c in combos if a | c]
    out.sort(key=lambda mask: (mask.bit_count(), mask))
    return out


def _builds(hand: Sequence[Card], items: Sequence[Item], values: Sequence[int]) -> list[Move]:
    """C8: one hand card added to table items (at most one build) so that the
    total is the value of another card kept in hand.

    The sets of items are enumerated once for the whole hand (up to the
    largest sum any hand card needs), then each hand card takes those whose
    sum it needs."""
    if not items:
        return []
    values_of = VALUES
    hand_values = [values_of[c] for c in hand]
    wanted: list[tuple[Card, int, set[int]]] = []
    top = 0
    for i, c in enumerate(hand):
        hv = hand_values[i]
        if not hv:
            continue
        needs = {v - hv for j, v in enumerate(hand_values) if j != i and v > hv}
        if needs:
            wanted.append((c, hv, needs))
            top = max(top, max(needs))
    if not wanted:
        return []
    sums = subset_sums(values, [type(it) is Build for it in items], top)
    out: list[Move] = []
    cards_of: dict[int, tuple[Card, ...]] = {}
    for c, hv, needs in wanted:
        for m, total in sums:
            if total in needs:
                onto = cards_of.get(m)
                if onto is None:
                    onto = cards_of[m] = _cards_of(m, items)
                out.append(Move("build", c, (), (("onto", onto), ("value", hv + total))))
    return out


def subset_sums(values: Sequence[int], is_build: Sequence[bool], top: int) -> list[tuple[int, int]]:
    """Every non-empty set (bitmask) of items with at most one build whose
    values add up to at most ``top``, with its sum, fewest items first."""
    n = len(values)
    out: list[tuple[int, int]] = []

    def walk(j: int, total: int, mask: int, has_build: bool) -> None:
        for k in range(j, n):
            t = total + values[k]
            if t > top or (has_build and is_build[k]):
                continue
            m = mask | (1 << k)
            out.append((m, t))
            walk(k + 1, t, m, has_build or is_build[k])

    walk(0, 0, 0, False)
    out.sort(key=lambda mt: (mt[0].bit_count(), mt[0]))
    return out
