"""Where a game's seed comes from when nobody gives one.

A match's seed decides every shuffle and cut (``cardcore.match.Match``):
whoever knows it can compute every hand. A seed the user does not give is
therefore drawn from the operating system's secure source (``secrets``) with
128 bits, far beyond any search over the seed space (a 31-bit seed was found
from the first frame a spectator sees in under an hour of one core). A seed
given with ``--seed`` (or a table's ``seed:``) stays: reproducible on purpose.
"""

from __future__ import annotations

import random
import secrets

SEED_BITS = 128


def fresh_seed() -> int:
    """A new, unguessable seed (``SEED_BITS`` bits from ``secrets``)."""
    return secrets.randbits(SEED_BITS)


def match_seed(seed: int, k: int) -> int:
    """The seed of match ``k`` (from 0) of a run seeded ``seed`` (``simulate``,
    a table of ``serve`` given a seed): its deck and every bot's RNG derive from it."""
    return random.Random(f"{seed}/match/{k}").getrandbits(63)
