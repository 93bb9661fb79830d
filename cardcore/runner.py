"""The engine's loop: deals until the match is over, moves until the deal is over.

    state = match.start_deal()
    while not table.is_deal_over(state):
        moves = table.legal_moves(state)
        move = players[state.to_act].choose(observation, moves, decision)
        table.apply(state, move, moves)
        listeners.move(match, state, Step(...))
    match.end_deal(state)

Listeners see every step (game log, terminal printer, browser table, checks):
one record per move (``cardcore.decision.Step``), made once.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from cardcore import watchdog
from cardcore.decision import Checkpoint, Decision, Rewind, Step
from cardcore.errors import PluginError, TableError
from cardcore.game import DealState, Observation
from cardcore.i18n import T
from cardcore.kinds import make_player as make_player
from cardcore.kinds import parse_kind as parse_kind
from cardcore.match import DealResult, Match
from cardcore.moves import Move, move_to_json
from cardcore.players import Player, legacy
from cardcore.table import Table

MAX_MOVES = 50_000  # per deal: Canasta's longest deals are under a thousand


class Listener:
    """Base of the engine's listeners; every method is optional.

    ``move(match, state, step)`` gets the engine's ``Step`` record of each
    move (``state`` is after it); ``before_move(match, state, moves, move)``
    the move chosen, checked legal, before it is applied (the conformance
    checks: ``state`` and ``moves`` are the engine's own and must not be
    changed). A listener that overrides neither costs the loop nothing per
    move. ``wants_views = True`` asks for the spectators' view and the move's
    events in each step (the printer and the browser table show them)."""

    wants_views: ClassVar[bool] = False

    def match_start(self, match: Match, number: int) -> None: ...
    def chance(self, match: Match, event: dict[str, Any]) -> None: ...
    def deal_start(self, match: Match, state: DealState) -> None: ...
    def before_move(self, match: Match, state: DealState, moves: list[Move], move: Move) -> None: ...
    def move(self, match: Match, state: DealState, step: Step) -> None: ...
    def deal_end(self, match: Match, state: DealState, result: DealResult) -> None: ...
    def match_end(self, match: Match) -> None: ...

    def checkpoint(self) -> Any:
        """A token to come back to (undo); None: nothing to keep."""
        return None

    def rewind(self, token: Any) -> None:
        """Forget what was said since ``checkpoint`` gave ``token`` (undo)."""

    def redealt(self, match: Match, state: DealState, event: dict[str, Any]) -> None:
        """After a take back's ``rewind``: the cards the seat to act cannot see
        were dealt again (``Rewind.redeal``); ``state`` is the deal now and
        ``event`` its log line, ``{"event": "redeal", "moves", "count", "seed"}``."""


class ConservationCheck(Listener):
    """After each deal, every card of the deck is somewhere, once (``--check``):
    a rule that loses or copies a card is stopped with the table's rules named."""

    def deal_end(self, match: Match, state: DealState, result: DealResult) -> None:
        table = match.table
        cards = table.state_cards(state)
        have = sorted(c.sort_key for c in cards)
        if have != sorted(c.sort_key for c in table.deck) or len(set(map(id, cards))) != len(cards):
            from collections import Counter

            lost = Counter(c.name for c in table.deck) - Counter(c.name for c in cards)
            extra = Counter(c.name for c in cards) - Counter(c.name for c in table.deck)
            missing, more = str(sorted(lost.elements())[:8]), str(sorted(extra.elements())[:8])
            raise PluginError(
                T(
                    "{rules}: deal {deal} ended with cards not conserved (missing {missing}, extra {extra})",
                    rules=table.rules,
                    deal=len(match.deals),
                    missing=missing,
                    extra=more,
                )
            )


def bot_rng(seed: int | str | None, seat: int) -> random.Random:
    """A seat's own RNG, derived from the table's seed (deterministic)."""
    return random.Random(f"{seed}/seat/{seat}")


def listed_by_house_rule(table: Table, err: BaseException) -> str | None:
    """When the game's own code fails to play a move that house rules'
    ``cardcore_legal_moves`` answered, the fault is named after those rules
    (their names, modules and packages), not after the game that choked on
    their answer; None when no house rule answered the legal moves or the
    error was raised elsewhere than in the game's code."""
    import traceback

    from cardcore.plugins import package_of
    from cardcore.text import describe

    game_root = type(table.plugin).__module__.rsplit(".", 1)[0]
    frames = [f.f_globals.get("__name__", "") for f, _ in traceback.walk_tb(err.__traceback__)]
    if not frames or not str(frames[-1]).startswith(game_root):
        return None
    ours = {h.name for h in table.house_rules}
    answered = []
    for impl in table.pm.hook.cardcore_legal_moves.get_hookimpls():
        if impl.plugin_name in ours:
            module = type(impl.plugin).__module__
            package = package_of(module)
            where = f"module {module}" + (f", package {package}" if package else "")
            answered.append(f"{impl.plugin_name} ({where})")
    if not answered:
        return None
    rules = "house rule " + ", ".join(answered)
    return f"{rules} listed a move that {table.game.name} cannot play ({describe(err, 80)})"


