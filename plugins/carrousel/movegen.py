"""Carrousel's legal moves: captures (C6, C7), builds (C8), the broom (C9),
trailing (C10).

Captures by sum are generated as *distinct sets of taken items*, never as
ways of splitting them into groups.  ``capture_sets`` first lists every group
(a set of table items whose values add up to v) by its lowest item, then walks
the items in table order: an item is either left, covered by a group chosen
earlier, or the lowest item of a new group.  Memoised on (item, covered items
to come), the walk meets each distinct taken set a bounded number of times
even when the number of ways to form it runs into the hundreds of thousands.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardcore.cards import Card
from cardcore.moves import Move
from cardcore_plugins.carrousel.cards import BROOM_CARD, VALUES
from cardcore_plugins.carrousel.state import Build, CarrouselState, Item, item_cards


def groups_by_lowest(values: Sequence[int], v: int) -> list[list[int]]:
    """For each item i, the bitmasks of the groups summing to ``v`` whose lowest item is i."""
    n = len(values)
    out: list[list[int]] = [[] for _ in range(n)]
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + values[i]

    def extend(j: int, need: int, mask: int, into: list[int]) -> None:
        # choose items j.. to add up to `need` (all values are positive)
        if suffix[j] < need:
            return
        for k in range(j, n):
            vk = values[k]
            if vk == need:
                into.append(mask | (1 << k))
            elif vk < need:
                extend(k + 1, need - vk, mask | (1 << k), into)

    for i in range(n):
        vi = values[i]
        if vi == v:
            out[i].append(1 << i)
        elif vi < v:
            extend(i + 1, v - vi, 1 << i, out[i])
    return out


def capture_sets(values: Sequence[int], v: int) -> list[int]:
    """Every distinct non-empty set (bitmask) of items that splits into disjoint
    groups each adding up to ``v`` (C6), fewest items first."""
    n = len(values)
    if not n:
        return []
    groups = groups_by_lowest(values, v)
    if not any(groups):
        return []
    memo: dict[tuple[int, int], frozenset[int]] = {}
    empty = frozenset({0})

    def walk(i: int, covered: int) -> frozenset[int]:
        # The items >= i that groups starting at i or later can add, given that
        # `covered` (items >= i) already belong to groups started before i.
        if i == n:
            return empty
        key = (i, covered)
        got = memo.get(key)
        if got is not None:
            return got
        bit = 1 << i
        if covered & bit:
            res = walk(i + 1, covered & ~bit)  # taken by an earlier group
        else:
            acc = set(walk(i + 1, covered))  # item i is left on the table
            for g in groups[i]:
                if not g & covered:
                    acc.update(m | g for m in walk(i + 1, (covered | g) & ~bit))
            res = frozenset(acc)
        memo[key] = res
        return res

    found = walk(0, 0) - {0}
    return sorted(found, key=lambda m: (m.bit_count(), m))


def build_sets(values: Sequence[int], is_build: Sequence[bool], needs: set[int]) -> list[int]:
    """Every non-empty set (bitmask) of items with at most one build whose values
    add up to one of ``needs`` (C8), fewest items first."""
    n = len(values)
    top = max(needs, default=0)
    out: list[int] = []

    def walk(j: int, total: int, mask: int, has_build: bool) -> None:
        for k in range(j, n):
            t = total + values[k]
            if t > top or (has_build and is_build[k]):
                continue
            m = mask | (1 << k)
            if t in needs:
                out.append(m)
            walk(k + 1, t, m, has_build or is_build[k])

    walk(0, 0, 0, False)
    out.sort(key=lambda m: (m.bit_count(), m))
    return out


def _cards_of(mask: int, items: Sequence[Item]) -> tuple[Card, ...]:
    out: list[Card] = []
    i = 0
    while mask:
        if mask & 1:
            out.extend(item_cards(items[i]))
        mask >>= 1
        i += 1
    return tuple(out)


def _mask_of(build: Build, items: Sequence[Item]) -> int:
    return 1 << next(i for i, it in enumerate(items) if it is build)


def generate(state: CarrouselState) -> tuple[list[Move], bool]:
    """Captures, builds and sweeps of ``state.to_act``; and whether he is forced
    (C10: some capture or build is possible, or he owns a build).

    The caller adds trails when the rules allow them (``carrousel_may_trail``).
    """
    seat = state.to_act
    hand = state.hands[seat]
    board = state.board
    values_of = VALUES
    # the valued items of the table (C5): loose number cards, jokers and builds
    items: list[Item] = []
    values: list[int] = []
    for it in board:
        if type(it) is Build:
            items.append(it)
            values.append(it.value)  # type: ignore[union-attr]
        else:
            v = values_of[it]  # type: ignore[index]
            if v:
                items.append(it)
                values.append(v)
    own = state.build_of(seat)
    own_bit = _mask_of(own, items) if own is not None else 0

    captures: list[Move] = []
    builds: list[Move] = []
    by_value: dict[int, list[int]] = {}
    loose_faces: dict[int, list[Card]] = {}
    for it in board:
        if type(it) is not Build and it.rank > 10:  # type: ignore[union-attr]
            loose_faces.setdefault(it.rank, []).append(it)  # type: ignore[union-attr,arg-type]
    has_broom = False
    for c in hand:
        v = values_of[c]
        if v:
            masks = by_value.get(v)
            if masks is None:
                masks = by_value[v] = capture_sets(values, v)
            for m in masks:
                if own_bit and not m & own_bit:
                    continue  # C8: the owner must capture his build
                captures.append(Move("capture", c, _cards_of(m, items)))
        elif c.rank > 10:  # C7: face cards one for one, or all three
            same = loose_faces.get(c.rank, ())
            if own_bit:
                continue
            if len(same) == 3:
                captures.append(Move("capture", c, tuple(same)))
            else:
                captures.extend(Move("capture", c, (t,)) for t in same)
        else:
            has_broom = True
    sweep: list[Move] = []
    if has_broom:  # C9: the broom takes everything, builds included
        taken = tuple(x for it in board for x in item_cards(it))
        sweep.append(Move("sweep", BROOM_CARD, taken))
    if own_bit:
        # C8: on his next turn the owner must capture his build (or sweep it, C9)
        if captures or sweep:
            return captures + sweep, True
    else:
        builds = _builds(hand, items, values)
    forced = bool(captures or builds or (sweep and board) or own_bit)
    return captures + builds + sweep, forced


def _builds(hand: Sequence[Card], items: Sequence[Item], values: Sequence[int]) -> list[Move]:
    """C8: one hand card added to table items (at most one build) so that the
    total is the value of another card kept in hand."""
    if not items:
        return []
    values_of = VALUES
    hand_values = [values_of[c] for c in hand]
    is_build = [type(it) is Build for it in items]
    out: list[Move] = []
    cache: dict[tuple[int, frozenset[int]], list[int]] = {}
    for i, c in enumerate(hand):
        hv = hand_values[i]
        if not hv:
            continue
        targets = {v for j, v in enumerate(hand_values) if j != i and v > hv}
        if not targets:
            continue
        needs = frozenset(t - hv for t in targets)
        key = (hv, needs)
        masks = cache.get(key)
        if masks is None:
            masks = cache[key] = build_sets(values, is_build, set(needs))
        for m in masks:
            total = hv
            k, mm = 0, m
            while mm:
                if mm & 1:
                    total += values[k]
                mm >>= 1
                k += 1
            out.append(Move("build", c, (), (("onto", _cards_of(m, items)), ("value", total))))
    return out
