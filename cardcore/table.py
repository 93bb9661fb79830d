"""A table: one game, its players, options and house rules, and the typed
facade over its plugin manager (one method per hook)."""

from __future__ import annotations

import os
import random
import sys
import unicodedata
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pluggy
from pydantic import BaseModel, ValidationError

from cardcore.cards import Card
from cardcore.errors import IllegalMoveError, PluginError, TableError, joined, message, pydantic_problems
from cardcore.game import DealState, GamePlugin, GameSpec, HouseRuleSpec, Observation, SideScore
from cardcore.hookspecs import PROJECT, REQUIRED_HOOKS, STATE_HOOKS, TableSpec
from cardcore.i18n import T, Text, Tn
from cardcore.moves import Move, move_to_json
from cardcore.plugins import ENV_TRACE, Registry, UnknownNameError
from cardcore.seats import side_of_seats
from cardcore.state import declared_state

if TYPE_CHECKING:
    from cardcore.match import Match
    from cardcore.players import PlayerFactory


class Table:
    """One game set up for play.

    Built from a game spec, a player count, the game's options (a dict is
    validated by the game's pydantic model) and house rules in order.  The
    plugin manager holds the core defaults, then the game, then the house
    rules, so that each house rule wraps what was registered before it.
    """

    def __init__(
        self,
        game: GameSpec,
        players: int | None = None,
        options: BaseModel | dict[str, Any] | None = None,
        house_rules: Sequence[HouseRuleSpec] = (),
        names: Sequence[str] | None = None,
    ) -> None:
        from cardcore import defaults

        self.game = game
        self.players = game.default_players if players is None else players
        if not game.min_players <= self.players <= game.max_players:
            raise TableError(
                Tn(
                    "{game} is played by {low} to {n} player, not {players}",
                    "{game} is played by {low} to {n} players, not {players}",
                    game.max_players,
                    game=game.name,
                    low=game.min_players,
                    players=self.players,
                )
            )
        if isinstance(options, BaseModel):
            self.options = options
        else:
            try:
                self.options = game.options_model.model_validate(options or {})
            except ValidationError as err:
                fields = list(game.options_model.model_fields)
                problems = [_with_suggestion(p, fields) for p in pydantic_problems(err, "option")]
                # i18n: the problems of a table's options (joined by "; "), then the game's id
                raise TableError(
                    T("{problems} ({game})", problems=joined(problems, "; "), game=game.name)
                ) from None
        problem = game.check_table(self.players, self.options)
        if problem:
            raise TableError(problem)
        seen: set[str] = set()
        for hr in house_rules:
            if hr.game != game.name:
                raise TableError(
                    T(
                        "house rule {name!r} is for {game}, not for {table}",
                        name=hr.name,
                        game=hr.game,
                        table=game.name,
                    )
                )
            if hr.players and self.players not in hr.players:
                raise TableError(_house_rule_counts(hr.name, hr.players, self.players))
            if hr.name in seen:
                raise TableError(
                    T("house rule {name!r} is named twice (the table has it already)", name=hr.name)
                )
            seen.add(hr.name)
        self.house_rules = tuple(house_rules)
        self.names = [safe_name(n) for n in names] if names else [f"Player {i}" for i in range(self.players)]
        self.sides = game.sides(self.players, self.options)
        self.side_of = side_of_seats(self.sides)

        pm = pluggy.PluginManager(PROJECT)
        pm.add_hookspecs(TableSpec)
        for spec in game.hookspecs:
            pm.add_hookspecs(spec)
        pm.register(defaults, name="cardcore.defaults")
        self.plugin: GamePlugin[Any, Any] = game.plugin(self)  # the game's answers to the hooks
        if not isinstance(self.plugin, GamePlugin):
            raise PluginError(
                T(
                    "game {game}: its plugin is no GamePlugin (cardcore.game): {kind}",
                    game=game.name,
                    kind=type(self.plugin).__name__,
                )
            )
        pm.register(self.plugin, name=game.name)
        for hr in self.house_rules:
            pm.register(hr.plugin, name=hr.name)
        pm.check_pending()
        _check_required(pm, game, self.plugin)
        if os.environ.get(ENV_TRACE):
            pm.trace.root.setwriter(sys.stderr.write)
            pm.enable_tracing()
        self.pm = pm
        self.hook = pm.hook
        # The engine's inner loop: direct calls when one plain implementation
        # answers a hook (no wrapper, no tracing), else the hook itself.
        traced = self.traced = bool(os.environ.get(ENV_TRACE))
        self.fast_legal_moves: Callable[[DealState], list[Move]] = _direct(
            pm.hook.cardcore_legal_moves, ("state",), traced
        )
        self.fast_apply_move: Callable[[DealState, Move], DealState] = _direct(
            pm.hook.cardcore_apply_move, ("state", "move"), traced
        )
        self.fast_is_deal_over: Callable[[DealState], bool] = _direct(
            pm.hook.cardcore_is_deal_over, ("state",), traced
        )
        # bots that read an observation ask for one at every decision, search
        # bots' rollouts included
        self._observe: Callable[[DealState, int | None], Observation] = _direct(
            pm.hook.cardcore_observe, ("state", "seat"), traced
        )
        # a search that stops its playouts counts the points held at each stop (score_position)
        self._finish_deal: Callable[[DealState], None] = _direct(
            pm.hook.cardcore_finish_deal, ("state",), traced
        )
        self._score_deal: Callable[[DealState], list[SideScore]] = _direct(
            pm.hook.cardcore_score_deal, ("state",), traced
        )
        self.hook.cardcore_table_ready(table=self)  # the game binds its own hooks' direct callers
        self.deck: list[Card] = self.hook.cardcore_build_deck(table=self)
        self._kinds: dict[str, PlayerFactory] | None = None

    @property
    def player_kinds(self) -> dict[str, PlayerFactory]:
        """The kinds a seat may name (``cardcore.kinds``), built the first time
        a player is made: the table itself loads no player and no search."""
        if self._kinds is None:
            from cardcore.kinds import player_kinds  # the players, the terminal and the search: when needed

            self._kinds = player_kinds(self)
        return self._kinds

    @classmethod
    def from_names(
        cls,
        registry: Registry,
        game: str,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        house_rules: Sequence[str] = (),
        names: Sequence[str] | None = None,
    ) -> Table:
        """Build a table from names, as a config file or the command line gives them."""
        try:
            spec = registry.game(game)
            hrs = [registry.house_rule(n, game) for n in house_rules]
        except UnknownNameError as err:
            raise TableError(message(err)) from None
        return cls(spec, players, options, hrs, names)

    # ---- facts ---------------------------------------------------------
    @property
    def partnerships(self) -> bool:
        return any(len(s) > 1 for s in self.sides)

    def goal(self) -> str:
        """What wins a match of this table, in words (the game's ``goal()``)."""
        return self.plugin.goal()  # a Text: said in each reader's language

    def describe(self) -> dict[str, Any]:
        """The table's config as JSON data (first line of a game log)."""
        return {
            "game": self.game.name,
            "players": self.players,
            "names": list(self.names),
            "options": self.options.model_dump(mode="json"),
            "house_rules": [h.name for h in self.house_rules],
        }

    def direct(self, hook: str, *argnames: str) -> Callable[..., Any]:
        """A positional callable for ``hook`` (a game's own hook called once per
        decision): its implementation's function when exactly one plain
        implementation answers it, else a call through pluggy. Get it once per
        table (after the house rules are registered), not per call."""
        answer: Callable[..., Any] = _direct(getattr(self.pm.hook, hook), argnames, self.traced)
        return answer

    # ---- the facade: one method per hook --------------------------------
    def first_dealer(self, rng: random.Random, record: Callable[..., None]) -> int:
        answer: int = self.hook.cardcore_first_dealer(table=self, rng=rng, record=record)
        return answer

    def deal(self, match: Match, rng: random.Random, record: Callable[..., None]) -> DealState:
        answer: DealState = self.hook.cardcore_deal(table=self, match=match, rng=rng, record=record)
        return answer

    def is_match_over(self, match: Match) -> bool:
        return bool(self.hook.cardcore_is_match_over(match=match))

    def match_winners(self, match: Match) -> list[int]:
        answer: list[int] = self.hook.cardcore_match_winners(match=match)
        return answer

    def next_dealer(self, match: Match, state: DealState) -> int:
        answer: int = self.hook.cardcore_next_dealer(match=match, state=state)
        return answer

    def explain_illegal(self, state: DealState, move: Move) -> str | None:
        answer: str | None = self.hook.cardcore_explain_illegal(state=state, move=move)
        return answer

    def named_move(self, state: DealState, move: Move, legal: Sequence[Move]) -> Move | None:
        """``move`` if it is a listed move laid with cards the game holds equal
        (``cardcore_named_move``: Canasta's suits, N8a), else None."""
        answer: Move | None = self.hook.cardcore_named_move(state=state, move=move, legal=legal)
        return answer

    def legal_moves(self, state: DealState) -> list[Move]:
        return self.fast_legal_moves(state)

    def apply(self, state: DealState, move: Move, legal: Sequence[Move] | None = None) -> DealState:
        """Play ``move``; raise ``IllegalMoveError`` (state unchanged) if it is not legal."""
        if legal is None:
            legal = self.legal_moves(state)
        if move not in legal and self.named_move(state, move, legal) is None:
            reason = self.explain_illegal(state, move)
            text = self.move_text(move, state)
            if reason:
                raise IllegalMoveError(T("illegal move {move!r}: {reason}", move=text, reason=reason))
            raise IllegalMoveError(T("illegal move {move!r}: not a legal move here", move=text))
        return self.fast_apply_move(state, move)

    def is_deal_over(self, state: DealState) -> bool:
        return bool(self.fast_is_deal_over(state))

    def finish_deal(self, state: DealState) -> None:
        self._finish_deal(state)

    def score_deal(self, state: DealState) -> list[SideScore]:
        return self._score_deal(state)

    def score_position(self, state: DealState) -> list[SideScore]:
        """The points each side holds in ``state`` (a deal over or not), for a
        search; ``state`` may be changed (``cardcore_score_position``)."""
        if not self.fast_is_deal_over(state):
            held: list[SideScore] | None = self.hook.cardcore_score_position(state=state)
            if held is not None:
                return held
        self.finish_deal(state)
        return self.score_deal(state)

    def sample_state(self, state: DealState, seat: int, rng: random.Random) -> DealState:
        """``state`` as ``seat`` may imagine it (``cardcore_sample_state``)."""
        answer: DealState = self.hook.cardcore_sample_state(state=state, seat=seat, rng=rng)
        return answer

    def observe(self, state: DealState, seat: int | None) -> Observation:
        return self._observe(state, seat)

    def observes_as_game(self) -> bool:
        """Whether a seat's view is the game's own ``cardcore_observe`` alone
        (no house rule wraps or answers it, no tracing): an encoding may then
        write the view straight from the state (``Encoding.observe_state``)."""
        own = getattr(self.plugin, "cardcore_observe", None)
        return own is not None and self._observe == own

    def spectate(self, state: DealState) -> Observation:
        """The public view: what a spectator sees (no hand)."""
        return self.observe(state, None)

    def move_text(self, move: Move, state: DealState | None = None) -> str:
        answer: str = self.hook.cardcore_move_text(state=state, move=move)
        return answer

    def move_json(self, move: Move, state: DealState | None = None) -> dict[str, Any]:
        return move_to_json(move, self.move_text(move, state))

    def dump_state(self, state: DealState) -> dict[str, Any]:
        """The state as a complete position (header + the game's fields)."""
        head = {
            "game": self.game.name,
            "players": self.players,
            "options": self.options.model_dump(mode="json", exclude_defaults=True),
            "house_rules": [h.name for h in self.house_rules],
        }
        head.update(self.hook.cardcore_state_to_json(state=state))
        return head

    def load_state(self, data: dict[str, Any]) -> DealState:
        answer: DealState = self.hook.cardcore_state_from_json(table=self, data=data)
        return answer

    def state_cards(self, state: DealState) -> list[Card]:
        answer: list[Card] = self.hook.cardcore_state_cards(state=state)
        return answer

    @property
    def rules(self) -> str:
        """The game and house rules of the table, for an error that points at them."""
        rules = ", ".join(h.name for h in self.house_rules)
        if rules:
            return T("the rules of {game} with {rules}", game=self.game.name, rules=rules)
        return T("the rules of {game}", game=self.game.name)

    def new_match(self, seed: int | str | None) -> Match:
        """A new match at this table, its shuffles from ``seed``."""
        from cardcore.match import Match  # match.py reads the table: imported when a match is made

        return Match(self, seed)