def make_players(table: Table, kinds: Sequence[str], seed: int | str | None) -> list[Player]:
    """One player per seat from kind names (``human``, ``random``, ``greedy`` …)."""
    if len(kinds) != table.players:
        raise TableError(T("{kinds} player kinds for {seats} seats", kinds=len(kinds), seats=table.players))
    return [make_player(table, kind, seat, bot_rng(seed, seat)) for seat, kind in enumerate(kinds)]


def _flush_chance(match: Match, listeners: Sequence[Listener]) -> None:
    for event in match.take_events():
        for lst in listeners:
            lst.chance(match, event)


def play_deal(
    table: Table,
    match: Match,
    players: Sequence[Player],
    listeners: Sequence[Listener] = (),
    going_on: DealState | None = None,
    made: int = 0,
    redeals: int = 0,
) -> tuple[DealState, DealResult, int]:
    """Deal, play and score one deal of ``match``; return the final state, result,
    move count. ``going_on``: a deal already under way (a resumed game), after
    ``made`` moves and ``redeals`` take backs dealt again (``log.resume_point``).

    The one loop every way of playing goes through (the terminal, the browser
    table, simulations, the arena, replays and the conformance checks): at
    each decision the seat's player gets its observation (if it asks), a copy
    of the legal moves and a ``Decision``; the engine checks the move, applies
    it and hands one ``Step`` to every listener and witness. A player may
    raise ``Rewind`` (a person's undo) to go back to a checkpoint of this deal."""
    if going_on is None:
        state = match.start_deal()
        _flush_chance(match, listeners)
        for lst in listeners:
            lst.deal_start(match, state)
    else:
        state = going_on
    players = [legacy(p) for p in players]  # a player of the two-argument protocol still plays
    followers = _Followers(table, match, state, players, listeners)
    checkers = [lst for lst in listeners if type(lst).before_move is not Listener.before_move]
    deal = len(match.deals) + 1
    n = made
    legal_moves = table.fast_legal_moves
    apply_move = table.fast_apply_move
    is_over = table.fast_is_deal_over
    observe = table.observe
    decision = Decision(table, match, state, 0, deal, 0, players, listeners, followers.view)
    tick = watchdog.heartbeat  # ``--move-timeout``'s, called once per move; None: no call per move
    while not is_over(state):
        if tick is not None:
            tick()
        seat = state.to_act
        moves = legal_moves(state)
        if type(moves) is not list or not moves:
            got = repr(moves)[:60]
            raise PluginError(
                T(
                    "{rules}: no list of legal moves while the deal goes on ({got})",
                    rules=table.rules,
                    got=got,
                )
            )
        player = players[seat]
        obs = observe(state, seat) if player.needs_observation else None
        decision.seat = seat
        decision.index = n
        try:
            # the player gets a copy: what it does to it cannot change the legal moves
            move = player.choose(obs, tuple(moves), decision)
        except Rewind as back:
            state, n, followers.view = _rewind(back.point, players, listeners)
            if back.redeal:
                # each take back deals anew (a replay's: as logged), never a deal he saw
                redeals = back.count if back.count is not None else redeals + 1
                seed = back.seed if back.seed is not None else f"take back/{match.seed}/{deal}/{n}/{redeals}"
                state = _redeal(table, match, state, n, seed, redeals, listeners)
            for w in followers.watchers:  # what they saw since is undone
                w.witness({"event": "rewind", "moves": n})
            decision = Decision(table, match, state, 0, deal, n, players, listeners, followers.view)
            continue
        if move not in moves and table.named_move(state, move, moves) is None:
            table.apply(state, move, moves)  # raises IllegalMoveError naming the rule
        for lst in checkers:
            lst.before_move(match, state, moves, move)
        try:
            apply_move(state, move)
        except Exception as err:
            blame = listed_by_house_rule(table, err)
            if blame is None:
                raise
            raise PluginError(blame) from err
        n += 1
        if n > MAX_MOVES:
            raise PluginError(
                T(
                    "{rules}: a deal went past {n} moves without ending",
                    rules=table.rules,
                    n=format(MAX_MOVES, ","),
                )
            )
        if followers.wanted:
            decision.view = followers.step(state, deal, n, seat, move, len(moves) == 1)
    result = match.end_deal(state, n)
    for lst in listeners:
        lst.deal_end(match, state, result)
    return state, result, n


