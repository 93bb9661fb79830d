"""A small learning agent for Paquet voleur, 2 players (any 2-player game with
an encoding: ``--game carrousel``), in numpy only: a linear softmax policy over
the game's action ids (``cardcore.rl``'s encoding), its own weights per id and
weights shared by the ids of one kind (the encoding's ``action_parts``),
trained by REINFORCE (with a running-mean baseline) on the deal's margin, one
seat of ``cardcore.rl.gym_env`` against ``random`` (or any kind).

    python examples/rl/pv_agent.py train --deals 3000 --out pv_policy.npz
    python examples/rl/pv_agent.py arena --policy pv_policy.npz --deals 400

``arena`` measures it with ``cardcore arena``'s own duplicate deals (its
``cardcore.arena.run``, in this process), as the kind ``learned`` beside
``random`` and ``normal``. See docs/RL.md.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from cardcore.game import Observation
from cardcore.moves import Move
from cardcore.rl.encoding import encoding_for
from cardcore.rl.gym import gym_env

GAME = "paquet_voleur"


def kinds_of(action_parts: Sequence[tuple[str, int]]) -> np.ndarray:
    """The kind of each action id, from the encoding's ranges (``action_parts``):
    in Paquet voleur 0 trail (ids 0–51), 1 pair (52–259), 2 steal (260 on)."""
    return np.repeat(np.arange(len(action_parts)), [n for _, n in action_parts])


class Policy:
    """Logits over the action ids, the illegal ones masked out: for action a
    of kind k, ``(W[a] + V[k])·x + b[a] + c[k]``: weights of its own and
    weights its kind shares (a steal learnt with one card helps the others)."""

    def __init__(self, size: int, kind: np.ndarray, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        actions = len(kind)
        self.w = rng.normal(0.0, 0.01, (actions, size)).astype(np.float64)
        self.b = np.zeros(actions)
        self.kind = kind
        kinds = int(kind.max()) + 1
        self.v = np.zeros((kinds, size))
        self.c = np.zeros(kinds)

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        legal = np.flatnonzero(mask)
        k = self.kind[legal]
        z = (self.w[legal] + self.v[k]) @ x + self.b[legal] + self.c[k]
        z -= z.max()
        p = np.exp(z)
        p /= p.sum()
        out = np.zeros(len(mask))
        out[legal] = p
        return out

    def act(self, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator, greedy: bool = False) -> int:
        p = self.probs(x, mask)
        return int(p.argmax()) if greedy else int(rng.choice(len(p), p=p))

    def update(self, x: np.ndarray, mask: np.ndarray, a: int, step: float) -> None:
        """One step of ``step``·∇ log π(a|x)."""
        p = self.probs(x, mask)
        legal = np.flatnonzero(mask)
        grad = -p[legal]
        grad[np.searchsorted(legal, a)] += 1.0
        self.w[legal] += step * np.outer(grad, x)
        self.b[legal] += step * grad
        kinds = self.kind[legal]
        gk = np.bincount(kinds, weights=grad, minlength=len(self.c))
        self.v += step * np.outer(gk, x)
        self.c += step * gk

    def save(self, path: str) -> None:
        np.savez(path, w=self.w, b=self.b, v=self.v, c=self.c, kind=self.kind)

    @classmethod
    def load(cls, path: str) -> Policy:
        data = np.load(path)
        policy = cls(data["w"].shape[1], data["kind"])
        policy.w, policy.b, policy.v, policy.c = data["w"], data["b"], data["v"], data["c"]
        return policy


def train(
    deals: int,
    seed: int = 0,
    lr: float = 0.05,
    opponent: str = "random",
    policy: Policy | None = None,
    game: str = GAME,
) -> tuple[Policy, list[float]]:
    """``deals`` deals of self-improvement against ``opponent``, the learner's
    seat alternating; returns the policy and each deal's margin (its curve)."""
    envs = [gym_env(game, 2, seat=s, others=[opponent], reward="margin") for s in (0, 1)]
    enc = envs[0].aec.encoding
    policy = policy or Policy(enc.size, kinds_of(enc.action_parts), seed)
    rng = np.random.default_rng(seed)
    baseline = 0.0
    curve = []
    for k in range(deals):
        env = envs[k % 2]
        obs, _ = env.reset(seed=seed * 1_000_003 + k)
        steps: list[tuple[np.ndarray, np.ndarray, int]] = []
        done, total = False, 0.0
        while not done:
            x, mask = obs["observation"].astype(np.float64), obs["action_mask"]
            a = policy.act(x, mask, rng)
            steps.append((x, mask, a))
            obs, reward, done, _, _ = env.step(a)
            total += float(reward)
        curve.append(total)
        advantage = (total - baseline) / 52.0
        baseline += 0.02 * (total - baseline)
        for x, mask, a in steps:
            policy.update(x, mask, a, lr * advantage)
    return policy, curve