def _with_suggestion(problem: str, fields: list[str]) -> str:
    """``option.dek: unknown field`` → ``… (did you mean 'deck'?)`` when one is close."""
    import difflib

    key, _, what = problem.partition(": ")
    if what != "unknown field" or not key.startswith("option."):
        return problem
    close = difflib.get_close_matches(key.removeprefix("option."), fields, n=1)
    if close:
        return T("{problem} (did you mean {close!r}?)", problem=problem, close=close[0])
    if not fields:
        return T("{problem} (its options: none)", problem=problem)
    return T("{problem} (its options: {known})", problem=problem, known=", ".join(fields))


def _house_rule_counts(name: str, counts: Sequence[int], players: int) -> Text:
    """``house rule 'x' is for 2 or 4 players, not 3``."""
    if len(counts) == 1:
        return Tn(
            "house rule {name!r} is for {n} player, not {players}",
            "house rule {name!r} is for {n} players, not {players}",
            counts[0],
            name=name,
            players=players,
        )
    # i18n: counts: player counts separated by "or" in English ("2 or 4"): the last one is {last}
    return T(
        "house rule {name!r} is for {counts} or {last} players, not {players}",
        name=name,
        counts=", ".join(map(str, counts[:-1])),
        last=counts[-1],
        players=players,
    )


