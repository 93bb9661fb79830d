"""cardcore for learning agents (the optional extra ``cardcore[rl]``): every
installed game as a PettingZoo AEC environment (``env``), a Gymnasium
single-agent environment (``gym_env``) and an OpenSpiel game
(``cardcore.rl.spiel``), with the game's fixed-size arrays
(``cardcore.rl.encoding``, the hook ``cardcore_rl_encoding``). See docs/RL.md.

Nothing here is imported by the core; numpy, PettingZoo and Gymnasium are
imported when an environment is made."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardcore.rl.aec import CardEnv, env, raw_env
    from cardcore.rl.gym import gym_env

_WHERE = {
    "env": "cardcore.rl.aec",
    "raw_env": "cardcore.rl.aec",
    "CardEnv": "cardcore.rl.aec",
    "gym_env": "cardcore.rl.gym",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'cardcore.rl' has no attribute {name!r}")


__all__ = ["CardEnv", "env", "gym_env", "raw_env"]
