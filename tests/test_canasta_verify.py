"""Canasta's rules and their reasons are one body (issue #47): the check of
each move kind (``plugins/canasta/verify.py``, whose reason ``explain`` gives)
finds a move legal exactly when the move generator lists it — or lists, N8a,
a move laid with cards of the same classes (``cardcore_named_move``) — over
the positions of the legal-move corpus (tests/perft) and of seeded deals, for
candidate moves of every kind built from the hand: each card discarded and
added onto each rank, the pile taken with no card, one or two, melds of three
of many shapes, and the moves that name no card."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardcore.cards import Card
from cardcore.moves import Move
from cardcore.plugins import Registry
from cardcore.position_file import position_from_data
from cardcore.table import Table
from cardcore_plugins.canasta import moves as cm
from cardcore_plugins.canasta import verify as verify_module
from cardcore_plugins.canasta.cards import RANK_NAMES, WILD
from cardcore_plugins.canasta.state import ANSWER, CanastaState
from cardcore_plugins.canasta.verify import verify

sys.path.insert(0, str(Path(__file__).parent.parent / "tools"))

from perft import load

LAYS = ("meld", "add", "take_pile", "commit")


def answers(table: Table, state: CanastaState) -> tuple[bool, int]:
    """``may_out`` and the initial minimum for the player to act, as
    ``cardcore_explain_illegal`` has them."""
    plugin = table.plugin
    seat = state.to_act
    may_out = plugin._may_go_out(state, seat) if state.phase != ANSWER else True
    minimum = 0 if state.melds[state.team_at[seat]] else plugin.initial_minimum(state, seat)
    return may_out, minimum


def _in_order(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """Natural cards first, a wild card last: the generator's order."""
    return tuple(sorted(cards, key=lambda c: WILD[c]))


def _meld(cards: tuple[Card, ...], rank: str | None) -> Move:
    return Move("meld", None, (), (("cards", _in_order(cards)), ("rank", rank)))


def _triples(hand: list[Card], rng: random.Random) -> Iterator[tuple[Card, ...]]:
    """Three cards: of each rank its first three, its first two with each
    other card's kind, its first with two wild cards; and some at random."""
    firsts: dict[tuple[int, bool], list[Card]] = {}
    for c in hand:
        firsts.setdefault((c.rank, c.suit in "HD" and c.rank == 3), []).append(c)
    kinds = [cs[0] for cs in firsts.values()]
    wilds = [c for c in hand if WILD[c]]
    for cs in firsts.values():
        if len(cs) >= 3:
            yield (cs[0], cs[1], cs[2])
        if len(cs) >= 2:
            yield from ((cs[0], cs[1], k) for k in kinds if k is not cs[0])
        if len(wilds) >= 2:
            yield (cs[0], wilds[0], wilds[1])
    if len(hand) >= 3:
        for _ in range(20):
            yield tuple(rng.sample(hand, 3))


def candidates(state: CanastaState, legal: list[Move], rng: random.Random) -> list[Move]:
    """The moves tried at a position: the legal ones and many more of each kind."""
    hand = state.hands[state.to_act]
    pile = tuple(state.discard)
    out = [*legal, cm.draw(), cm.commit(), cm.withdraw(), cm.ask_go_out(), cm.stop()]
    out += [cm.answer(True), cm.answer(False), Move("draw", hand[0] if hand else None)]
    out.append(cm.take_pile(pile))
    for i, a in enumerate(hand):
        out.append(cm.discard(a))
        out.append(cm.take_pile(pile, (a,)))
        out += [cm.take_pile(pile, _in_order((a, b))) for b in hand[i + 1 :]]
        out += [cm.add(a, name) for name in RANK_NAMES.values()]
    for cards in _triples(hand, rng):
        naturals = [c for c in cards if not WILD[c]]
        rank = RANK_NAMES.get(naturals[0].rank) if naturals else None
        out.append(_meld(cards, rank))
        out.append(_meld(cards, rng.choice(list(RANK_NAMES.values()))))
    return list(dict.fromkeys(out))


def disagreements(table: Table, state: CanastaState, rng: random.Random) -> list[str]:
    """The candidates the check and the generator disagree on."""
    legal = table.legal_moves(state)
    may_out, minimum = answers(table, state)
    out = []
    for m in candidates(state, legal, rng):
        listed = m in legal or table.named_move(state, m, legal) is not None
        reason = verify(state, m, may_out, minimum)
        if (reason is None) != listed:
            said = "legal" if reason is None else repr(str(reason))
            out.append(f"{table.move_text(m, state)!r}: listed {listed}, the check says {said}")
    return out


def corpus_positions(registry: Registry) -> Iterator[tuple[Table, CanastaState]]:
    for item in load("canasta"):
        table, state = position_from_data(dict(item["position"]), registry, item["id"])
        assert isinstance(state, CanastaState)
        yield table, state


def dealt_positions(table: Table, seed: int, deals: int, every: int) -> Iterator[CanastaState]:
    """Every ``every``-th position of seeded deals, played at random with a
    leaning to lay cards (to reach melds, staged initial melds, canastas)."""
    rng = random.Random(seed)
    for _ in range(deals):
        state = table.new_match(rng.getrandbits(63)).start_deal()
        step = 0
        while not table.is_deal_over(state) and step < 300:
            legal = table.legal_moves(state)
            if step % every == 0:
                yield state
            lays = [m for m in legal if m.kind in LAYS]
            move = rng.choice(lays) if lays and rng.random() < 0.7 else rng.choice(legal)
            table.apply(state, move, legal)
            step += 1


def test_the_checks_agree_with_the_generator_over_the_corpus(registry):
    rng = random.Random(47)
    problems = []
    positions = 0
    for table, state in corpus_positions(registry):
        positions += 1
        problems += [f"{p} (at {state.phase})" for p in disagreements(table, state, rng)]
    assert positions >= 100
    assert not problems, f"{len(problems)} disagreements, e.g.:\n" + "\n".join(problems[:12])


@pytest.mark.parametrize(
    "players,house_rules",
    [(2, []), (3, []), (4, []), (4, ["canasta.permission_required"]), (3, ["canasta.every_man_for_himself"])],
)
def test_the_checks_agree_with_the_generator_in_dealt_positions(registry, players, house_rules):
    table = Table.from_names(registry, "canasta", players, {}, house_rules)
    rng = random.Random(players)
    problems: list[str] = []
    kinds: set[str] = set()
    positions = 0
    for state in dealt_positions(table, seed=players * 10 + len(house_rules), deals=3, every=4):
        positions += 1
        kinds |= {m.kind for m in table.legal_moves(state)}
        problems += disagreements(table, state, rng)
    assert positions >= 60
    assert {"draw", "meld", "add", "discard"} <= kinds
    assert not problems, f"{len(problems)} disagreements, e.g.:\n" + "\n".join(problems[:12])


def test_a_check_that_disagrees_is_found(registry, monkeypatch):
    """The agreement test can fail: a discard check that allows every
    discard (N10, N12, N13a forgotten) disagrees somewhere in the corpus."""
    monkeypatch.setitem(verify_module.VERIFY, "discard", lambda state, m, may_out, minimum: None)
    rng = random.Random(1)
    found = [p for table, state in corpus_positions(registry) for p in disagreements(table, state, rng)]
    assert any("discard" in p and "listed False" in p for p in found)
