"""``ismcts``: information-set Monte Carlo tree search, for every game.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): each iteration
imagines the cards the bot cannot see (``Decision.sample``, which the engine
hands it with each decision: ``Table.sample_state``), walks down one tree of the moves seen so far with
UCT (a move's count of availability standing for the parent's visits), adds
one move, plays the deal out with the rollout policy, and credits every move
on the path with the deal's result for the bot's side: its points less the
mean of the other sides', squashed into (-1, 1). The move tried most often at
the root is played.

Options (``ismcts:iterations=400``, ``ismcts:ms=200,rollout=greedy``):
``iterations`` (default 200, at most ``MAX_ITERATIONS``), ``plies`` (with
``iterations``: the search also stops once its rollouts have played that
many moves in all, after ``MIN_ITERATIONS`` at least: a budget of work,
which a decision's time follows, so that a deep position's long rollouts
stay within a level's time and the choices stay the same on any machine;
0, the default, no such limit), ``ms`` (a time
budget per decision instead, at most ``MAX_MS``; then the choices depend on
the machine's speed; whatever the options, a search ends after
``CEILING_SECONDS`` or when the watchdog gives up on its thread), ``rollout`` (``random`` or a
bot kind of the game, e.g. ``greedy``), ``c`` (exploration, default 0.7),
``prior`` (a bot kind of the game, e.g. ``greedy``, asked once per decision:
its move is tried first at the root and wins ties; ``none`` by default),
``confidence`` (with a prior: how many standard errors the search's move
must gain over the prior's move to be played instead of it; 0, the default,
plays the move tried most), ``puct`` (with a prior: select by PUCT at every
node of the tree, the prior bot's move at that node holding this share of the
prior mass, e.g. 0.5; 0, the default, is UCT with the prior at the root only),
``depth`` (score a rollout's position as it stands after that many moves —
the points each side holds, ``Table.score_position`` — instead of playing the
deal out; 0, the default,
plays it out), ``macro`` (with a prior: the moves of the kinds the game lists
in ``GamePlugin.search_follows`` — Canasta's melds — are played as the prior
would play them, at the root without searching and in the tree without
branching, so the budget goes to the other decisions: Canasta's draw, pile and
discard), ``explore`` (with a rollout bot: the share of the rollout's moves
played uniformly at random instead of the bot's, e.g. 0.25; 0, the default,
plays the bot's every time), ``others`` (with a prior: in the tree every other
seat, partner or opponent, plays the move the prior bot would play at its seat,
without branching: the tree holds the bot's own decisions only, and no other
seat's reply is chosen by statistics gathered over the bot's own real cards,
which that seat cannot see; a forced move does not end the walk down the tree),
``plain`` (``plain=true``: imagine deals by the core's plain redeal of the
unseen cards, ignoring what the game reads from the public history — C8's
build owners, Canasta's known cards, Paquet voleur's trails — to measure what
that reading is worth), ``model`` (a bot kind of the game, ``model=greedy``:
read the other seats' past moves of the hand in play — a deal in which they
played as that bot would have is imagined more often, one whose cards the
rules would not have let them play so never; ``cardcore/reads.py``), ``doubt``
(with ``model``: the share of the other seats' moves the model need not
explain, default 0.25), ``pool`` (with ``model``: the imagined deals weighed
at each decision, drawn from by the search; default a quarter of the
iterations, at least 16, whatever ``ms`` allows: weighing them is not cut
short by ``ms``); nothing is read in a game whose turns open with a draw (Canasta).
``infer`` (``infer=learned``: imagine deals weighed by the game's learned
inference model, ``cardcore/infer.py``: a pool of ``pool`` deals of the game's
sampler, each weighed by the model's odds of where it puts the unseen cards;
not with ``model``; where the game ships no model for the player count, the
game's sampler as without it; ``none``, the default),
``value`` (``value=learned``, with ``depth``: a playout cut at ``depth`` is
scored by the game's learned evaluation, ``cardcore/value.py`` — the points
held plus what the rest of the deal may bring the bot's side — instead of the
points held; where the game ships no value model for the player count, the
points held as without it; ``none``, the default).
The rollout bots (and the prior's, in the tree) are built once per
search; a bot with ``choose_imagined(state, moves)`` reads its seat's view
from the imagined state instead of an ``Observation`` per move.
Deterministic for a seed and an iteration budget.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cardcore.decision import Decision
from cardcore.errors import TableError
from cardcore.game import DealState, Observation
from cardcore.infer import Inference, load_model
from cardcore.moves import Move
from cardcore.reads import Reader, seat_bots
from cardcore.value import Evaluator, held_margin, load_value
from cardcore.watchdog import given_up

if TYPE_CHECKING:
    from cardcore.table import Table

#: the largest budgets a search may be given (``iterations``, ``pool``; ``ms``):
#: an option above them is refused in one line naming it
MAX_ITERATIONS = 1_000_000
MAX_MS = 60_000.0
#: whatever its options say, a search ends after this many seconds (wall clock),
#: or when the watchdog gave up on its thread (``watchdog.given_up``)
CEILING_SECONDS = MAX_MS / 1000
#: a search stopped by ``plies`` still runs this many iterations (or its ``iterations``, if fewer)
MIN_ITERATIONS = 16


def _bounded(name: str, value: Any, most: float) -> float:
    """``value`` of option ``name`` as a number from 0 to ``most``, or a one-line ``TableError``."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise TableError(f"ismcts: {name}={value!r} is not a number") from None
    if not 0 <= number <= most:  # NaN too: it is not within any bound
        raise TableError(f"ismcts: {name}={value!r} is not a number from 0 to {most:,.0f}")
    return number


