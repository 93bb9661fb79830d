"""Training and measuring the learned inference (``cardcore/infer.py``): data
from the project's own simulated games, a conditional logit fitted to it, and
its log-loss and reliability on fresh games beside the uniform redeal's and
the game's own sampler's.

    python -m cardcore.learn train --game paquet_voleur --players 2
    python -m cardcore.learn evaluate --game paquet_voleur --players 2

``train`` plays ``--games`` matches from ``--seed`` (seeds ``seed`` …
``seed + games - 1``), records every ``--every``-th decision of every seat,
fits the weights (numpy, the ``learn`` extra: ``pip install -e '.[learn]'``)
and writes the model, with the command, seeds and sizes that made it, to the
game's ``inference/<n>p.json`` (or ``--out``). ``evaluate`` plays fresh seeds
(from ``--seed``, default 100000, never used in training) and prints the
log-loss per unseen card of the three predictors and a reliability table.
Deterministic: same options, same data, same model.

The data: at a recorded decision of a seat, for each card it cannot see, its
places (each other hand, the stock), their base rates from ``--samples``
imagined deals of the game's own sampler, the model's features (``infer.FEATURES``)
and the place the card truly lies in (the label: read from the real deal by the
recorder, never by the model). The seats are played by the kinds of ``--kinds``,
one kind for both seats per match, in turn.

``value`` trains the learned evaluation (``cardcore/value.py``): it plays the
first deal of each seed from ``--seed`` with ``--rollout`` at every seat (the
search's playouts), records every ``--every``-th position from every seat's
view (the features ``value.features`` reads, on a copy of the deal) and the
margin that seat's side held at the deal's end, fits a ridge regression
(``--l2``) of what the rest of the deal brought, measures it on a quarter as
many fresh deals (seeds from 100000) against the points held alone, and writes
the model with its ``meta`` to the game's ``inference/value-<n>p.json`` (or
``--out``).

    python -m cardcore.learn value --game canasta --players 2 --games 3000 --every 4
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardcore.decision import Decision
from cardcore.game import Observation
from cardcore.infer import FEATURES, CardInfo, Inference, Model, model_path
from cardcore.kinds import make_player
from cardcore.moves import Move
from cardcore.plugins import discover
from cardcore.runner import play_match
from cardcore.table import Table

DEFAULT_KINDS = ("greedy", "careful", "ismcts:iterations=20,prior=greedy,rollout=greedy")
#: the evaluation's seeds start here: never among the training's
FRESH_SEED = 100_000


@dataclass
class Row:
    """One unseen card at one recorded decision, and where it truly lies."""

    info: CardInfo
    truth: int  # the index of its true place in ``info.places``
    uniform: list[float]  # each place's share of the unseen cards: the uniform redeal


class _Recorder:
    """A seat played by ``inner`` that, every ``every``-th decision of its own,
    records the rows of the cards it cannot see."""

    def __init__(
        self, table: Table, seat: int, inner: Any, model: Model, every: int, samples: int, rows: list[Row]
    ) -> None:
        self.inner = inner
        self.needs_observation = inner.needs_observation
        self.rng = random.Random(f"learn/{seat}")
        self.inference = Inference(table, seat, model, random.Random(self.rng.random()))
        self.every, self.samples, self.rows = every, samples, rows
        self.count = 0
        self.seat = seat

    def witness(self, event: dict[str, Any]) -> None:
        self.inference.witness(event)
        inner = getattr(self.inner, "witness", None)
        if inner is not None:
            inner(event)

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        assert decision is not None  # the engine gives one at every decision
        self.count += 1
        if self.count % self.every == 0:
            self.record(decision)
        move: Move = self.inner.choose(observation, moves, decision)
        self.inference.moved(decision, move, self.rng)
        return move

    def record(self, decision: Decision) -> None:
        states = [decision.sample(self.rng) for _ in range(self.samples)]
        true = decision._state  # the label only: the recorder may look, the model never does
        infos = self.inference.cards(states)
        if not infos or len(infos[0].places) < 2:
            return
        total = len(infos)
        sizes = [len(true.hands[p]) if p >= 0 else len(true.stock) for p in infos[0].places]
        for info in infos:
            place = next(p for p in info.places if info.card in (true.hands[p] if p >= 0 else true.stock))
            self.rows.append(Row(info, info.places.index(place), [n / total for n in sizes]))


def generate(
    game: str,
    players: int,
    seeds: Sequence[int],
    kinds: Sequence[str] = DEFAULT_KINDS,
    every: int = 2,
    samples: int = 64,
    model: Model | None = None,
) -> list[Row]:
    """The rows of ``seeds``' matches (one match a seed, both seats recorded)."""
    registry = discover()
    rows: list[Row] = []
    for i, seed in enumerate(seeds):
        table = Table(registry.game(game), players)
        used = model or Model((0.0,) * len(FEATURES))
        kind = kinds[i % len(kinds)]
        seats = [
            _Recorder(
                table,
                s,
                make_player(table, kind, s, random.Random(f"{seed}/{s}")),
                used,
                every,
                samples,
                rows,
            )
            for s in range(players)
        ]
        play_match(table, seats, seed)
    return rows


