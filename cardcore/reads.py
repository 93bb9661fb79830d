"""Reading the other seats' play: which imagined deals their past moves make likely.

The search (``ismcts:model=greedy``) imagines the cards it cannot see. The
game's own ``cardcore_sample_state`` keeps what the rules make certain (a
build's owner holds a card of its value, C8; a Paquet voleur trail, P5c);
this module adds what the other seats' choices make *likely*: a player who
left the joker on the table probably held nothing that takes it.

How: after each of the bot's own moves a ``Reader`` keeps the deal as it then
stood for the next seat (an imagined copy: only its public part is ever read,
that seat's hand being replaced), and the move that seat made (its public
record: what every seat saw played). At the bot's next decision each imagined
deal is weighed by the likelihood of those moves had the seat held the cards
that deal gives it (its hand now, plus the cards it played since):

- a move the rules would not allow with that hand rules the deal out (Carrousel's
  trail while a capture or a build was possible, C10, comes out so);
- a move the model bot (``greedy``) counts among its best weighs ``1 - doubt +
  doubt / n``, any other legal move ``doubt / n`` (``n`` the legal moves then):
  the other seat plays like the model but for a share ``doubt`` of its moves.

The model bot "counts a move among its best" when, asked with that move listed
first, it picks it: true of every bot that keeps the first of equal moves (the
games' ``greedy``). Only the moves made since the seat's hand was last dealt are
read (before that its hand is not the cards it holds now plus those it played).
The deal kept after the bot's own move is carried on by each move seen, so
every other seat's decision is read until the bot's next one. The chain ends,
until the bot moves again, at a move that plays no one card (a draw: that
seat's earlier moves are no longer read either), at a move it cannot match,
and where cards come from the stock (new hands, a table turned up: the kept
deal's would be imagined ones). Nothing here sees a hidden card: the imagined
deals come from ``Decision.sample`` and the moves from the records every seat
gets (``witness``).

The search draws its imagined deals from a pool of such weighed deals
(``Pool``), each drawn in proportion to its weight.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardcore.cards import Card
from cardcore.decision import Decision
from cardcore.game import DealState
from cardcore.moves import Move, move_to_json

if TYPE_CHECKING:
    from cardcore.table import Table

Bot = Callable[[DealState, list[Move]], Move]


def seat_bots(table: Table, kind: str, rng: random.Random) -> list[Bot]:
    """A bot of ``kind`` per seat, each as a function of a state and its moves:
    ``choose_imagined`` where the bot has it, else its ``choose`` on the seat's
    observation (or on nothing, for a bot that needs none)."""
    factory = table.player_kinds[kind]
    made = [factory(table, s, rng) for s in range(table.players)]
    return [_as_function(table, bot) for bot in made]


def _as_function(table: Table, bot: Any) -> Bot:
    fast: Bot | None = getattr(bot, "choose_imagined", None)
    if fast is not None:
        return fast
    if not bot.needs_observation:
        return lambda s, moves: bot.choose(None, tuple(moves))
    return lambda s, moves: bot.choose(table.observe(s, s.to_act), tuple(moves))


def _holding(state: DealState, seat: int, card: Card) -> None:
    """Make the imagined ``state`` give ``seat`` the ``card`` it played: swapped
    with the last card of its hand from wherever the deal put it (the deal keeps
    every card once)."""
    hand = state.hands[seat]
    if card in hand:
        return
    for pile in [*(h for i, h in enumerate(state.hands) if i != seat), state.stock]:
        if card in pile:
            pile[pile.index(card)] = hand[-1]
            break
    hand[-1] = card


@dataclass
class _Seen:
    """One move of another seat, read later: the deal as it stood for that seat
    (``before``, its hand to be replaced), the move, the seat's hand size then
    and the cards it has played since (this move's included)."""

    seat: int
    before: DealState
    move: Move
    size: int
    played: list[Card]


class Pool:
    """Imagined deals with weights; ``draw(rng)`` gives a fresh copy of one, in
    proportion to its weight."""

    __slots__ = ("cumulative", "states", "total")

    def __init__(self, states: list[DealState], weights: list[float]) -> None:
        self.states = states
        self.cumulative: list[float] = []
        total = 0.0
        for w in weights:
            total += w
            self.cumulative.append(total)
        self.total = total

    def draw(self, rng: random.Random) -> DealState:
        i = bisect_right(self.cumulative, rng.random() * self.total)
        return self.states[min(i, len(self.states) - 1)].clone()


class Reader:
    """What one bot has seen the other seats play, and the weight it gives an
    imagined deal (see the module's docstring)."""

    def __init__(self, table: Table, seat: int, model: str, doubt: float, rng: random.Random) -> None:
        self.table = table
        self.seat = seat
        self.doubt = float(doubt)
        self.models = seat_bots(table, model, rng)
        self.cards = {c.name: c for c in table.deck}
        self.seen: list[_Seen] = []
        self.pending: DealState | None = None  # the deal after the bot's own move

    def moved(self, decision: Decision, move: Move, rng: random.Random) -> None:
        """The bot plays ``move``: keep the deal as the next seat will find it
        (imagined: only its public part is read)."""
        self.pending = self._carried(decision.sample(rng), move)

    def witness(self, event: dict[str, Any]) -> None:
        """A move of any seat (the engine's ``witness``); a new deal or a
        person's undo (``rewind``) forgets what was seen."""
        if event.get("event") != "move":
            self.seen.clear()
            self.pending = None
            return
        seat = event["seat"]
        public = event["move"]
        card = self.cards.get(public.get("card", ""))
        if card is None:
            # a move that plays no one card (a draw, a meld): that seat's hand changed
            # in a way the records do not show, so what it played before is no longer read
            self.seen = [s for s in self.seen if s.seat != seat]
        else:
            for s in self.seen:
                if s.seat == seat:
                    s.played.append(card)
        if seat == self.seat:
            return  # its own move: ``moved`` kept the deal after it
        before, self.pending = self.pending, None
        if before is None or before.to_act != seat or card is None:
            return
        move = self._find(before, seat, card, public)
        if move is None:
            return  # not read, and the chain ends until the bot moves again
        self.seen.append(_Seen(seat, before, move, len(before.hands[seat]), [card]))
        # the deal carried on by that move: the next seat's decision is read too
        after = before.clone()
        _holding(after, seat, card)
        self.pending = self._carried(after, move)

    def _carried(self, state: DealState, move: Move) -> DealState | None:
        """``state`` after ``move``, to read the next seat's decision on; None when
        the deal ends or cards came from the (imagined) stock: new hands, or a
        table turned up from it, would not be the real ones."""
        table = self.table
        stock = len(state.stock)
        table.fast_apply_move(state, move)
        if table.fast_is_deal_over(state) or len(state.stock) != stock:
            return None
        return state

    def _find(self, before: DealState, seat: int, card: Card, public: dict[str, Any]) -> Move | None:
        """The move of ``public`` (its record) as a move of the deal ``before``:
        looked for with the seat holding that card alone (a capture, a trail: legal
        only when no other card could capture, C10, P5c), then with the imagined
        hand holding it, then with it and each card the bot cannot see (a build
        needs a card of its value kept in hand, C8)."""
        hand = before.hands[seat]
        if not hand:
            return None
        kept = hand
        text = public.get("text", "")
        imagined = list(hand)
        if card not in imagined:
            imagined[-1] = card  # the imagined hand holds the card it played (the size stays)
        unseen = [c for i, h in enumerate(before.hands) if i not in (seat, self.seat) for c in h]
        unseen += list(hand) + list(before.stock)
        tries = [[card], imagined, *([card, c] for c in unseen if c != card)]
        try:
            for held in tries:
                if len(held) > len(kept):
                    continue
                before.hands[seat] = held
                for m in self.table.fast_legal_moves(before):
                    if m.card == card and move_to_json(m, text) == public:
                        return m
            return None
        finally:
            before.hands[seat] = kept

    def reading(self, hand_sizes: tuple[int, ...]) -> bool:
        """Drop what can no longer be read (a seat dealt new cards since);
        whether anything is left to read."""
        self.seen = [s for s in self.seen if hand_sizes[s.seat] + len(s.played) == s.size]
        return bool(self.seen)

    def weight(self, state: DealState) -> float:
        """How likely the moves seen are, had each seat held what ``state`` gives it."""
        table = self.table
        doubt = self.doubt
        w = 1.0
        for s in self.seen:
            before = s.before
            kept = before.hands[s.seat]
            before.hands[s.seat] = state.hands[s.seat] + s.played
            try:
                moves = table.fast_legal_moves(before)
                if s.move not in moves:
                    return 0.0  # the rules would not have allowed it with those cards
                n = len(moves)
                if n > 1:
                    rest = [m for m in moves if m != s.move]
                    liked = self.models[s.seat](before, [s.move, *rest]) == s.move
                    w *= (1 - doubt if liked else 0.0) + doubt / n
            finally:
                before.hands[s.seat] = kept
        return w

    def pool(self, decision: Decision, size: int, rng: random.Random, plain: bool = False) -> Pool | None:
        """``size`` imagined deals weighed by what was seen (``plain``: imagined by
        the plain redeal, ``Decision.sample``); None when every one was ruled out
        (the search then imagines as usual)."""
        states: list[DealState] = []
        weights: list[float] = []
        for _ in range(size):
            state = decision.sample(rng, plain)
            w = self.weight(state)
            if w > 0:
                states.append(state)
                weights.append(w)
        return Pool(states, weights) if states else None