class _Node:
    __slots__ = ("available", "children", "points", "squares", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0  # the squashed results
        self.points = 0.0  # the results in points: the deal's margin for the bot's side
        self.squares = 0.0  # the squares of the squashed results (their spread, for ``confidence``)


class IsmctsPlayer:
    """See the module's docstring."""

    needs_observation = True

    def __init__(
        self,
        table: Table,
        seat: int,
        rng: random.Random,
        iterations: int = 200,
        ms: float = 0,
        plies: int = 0,
        rollout: str = "random",
        c: float = 0.7,
        prior: str = "none",
        confidence: float = 0,
        puct: float = 0,
        depth: int = 0,
        macro: bool = False,
        explore: float = 0,
        others: bool = False,
        plain: bool = False,
        model: str = "none",
        doubt: float = 0.25,
        pool: int = 0,
        infer: str = "none",
        value: str = "none",
    ) -> None:
        self.table = table
        self.seat = seat
        self.rng = rng
        self.iterations = max(1, int(_bounded("iterations", iterations, MAX_ITERATIONS)))
        self.ms = _bounded("ms", ms, MAX_MS)
        self.plies = int(_bounded("plies", plies, MAX_ITERATIONS * 1000))
        self.plies_done = 0  # the moves the search under way has played in its rollouts
        self.c = _bounded("c", c, 100)
        self.confidence = _bounded("confidence", confidence, 1e9)
        self.rollout_kind = rollout
        if rollout != "random" and rollout not in table.player_kinds:
            raise TableError(f"ismcts: rollout={rollout!r} is no player kind of {table.game.name}")
        self.prior: Any = None
        if prior != "none":
            if prior not in table.player_kinds or prior == "ismcts":
                raise TableError(f"ismcts: prior={prior!r} is no player kind of {table.game.name}")
            self.prior = table.player_kinds[prior](table, seat, random.Random(rng.random()))
        self.prior_kind = prior
        self.puct = _bounded("puct", puct, 1)
        self.depth = int(_bounded("depth", depth, MAX_ITERATIONS))
        self.explore = _bounded("explore", explore, 1)
        if not 0 <= self.explore <= 1 or (self.explore and rollout == "random"):
            raise TableError(
                f"ismcts: explore={explore!r} is a share (0 to 1) of a rollout bot's moves (rollout=greedy)"
            )
        self.follows: frozenset[str] = table.plugin.search_follows if macro else frozenset()
        self.others = bool(others)
        self.plain = bool(plain)
        if (self.puct or macro or self.others) and self.prior is None:
            raise TableError(
                "ismcts: puct, macro and others follow the prior's moves: name one (prior=greedy)"
            )
        if not 0 <= self.puct < 1:
            raise TableError(f"ismcts: puct={puct!r} is the prior move's share, from 0 to below 1")
        self.reader: Reader | None = None
        if model != "none":
            if model not in table.player_kinds or model == "ismcts":
                raise TableError(f"ismcts: model={model!r} is no player kind of {table.game.name}")
            if _bounded("doubt", doubt, 1) <= 0:
                raise TableError(
                    f"ismcts: doubt={doubt!r} is a share of the other seats' moves (above 0, to 1)"
                )
            self.reader = Reader(table, seat, model, doubt, random.Random(rng.random()))
            self.witness = self.reader.witness  # the engine then hands it every move played
        self.inference: Inference | None = None
        if infer not in ("none", "learned"):
            raise TableError(f"ismcts: infer={infer!r} is none or learned")
        if infer == "learned":
            if self.reader is not None:
                raise TableError("ismcts: infer=learned reads the others' moves itself: leave out model")
            learned = load_model(table)
            if learned is not None:  # else the game's own sampler, as without the option
                self.inference = Inference(table, seat, learned, random.Random(rng.random()))
                self.witness = self.inference.witness
        self.evaluator: Evaluator | None = None
        if value not in ("none", "learned"):
            raise TableError(f"ismcts: value={value!r} is none or learned")
        if value == "learned":
            if not self.depth:
                raise TableError("ismcts: value=learned scores the position depth moves on: give depth")
            valued = load_value(table)
            if valued is not None:  # else the held points, as without the option
                self.evaluator = Evaluator(table, valued)
        pool = int(_bounded("pool", pool, MAX_ITERATIONS))
        self.pool = pool if pool > 0 else max(16, self.iterations // 4)
        self._tree: list[Any] | None = None  # the prior's bots in the tree, one a seat, per search
        self.scale = 1.0  # the largest deal result seen: rewards are divided by it
        self.decisions = 0
        self.seconds = 0.0
        self.rejected = 0  # imagined deals dropped as impossible
        self.last_iterations = 0  # the iterations of the last search
        self._bots: list[Any] | None = None  # the rollout bots of the search under way

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        follower = self.reader or self.inference
        if len(moves) == 1 or decision is None:
            if follower is not None and decision is not None:
                follower.moved(decision, moves[0], self.rng)
            return moves[0]
        start = time.perf_counter()
        best = self._search(observation, moves, decision)
        if follower is not None:
            follower.moved(decision, best, self.rng)
        self.seconds += time.perf_counter() - start
        return best

    def _search(self, observation: Observation | None, moves: Sequence[Move], decision: Decision) -> Move:
        start = time.perf_counter()
        plain = self.plain
        self._bots = self._tree = None  # built again for each search
        root = _Node()
        legal = set(moves)
        hint: Move | None = None
        if self.prior is not None:
            hint = self.prior.choose(
                observation if self.prior.needs_observation else None, tuple(moves), decision
            )
            if hint is not None and hint.kind in self.follows:
                self.decisions += 1
                self.last_iterations = 0
                self.last_root = root
                return hint  # a move the search leaves to the game's bot (macro)
        sample: Callable[[random.Random, bool], DealState] = decision.sample  # plain: the plain redeal
        reader = self.reader
        if reader is not None and observation is not None and reader.reading(observation.hand_sizes):
            pool = reader.pool(decision, self.pool, self.rng, plain)  # weighed by the others' moves
            if pool is not None:
                sample = lambda rng, plain: pool.draw(rng)  # noqa: E731
        if self.inference is not None and not plain:
            learned = self.inference.pool(decision, self.pool, self.rng)  # weighed by the model
            if learned is not None:
                sample = lambda rng, plain: learned.draw(rng)  # noqa: E731
        done = 0
        budget = self.ms / 1000 if self.ms else CEILING_SECONDS
        self.plies_done = 0
        least = min(self.iterations, MIN_ITERATIONS)
        while True:
            self._iterate(root, sample(self.rng, plain), legal, hint)
            done += 1
            if self.ms:
                if time.perf_counter() - start >= budget:
                    break
            elif done >= self.iterations:
                break
            elif self.plies and self.plies_done >= self.plies and done >= least:
                break  # the work a decision may take, played out (a deep position's long rollouts)
            elif time.perf_counter() - start >= budget:
                break  # the ceiling, whatever the options say
            if given_up():
                break  # the watchdog stopped its table: the thread is to end
        self.decisions += 1
        self.last_iterations = done
        self.last_root = root
        best = max(
            (m for m in moves if m in root.children),
            key=lambda m: (root.children[m].visits, m == hint, root.children[m].total),
            default=hint if hint is not None else moves[0],
        )
        if self.confidence and hint is not None and best != hint and hint in root.children:
            best = self._unless_sure(root.children[best], root.children[hint], best, hint)
        return best

    def _unless_sure(self, node: _Node, prior: _Node, best: Move, hint: Move) -> Move:
        """``best`` if its mean result beats the prior's move's by ``confidence``
        standard errors of the difference, else the prior's move."""
        if node.visits < 2 or prior.visits < 2:
            return hint

        def mean_and_var(n: _Node) -> tuple[float, float]:
            mean = n.total / n.visits
            var = max(n.squares / n.visits - mean * mean, 0.0) * n.visits / (n.visits - 1)
            return mean, var / n.visits

        (m1, v1), (m2, v2) = mean_and_var(node), mean_and_var(prior)
        return best if m1 - m2 > self.confidence * math.sqrt(v1 + v2) else hint

    def _iterate(self, root: _Node, state: DealState, legal: set[Move], hint: Move | None = None) -> None:
        table = self.table
        node = root
        path = [root]
        first = True
        tree = self._tree_policy() if self.puct or self.follows or self.others else None
        others = self.others
        seat = self.seat
        # selection and expansion: one tree for the bot's information set
        while not table.fast_is_deal_over(state):
            moves = table.fast_legal_moves(state)
            if not moves:
                # an imagined deal that cannot be (a Canasta player who asked "May I go
                # out?" given a hand that cannot): the sample is dropped
                self.rejected += 1
                return
            if first:
                moves = [m for m in moves if m in legal] or moves  # the root: his real moves
                liked = hint
                first = False
            else:
                liked = tree(state, moves) if tree is not None else None
                if liked is not None and (liked.kind in self.follows or (others and state.to_act != seat)):
                    moves = [liked]  # the game's bot plays it, the search does not branch (macro, others)
            for m in moves:
                child = node.children.get(m)
                if child is not None:
                    child.available += 1
            if self.puct:
                move = self._puct_pick(node, moves, liked, self._mine(state))
                child = node.children.get(move)
                if child is None:
                    child = node.children[move] = _Node()
                    child.available = 1
                    table.fast_apply_move(state, move)
                    path.append(child)
                    break
                node = child
                table.fast_apply_move(state, move)
                path.append(node)
                continue
            fresh = [m for m in moves if m not in node.children]
            if others and len(moves) == 1:
                # a move nobody chooses (the prior's at another seat, or the only one): the walk goes on
                move = moves[0]
                child = node.children.get(move)
                if child is None:
                    child = node.children[move] = _Node()
                    child.available = 1
                node = child
                table.fast_apply_move(state, move)
                path.append(node)
                continue
            if fresh:
                if liked in fresh and (node is not root or hint is not None):
                    move = liked  # the prior's move is tried first
                else:
                    move = fresh[self.rng.randrange(len(fresh))]
                child = node.children[move] = _Node()
                child.available = 1
                table.fast_apply_move(state, move)
                path.append(child)
                break
            mine = self._mine(state)
            move = max(moves, key=lambda m: self._uct(node.children[m], mine))
            node = node.children[move]
            table.fast_apply_move(state, move)
            path.append(node)
        reward, margin = self._rollout(state)
        for n in path:
            n.visits += 1
            n.total += reward
            n.points += margin
            n.squares += reward * reward
        # a node's total is from the bot's side's view; _uct flips it for the others

    def _puct_pick(self, node: _Node, moves: list[Move], liked: Move | None, mine: bool) -> Move:
        """PUCT (AlphaZero's rule) with the prior bot's move as the prior: it
        holds a share ``puct`` of the prior mass, the other moves the rest
        evenly; an untried move counts as a draw (0)."""
        share = self.puct
        others = (1 - share) / (len(moves) - 1) if len(moves) > 1 else 0.0
        root_n = math.sqrt(node.visits + 1)
        c = self.c
        best = moves[0]
        best_score = -math.inf
        for m in moves:
            child = node.children.get(m)
            p = share if m == liked else others
            if liked is None:
                p = 1 / len(moves)
            if child is None or not child.visits:
                q, n = 0.0, 0
            else:
                q = child.total / child.visits
                q, n = (q if mine else -q), child.visits
            score = q + c * p * root_n / (1 + n)
            if score > best_score:
                best, best_score = m, score
        return best

    def _tree_policy(self) -> Callable[[DealState, list[Move]], Move]:
        """The prior's bots, one a seat (built once per search): the move each
        would play in the tree (``puct``'s prior, ``macro``'s moves)."""
        bots = self._tree
        if bots is None:
            bots = self._tree = self._bots_of(self.prior_kind)
        return lambda s, moves: bots[s.to_act](s, moves)

    def _mine(self, state: DealState) -> bool:
        return self.table.side_of[state.to_act] == self.table.side_of[self.seat]

    def _uct(self, node: _Node, mine: bool) -> float:
        if not node.visits:
            return math.inf
        mean = node.total / node.visits
        return (mean if mine else -mean) + self.c * math.sqrt(math.log(max(node.available, 1)) / node.visits)

    def estimates(self) -> list[tuple[Move, int, float]]:
        """The last decision's root moves, most tried first: (move, tries,
        the mean margin in points where its imagined deals were scored: their
        end, or ``depth`` moves on)."""
        root = getattr(self, "last_root", None)
        if root is None:
            return []
        rows = [(m, n.visits, n.points / n.visits) for m, n in root.children.items() if n.visits]
        return sorted(rows, key=lambda r: -r[1])

    def _rollout(self, state: DealState) -> tuple[float, float]:
        table = self.table
        rng = self.rng
        policy = self._policy(state)
        steps = 0
        limit = self.depth or 5000  # depth: the position is scored as it stands after so many moves
        explore = self.explore  # the share of the moves played at random instead of the bot's
        while not table.fast_is_deal_over(state) and steps < limit:
            moves = table.fast_legal_moves(state)
            if not moves:
                break  # an imagined deal that cannot go on: scored as it stands
            if policy is None or (explore and rng.random() < explore):
                move = moves[rng.randrange(len(moves))]
            else:
                move = policy(state, moves)
            table.fast_apply_move(state, move)
            steps += 1
        self.plies_done += steps
        if self.evaluator is not None:
            diff = self.evaluator.margin(state, self.seat)  # held points and what the rest may bring
        else:
            diff = held_margin(table, state, self.seat)[0]
        self.scale = max(self.scale, abs(diff))
        return math.tanh(2 * diff / self.scale), diff

    def _policy(self, state: DealState) -> Callable[[DealState, list[Move]], Move] | None:
        """The rollout policy: None for random moves, else the rollout kind's
        bots, one per seat, built once per search (``choose``). A bot with
        ``choose_imagined(state, moves)`` reads what its seat sees straight
        from the imagined state; any other is asked through an observation."""
        if self.rollout_kind == "random":
            return None
        bots = self._bots
        if bots is None:
            bots = self._bots = self._bots_of(self.rollout_kind)
        return lambda s, moves: bots[s.to_act](s, moves)

    def _bots_of(self, kind: str) -> list[Callable[[DealState, list[Move]], Move]]:
        """A bot of ``kind`` per seat, each as a function of the imagined state
        and its moves (``cardcore.reads.seat_bots``)."""
        return seat_bots(self.table, kind, self.rng)