def fit(rows: Sequence[Row], l2: float = 1e-3, steps: int = 30) -> tuple[float, ...]:
    """The weights of the conditional logit that fit ``rows`` best (Newton's
    method, an L2 penalty ``l2`` per row on all but the bias). Needs numpy."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - the learn extra
        sys.exit("cardcore.learn: training needs numpy: pip install -e '.[learn]'")
    width = max(len(r.info.places) for r in rows)
    d = len(FEATURES)
    x = np.zeros((len(rows), width, d))
    off = np.full((len(rows), width), -np.inf)
    y = np.zeros(len(rows), dtype=int)
    for i, r in enumerate(rows):
        for j, (f, ruled) in enumerate(zip(r.info.features, r.info.ruled_out, strict=True)):
            x[i, j] = f
            if not ruled:
                off[i, j] = math.log(r.info.share[j])
        y[i] = r.truth
    w = np.zeros(d)
    penalty = np.full(d, l2 * len(rows))
    penalty[0] = 0.0
    rows_ix = np.arange(len(rows))
    for _ in range(steps):
        s = off + x @ w
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(axis=1, keepdims=True)
        mean = (p[:, :, None] * x).sum(axis=1)
        grad = (x[rows_ix, y] - mean).sum(axis=0) - penalty * w
        centred = x - mean[:, None, :]
        hess = -np.einsum("ij,ijk,ijl->kl", p, centred, centred) - np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        w = w - step
        if float(np.abs(step).max()) < 1e-9:
            break
    return tuple(round(float(v), 6) for v in w)


# ---- the learned evaluation (cardcore/value.py) ------------------------------
@dataclass
class ValueRow:
    """One position from one seat's view, and the margin its side ended the deal with."""

    margin: float  # held now (score_position)
    vector: Any  # the observation (a numpy array)
    keys: dict[str, float]
    turn: bool
    final: float  # held at the deal's end, both sides having played as ``kind``
    seed: int


def value_rows(
    game: str, players: int, seeds: Sequence[int], kind: str = "greedy", every: int = 2
) -> list[ValueRow]:
    """The first deal of each seed's match played by ``kind`` at every seat (the
    search's playouts), every ``every``-th position recorded from every seat's view."""
    import numpy as np

    from cardcore.reads import seat_bots
    from cardcore.rl.encoding import encoding_for
    from cardcore.value import features

    table = Table(discover().game(game), players)
    encoding = encoding_for(table)
    rows: list[ValueRow] = []
    for seed in seeds:
        match = table.new_match(seed)
        state = match.start_deal()
        bots = seat_bots(table, kind, random.Random(f"value/{seed}"))
        at: list[tuple[int, float, Any, dict[str, float], bool]] = []
        n = 0
        while not table.fast_is_deal_over(state):
            moves = table.fast_legal_moves(state)
            if n % every == 0:
                for seat in range(players):
                    margin, vector, keys, turn = features(table, encoding, state.clone(), seat)
                    at.append((seat, margin, np.asarray(vector, dtype=np.float32), keys, turn))
            table.fast_apply_move(state, bots[state.to_act](state, moves))
            n += 1
        end = [s.points for s in table.score_position(state)]
        for seat, margin, vector, keys, turn in at:
            mine = table.side_of[seat]
            others = [p for i, p in enumerate(end) if i != mine]
            final = end[mine] - (sum(others) / len(others) if others else 0)
            rows.append(ValueRow(margin, vector, keys, turn, final, seed))
    return rows


def _value_matrix(rows: Sequence[ValueRow], keys: Sequence[str]) -> tuple[Any, Any]:
    import numpy as np

    x = np.zeros((len(rows), 2 + len(rows[0].vector) + len(keys)), dtype=np.float64)
    y = np.zeros(len(rows))
    for i, r in enumerate(rows):
        x[i, 0] = 1.0
        x[i, 1] = 1.0 if r.turn else 0.0
        x[i, 2 : 2 + len(r.vector)] = r.vector
        x[i, 2 + len(r.vector) :] = [r.keys.get(k, 0.0) for k in keys]
        y[i] = r.final - r.margin  # what the rest of the deal brought
    return x, y