def evaluate(
    policy: Policy | None, deals: int, seed: int = 12345, opponent: str = "random", game: str = GAME
) -> list[float]:
    """The margins of ``deals`` deals on fresh seeds, seats alternating (None: a random policy)."""
    envs = [gym_env(game, 2, seat=s, others=[opponent], reward="margin") for s in (0, 1)]
    rng = np.random.default_rng(seed)
    out = []
    for k in range(deals):
        env = envs[k % 2]
        obs, _ = env.reset(seed=seed * 7919 + k)
        done, total = False, 0.0
        while not done:
            mask = obs["action_mask"]
            if policy is None:
                a = int(rng.choice(np.flatnonzero(mask)))
            else:
                a = policy.act(obs["observation"].astype(np.float64), mask, rng, greedy=True)
            obs, reward, done, _, _ = env.step(a)
            total += float(reward)
        out.append(total)
    return out


class LearnedPlayer:
    """The policy as a cardcore player (greedy): a kind for ``cardcore arena``."""

    needs_observation = True

    def __init__(self, table: Any, seat: int, rng: random.Random, policy: Policy) -> None:
        self.policy = policy
        self.encoding = encoding_for(table)

    def choose(self, observation: Observation | None, moves: Sequence[Move], decision: Any = None) -> Move:
        assert observation is not None
        enc = self.encoding
        x = np.zeros(enc.size)
        enc.observe(observation, x)
        ids = {n: m for m, n in zip(moves, enc.actions_of(moves, observation), strict=True) if n >= 0}
        mask = np.zeros(enc.actions, dtype=np.int8)
        mask[list(ids)] = 1
        return ids[self.policy.act(x, mask, np.random.default_rng(0), greedy=True)]


def arena(
    policy: Policy,
    deals: int,
    seed: int = 2026,
    bots: Sequence[str] = ("learned", "random", "normal"),
    game: str = GAME,
) -> dict[str, Any]:
    """``cardcore arena paquet_voleur --bot learned --bot random --bot normal``
    on ``deals`` duplicate decks, in this process (the kind ``learned``
    registered on the table the arena plays)."""
    from cardcore.arena import ArenaSpec, run
    from cardcore.simulate import _table

    table = _table(game, 2, (), ())
    table.player_kinds["learned"] = lambda table, seat, rng: LearnedPlayer(table, seat, rng, policy)
    return run(ArenaSpec(game, 2, (), (), tuple(bots), seed), deals)


def plot(
    curve: Sequence[float],
    path: str,
    window: int = 200,
    title: str = "Paquet voleur 2p: the numpy agent learning",
) -> None:
    """The learning curve: the margin per deal, its running mean over ``window`` deals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    means = np.convolve(curve, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot(range(window - 1, len(curve)), means)
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.set_xlabel("deals of training")
    ax.set_ylabel(f"margin, mean of {window} deals")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train")
    t.add_argument("--game", default=GAME, help="a game of 2 players (paquet_voleur, carrousel …)")
    t.add_argument("--deals", type=int, default=3000)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--lr", type=float, default=0.05)
    t.add_argument("--opponent", default="random")
    t.add_argument("--out", default="pv_policy.npz")
    t.add_argument("--curve", help="a JSON file for the learning curve (margin per deal)")
    t.add_argument("--plot", help="a PNG of the learning curve (needs matplotlib: cardcore[study])")
    a = sub.add_parser("arena")
    a.add_argument("--game", default=GAME)
    a.add_argument("--policy", default="pv_policy.npz")
    a.add_argument("--deals", type=int, default=400)
    a.add_argument("--seed", type=int, default=2026)
    a.add_argument("--bot", action="append", help="a bot (twice or more; default: learned, random, normal)")
    args = parser.parse_args(argv)
    if args.command == "train":
        start = time.time()
        policy, curve = train(args.deals, args.seed, args.lr, args.opponent, game=args.game)
        policy.save(args.out)
        k = max(1, len(curve) // 10)
        for i in range(0, len(curve), k):
            print(f"deals {i:>6}-{i + k - 1:<6} mean margin {np.mean(curve[i : i + k]):+.2f}")
        print(f"trained in {time.time() - start:.0f} s; saved {args.out}")
        if args.curve:
            with open(args.curve, "w") as f:
                json.dump(curve, f)
        if args.plot:
            plot(curve, args.plot, title=f"{args.game} 2p: the numpy agent learning against {args.opponent}")
    else:
        bots = tuple(args.bot or ("learned", "random", "normal"))
        summary = arena(Policy.load(args.policy), args.deals, args.seed, bots, args.game)
        json.dump(summary, sys.stdout, indent=1)
        print()


if __name__ == "__main__":
    main()
