"""Players: anything that picks one of the legal moves from what its seat sees.

Here: the protocol (``Player``, ``PlayerFactory``), random play, the
wrappers every interface uses (``pass_witness``, ``legacy``, ``Undoable``),
and what the terminal and the browser both ask (``advise``: a hint;
``reason_not``: why a card is not playable). The person at the terminal is
``cardcore.terminal.human.HumanPlayer``.

A player never gets the state: only the ``Observation`` of its seat (when it
asks for one with ``needs_observation``), the list of legal moves and the
``Decision`` (``cardcore.decision``): imagined deals, why a move is illegal,
the match's status, a way back.
"""

from __future__ import annotations

import inspect
import random
import secrets
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from cardcore import i18n
from cardcore.cards import Card
from cardcore.decision import Checkpoint, Decision, Rewind
from cardcore.game import Observation
from cardcore.i18n import T
from cardcore.moves import Move

if TYPE_CHECKING:
    from cardcore.table import Table


class Player(Protocol):
    """Anything that chooses a move from what its seat sees.

    ``choose(observation, moves, decision)`` gets the seat's ``Observation``
    (when ``needs_observation``, else None), a copy of the legal moves and the
    ``Decision``: everything else a player may ask of the deal
    (``decision.sample(rng)`` for a search, ``decision.explain(move)``,
    ``decision.status()``, ``decision.can_undo``), valid during the call. It
    returns one of the moves, or raises ``Rewind`` to go back (undo). A player
    that also defines ``witness(event)`` follows the game: the engine calls it
    with ``{"event": "deal_start", "dealer"}`` and, after every move of any
    seat, ``{"event": "move", "seat", "move"}`` (the move's public JSON: what
    every seat saw played; a drawn card is not in it), and ``{"event":
    "rewind", "moves"}`` when a person's undo takes the deal back to the point
    where ``moves`` moves had been made (the moves witnessed since are undone).

    A player is made by a factory ``(table, seat, rng, **options)``; one whose
    ``choose`` takes two arguments (the protocol before ``Decision``) still
    plays, with a deprecation warning (``legacy``)."""

    needs_observation: bool

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move: ...


PlayerFactory = Callable[["Table", int, random.Random], Player]


def pass_witness(wrapper: Any, inner: Any) -> None:
    """A player that wraps ``inner`` follows the game as ``inner`` does: its
    ``witness`` is passed on (the engine finds the players that follow the game
    by that attribute). Every wrapper of a player calls it."""
    if hasattr(inner, "witness"):
        wrapper.witness = inner.witness