def fit_value(rows: Sequence[ValueRow], encoding: Any, l2: float = 100.0) -> Any:
    """The ridge regression of what the rest of the deal brought on the
    position's features (the bias unpenalized). Needs numpy."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - the learn extra
        sys.exit("cardcore.learn: training needs numpy: pip install -e '.[learn]'")
    from cardcore.value import ValueModel

    keys = sorted({k for r in rows for k in r.keys})
    x, y = _value_matrix(rows, keys)
    penalty = np.full(x.shape[1], float(l2))
    penalty[0] = 0.0
    w = np.linalg.solve(x.T @ x + np.diag(penalty), x.T @ y)
    size = len(rows[0].vector)
    rounded = [round(float(v), 6) for v in w]
    return ValueModel(
        encoding.name,
        size,
        rounded[0],
        rounded[1],
        tuple(rounded[2 : 2 + size]),
        dict(zip(keys, rounded[2 + size :], strict=True)),
    )


def measure_value(rows: Sequence[ValueRow], model: Any) -> dict[str, Any]:
    """Mean squared error, in points², of the deal's final margin predicted
    by the points held (``score_position``, what ``depth`` alone counts) and
    by the model; and the share of the held count's error the model removes."""
    import numpy as np

    keys = sorted(model.keys)
    x, y = _value_matrix(rows, keys)
    w = np.array([model.bias, model.turn, *model.observation, *(model.keys[k] for k in keys)])
    n = max(1, len(rows))
    held = float((y**2).sum())
    fitted = float(((y - x @ w) ** 2).sum())
    return {
        "positions": len(rows),
        "mse": {"held": round(held / n, 3), "model": round(fitted / n, 3)},
        "removed": round(1 - fitted / held, 4) if held else 0.0,
    }


