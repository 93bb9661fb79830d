"""The information ceiling: an arena in which one bot sees every hand.

    python benchmarks/clairvoyant.py paquet_voleur --players 2 --bot clairvoyant:level=hard --bot hard \\
        --deals 300 --seed 2045 --json

Runs ``cardcore arena`` with the arguments given, after adding to every table
a player kind ``clairvoyant``: the search of ``level`` (a level whose bot is
the ``ismcts`` search, ``hard`` by default), with the same budget and random
generator, whose imagined deals hold every hand as it really is — only the
stock's order is imagined. How far it beats the same level playing honestly
bounds what any better reading of the hidden cards (``cardcore_sample_state``)
could win, and so what a stronger honest search could gain over that level.
It cheats: it is a measuring stick and lives here, never among the players.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from cardcore.players import pass_witness
from cardcore.table import Table


class _Seeing:
    """A decision whose imagined deals are the real one, the stock shuffled."""

    def __init__(self, decision: Any) -> None:
        self._decision = decision

    def sample(self, rng: random.Random, plain: bool = False) -> Any:
        state = self._decision._state.clone()
        rng.shuffle(state.stock)
        return state

    def __getattr__(self, name: str) -> Any:
        return getattr(self._decision, name)


class Clairvoyant:
    """``level``'s bot (with ``iterations``, that budget: ``hard:iterations=N``),
    handed a ``_Seeing`` decision at every choice."""

    def __init__(
        self, table: Table, seat: int, rng: random.Random, level: str = "hard", iterations: int = 0
    ) -> None:
        options = {"iterations": iterations} if iterations else {}
        self.inner = table.player_kinds[level](table, seat, rng, **options)
        self.needs_observation = self.inner.needs_observation
        pass_witness(self, self.inner)  # a bot that follows the game (ismcts:model=…)

    def choose(self, observation: Any, moves: Any, decision: Any = None) -> Any:
        return self.inner.choose(observation, moves, None if decision is None else _Seeing(decision))


def main() -> None:
    made = Table.__init__

    def init(self: Table, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        self.player_kinds["clairvoyant"] = Clairvoyant

    Table.__init__ = init  # type: ignore[method-assign]
    from cardcore.cli import main as cli

    sys.argv = ["cardcore", "arena", *sys.argv[1:]]
    cli()


if __name__ == "__main__":
    main()
