"""Why a Canasta move is not legal, naming the ruling (``cardcore_explain_illegal``).

The reason is the rule's own: ``verify.py`` holds one check per move kind,
which says why a move is not legal or that it is, by the same functions the
move generator asks (``tests/test_canasta_verify.py`` holds the two in
agreement), so that a reason cannot disagree with what is legal. A move the
check finds legal — a listed one named with the other copy of a card (two
decks, N2) or another suit (N8a) — is said to be legal."""

from __future__ import annotations

from cardcore.i18n import Text
from cardcore.moves import Move
from cardcore_plugins.canasta.moves import move_text
from cardcore_plugins.canasta.state import CanastaState
from cardcore_plugins.canasta.verify import resolve, verify
from cardcore_plugins.canasta.words import T


def explain(state: CanastaState, m: Move, legal: list[Move], may_out: bool, minimum: int) -> str:
    """Why ``m`` is not legal (naming the ruling). ``legal``: the legal moves;
    ``may_out``, ``minimum``: the ``canasta_may_go_out`` and initial-minimum
    answers for the player to act (as the move generator had them)."""
    reason = verify(state, m, may_out, minimum)
    if reason is not None:
        return reason
    got = resolve(state, m)
    assert not isinstance(got, Text)  # the check found the cards in the hand
    same = next((o for o in legal if _key(o) == _key(got)), got)
    # i18n: {move}: the legal move, in words (two decks: each card has two copies, N2)
    return T("that move is legal: {move} (either copy of a card, N2, N8a)", move=move_text(same))


def _key(m: Move) -> tuple[object, ...]:
    """A move as a person names it: its kind, rank and cards by name."""
    cards = m.get("cards", ()) or ((m.card,) if m.card is not None else ())
    return (m.kind, m.get("rank"), tuple(sorted(c.name for c in cards)))
