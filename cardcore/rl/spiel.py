"""Every installed game as an OpenSpiel Python game (``pyspiel``; the
``open-spiel`` package, in the extra ``cardcore[rl]``).

``register()`` registers ``cardcore_<game>`` for each game of the registry
(``pyspiel.load_game("cardcore_paquet_voleur(players=2)")``): sequential,
imperfect information, general-sum, terminal rewards, one OpenSpiel game being
one deal. Its chance is explicit: the first node deals, its outcome *i* (of
``deals``, 1000 by default) being the first deal of ``cardcore simulate
--seed i`` (the seed ``match_seed(i, 0)``); every later card comes from that
shuffle. The players act as the engine asks (``state.to_act``); action ids
and the observation tensor are the game's ``Encoding`` (``cardcore.rl``'s),
the observation string the seat's view as JSON; the information state string
adds the public moves of the deal so far and the seat's first hand (perfect
recall). Returns: each seat its side's points for the deal.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from cardcore.game import DealState
from cardcore.moves import Move, move_to_json
from cardcore.plugins import discover
from cardcore.rl.encoding import Encoding, encoding_for
from cardcore.runner import MAX_MOVES
from cardcore.seeds import match_seed
from cardcore.table import Table

DEALS = 1000  # the deal's chance outcomes, by default
POINTS = 100_000.0  # the bound on a deal's points a game's encoding does not name
PREFIX = "cardcore_"


def game_type(name: str) -> pyspiel.GameType:
    spec = discover().game(name)
    return pyspiel.GameType(
        short_name=PREFIX + spec.name,
        long_name=f"cardcore {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.default_players, "deals": DEALS, "options": "{}"},
    )


class CardGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel: untyped
    """One table of a cardcore game as an OpenSpiel game (one deal)."""

    NAME = ""  # the game's name (a subclass per game: ``register``)

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.NAME
        gtype = game_type(name)
        params = {**gtype.parameter_specification, **(params or {})}
        self.table = Table.from_names(discover(), name, int(params["players"]), json.loads(params["options"]))
        self.encoding: Encoding = encoding_for(self.table)
        self.deals = int(params["deals"])
        bound = float(getattr(self.encoding, "points", POINTS))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.actions,
            max_chance_outcomes=self.deals,
            num_players=self.table.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=MAX_MOVES,
        )
        super().__init__(gtype, info, params)

    def __deepcopy__(self, memo: dict[int, Any]) -> CardGame:
        return self  # OpenSpiel copies a state's attributes one by one: the game (and its table) is shared

    def new_initial_state(self) -> CardState:
        return CardState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> CardObserver:
        return CardObserver(self, iig_obs_type)


class _Deal:
    """The deal's state, copied as the engine copies it (``clone``: the table shared)."""

    def __init__(self, state: DealState | None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        return _Deal(self.state.clone() if self.state is not None else None)


class CardState(pyspiel.State):  # type: ignore[misc]  # pyspiel: untyped
    """A deal: before the deal (chance), in play, or over."""

    def __init__(self, game: CardGame) -> None:
        super().__init__(game)
        self.card_game = game
        self._deal = _Deal(None)
        self.first_hands: list[tuple[str, ...]] = []
        self.history_json: list[str] = []  # the public moves, as every seat saw them
        self._moves: dict[int, Move] = {}
        self._over = False
        self._returns: list[float] | None = None

    @property
    def table(self) -> Table:
        return self.card_game.table

    @property
    def deal(self) -> DealState | None:
        return self._deal.state

    # ---- OpenSpiel's API ------------------------------------------------------------
    def current_player(self) -> int:
        if self.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.deal.to_act)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.card_game.deals
        return [(i, p) for i in range(self.card_game.deals)]

    def _legal_actions(self, player: int) -> list[int]:
        if self.deal is None or self._over or player != self.deal.to_act:
            return []
        return sorted(self._moves)

    def _apply_action(self, action: int) -> None:
        table = self.table
        if self.deal is None:
            match = table.new_match(match_seed(int(action), 0))
            self._deal.state = match.start_deal()
            self.first_hands = [tuple(c.name for c in h) for h in self._deal.state.hands]
        else:
            assert self._deal.state is not None
            move = self._moves[int(action)]
            self.history_json.append(
                json.dumps({"seat": self.deal.to_act, **move_to_json(move, "")}, sort_keys=True)
            )
            table.apply(self._deal.state, move)
        assert self._deal.state is not None
        if table.is_deal_over(self._deal.state):
            self._over = True
            self._moves = {}
        else:
            self._moves = self._ids()

    def _ids(self) -> dict[int, Move]:
        state = self.deal
        assert state is not None
        obs = self.table.observe(state, state.to_act)
        moves = self.table.legal_moves(state)
        ids = self.card_game.encoding.actions_of(moves, obs)
        return {n: m for m, n in zip(moves, ids, strict=True) if n >= 0}

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        move = self._moves.get(int(action))
        return self.table.move_text(move, self.deal) if move is not None else f"action {action}"

    def is_terminal(self) -> bool:
        return self._over

    def returns(self) -> list[float]:
        if not self._over or self.deal is None:
            return [0.0] * self.table.players
        if self._returns is None:
            final = self.deal.clone()
            self.table.finish_deal(final)
            points = [s.points for s in self.table.score_deal(final)]
            out = [0.0] * self.table.players
            for side, seats in enumerate(self.table.sides):
                for s in seats:
                    out[s] = float(points[side])
            self._returns = out
        return list(self._returns)

    def __str__(self) -> str:
        if self.deal is None:
            return "(to deal)"
        return json.dumps(self.table.dump_state(self.deal), sort_keys=True, default=str)


