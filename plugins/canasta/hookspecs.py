"""Canasta's own hooks: the small decisions house rules change (N18)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardcore.hookspecs import hookspec

if TYPE_CHECKING:
    from cardcore_plugins.canasta.state import CanastaState


class CanastaSpec:
    @hookspec(firstresult=True)
    def canasta_may_go_out(self, state: CanastaState, seat: int) -> bool | None:
        """Return whether ``seat`` may go out this turn as far as asking goes.

        Called once per legal-move generation in the play phase.  Default
        (N12): yes unless his partner answered no.  The canastas needed (N11)
        are checked separately.
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def canasta_initial_minimum(self, state: CanastaState, seat: int, score: int) -> int | None:
        """Return the points ``seat``'s side needs for its initial meld.

        Called once per legal-move generation while the side has not melded;
        ``score`` is the cumulative score that decides it (N10, N17).
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def canasta_start_pile(self, state: CanastaState) -> bool | None:
        """Turn up the first card(s) of the discard pile from ``state.stock``.

        Called once by the deal, after the hands are dealt.  Sets
        ``state.discard`` and ``state.frozen_start`` (N4).  Return True once the pile is
        started (the next implementations are not called).
        None: no opinion (the next implementation is asked).
        """

    @hookspec(firstresult=True)
    def canasta_partnership_on_pile(self, state: CanastaState) -> bool | None:
        """Return whether, with 3 players, taking the pile first forms the
        partnership of the two others (N17).  Called when the pile is taken.
        None: no opinion (the next implementation is asked).
        """