class _Followers:
    """Who follows a deal's moves: the listeners that read them (``move``) and
    the players that witness them; makes each move's ``Step`` for them, with
    the spectators' view and the move's events when one of them wants views."""

    def __init__(
        self,
        table: Table,
        match: Match,
        state: DealState,
        players: Sequence[Player],
        listeners: Sequence[Listener],
    ) -> None:
        self.table, self.match = table, match
        # players that follow the game (``witness``) get every move in its public
        # JSON form: what every seat saw played, never a hidden card
        self.watchers = [p for p in players if hasattr(p, "witness")]
        for w in self.watchers:
            w.witness({"event": "deal_start", "dealer": match.dealer})
        self.readers = [lst for lst in listeners if type(lst).move is not Listener.move]
        self.wanted = bool(self.readers or self.watchers)
        self.views = any(lst.wants_views for lst in self.readers)
        self.events_of = table.plugin.events
        self.view = table.spectate(state) if self.views else None  # the spectators' view now

    def step(
        self, state: DealState, deal: int, n: int, seat: int, move: Move, forced: bool
    ) -> Observation | None:
        """The move just applied, as one record for all of them; returns the view after it."""
        table = self.table
        text = table.move_text(move)
        after = table.spectate(state) if self.views else None
        said: tuple[str, ...] = ()
        if after is not None and self.view is not None and self.events_of is not None:
            said = tuple(self.events_of(self.view, after, table.names))
        step = Step(deal, n, seat, move, text, move_to_json(move, text), forced, said, after)
        self.view = after
        if self.watchers:
            event = step.witnessed()
            for w in self.watchers:
                w.witness(event)
        for lst in self.readers:
            lst.move(self.match, state, step)
        return after


def _redeal(
    table: Table,
    match: Match,
    state: DealState,
    n: int,
    seed: str,
    count: int,
    listeners: Sequence[Listener],
) -> DealState:
    """The deal a take back goes back to, its hidden cards dealt again: what
    the seat to act cannot see, as that seat may imagine it (the game's
    ``cardcore_sample_state``: the cards it knows stay where it knows them),
    from ``seed``. The fields a position leaves out (``Field.key`` None: a
    search's bookkeeping, such as Paquet voleur's ``reading``, which its
    imagined deals turn off) are the real deal's. The seat's view, and so the
    spectators', is the same. ``count``: the deal's take backs dealt again."""
    imagined = table.sample_state(state, state.to_act, random.Random(seed))
    for field in getattr(type(imagined), "FIELDS", ()):
        if field.key is None:
            setattr(imagined, field.name, getattr(state, field.name))
    state = imagined
    event = {"event": "redeal", "moves": n, "count": count, "seed": seed}
    for lst in listeners:
        lst.redealt(match, state, event)
    return state


def _rewind(
    point: Checkpoint, players: Sequence[Player], listeners: Sequence[Listener]
) -> tuple[DealState, int, Observation | None]:
    """Back to ``point``: its state (a fresh copy), the players' generators, the
    listeners' tokens; returns the state, the moves made and the view there."""
    for p, rng in zip(players, point.rngs, strict=True):
        if rng is not None:
            p.rng.setstate(rng)  # type: ignore[attr-defined]
    for lst, token in zip(listeners, point.tokens, strict=True):
        lst.rewind(token)
    return point.state.clone(), point.moves, point.view


def play_match(
    table: Table,
    players: Sequence[Player],
    seed: int | str | None,
    listeners: Sequence[Listener] = (),
    max_deals: int | None = None,
    number: int = 1,
    first_deal: DealState | None = None,
) -> tuple[Match, int]:
    """Play a match to its end (or ``max_deals`` deals); return it and its move
    count. ``first_deal`` (a position) is played instead of the first deal."""
    match = table.new_match(seed)
    match.next_deal = first_deal
    for lst in listeners:
        lst.match_start(match, number)
    _flush_chance(match, listeners)
    return match, continue_match(table, match, players, listeners, max_deals=max_deals)


def continue_match(
    table: Table,
    match: Match,
    players: Sequence[Player],
    listeners: Sequence[Listener] = (),
    going_on: DealState | None = None,
    max_deals: int | None = None,
    made: int = 0,
    redeals: int = 0,
) -> int:
    """Play ``match`` on to its end (a deal ``going_on`` first, after ``made``
    moves and ``redeals`` take backs dealt again: ``play_deal``); return the moves."""
    moves = 0
    if going_on is not None:
        _, _, n = play_deal(table, match, players, listeners, going_on, made, redeals)
        moves = n - made
    while not match.over and (max_deals is None or len(match.deals) < max_deals):
        _, _, n = play_deal(table, match, players, listeners)
        moves += n
    if match.over:
        for lst in listeners:
            lst.match_end(match)
    return moves
