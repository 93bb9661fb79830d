"""Learned inference of the hidden hands: where each card a seat cannot see
probably lies, read from the public history by a small trained model
(``ismcts:infer=learned``; issue 52; docs/INFERENCE.md).

What it reads (only what the seat may know):

- the game's own sampler (``Decision.sample``): the imagined deals it draws
  give, for each unseen card and each place (another seat's hand, the stock),
  how often the game's reading of the public history (Paquet voleur's
  trails, Carrousel's build owners …) puts it there: the model's base rate;
- the other seats' moves since their hands were dealt, as ``reads.Reader``
  keeps them (the deal as it stood for that seat, public part exact, and the
  move every seat saw): for each such move and each unseen card, whether the
  move would have been legal had the seat held that card beside the card it
  played (if not, the card is not in that hand: certain) and whether the
  model bot (``greedy``) would then have played another move (the card
  probably is not there); and whether the card has the rank of a card that
  seat played.

The model is a conditional logit over the places: a card's score for a place
is ``log share + w · features``, ``share`` the place's share of the unseen
cards (the uniform redeal's probability), the features of the stock all 0 but
``base`` (the log of the base rate over the share: how much the game's sampler
moves the card from uniform, weighed by the model, which learns how far to
trust a rate counted from a few deals); its probabilities are the softmax of
the scores. Its weights are a few numbers in
a JSON file shipped beside the game (``<game package>/inference/<n>p.json``,
with the command, seeds and data sizes that made them; ``python -m
cardcore.learn``). Play needs no numpy: a dot product of four numbers a card.

The sampler (``Inference.pool``) draws imagined deals from the game's own
sampler (so every rule the game keeps, the hands' sizes and the canonical
order of the unseen cards, ``unseen_order``, hold) and weighs each by the
model's odds of the cards it puts in each hand; the search draws from that
pool in proportion to the weights (``reads.Pool``).
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from cardcore.cards import Card
from cardcore.decision import Decision
from cardcore.game import DealState, unseen_order
from cardcore.moves import Move
from cardcore.reads import Pool, Reader

if TYPE_CHECKING:
    from cardcore.table import Table

#: the features of a card for another seat's hand, in the model's order
FEATURES = ("bias", "contra", "same_rank", "seen", "base")
#: the imagined deals the base rates are counted from, when a caller gives none
BASE_SAMPLES = 64


@dataclass(frozen=True)
class Model:
    """A trained model: its weights (one per ``FEATURES``), the model bot its
    features ask, and how it was made (``meta``: command, seeds, sizes, fit)."""

    weights: tuple[float, ...]
    bot: str = "greedy"
    meta: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"features": list(FEATURES), "weights": list(self.weights), "bot": self.bot, "meta": self.meta}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Model:
        if list(data.get("features", [])) != list(FEATURES):
            raise ValueError(f"an inference model of features {data.get('features')}, not {list(FEATURES)}")
        weights = tuple(float(w) for w in data["weights"])
        if not all(math.isfinite(w) for w in weights):
            raise ValueError("an inference model's weights must be finite numbers")
        return cls(weights, str(data.get("bot", "greedy")), data.get("meta"))


def shipped(table: Table, name: str) -> Any:
    """The file ``name`` of the game's ``inference`` folder (it may not exist)."""
    package = type(table.plugin).__module__.rsplit(".", 1)[0]
    return resources.files(package) / "inference" / name


def model_path(table: Table) -> Any:
    """Where the game's model for this many players lies (it may not exist)."""
    return shipped(table, f"{table.players}p.json")


def load_model(table: Table) -> Model | None:
    """The game's shipped model for the table's player count, or None."""
    path = model_path(table)
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, OSError):
        return None
    return Model.from_json(json.loads(text))


@dataclass
class CardInfo:
    """One unseen card at one decision: the places it may be in (seat indexes,
    ``-1`` the stock), their base rates, their features (the stock's are all 0)
    and whether the rules rule each place out."""

    card: Card
    places: list[int]
    base: list[float]
    share: list[float]
    features: list[list[float]]
    ruled_out: list[bool]


