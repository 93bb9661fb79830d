"""Environment steps per second: cardcore.rl's PettingZoo environment for each
installed game against RLCard's gin-rummy environment, in the same run (both
with a random agent choosing among the legal actions; a step is one decision:
the observation of the agent to act, its action mask, the step).

    python benchmarks/rl_bench.py --seconds 10

Needs cardcore[rl]; RLCard (``pip install rlcard``) for its figure (benchmark
only: not an extra). Rates are per second of CPU time (``time.process_time``):
the machines are shared. Numbers go in closing notes and docs/RL.md.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np


def cardcore_rate(game: str, players: int, options: dict[str, Any], seconds: float) -> dict[str, float]:
    from cardcore.rl.aec import raw_env

    env = raw_env(game, players, options)
    rng = np.random.default_rng(0)
    steps = episodes = 0
    env.reset(seed=1)
    start = time.process_time()
    while time.process_time() - start < seconds:
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if all(env.terminations.values()):
            episodes += 1
            env.reset()
    took = time.process_time() - start
    return {"steps_per_s": round(steps / took), "episodes_per_s": round(episodes / took, 1)}


def rlcard_rate(seconds: float) -> dict[str, float] | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 1})
    rng = random.Random(0)
    steps = episodes = 0
    state, _ = env.reset()
    start = time.process_time()
    while time.process_time() - start < seconds:
        action = rng.choice(list(state["legal_actions"]))
        state, _ = env.step(action)
        steps += 1
        if env.is_over():
            episodes += 1
            state, _ = env.reset()
    took = time.process_time() - start
    return {"steps_per_s": round(steps / took), "episodes_per_s": round(episodes / took, 1)}


def main() -> None:
    from cardcore.plugins import discover

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per environment")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict[str, Any] = {}
    registry = discover()
    for name in sorted(registry.games):
        for players, options in registry.game(name).tables():
            out[f"cardcore {name} {players}p"] = cardcore_rate(name, players, options, args.seconds)
    gin = rlcard_rate(args.seconds)
    if gin is not None:
        out["rlcard gin-rummy 2p"] = gin
    if args.json:
        print(json.dumps(out, indent=1))
        return
    for key, rate in out.items():
        print(f"{key:<28} {rate['steps_per_s']:>8} steps/s {rate['episodes_per_s']:>8} episodes/s")


if __name__ == "__main__":
    main()
