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
``iterations`` (default 200), ``ms`` (a time budget per decision instead;
then the choices depend on the machine's speed), ``rollout`` (``random`` or a
bot kind of the game, e.g. ``greedy``), ``c`` (exploration, default 0.7),
``prior`` (a bot kind of the game, e.g. ``greedy``, asked once per decision:
its move is tried first at the root and wins ties; ``none`` by default),
``confidence`` (with a prior: how many standard errors the search's move
must gain over the prior's move to be played instead of it; 0, the default,
plays the move tried most). Deterministic for a seed and an iteration budget.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cardcore.decision import Decision
from cardcore.game import DealState, Observation
from cardcore.moves import Move

if TYPE_CHECKING:
    from cardcore.table import Table


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
        rollout: str = "random",
        c: float = 0.7,
        prior: str = "none",
        confidence: float = 0,
    ) -> None:
        self.table = table
        self.seat = seat
        self.rng = rng
        self.iterations = max(1, int(iterations))
        self.ms = float(ms)
        self.c = float(c)
        self.confidence = float(confidence)
        self.rollout_kind = rollout
        if rollout != "random" and rollout not in table.player_kinds:
            from cardcore.errors import TableError

            raise TableError(f"ismcts: rollout={rollout!r} is no player kind of {table.game.name}")
        self.prior: Any = None
        if prior != "none":
            if prior not in table.player_kinds or prior == "ismcts":
                from cardcore.errors import TableError

                raise TableError(f"ismcts: prior={prior!r} is no player kind of {table.game.name}")
            self.prior = table.player_kinds[prior](table, seat, random.Random(rng.random()))
        self.scale = 1.0  # the largest deal result seen: rewards are divided by it
        self.decisions = 0
        self.seconds = 0.0
        self.rejected = 0  # imagined deals dropped as impossible
        self.last_iterations = 0  # the iterations of the last search
        self._bots: list[Any] | None = None  # the rollout bots of the search under way

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        if len(moves) == 1 or decision is None:
            return moves[0]
        sample = decision.sample  # the deals its seat may imagine
        start = time.perf_counter()
        self._bots = None  # built again for each search
        root = _Node()
        legal = set(moves)
        hint = None
        if self.prior is not None:
            hint = self.prior.choose(observation if self.prior.needs_observation else None, tuple(moves))
        done = 0
        while True:
            self._iterate(root, sample(self.rng), legal, hint)
            done += 1
            if self.ms:
                if (time.perf_counter() - start) * 1000 >= self.ms:
                    break
            elif done >= self.iterations:
                break
        self.decisions += 1
        self.last_iterations = done
        self.seconds += time.perf_counter() - start
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
                first = False
            for m in moves:
                child = node.children.get(m)
                if child is not None:
                    child.available += 1
            fresh = [m for m in moves if m not in node.children]
            if fresh:
                if node is root and hint in fresh:
                    move = hint  # the prior's move is tried first
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

    def _mine(self, state: DealState) -> bool:
        return self.table.side_of[state.to_act] == self.table.side_of[self.seat]

    def _uct(self, node: _Node, mine: bool) -> float:
        if not node.visits:
            return math.inf
        mean = node.total / node.visits
        return (mean if mine else -mean) + self.c * math.sqrt(math.log(max(node.available, 1)) / node.visits)

    def estimates(self) -> list[tuple[Move, int, float]]:
        """The last decision's root moves, most tried first: (move, tries,
        the mean margin in points its deals ended with)."""
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
        while not table.fast_is_deal_over(state) and steps < 5000:
            moves = table.fast_legal_moves(state)
            if not moves:
                break  # an imagined deal that cannot go on: scored as it stands
            move = policy(state, moves) if policy is not None else moves[rng.randrange(len(moves))]
            table.fast_apply_move(state, move)
            steps += 1
        table.finish_deal(state)
        points = [s.points for s in table.score_deal(state)]
        mine = table.side_of[self.seat]
        others = [p for i, p in enumerate(points) if i != mine]
        diff = points[mine] - (sum(others) / len(others) if others else 0)
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
            table = self.table
            factory = table.player_kinds[self.rollout_kind]
            made = [factory(table, s, self.rng) for s in range(table.players)]
            fast = [getattr(b, "choose_imagined", None) for b in made]
            bots = self._bots = [
                f if f is not None else self._observing(b) for f, b in zip(fast, made, strict=True)
            ]
        return lambda s, moves: bots[s.to_act](s, moves)

    def _observing(self, bot: Any) -> Callable[[DealState, list[Move]], Move]:
        table = self.table
        if not bot.needs_observation:
            return lambda s, moves: bot.choose(None, tuple(moves))
        return lambda s, moves: bot.choose(table.observe(s, s.to_act), tuple(moves))