class _TwoArguments:
    """A player of the protocol before ``Decision`` (``choose(observation, moves)``)."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.needs_observation = player.needs_observation
        if hasattr(player, "rng"):
            self.rng = player.rng
        pass_witness(self, player)

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        move: Move = self.player.choose(observation, moves)
        return move


_TAKES_DECISION: dict[type, bool] = {}  # per class: whether ``choose`` takes the decision


def legacy(player: Any) -> Any:
    """``player`` itself, or wrapped if its ``choose`` takes only
    ``(observation, moves)``: it keeps working, with a one-line deprecation.
    (Asked of each player at each deal: the answer is kept per class.)"""
    kind = type(player)
    takes = _TAKES_DECISION.get(kind)
    if takes is None:
        try:
            params = inspect.signature(player.choose).parameters.values()
            takes = any(p.kind is p.VAR_POSITIONAL for p in params) or len(params) >= 3
        except (AttributeError, TypeError, ValueError):  # no choose to inspect: the engine will say
            takes = True
        _TAKES_DECISION[kind] = takes
    if takes:
        return player
    warnings.warn(
        f"{type(player).__name__}.choose(observation, moves): take a third argument, the Decision "
        "(cardcore.decision); the two-argument form is deprecated",
        DeprecationWarning,
        stacklevel=3,
    )
    return _TwoArguments(player)


class RandomPlayer:
    """Picks uniformly among the legal moves with its own seeded RNG."""

    needs_observation = False

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        self.rng = rng

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        return moves[self.rng.randrange(len(moves))] if len(moves) > 1 else moves[0]


class QuitGame(Exception):
    """The human asked to stop."""


class UndoRequest(Exception):
    """The human asked to go back to his previous decision (against bots only).

    ``redeal`` (the default): the cards he cannot see there are dealt again
    (``Undoable``); False only for a web journal's take back written before
    take backs dealt them again, played again as it was played."""

    def __init__(self, redeal: bool = True) -> None:
        super().__init__("undo")
        self.redeal = redeal


class Undoable:
    """A person's seat against bots, with undo: keeps a way back to each of
    his decisions in the deal (``Decision.checkpoint``) and turns his
    ``UndoRequest`` into a ``Rewind`` to the one before. The engine's loop
    knows nothing of undo; ``cardcore play`` wraps the seat when one person
    plays, and so does a web table of one person against bots (its
    ``take_back`` message). A move the person is shown though it is his only
    one (the browser shows it) takes him back to his previous decision.

    Going back, the cards he cannot see at that decision are dealt again
    (``Rewind.redeal``): the stock's next card or an opponent's card he saw
    since would otherwise be known to him there, which his seat may not
    know. Each take back deals them anew (``runner._redeal``: never twice
    the same deal, whose cards he may have seen): he may fish for better
    luck that way, never for knowledge."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.needs_observation = player.needs_observation
        self.points: list[Checkpoint] = []
        if hasattr(player, "rng"):
            self.rng = player.rng

    def __getattr__(self, name: str) -> Any:  # the person's own settings (confirm_forced …)
        return getattr(self.__dict__["player"], name)

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        assert decision is not None, "the engine hands every decision its context"
        if self.points and self.points[-1].deal != decision.deal:
            self.points = []  # a new deal: no way back into the last one
        if len(moves) == 1 and not getattr(self.player, "confirm_forced", False):
            # a move that plays itself is no decision to come back to: undoing to
            # it would play it again, and bring him back where he was; a person
            # who is shown it anyway (the browser) may go back from it to his
            # previous decision
            decision.can_undo = bool(self.points)
            try:
                forced: Move = self.player.choose(observation, moves, decision)
            except UndoRequest as undo:
                if not self.points:
                    raise
                raise self._back(undo) from None
            return forced
        self.points.append(decision.checkpoint())
        decision.can_undo = len(self.points) > 1
        try:
            move: Move = self.player.choose(observation, moves, decision)
        except UndoRequest as undo:
            self.points.pop()  # this decision
            raise self._back(undo) from None  # back to his previous one
        return move

    def _back(self, undo: UndoRequest) -> Rewind:
        """The way back to his previous decision, its hidden cards dealt again."""
        return Rewind(self.points.pop(), redeal=undo.redeal)


def reason_not(
    table: Table, explain: Callable[[Move], str | None], c: Card, moves: Sequence[Move]
) -> str | None:
    """The rule that keeps card ``c`` from being played now, as the game
    explains it (``explain``: ``Decision.explain``, the hook
    ``cardcore_explain_illegal``): first for the move a card alone
    means (``GamePlugin.card_kind``: a trail, a discard), then for each kind of
    the legal moves that lay a card. None: the game gives no reason. Called by
    the terminal (``why``, a card typed that plays no move) and the browser's
    *why not?*."""
    first = table.plugin.card_kind
    kinds = dict.fromkeys([*([first] if first else []), *(m.kind for m in moves if m.card is not None)])
    for kind in kinds:
        reason = explain(Move(kind, c))
        if reason:
            return reason if isinstance(reason, str) else str(reason)  # a Text stays one
    return None


