"""Carrousel's own hooks: the small decisions house rules change most."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardcore.hookspecs import hookspec

if TYPE_CHECKING:
    from cardcore_plugins.carrousel.state import CarrouselState


class CarrouselSpec:
    @hookspec(firstresult=True)
    def carrousel_may_trail(self, state: CarrouselState, forced: bool) -> bool | None:
        """Return whether ``state.to_act`` may trail a card this turn.

        Called by Carrousel's legal-move generation when a capture or build is
        possible (``forced`` is True; without one, trailing is always allowed,
        C10).  Never called for a player who owns a build (he must capture it,
        C8).  Default (C10): False.
        None: no opinion (the next implementation is asked).
        """
