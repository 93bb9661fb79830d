"""The harness of the explanation property tests (issue 21: explanations
that are true): over random positions of a table, candidate moves built
from the hand — each card with each move kind, and each legal move altered
by one card — are explained (``cardcore_explain_illegal``) whenever they are
not legal, and each explanation is checked against the position by the
game's claim checkers: a claim that a card is not in the hand when it is,
that a capture exists when none does, that the side lacks a canasta when it
has one … fails.

A claim checker is ``check(table, state, move, reason) -> str | None``: the
problem it found in ``reason`` (None: nothing false said)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

from cardcore.cards import card
from cardcore.game import DealState
from cardcore.moves import Move, default_move_text
from cardcore.runner import make_players
from cardcore.table import Table

Claim = Callable[[Table, DealState, Move, str], "str | None"]


def positions(table: Table, deals: int, seed: int, every: int = 3) -> Iterator[DealState]:
    """Clones of every ``every``-th position of ``deals`` seeded deals (random bots)."""
    players = make_players(table, ["random"] * table.players, seed)
    master = random.Random(seed)
    match = table.new_match(master.getrandbits(63))
    for _ in range(deals):
        if match.over:
            match = table.new_match(master.getrandbits(63))
        state = match.start_deal()
        step = 0
        while not table.is_deal_over(state):
            moves = table.legal_moves(state)
            if step % every == 0:
                yield state.clone()
            p = players[state.to_act]
            table.apply(state, p.choose(None, tuple(moves)), moves)
            step += 1
        match.end_deal(state)


def candidates(table: Table, state: DealState) -> list[Move]:
    """Moves a person might try: each card of the hand (each name once, the
    first copy) with
    each kind seen in the legal moves, bare (``Move(kind, card)``), and each
    legal move with its card swapped for another card of the hand."""
    legal = table.legal_moves(state)
    # each name once, as a person's typing names it: the first copy (two decks:
    # the hand may hold the other one, which the game must see as the same card)
    hand = [card(name) for name in dict.fromkeys(c.name for c in state.hands[state.to_act])]
    kinds = {m.kind for m in legal} | set(getattr(table.plugin, "move_kinds", ()))
    out = [Move(kind, c) for kind in sorted(kinds) for c in hand]
    for m in legal:
        if m.card is not None:
            out += [m._replace(card=c) for c in hand if c.name != m.card.name]
    return out


def not_in_hand(table: Table, state: DealState, move: Move, reason: str) -> str | None:
    """``X is not in your hand`` / ``you do not hold X``: true only if no card
    of that name is there (two decks: either copy counts)."""
    named = re.search(r"\b([0-9]{1,2}[CDHS]|[AJQK][CDHS]|JOKER\w*|BROOM)\b (?:is not in|isn't in)", reason)
    named = named or re.search(r"you do not hold (\S+)", reason)
    if named and named.group(1).rstrip(".,:;") in {c.name for c in state.hands[state.to_act]}:
        return f"says {named.group(1)} is not in the hand, which holds it"
    return None


def _text(table: Table, state: DealState, move: Move) -> str:
    try:  # a bare candidate may lack the fields the game's text reads
        return table.move_text(move, state)
    except (TypeError, KeyError, AttributeError):
        return default_move_text(move)


def check_explanations(
    table: Table, deals: int, seed: int, claims: list[Claim], every: int = 3, limit: int = 4000
) -> dict[str, Any]:
    """Every illegal candidate gets a reason, and no claim checker finds it
    false; returns counts (positions, candidates explained)."""
    explained = seen = 0
    problems: list[str] = []
    for state in positions(table, deals, seed, every):
        seen += 1
        legal = set(table.legal_moves(state))
        for move in candidates(table, state):
            if move in legal or explained >= limit:
                continue
            reason = table.explain_illegal(state, move)
            explained += 1
            text = _text(table, state, move)
            if not reason:
                problems.append(f"{text!r}: no reason given")
                continue
            for claim in (not_in_hand, *claims):
                wrong = claim(table, state, move, reason)
                if wrong:
                    problems.append(f"{text!r} → {reason!r}: {wrong}")
    assert not problems, f"{len(problems)} false explanations, e.g.:\n" + "\n".join(problems[:12])
    return {"positions": seen, "explained": explained}