def _value(args: Any, argv: Sequence[str] | None) -> int:
    """``python -m cardcore.learn value``: fit on seeds from ``--seed``, measure on fresh ones."""
    from cardcore.rl.encoding import encoding_for
    from cardcore.value import value_path

    table = Table(discover().game(args.game), args.players)
    start = time.process_time()
    games = args.games or 300
    first = 1 if args.seed is None else args.seed
    if first + games > FRESH_SEED:
        sys.exit(f"cardcore.learn: training seeds must stay below {FRESH_SEED} (the evaluation's)")
    rows = value_rows(args.game, args.players, range(first, first + games), args.rollout, args.every)
    model = fit_value(rows, encoding_for(table), args.l2)
    fresh_games = max(1, games // 4)
    fresh = value_rows(
        args.game, args.players, range(FRESH_SEED, FRESH_SEED + fresh_games), args.rollout, args.every
    )
    trained, measured = measure_value(rows, model), measure_value(fresh, model)
    meta = {
        "command": "python -m cardcore.learn " + " ".join(argv if argv is not None else sys.argv[1:]),
        "game": args.game,
        "players": args.players,
        "seeds": [first, first + games - 1],
        "rollout": args.rollout,
        "every": args.every,
        "l2": args.l2,
        "positions": len(rows),
        "train": trained,
        "fresh": {"seeds": [FRESH_SEED, FRESH_SEED + fresh_games - 1], **measured},
    }
    model = dataclasses.replace(model, meta=meta)
    out = args.out or str(value_path(table))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(model.to_json(), f, indent=1)
        f.write("\n")
    print(f"{len(rows):,} positions from {games} deals (seeds {first}-{first + games - 1})")
    print(f"training: {trained}")
    print(f"fresh ({fresh_games} deals from seed {FRESH_SEED}): {measured}")
    print(f"wrote {out}; {time.process_time() - start:.0f} s CPU")
    return 0


def _loss(p: float) -> float:
    return -math.log(max(p, 1e-12))


def measure(rows: Sequence[Row], model: Model) -> dict[str, Any]:
    """Log-loss per card (nats) of the uniform redeal, the game's sampler (its
    imagined deals' frequencies) and the model; and a reliability table for
    the other hands' places: per bin of predicted probability, the cards, the
    mean prediction and how often the card was there."""
    inference = Inference.__new__(Inference)
    inference.model = model
    sums = {"uniform": 0.0, "sampler": 0.0, "model": 0.0}
    bins: dict[str, list[list[float]]] = {k: [[0, 0.0, 0.0] for _ in range(10)] for k in sums}
    for r in rows:
        info = r.info
        sampler = [b / sum(info.base) for b in info.base]
        preds = {"uniform": r.uniform, "sampler": sampler, "model": inference.probabilities(info)}
        for k, p in preds.items():
            sums[k] += _loss(p[r.truth])
            for j, place in enumerate(info.places):
                if place < 0:
                    continue
                b = bins[k][min(9, int(p[j] * 10))]
                b[0] += 1
                b[1] += p[j]
                b[2] += 1.0 if j == r.truth else 0.0
    n = max(1, len(rows))
    return {
        "cards": len(rows),
        "logloss": {k: round(v / n, 4) for k, v in sums.items()},
        "reliability": {
            k: [[int(c), round(m / c, 3), round(o / c, 3)] if c else [0, None, None] for c, m, o in v]
            for k, v in bins.items()
        },
    }


def _print_measure(result: dict[str, Any], out: Any = sys.stdout) -> None:
    print(f"cards {result['cards']:,}; log-loss per unseen card (nats):", file=out)
    for k, v in result["logloss"].items():
        print(f"  {k:8} {v:.4f}", file=out)
    print("reliability (other hands' places): bin, cards, mean predicted, observed", file=out)
    for k, table in result["reliability"].items():
        print(f"  {k}:", file=out)
        for i, (c, m, o) in enumerate(table):
            if c:
                print(f"    {i / 10:.1f}-{(i + 1) / 10:.1f} {c:8,} {m:.3f} {o:.3f}", file=out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardcore.learn", description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("train", "evaluate", "value"))
    parser.add_argument("--game", default="paquet_voleur")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=None, help="matches (train 300, evaluate 100)")
    parser.add_argument("--seed", type=int, default=None, help=f"first seed (train 1, evaluate {FRESH_SEED})")
    parser.add_argument("--every", type=int, default=2, help="record every n-th decision of a seat")
    parser.add_argument("--samples", type=int, default=64, help="imagined deals for the base rates")
    parser.add_argument(
        "--kinds",
        default=",".join(DEFAULT_KINDS).replace(",prior", ";prior").replace(",rollout", ";rollout"),
        help="the seats' kinds, one per match in turn, separated by commas (';' inside a kind)",
    )
    parser.add_argument("--out", default=None, help="the model file (train; default: the game's)")
    parser.add_argument("--model", default=None, help="the model file (evaluate; default: the game's)")
    parser.add_argument("--rollout", default="greedy", help="value: the kind that plays the deals out")
    parser.add_argument("--l2", type=float, default=100.0, help="value: the ridge penalty")
    args = parser.parse_args(argv)
    if args.action == "value":
        return _value(args, argv)
    kinds = [k.replace(";", ",") for k in args.kinds.split(",")]
    registry = discover()
    table = Table(registry.game(args.game), args.players)
    start = time.process_time()
    if args.action == "train":
        games = args.games or 300
        first = 1 if args.seed is None else args.seed
        if first + games > FRESH_SEED:
            parser.error(f"training seeds must stay below {FRESH_SEED} (the evaluation's)")
        rows = generate(args.game, args.players, range(first, first + games), kinds, args.every, args.samples)
        weights = fit(rows)
        model = Model(weights)
        fitted = measure(rows, model)
        meta = {
            "command": "python -m cardcore.learn " + " ".join(argv if argv is not None else sys.argv[1:]),
            "game": args.game,
            "players": args.players,
            "seeds": [first, first + games - 1],
            "kinds": kinds,
            "every": args.every,
            "samples": args.samples,
            "cards": len(rows),
            "train_logloss": fitted["logloss"],
        }
        model = Model(weights, meta=meta)
        out = args.out or str(model_path(table))
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)  # a game's first model
        with open(out, "w", encoding="utf-8") as f:
            json.dump(model.to_json(), f, indent=1)
            f.write("\n")
        print(
            f"{len(rows):,} cards from {games} matches (seeds {first}-{first + games - 1}); weights {weights}"
        )
        print(f"training log-loss {fitted['logloss']}; wrote {out}; {time.process_time() - start:.0f} s CPU")
        return 0
    path = args.model
    if path is None:
        model = Model.from_json(json.loads(model_path(table).read_text(encoding="utf-8")))
    else:
        with open(path, encoding="utf-8") as f:
            model = Model.from_json(json.load(f))
    games = args.games or 100
    first = FRESH_SEED if args.seed is None else args.seed
    rows = generate(args.game, args.players, range(first, first + games), kinds, args.every, args.samples)
    seeds = f"seeds {first}-{first + games - 1}"
    print(f"{args.game} {args.players}p, {games} fresh matches ({seeds}), kinds {kinds}")
    _print_measure(measure(rows, model))
    print(f"{time.process_time() - start:.0f} s CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