def safe_name(name: object, limit: int = 40) -> str:
    """A player's name as the terminal may show it: no control characters (an
    escape sequence in a tables file cannot drive the terminal), at most
    ``limit`` characters."""
    text = "".join(ch for ch in str(name) if unicodedata.category(ch)[0] != "C").strip()
    return text[:limit] or "?"


def _check_required(pm: pluggy.PluginManager, game: GameSpec, plugin: object) -> None:
    """Every hook a game must answer has an implementation besides the core's
    defaults (``REQUIRED_HOOKS``; ``STATE_HOOKS`` too when the game's plugin
    names no ``state_class`` declaring its fields), and so has each hook of the
    game's own specs."""
    names = list(REQUIRED_HOOKS)
    if declared_state(plugin) is None:
        names += STATE_HOOKS
    for spec in game.hookspecs:
        names += [n for n in vars(spec) if hasattr(getattr(spec, n), f"{PROJECT}_spec")]
    for name in names:
        impls = [i for i in getattr(pm.hook, name).get_hookimpls() if i.plugin_name != "cardcore.defaults"]
        if not impls:
            if name in STATE_HOOKS:
                raise TableError(
                    T(
                        "{game}: the game does not implement the hook {hook} nor names a state_class "
                        "declaring FIELDS (see docs/PLUGINS.md)",
                        game=game.name,
                        hook=name,
                    )
                )
            raise TableError(
                T(
                    "{game}: the game does not implement the hook {hook} (see docs/PLUGINS.md)",
                    game=game.name,
                    hook=name,
                )
            )


def _direct(caller: Any, argnames: tuple[str, ...], traced: bool) -> Any:
    """A positional callable for a hook: its only implementation's function when
    exactly one plain implementation answers it, else a call through pluggy."""
    impls = caller.get_hookimpls()
    if not traced and len(impls) == 1:
        impl = impls[0]
        if not impl.hookwrapper and not impl.wrapper and tuple(impl.argnames) == argnames:
            return impl.function

    def call(*args: Any) -> Any:
        return caller(**dict(zip(argnames, args, strict=True)))

    return call
