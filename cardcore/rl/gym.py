"""One seat of a game as a Gymnasium environment (``cardcore.rl.gym_env``):
the learner plays ``seat``, the others are any players (a kind the table
knows: ``random``, ``normal``, ``expert``, ``greedy:…``; a ``Player``; or a
function ``(observation, moves) -> move``), played between the learner's
decisions. Observations and rewards are the PettingZoo environment's
(``cardcore.rl.aec``) for that seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, SupportsFloat, cast

import gymnasium
import numpy as np
from numpy.typing import NDArray

from cardcore.decision import Decision
from cardcore.game import Observation
from cardcore.kinds import make_player
from cardcore.moves import Move
from cardcore.players import Player
from cardcore.rl.aec import CardEnv, make_table
from cardcore.runner import bot_rng
from cardcore.seeds import match_seed
from cardcore.table import Table

Policy = Callable[[Observation, Sequence[Move]], Move]
Other = str | Player | Policy
ILLEGAL = ("random", "raise")


class _Policy:
    """A function ``(observation, moves) -> move`` as a player."""

    needs_observation = True

    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        assert observation is not None
        return self.policy(observation, moves)


class CardGymEnv(gymnasium.Env[dict[str, NDArray[Any]], np.int64]):
    """The learner's seat of a ``CardEnv``; see the module's docstring.

    ``illegal``: what an action outside the mask does: ``random`` plays a legal
    move drawn from the environment's RNG and says so (``info["illegal"]``),
    ``raise`` raises ``ValueError``. ``action_masks()`` gives the mask (as
    sb3-contrib's maskable algorithms ask)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self,
        game: str | Table,
        players: int | None = None,
        seat: int = 0,
        others: Sequence[Other] | None = None,
        options: dict[str, Any] | None = None,
        house_rules: Sequence[str] = (),
        illegal: str = "random",
        render_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        table = make_table(game, players, options, house_rules)
        self.aec = CardEnv(table, render_mode=render_mode, **kwargs)
        if not 0 <= seat < table.players:
            raise ValueError(f"seat {seat}: the table's seats are 0 to {table.players - 1}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal: one of {', '.join(ILLEGAL)}, not {illegal!r}")
        self.table, self.seat, self.illegal = table, seat, illegal
        self.agent = self.aec.possible_agents[seat]
        others = list(others) if others is not None else ["random"] * (table.players - 1)
        if len(others) != table.players - 1:
            raise ValueError(f"{len(others)} others for the {table.players - 1} other seats")
        self.others: list[Other | None] = [*others[:seat], None, *others[seat:]]
        self.players: list[Player | None] = []
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode

    def _make_players(self, seed: int) -> None:
        out: list[Player | None] = []
        for s, other in enumerate(self.others):
            if other is None:
                out.append(None)
            elif isinstance(other, str):
                out.append(make_player(self.table, other, s, bot_rng(seed, s)))
            elif hasattr(other, "choose"):
                out.append(cast(Player, other))
            else:
                out.append(_Policy(other))
        self.players = out

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        super().reset(seed=seed)
        aec = self.aec
        aec.reset(seed=seed)
        assert aec.seed_value is not None
        self._make_players(match_seed(aec.seed_value, aec.match_number))  # as ``simulate`` makes them
        reward = self._others_play()
        info = dict(aec.infos[self.agent])
        if reward:
            info["reward_before"] = reward
        return aec.observe(self.agent), info

    def _others_play(self) -> float:
        """The others' moves until the learner decides or the episode ends; the learner's rewards."""
        aec = self.aec
        got = 0.0
        while not aec.terminations[self.agent] and aec.agent_selection != self.agent:
            seat = aec.seat
            player = self.players[seat]
            assert player is not None and aec.state is not None and aec.match is not None
            obs = aec.table.observe(aec.state, seat) if player.needs_observation else None
            decision = Decision(
                aec.table, aec.match, aec.state, seat, len(aec.match.deals) + 1, aec.deal_moves
            )
            move = player.choose(obs, tuple(aec.moves), decision)
            action = next((a for a, m in aec.legal_moves().items() if m == move), None)
            if action is None:
                raise ValueError(f"seat {seat}'s player chose {move!r}, not a legal move with an action id")
            aec.step(action)
            got += aec.rewards[self.agent]
        return got

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, NDArray[Any]], SupportsFloat, bool, bool, dict[str, Any]]:
        aec = self.aec
        legal = aec.legal_moves()
        info: dict[str, Any] = {}
        if int(action) not in legal:
            if self.illegal == "raise":
                raise ValueError(f"action {action!r} is not legal (see the action mask)")
            action = int(self.np_random.choice(sorted(legal)))
            info["illegal"] = True
        aec.step(int(action))
        reward = aec.rewards[self.agent] + self._others_play()
        done = aec.terminations[self.agent]
        info.update(aec.infos[self.agent])
        return aec.observe(self.agent), reward, done, False, info

    def action_masks(self) -> NDArray[np.int8]:
        mask: NDArray[np.int8] = self.aec.observe(self.agent)["action_mask"]
        return mask

    def render(self) -> str | None:
        return self.aec.render()


def gym_env(
    game: str | Table,
    players: int | None = None,
    seat: int = 0,
    others: Sequence[Other] | None = None,
    **kwargs: Any,
) -> CardGymEnv:
    """``game``'s seat ``seat`` as a Gymnasium environment, the ``others`` at the other seats."""
    return CardGymEnv(game, players, seat, others, **kwargs)