class Inference:
    """One seat's learned inference: it follows the game (``witness``, and
    ``moved`` after each of its own moves, as ``reads.Reader``) and at a
    decision gives each unseen card's probabilities (``cards``) and a pool of
    weighed imagined deals (``pool``)."""

    def __init__(self, table: Table, seat: int, model: Model, rng: random.Random) -> None:
        self.table = table
        self.seat = seat
        self.model = model
        self.reader = Reader(table, seat, model.bot, 0.25, rng)
        self.witness = self.reader.witness

    def moved(self, decision: Decision, move: Move, rng: random.Random) -> None:
        self.reader.moved(decision, move, rng)

    def cards(self, samples: list[DealState]) -> list[CardInfo]:
        """Each unseen card (in the canonical order) with its places, base rates
        (how often ``samples``, the game's imagined deals, put it there; smoothed
        by the place's share of the unseen cards) and features."""
        first = samples[0]
        seat = self.seat
        places = [s for s in range(len(first.hands)) if s != seat and first.hands[s]]
        if first.stock:
            places.append(-1)
        unseen = sorted(
            [c for s in places if s >= 0 for c in first.hands[s]] + list(first.stock), key=unseen_order
        )
        total = len(unseen)
        sizes = {p: (len(first.hands[p]) if p >= 0 else len(first.stock)) for p in places}
        counts: dict[tuple[Card, int], int] = {}
        for state in samples:
            for p in places:
                for c in state.hands[p] if p >= 0 else state.stock:
                    counts[c, p] = counts.get((c, p), 0) + 1
        k = len(samples)
        hand_sizes = tuple(len(h) for h in first.hands)
        self.reader.reading(hand_sizes)
        seen = self.reader.seen
        alone = [self._legal_alone(s) for s in seen]
        out = []
        for c in unseen:
            share = [sizes[p] / total for p in places]
            base = [(counts.get((c, p), 0) + u) / (k + 1) for p, u in zip(places, share, strict=True)]
            feats: list[list[float]] = []
            ruled: list[bool] = []
            for p, b, u in zip(places, base, share, strict=True):
                if p < 0:
                    f, out_ = [0.0] * (len(FEATURES) - 1), False
                else:
                    f, out_ = self._features(c, p, seen, alone)
                feats.append([*f, math.log(b / u)])
                ruled.append(out_)
            out.append(CardInfo(c, places, base, share, feats, ruled))
        return out

    def _features(
        self, card: Card, place: int, seen: list[Any], alone: list[bool]
    ) -> tuple[list[float], bool]:
        """``card``'s features for the hand of seat ``place``, and whether the
        rules rule it out there: a move seen, legal with the card played alone,
        would not have been legal with ``card`` beside it (a trail while that
        card could capture: the rules that forbid a move for a card held do so
        whatever else is held). A move that needs more than the card played (a
        Carrousel build keeps a card of its value, C8) tells nothing so."""
        table = self.table
        contra = same = n = 0
        for s, legal_alone in zip(seen, alone, strict=True):
            if s.seat != place or card in s.played:
                continue
            n += 1
            played = s.move.card
            if played is not None and played.rank == card.rank:
                same += 1
            before = s.before
            kept = before.hands[place]
            before.hands[place] = [played, card] if played is not None else [card]
            try:
                moves = table.fast_legal_moves(before)
                if s.move not in moves:
                    if legal_alone:
                        return [1.0, 0.0, 0.0, 0.0], True
                    continue
                if len(moves) > 1:
                    rest = [m for m in moves if m != s.move]
                    if self.reader.models[place](before, [s.move, *rest]) != s.move:
                        contra += 1
            finally:
                before.hands[place] = kept
        return [1.0, float(contra), float(same), float(n)], False

    def _legal_alone(self, s: Any) -> bool:
        """Whether the move seen ``s`` is legal with the card it played alone in hand."""
        before = s.before
        kept = before.hands[s.seat]
        before.hands[s.seat] = [s.move.card] if s.move.card is not None else []
        try:
            return s.move in self.table.fast_legal_moves(before)
        finally:
            before.hands[s.seat] = kept

    def probabilities(self, info: CardInfo) -> list[float]:
        """The model's probability of each of ``info``'s places."""
        w = self.model.weights
        scores = []
        for share, f, ruled in zip(info.share, info.features, info.ruled_out, strict=True):
            if ruled:
                scores.append(-math.inf)
            else:
                scores.append(math.log(share) + sum(a * b for a, b in zip(w, f, strict=True)))
        top = max(scores)
        if top == -math.inf:
            return list(info.share)
        e = [math.exp(s - top) for s in scores]
        z = sum(e)
        return [x / z for x in e]

    def odds(self, info: CardInfo) -> dict[int, float]:
        """Per hand place, the factor the model puts on the card's being there
        over the game's sampler (0: ruled out): the model's probability over the
        base rate, relative to the stock's (the deals weighed keep each place's
        count, so a factor common to all places of a card changes nothing)."""
        p = self.probabilities(info)
        ratio = [q / b for q, b in zip(p, info.base, strict=True)]
        stock = ratio[info.places.index(-1)] if -1 in info.places else 1.0
        return {
            place: 0.0 if ruled or stock <= 0 else min(1e6, r / stock)
            for place, r, ruled in zip(info.places, ratio, info.ruled_out, strict=True)
            if place >= 0
        }

    def pool(self, decision: Decision, size: int, rng: random.Random) -> Pool | None:
        """``size`` imagined deals from the game's sampler, each weighed by the
        model's odds of the cards it puts in the other hands; None when there is
        nothing to read or every deal is ruled out (the search imagines as usual)."""
        states = [decision.sample(rng) for _ in range(max(1, size))]
        infos = self.cards(states)
        if not self.reader.seen:
            return None
        odds = {(i.card, p): o for i in infos for p, o in self.odds(i).items()}
        kept: list[DealState] = []
        weights: list[float] = []
        for state in states:
            w = 1.0
            for p, hand in enumerate(state.hands):
                if p == self.seat:
                    continue
                for c in hand:
                    w *= odds.get((c, p), 1.0)
            if w > 0:
                kept.append(state)
                weights.append(w)
        return Pool(kept, weights) if kept else None