class CardObserver:
    """The seat's view as the encoding's vector (``tensor``) and as JSON
    (``string_from``), with the deal's public moves for a perfect-recall
    information state."""

    def __init__(self, game: CardGame, iig_obs_type: pyspiel.IIGObservationType | None) -> None:
        self.game = game
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(game.encoding.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardState, player: int) -> None:
        self.tensor.fill(0)
        if state.deal is not None:
            self.game.encoding.observe(self.game.table.observe(state.deal, player), self.tensor)

    def string_from(self, state: CardState, player: int) -> str:
        if state.deal is None:
            return f"seat {player}: before the deal"
        view = json.dumps(self.game.table.observe(state.deal, player).to_json(), sort_keys=True, default=str)
        if not self.perfect_recall:
            return view
        first = " ".join(state.first_hands[player])
        return "\n".join([f"seat {player} dealt {first}", *state.history_json, view])


def resampler(seed: int = 0) -> Callable[[CardState, int], CardState]:
    """A resampler for OpenSpiel's Python ISMCTS (``ISMCTSBot.set_resampler``):
    the state as ``player`` may imagine it, what he cannot see dealt anew by
    the game's own sampler (``Table.sample_state``), the others' first hands
    forgotten."""
    import random

    rng = random.Random(seed)

    def resample(state: CardState, player: int) -> CardState:
        other: CardState = state.clone()
        deal = state.deal
        if deal is not None:
            other._deal = _Deal(state.table.sample_state(deal, player, rng))
            other.first_hands = [h if i == player else () for i, h in enumerate(state.first_hands)]
            other._moves = other._ids() if not other._over else {}
        return other

    return resample


def register() -> list[str]:
    """Register every installed game with OpenSpiel (once); return their short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for name in sorted(discover().games):
        short = PREFIX + name
        names.append(short)
        if short in registered:
            continue
        # a class per game, as OpenSpiel's own Python games register (a function held by
        # the registry is released without the interpreter's lock when Python exits, and aborts)
        game = type(f"CardGame_{name}", (CardGame,), {"NAME": name, "__module__": __name__})
        globals()[game.__name__] = game
        pyspiel.register_game(game_type(name), game)
    return names
