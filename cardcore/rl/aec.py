"""Every installed game as a PettingZoo AEC environment (``cardcore.rl.env``).

Agents are seats (``seat_0`` …); the agent to act is the seat the engine asks
(``state.to_act``). ``reset(seed)`` starts match 0 of a ``cardcore simulate
--seed SEED`` run (its seed ``match_seed(SEED, 0)``: the same deal); each later
``reset()`` without a seed the next match of that run. ``observe(agent)`` is
``{"observation": float32 vector, "action_mask": int8 vector}`` from
``Table.observe`` for that seat alone (the game's ``Encoding``, or the
generic one). Rewards come when a deal ends, the same to every seat of a side:
the side's points (``reward="points"``) or its points less the mean of the
other sides' (``reward="margin"``, zero-sum); an episode is one deal
(``episode="deal"``) or the match (``episode="match"``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from numpy.typing import NDArray
from pettingzoo import AECEnv

from cardcore.errors import PluginError
from cardcore.game import DealState, Observation
from cardcore.match import DealResult, Match
from cardcore.moves import Move
from cardcore.plugins import discover
from cardcore.rl.encoding import Encoding, encoding_for
from cardcore.seeds import fresh_seed, match_seed
from cardcore.table import Table

REWARDS = ("points", "margin")
EPISODES = ("deal", "match")


def make_table(
    game: str | Table,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    house_rules: Sequence[str] = (),
) -> Table:
    """The table an environment plays: ``game`` by name (the registry's), or a table."""
    if isinstance(game, Table):
        return game
    return Table.from_names(discover(), game, players, options, list(house_rules))


class CardEnv(AECEnv[str, dict[str, NDArray[Any]], int]):  # type: ignore[misc]  # PettingZoo: untyped
    """One table as a PettingZoo AEC environment (see the module's docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game: str | Table,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        house_rules: Sequence[str] = (),
        reward: str = "points",
        episode: str = "deal",
        encoding: Encoding | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward: one of {', '.join(REWARDS)}, not {reward!r}")
        if episode not in EPISODES:
            raise ValueError(f"episode: one of {', '.join(EPISODES)}, not {episode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: one of human, ansi, not {render_mode!r}")
        self.table = table = make_table(game, players, options, house_rules)
        self.encoding = encoding if encoding is not None else encoding_for(table)
        self.reward_kind, self.episode = reward, episode
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"cardcore_{table.game.name}_v0"}
        self.possible_agents = [f"seat_{i}" for i in range(table.players)]
        self.agent_seat = {a: i for i, a in enumerate(self.possible_agents)}
        enc = self.encoding
        self._obs_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(0.0, enc.high, (enc.size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (enc.actions,), np.int8),
            }
        )
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(enc.actions) for a in self.possible_agents}
        self.seed_value: int | None = None
        self.match_number = 0
        self.match: Match | None = None
        self.state: DealState | None = None
        self.moves: list[Move] = []  # legal moves of the seat to act
        self._ids: dict[int, Move] = {}
        self._view: Observation | None = None
        self.deal_moves = 0
        self.last_result: DealResult | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # ---- the episode ----------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.seed_value, self.match_number = seed, 0
        elif self.seed_value is None:
            self.seed_value, self.match_number = fresh_seed(), 0
        else:
            self.match_number += 1
        for a, space in self.action_spaces.items():
            space.seed(None if seed is None else seed + self.agent_seat[a])
        self.match = self.table.new_match(match_seed(self.seed_value, self.match_number))
        self.match.take_events()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._start_deal()

    def _start_deal(self) -> None:
        assert self.match is not None
        self.state = self.match.start_deal()
        self.match.take_events()
        self.deal_moves = 0
        self._decision()

    def _decision(self) -> None:
        """The seat to act and its legal moves, by action id."""
        state = self.state
        assert state is not None
        table = self.table
        self.moves = table.legal_moves(state)
        seat = state.to_act
        obs = self._view = table.observe(state, seat)  # the seat to act's, read again by observe()
        ids: dict[int, Move] = {}
        for m, n in zip(self.moves, self.encoding.actions_of(self.moves, obs), strict=True):
            if n < 0:
                continue  # past the generic encoding's cap
            if n in ids or n >= self.encoding.actions:
                raise PluginError(
                    f"{table.game.name}: encoding {self.encoding.name!r} gives the moves "
                    f"{table.move_text(ids.get(n, m))!r} and {table.move_text(m)!r} the action id {n}"
                    f" (of {self.encoding.actions})"
                )
            ids[n] = m
        self._ids = ids
        self.agent_selection = self.possible_agents[seat]
        for a in self.agents:
            self.infos[a] = {"legal_moves": len(self.moves)} if a == self.agent_selection else {}

    @property
    def seat(self) -> int:
        """The seat to act."""
        return self.agent_seat[self.agent_selection]

    def legal_moves(self) -> dict[int, Move]:
        """The seat to act's legal moves by action id."""
        return dict(self._ids)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in self._ids:
            raise ValueError(f"action {action!r} is not legal for {agent} (see its action_mask)")
        state = self.state
        assert state is not None and self.match is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.table.apply(state, self._ids[int(action)], self.moves)
        self.deal_moves += 1
        if self.table.is_deal_over(state):
            self._end_deal()
        else:
            self._decision()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_deal(self) -> None:
        match, state = self.match, self.state
        assert match is not None and state is not None
        result = match.end_deal(state, self.deal_moves)
        self.last_result = result
        points = result.points
        for side, seats in enumerate(self.table.sides):
            r = float(points[side])
            if self.reward_kind == "margin" and len(points) > 1:
                others = [p for i, p in enumerate(points) if i != side]
                r -= sum(others) / len(others)
            for s in seats:
                self.rewards[self.possible_agents[s]] = r
        if self.episode == "deal" or match.over:
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = {"points": list(points), "scores": list(match.scores), "over": match.over}
            self._ids = {}
        else:
            self._start_deal()

    # ---- what a seat sees -----------------------------------------------------------
    def view(self, agent: str) -> Observation:
        """What ``agent``'s seat may see (``Table.observe``)."""
        assert self.state is not None
        seat = self.agent_seat[agent]
        if self._ids and agent == self.agent_selection and self._view is not None:
            return self._view  # the seat to act's view, made for its action ids (nothing moved since)
        return self.table.observe(self.state, seat)

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        enc = self.encoding
        numbers = [0.0] * enc.size  # written as a list (a numpy element costs several times more)
        enc.observe(self.view(agent), numbers)
        vector = np.array(numbers, dtype=np.float32)
        mask = np.zeros(enc.actions, dtype=np.int8)
        if agent == self.agent_selection and not self.terminations[agent] and self._ids:
            mask[list(self._ids)] = 1
        return {"observation": vector, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: render_mode='human' or 'ansi'")
            return None
        text = self.text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def text(self) -> str:
        """The terminal's view of the seat to act, and its legal moves."""
        from cardcore.render import show_observation

        table, state = self.table, self.state
        assert state is not None
        seat = self.seat
        plugin = table.plugin
        lines = show_observation(
            table.observe(state, seat),
            list(table.names),
            color=False,
            hand_order=plugin.hand_order,
            item=plugin.show_item,
            domain=plugin.domain,
        )
        if self._ids:
            lines.append(f"{table.names[seat]} to play:")
            lines += [f"  [{a}] {table.move_text(m, state)}" for a, m in sorted(self._ids.items())]
        elif self.last_result is not None:
            lines.append(f"deal over: points {self.last_result.points}")
        return "\n".join(lines)

    def close(self) -> None:
        pass

    def random_action(self, rng: random.Random) -> int:
        """A legal action id of the seat to act, drawn from ``rng``."""
        return rng.choice(sorted(self._ids))


def raw_env(
    game: str | Table,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    house_rules: Sequence[str] = (),
    **kwargs: Any,
) -> CardEnv:
    """The environment without PettingZoo's wrappers."""
    return CardEnv(game, players, options, house_rules, **kwargs)


def env(
    game: str | Table,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    house_rules: Sequence[str] = (),
    **kwargs: Any,
) -> AECEnv[str, dict[str, NDArray[Any]], int]:
    """``game`` (a registered game's name) as a PettingZoo AEC environment,
    wrapped as PettingZoo's classic environments are (an illegal action, an
    action out of bounds and a step out of order raise)."""
    from pettingzoo.utils import wrappers

    wrapped: AECEnv[str, dict[str, NDArray[Any]], int] = wrappers.OrderEnforcingWrapper(
        wrappers.AssertOutOfBoundsWrapper(raw_env(game, players, options, house_rules, **kwargs))
    )
    return wrapped