def advise(
    table: Table,
    seat: int,
    observation: Observation,
    moves: Sequence[Move],
    decision: Decision | None,
    fallback: Player | None = None,
    rng: random.Random | None = None,
) -> tuple[Move | None, str, list[tuple[Move, int, float]]]:
    """A hint: the move the game's hint level (``GamePlugin.hint_level``:
    ``hard``, the search within about 300 ms of CPU, unless the game names
    another within 500 ms) would play seeing only what ``seat`` sees, and
    why in a line. The search (``ismcts``, over deals imagined by
    ``decision.sample``) gives the points it expects for the moves it tried most;
    without it, ``fallback`` (the game's greedy bot) names its move. Also the
    search's estimates: (move, deals tried, mean points) of its three moves tried
    most, and of the move it plays when that is not one of them.

    The search imagines deals from what ``seat`` may know only (the samplers'
    canonical order), with ``rng``, by default ``hint_rng``: a secret of the
    match, never a fixed number, so that nobody can replay the hint offline
    against the arrangements he cannot tell apart."""
    level = table.plugin.hint_level
    if level.partition(":")[0] in table.player_kinds and decision is not None:
        from cardcore.kinds import make_player  # (the kinds import this module)

        if rng is None:
            rng = hint_rng(decision)
        search: Any = make_player(table, level, seat, rng)  # a level, or a level with options
        move = search.choose(observation if search.needs_observation else None, moves, decision)
        every = search.estimates() if hasattr(search, "estimates") else []
        rows = every[:3]
        if all(m != move for m, _n, _p in rows):
            rows += [r for r in every if r[0] == move]  # a kept move tried less (``confidence``)
        return move, _why_this(table, move, rows), rows
    if fallback is None:
        return None, T("this game has no bot to ask"), []
    move = fallback.choose(observation if fallback.needs_observation else None, moves)
    return move, T("I would play {move}", move=table.move_text(move)), []


def hint_rng(decision: Decision) -> random.Random:
    """The RNG of the hint at ``decision``: derived from the match's seed (drawn
    from ``secrets`` unless the user gave one: ``cardcore.seeds``) and the
    decision, so that the same decision gets the same hint; from ``secrets``
    when the match has no seed."""
    seed = decision.match.seed
    if seed is None:
        return random.Random(secrets.randbits(64))
    return random.Random(f"{seed}/hint/{decision.deal}/{decision.index}/{decision.seat}")


def _why_this(table: Table, move: Move, rows: list[tuple[Move, int, float]]) -> str:
    """The hint in words, from what the search found: its move, and how it did
    against the next best over the deals it imagined from what you see (a
    ``Text``: said in each person's language)."""
    mine_text = table.move_text(move)
    others = [(m, p) for m, _tries, p in rows if m != move]
    mine = next((p for m, _tries, p in rows if m == move), None)
    if mine is None or not others:
        return T("I would play {move}", move=mine_text)
    other, points = others[0]
    gap = mine - points
    said = i18n.Decimal(abs(gap), 1)  # points, one decimal, said with the language's sign
    if abs(gap) < 0.05:
        return T(
            "I would play {move}: about as good as {other} in the deals I imagined",
            move=mine_text,
            other=table.move_text(other),
        )
    if gap > 0:
        # i18n: {gap}: points, one decimal (2.9)
        return T(
            "I would play {move}: {gap} points more than {other}, in the deals I imagined",
            move=mine_text,
            gap=said,
            other=table.move_text(other),
        )
    if rows[0][0] != move:
        # the search kept its prior's move (``ismcts:confidence``): the other's lead was
        # within the noise of the deals imagined
        # (no figure: one that says the other move did better contradicts the advice)
        return T(
            "I would play {move}: {other} looked better, but in too few imagined deals to be sure",
            move=mine_text,
            other=table.move_text(other),
        )
    return T(
        "I would play {move}: the move I tried most; {other} looked better in fewer tries",
        move=mine_text,
        other=table.move_text(other),
    )
