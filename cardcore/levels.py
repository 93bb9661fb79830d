"""Levels a person picks: ``easy``, ``normal``, ``hard``, ``expert``.

Each level is a player kind of every game (registered by the core), and
resolves to a bot configuration of the game and player count: a kind spec
(``cardcore.kinds.make_player``). A game names its own in its plugin's
``levels`` (``GamePlugin.levels``: level → spec, or level → {players: spec});
a game that names none gets the core's (``DEFAULT_LEVELS``).

- ``easy``: the game's ``greedy`` (else ``random``) that plays a uniformly
  random move instead at a share ``mistakes`` of its decisions (its spec's
  option ``mistakes=0.5``: a level's own option, taken off before the kind
  is made).
- ``normal``: the game's ``greedy`` (else ``random``).
- ``hard``: the search (``ismcts``) with an iteration budget calibrated so
  that a decision takes about 300 ms of CPU or less on this project's
  machines; ``expert``: the same within about 1 s. The budget is in
  iterations, not time (and, where long rollouts would pass the time, in
  moves played by the rollouts: ``plies``), so a level plays the same moves
  for a seed on any machine; ``hard:iterations=N`` runs it with another
  budget (tests, slow machines). A game may name another of its bots for a level instead (Paquet
  voleur's ``hard`` at three and four players is its ``careful``): such a
  level takes no ``iterations``.

``python -m cardcore.levels`` prints every game's table of levels.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore.decision import Decision
from cardcore.errors import TableError
from cardcore.game import Observation
from cardcore.i18n import NP_, T, _p
from cardcore.moves import Move
from cardcore.players import pass_witness

if TYPE_CHECKING:
    from cardcore.players import Player
    from cardcore.table import Table

LEVELS = ("easy", "normal", "hard", "expert")
# the levels as a person reads them (the names typed stay these: `--seat 1=hard`)
LEVEL_WORDS = {
    "easy": NP_("level", "easy"),
    "normal": NP_("level", "normal"),
    "hard": NP_("level", "hard"),
    "expert": NP_("level", "expert"),
}


def level_name(level: str) -> str:
    """A level (or any player kind) as a person reads it, in the language in
    use: ``normal`` → ``normalny`` in Polish; a kind that is no level as it is."""
    return _p("level", level) if level in LEVEL_WORDS else level


# a game that names no levels of its own; ``{base}`` is ``greedy`` where the
# game has it, else ``random``
DEFAULT_LEVELS: dict[str, str] = {
    "easy": "{base}:mistakes=0.5",
    "normal": "{base}",
    "hard": "ismcts:iterations=100,prior={base},rollout={base}",
    "expert": "ismcts:iterations=300,prior={base},rollout={base}",
}


def level_spec(table: Table, level: str) -> str:
    """The kind spec ``level`` stands for at ``table`` (its game, its number of players)."""
    if level not in LEVELS:
        raise TableError(
            T("unknown level {level!r}; levels: {levels}", level=level, levels=", ".join(LEVELS))
        )
    named: Mapping[str, Any] = table.plugin.levels
    spec: Any = named.get(level, DEFAULT_LEVELS[level])
    if isinstance(spec, Mapping):
        if table.players not in spec:
            counts = ", ".join(map(str, sorted(spec)))
            raise TableError(
                f"{table.game.name}: level {level!r} names no bot for {table.players} players ({counts})"
            )
        spec = spec[table.players]
    base = "greedy" if "greedy" in table.player_kinds else "random"
    return str(spec).replace("{base}", base)


class Mistaken:
    """A bot that plays a uniformly random legal move instead of its own at a
    share ``mistakes`` of its decisions (the ``easy`` level): its own RNG
    decides, so it stays deterministic for a seed."""

    def __init__(self, inner: Any, rng: random.Random, mistakes: float) -> None:
        self.inner = inner
        self.rng = rng
        self.mistakes = float(mistakes)
        self.needs_observation = inner.needs_observation
        pass_witness(self, inner)  # a bot that follows the game (ismcts:model=…)

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        if len(moves) > 1 and self.rng.random() < self.mistakes:
            return moves[self.rng.randrange(len(moves))]
        move: Move = self.inner.choose(observation, moves, decision)
        return move


def make_level(table: Table, level: str, seat: int, rng: random.Random, iterations: int = 0) -> Player:
    """The player of ``level`` at ``seat``; ``iterations`` > 0 replaces the
    search's budget (a level that does not search refuses it)."""
    from cardcore.kinds import make_player, parse_kind  # kinds.py registers the levels: a circle at import

    spec = level_spec(table, level)
    kind, options = parse_kind(spec)
    mistakes = options.pop("mistakes", 0)
    if iterations:
        if "iterations" not in options:
            raise TableError(
                f"level {level!r} of {table.game.name} does not search ({spec}): it takes no iterations"
            )
        options["iterations"] = int(iterations)
    spec = kind + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
    player = make_player(table, spec, seat, rng)
    return Mistaken(player, rng, mistakes) if mistakes else player


def factory(level: str) -> Callable[..., Player]:
    """The player factory registered for ``level`` (``(table, seat, rng, iterations=0)``)."""

    def make(table: Table, seat: int, rng: random.Random, iterations: int = 0) -> Player:
        return make_level(table, level, seat, rng, iterations)

    make.__name__ = f"{level}_level"
    make.__doc__ = f"The {level!r} level: cardcore.levels.level_spec(table, {level!r})."
    return make


def table_of_levels() -> list[tuple[str, int, str, str]]:
    """(game, players, level, spec) for every installed game and player count."""
    from cardcore.plugins import discover
    from cardcore.table import Table

    registry = discover()
    rows: list[tuple[str, int, str, str]] = []
    for name in sorted(registry.games):
        game = registry.game(name)
        for players in range(game.min_players, game.max_players + 1):
            table = Table(game, players)
            rows.extend((name, players, level, level_spec(table, level)) for level in LEVELS)
    return rows


if __name__ == "__main__":
    for row in table_of_levels():
        print(*row, sep="\t")
