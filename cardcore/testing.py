"""A conformance suite any game or house rule can run in its own tests: a
third-party game's author runs the same checks as the built-in games.

``check_table(table)`` runs them all; each is also a function of its own.
Every check plays seeded deals with the given bots (``kinds``, random bots by
default), matches restarting as needed, and raises ``ConformanceError`` (an
``AssertionError``) naming the seed, the deal and what failed.

``check_random_playouts`` checks, at every step, what must hold for every game:

* card conservation: the cards of the state are exactly the deck's, each
  physical copy once (``cardcore_state_cards``);
* every move played is in ``legal_moves()``, and ``legal_moves()`` has no
  duplicates and is never empty while the deal goes on;
* the state survives a JSON round trip unchanged (up to which copy of two
  identical cards is which) with the same legal moves, every slot of the
  state included (a field the JSON forgets is caught), and playing on a clone
  leaves the original untouched;
* the deal's scores come out for every side;
* no dead ends (G1): after *every* legal move, not only the one played, the
  player can still finish his turn without taking anything back
  (``GameSpec.take_backs``): a depth-first search over the rest of his turn
  (``DealState.turn``), in which each decision of another seat within the turn
  (Canasta's partner answering "May I go out?") must leave him a way.

``check_hidden_information``: no seat's observation, nor a spectator's, names
a card of another hand or of the stock (copies counted, for two decks), and
no move's public JSON (what the log, the printer and witnesses get) names a
card hidden from the other seats.

``check_determinism``: the same seed and bots play the same game twice, move
for move, with the same scores (``record_playouts`` gives the record to
compare across processes too).

``check_sampling``: ``cardcore_sample_state`` imagines only what the seat
cannot see: a sample conserves the cards, leaves the seat's hand, his view,
the spectator's view and everything but the hands and the stock as they are,
keeps the sizes of the other hands and of the stock, shares no list with the
real state and changes nothing of it; and the samples do vary.

``check_no_leak``: what a seat imagines depends only on what it may know.
At checked steps, other arrangements of the unseen cards that leave the
seat's view and the public state unchanged (its "twins", drawn with the
game's own sampler) must give, with the same RNG, the same imagined deal
(``cardcore_sample_state``), the same search (its move and its estimates: a
hint) and the same answer to *why not?* for every unseen card. A sampler
that shuffles the unseen cards from their true order, or an explanation that
looks into another hand, fails it.

Hidden, for these checks, is what the core's contract says: the other hands
and the stock (``cardcore_sample_state``); every other place of the state is
public. Each check returns counts for the caller to assert on.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardcore.cards import Card
from cardcore.decision import Decision, Step
from cardcore.errors import IllegalMoveError, PluginError
from cardcore.game import DealState, unseen_order
from cardcore.match import DealResult, Match
from cardcore.moves import Move
from cardcore.players import reason_not
from cardcore.runner import Listener, make_player, make_players, play_deal
from cardcore.table import Table


class ConformanceError(AssertionError):
    """A conformance check failed: the message names the seed, the deal and what."""


@dataclass
class PlayoutStats:
    """What ``check_random_playouts`` played and searched."""

    deals: int = 0
    moves: int = 0
    max_moves_listed: int = 0
    turn_searches: int = 0  # positions visited by the no-dead-end search


TURN_SEARCH_LIMIT = 20_000  # positions per move checked; a turn that needs more is reported


def turn_can_end(table: Table, state: DealState, seat: int, budget: list[int]) -> bool:
    """Whether ``seat``'s turn can end from ``state`` by legal moves, take-backs
    apart: some move of his own leads there, and every move another seat may
    make within his turn does too. ``budget[0]`` counts down the positions
    visited. Moves are tried last listed first (games list the moves that end
    a turn last), which only makes the search faster."""
    if table.is_deal_over(state) or state.turn != seat:
        return True
    budget[0] -= 1
    if budget[0] < 0:
        raise ConformanceError(f"no-dead-end search: more than {TURN_SEARCH_LIMIT} positions in one turn")
    skip = table.game.take_backs
    moves = [m for m in table.legal_moves(state) if m.kind not in skip]
    if not moves:
        return False
    results = (_after_can_end(table, state, m, moves, seat, budget) for m in reversed(moves))
    return any(results) if state.to_act == seat else all(results)


def _after_can_end(
    table: Table, state: DealState, move: Any, legal: Sequence[Any], seat: int, budget: list[int]
) -> bool:
    twin = state.clone()
    table.apply(twin, move, legal)
    return turn_can_end(table, twin, seat, budget)


def check_no_dead_end(table: Table, state: DealState, moves: Sequence[Any], where: str) -> int:
    """G1 for every move of ``moves`` (take-backs apart); returns the positions visited."""
    seat = state.turn
    visited = 0
    for m in moves:
        if m.kind in table.game.take_backs:
            continue
        budget = [TURN_SEARCH_LIMIT]
        if not _after_can_end(table, state, m, moves, seat, budget):
            text = table.move_text(m, state)
            raise ConformanceError(f"{where}: after {text!r} seat {seat} cannot end his turn (G1)")
        visited += TURN_SEARCH_LIMIT - budget[0]
    return visited


def fingerprint(state: DealState) -> dict[str, Any]:
    """Every slot of ``state`` (the table apart) as plain data, cards by name:
    what a JSON round trip must keep, including any field the JSON forgets."""
    out: dict[str, Any] = {}
    for cls in type(state).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if slot != "table" and hasattr(state, slot):
                out[slot] = _plain(getattr(state, slot))
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return value.name
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _check_cards(table: Table, state: DealState, where: str) -> None:
    cards = table.state_cards(state)
    if len(cards) != len(set(map(id, cards))):
        raise ConformanceError(f"{where}: a card is in two places")
    if sorted(c.sort_key for c in cards) != sorted(c.sort_key for c in table.deck):
        raise ConformanceError(f"{where}: cards not conserved")


class _Checks(Listener):
    """Base of the kit's checks: a listener of the engine's own loop
    (``runner.play_deal``, as every game is played), told where it is."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.where = ""  # seed and deal
        self.step = 0  # moves made in the deal

    @property
    def at(self) -> str:
        return f"{self.where} step {self.step}"

    def deal_start(self, match: Match, state: DealState) -> None:
        self.step = 0

    def move(self, match: Match, state: DealState, step: Step) -> None:
        self.step += 1


def _play(table: Table, deals: int, seed: int, kinds: Sequence[str] | None, check: _Checks) -> None:
    """``deals`` deals of seeded matches (restarted as needed) played by the
    engine's loop with ``check`` listening; the loop's own refusals (no legal
    move while the deal goes on, a move not listed) become ``ConformanceError``
    naming where."""
    players = make_players(table, list(kinds or ["random"] * table.players), seed)
    master = random.Random(seed)
    match: Match = table.new_match(master.getrandbits(63))
    for number in range(1, deals + 1):
        if match.over:
            match = table.new_match(master.getrandbits(63))
        check.where = f"seed {seed} deal {number}"
        try:
            play_deal(table, match, players, [check])
        except (PluginError, IllegalMoveError) as err:
            raise ConformanceError(f"{check.at}: {err}") from None


def check_random_playouts(
    table: Table,
    deals: int,
    seed: int = 0,
    kinds: Sequence[str] | None = None,
    round_trip_every: int = 7,
    on_deal: Callable[[DealState, DealResult], Any] | None = None,
    on_move: Callable[[DealState, Any], Any] | None = None,
    dead_ends: bool = True,
) -> PlayoutStats:
    """Play ``deals`` deals (matches restart as needed) and check the
    invariants of the module's docstring: conservation, legality, the JSON
    round trip every ``round_trip_every`` steps, clone independence, scores
    for every side and no dead ends. Returns the deals, moves and positions
    searched.

    ``on_move(state, move)`` is called before each move is applied and
    ``on_deal(state, result)`` after each deal, for a game's own checks;
    ``dead_ends=False`` skips the no-dead-end search (the slowest check)."""
    check = _Playouts(table, round_trip_every, on_deal, on_move, dead_ends)
    _play(table, deals, seed, kinds, check)
    return check.stats


class _Playouts(_Checks):
    """``check_random_playouts``'s checks, at each step of the loop."""

    def __init__(
        self,
        table: Table,
        round_trip_every: int,
        on_deal: Callable[[DealState, DealResult], Any] | None,
        on_move: Callable[[DealState, Any], Any] | None,
        dead_ends: bool,
    ) -> None:
        super().__init__(table)
        self.round_trip_every = round_trip_every
        self.on_deal, self.on_move, self.dead_ends = on_deal, on_move, dead_ends
        self.stats = PlayoutStats()

    def deal_start(self, match: Match, state: DealState) -> None:
        super().deal_start(match, state)
        _check_cards(self.table, state, self.where)

    def before_move(self, match: Match, state: DealState, moves: list[Move], move: Move) -> None:
        table, stats, where = self.table, self.stats, self.where
        if len(set(moves)) != len(moves):
            raise ConformanceError(f"{where}: duplicate legal moves")
        stats.max_moves_listed = max(stats.max_moves_listed, len(moves))
        if self.dead_ends:
            stats.turn_searches += check_no_dead_end(table, state, moves, where)
        if self.on_move is not None:
            self.on_move(state, move)
        if self.step % self.round_trip_every == 0:
            _check_round_trip(table, state, moves, move, where)

    def move(self, match: Match, state: DealState, step: Step) -> None:
        super().move(match, state, step)
        _check_cards(self.table, state, self.where)
        self.stats.moves += 1

    def deal_end(self, match: Match, state: DealState, result: DealResult) -> None:
        if len(result.sides) != len(self.table.sides):
            raise ConformanceError(f"{self.where}: scores for {len(result.sides)} sides")
        if self.on_deal is not None:
            self.on_deal(state, result)
        self.stats.deals += 1


def _check_round_trip(table: Table, state: DealState, moves: list[Move], move: Move, where: str) -> None:
    dumped = table.dump_state(state)
    again = table.load_state(dumped)
    if table.dump_state(again) != dumped:
        raise ConformanceError(f"{where}: JSON round trip changed the state")
    lost = [k for k, v in fingerprint(state).items() if fingerprint(again).get(k) != v]
    if lost:
        raise ConformanceError(f"{where}: JSON round trip lost {', '.join(lost)}")
    # copies of one card (two decks) are interchangeable: compare by notation
    if [table.move_json(m) for m in table.legal_moves(again)] != [table.move_json(m) for m in moves]:
        raise ConformanceError(f"{where}: round trip changed the legal moves")
    twin = state.clone()
    table.apply(twin, move, moves)
    if table.dump_state(state) != dumped:
        raise ConformanceError(f"{where}: playing on a clone changed the original")


# ---- hidden information -------------------------------------------------------------------
_TOKEN = re.compile(r"[A-Za-z0-9]+")


def named_cards(table: Table, value: Any) -> Counter[str]:
    """How many times JSON data ``value`` names each card of the deck: a string
    that is a card's name names it once, a longer text each card it names
    (``"pair 5H takes 5C"``)."""
    return _named(frozenset(c.name for c in table.deck), value)


def _named(names: frozenset[str], value: Any) -> Counter[str]:
    out: Counter[str] = Counter()

    def walk(v: Any) -> None:
        if isinstance(v, str):
            if v in names:
                out[v] += 1
            else:
                out.update(t for t in _TOKEN.findall(v) if t in names)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)

    walk(value)
    return out


class _Sight:
    """Who may see how many copies of each card of one state: a copy is hidden
    from a seat in another seat's hand or in the stock."""

    def __init__(self, table: Table, state: DealState, names: frozenset[str] | None = None) -> None:
        self.names = names if names is not None else frozenset(c.name for c in table.deck)
        self.total = Counter(c.name for c in table.deck)
        self.hands = [Counter(c.name for c in h) for h in state.hands]
        # the cards in a hand or in the stock, by id
        self.closed_ids = {id(c): c.name for h in (*state.hands, state.stock) for c in h}
        self.closed = Counter(self.closed_ids.values())

    def visible(self, seat: int | None, name: str) -> int:
        """The copies of ``name`` that ``seat`` (None: a spectator) may see."""
        own = self.hands[seat][name] if seat is not None else 0
        return self.total[name] - self.closed[name] + own

    def beyond(self, seat: int | None, named: Counter[str]) -> list[str]:
        """The cards of ``named`` named more often than ``seat`` may see them."""
        return sorted(n for n, k in named.items() if k > self.visible(seat, n))


def visible_copies(table: Table, state: DealState, seat: int | None) -> Counter[str]:
    """How many copies of each card ``seat`` (None: a spectator) may see: the
    copies that are neither in another seat's hand nor in the stock."""
    sight = _Sight(table, state)
    return Counter({n: sight.visible(seat, n) for n in sight.total})


def leaks(table: Table, state: DealState, seat: int | None) -> list[str]:
    """The cards ``seat``'s observation (a spectator's if None) names beyond
    what it may see: for each name, the copies the view names must fit in the
    copies that are neither in another hand nor in the stock (two decks:
    counted). A view naming one visible card twice counts it twice."""
    sight = _Sight(table, state)
    view = (table.observe(state, seat) if seat is not None else table.spectate(state)).to_json()
    return sight.beyond(seat, _named(sight.names, view))


def move_leaks(table: Table, before: DealState, after: DealState, move: Move) -> list[str]:
    """The cards the public JSON of ``move`` (``table.move_json(move)``, what
    the log, the printer and witnesses get) names while they are hidden from
    the other seats: each copy named must be in no hand and not in the stock
    before the move (``before``, a clone of the state: a pile taken) or after
    it (``after``: a card played from the hand). A card drawn from the stock
    into a hand, say, may not be named. Its text and its fields are counted
    apart (each may name the same card)."""
    return _move_leaks(_Sight(table, before), _Sight(table, after), table.move_json(move))


def _move_leaks(before: _Sight, after: _Sight, data: dict[str, Any]) -> list[str]:
    named = _named(before.names, data.get("text", ""))
    named |= _named(before.names, {k: v for k, v in data.items() if k != "text"})
    # the copies hidden both before and after the move may not be named
    closed = Counter(n for i, n in before.closed_ids.items() if i in after.closed_ids)
    return sorted(n for n, k in named.items() if k > before.total[n] - closed[n])


def check_hidden_information(
    table: Table, deals: int, seed: int = 0, kinds: Sequence[str] | None = None
) -> int:
    """Play ``deals`` seeded deals and check, at every step, that each seat's
    observation holds exactly its own hand and names no card of another hand
    or of the stock, that the spectator's (``table.spectate``) holds no hand
    and names no card of any hand or of the stock (copies counted: with two
    decks a seat may hold one 5H and see the other on the table), and that
    each move's public JSON names no card hidden from the other seats
    (``move_leaks``). Raises ``ConformanceError`` naming the seat, the step
    and the cards; returns the views checked."""
    check = _Hidden(table)
    _play(table, deals, seed, kinds, check)
    return check.checked


class _Hidden(_Checks):
    """``check_hidden_information``'s checks: every view before each move, the
    move's public JSON after it."""

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.names = frozenset(c.name for c in table.deck)
        self.checked = 0
        self.sight: _Sight | None = None

    def deal_start(self, match: Match, state: DealState) -> None:
        super().deal_start(match, state)
        self.sight = _Sight(self.table, state, self.names)

    def before_move(self, match: Match, state: DealState, moves: list[Move], move: Move) -> None:
        assert self.sight is not None
        for seat in [*range(self.table.players), None]:
            _check_view(self.table, state, seat, self.sight, self.at)
            self.checked += 1

    def move(self, match: Match, state: DealState, step: Step) -> None:
        before, self.sight = self.sight, _Sight(self.table, state, self.names)
        assert before is not None
        bad = _move_leaks(before, self.sight, step.public)
        if bad:
            raise ConformanceError(
                f"{self.at}: the move of seat {step.seat} {step.text!r} shows the others {bad}, "
                "hidden in a hand or the stock (its public JSON)"
            )
        super().move(match, state, step)


def _check_view(table: Table, state: DealState, seat: int | None, sight: _Sight, at: str) -> None:
    who = f"seat {seat}" if seat is not None else "the spectator (seat None)"
    obs = table.observe(state, seat) if seat is not None else table.spectate(state)
    own = state.hands[seat] if seat is not None else []
    if Counter(map(id, obs.hand)) != Counter(map(id, own)):
        raise ConformanceError(f"{at}: {who}'s view holds {list(map(str, obs.hand))}, not its own hand")
    bad = sight.beyond(seat, _named(sight.names, obs.to_json()))
    if bad:
        raise ConformanceError(f"{at}: {who} sees {bad}, hidden in another hand or the stock")


# ---- determinism ------------------------------------------------------------------------
def record_playouts(
    table: Table, deals: int, seed: int = 0, kinds: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """Play ``deals`` seeded deals and return, per deal, plain JSON data: the
    dealt state (``dump_state``), every move's JSON and the deal's result
    with the match's scores after it. Equal records mean the same games: what
    ``check_determinism`` compares, and what a test may compare between two
    processes (different ``PYTHONHASHSEED``)."""
    check = _Record(table)
    _play(table, deals, seed, kinds, check)
    return check.out


class _Record(_Checks):
    """``record_playouts``: each deal dealt, its moves' JSON and its result."""

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.out: list[dict[str, Any]] = []

    def deal_start(self, match: Match, state: DealState) -> None:
        super().deal_start(match, state)
        self.out.append({"dealt": self.table.dump_state(state), "moves": []})

    def move(self, match: Match, state: DealState, step: Step) -> None:
        super().move(match, state, step)
        self.out[-1]["moves"].append(step.public)

    def deal_end(self, match: Match, state: DealState, result: DealResult) -> None:
        self.out[-1].update(result=result.to_json(), scores=list(match.scores))


def check_determinism(table: Table, seed: int = 0, deals: int = 4, kinds: Sequence[str] | None = None) -> int:
    """Play the same ``deals`` seeded deals twice in this process, with bots
    made afresh from the same seed, and check that they are the same games:
    the same deals dealt, the same moves (their JSON) one for one, the same
    scores. A rule that draws on the global ``random``, the clock or anything
    but the match's and the bots' RNGs is caught. Object ids and hash seeds
    are the same within one process: compare ``record_playouts`` between two
    processes for those. Raises ``ConformanceError`` at the first difference;
    returns the moves compared."""
    first = record_playouts(table, deals, seed, kinds)
    second = record_playouts(table, deals, seed, kinds)
    for number, (a, b) in enumerate(zip(first, second, strict=True), start=1):
        where = f"seed {seed} deal {number}: the same seed and bots"
        if a["dealt"] != b["dealt"]:
            raise ConformanceError(f"{where} dealt two different deals (not deterministic)")
        for i, (x, y) in enumerate(zip(a["moves"], b["moves"], strict=False)):
            if x != y:
                raise ConformanceError(
                    f"{where} played {x.get('text')!r}, then {y.get('text')!r} "
                    f"at move {i} (not deterministic)"
                )
        if len(a["moves"]) != len(b["moves"]):
            raise ConformanceError(
                f"{where} played {len(a['moves'])} moves, then {len(b['moves'])} (not deterministic)"
            )
        if a["result"] != b["result"] or a["scores"] != b["scores"]:
            raise ConformanceError(f"{where} scored {a['result']}, then {b['result']} (not deterministic)")
    return sum(len(d["moves"]) for d in first)


# ---- sampling honesty ---------------------------------------------------------------------
@dataclass
class SamplingStats:
    samples: int = 0  # samples checked
    could_vary: int = 0  # of them, drawn where another hand could be imagined otherwise
    varied: int = 0  # of those, samples where another hand differs from the truth


def check_sampling(
    table: Table,
    deals: int,
    seed: int = 0,
    kinds: Sequence[str] | None = None,
    every: int = 3,
    on_sample: Callable[[DealState, int, DealState], Any] | None = None,
) -> SamplingStats:
    """Sampling honesty (``table.sample_state``, the determinization search
    bots use). Over ``deals`` seeded deals, every ``every`` steps, for the
    seat to act and the next one: a sample conserves the cards (each physical
    copy once); leaves the seat's own hand (the same physical cards), the
    seat's view, the spectator's view and the whole state but the hands and
    the stock (``dump_state``) as they are; keeps the sizes of the other
    hands and of the stock; shares no hand or stock list with the real state
    and changes nothing of it (its JSON and every slot). And samples vary:
    where another hand could be imagined otherwise (the other hands and the
    stock hold two different cards or more), more than half the samples put
    in some other hand cards it does not hold (a sampler that peeks, keeping
    the real hands, fails). ``on_sample(state, seat, sample)`` takes a game's
    own checks (the cards it knows an opponent holds kept there). Raises
    ``ConformanceError`` naming the seat and the step; returns the counts."""
    check = _Samples(table, random.Random(f"{seed}/sampling"), every, on_sample)
    _play(table, deals, seed, kinds, check)
    stats = check.stats
    if stats.could_vary and stats.varied * 2 <= stats.could_vary:
        raise ConformanceError(
            f"seed {seed}: only {stats.varied} of {stats.could_vary} samples imagine another hand "
            "otherwise than it is, where they could (does the sampler peek at the real hands?)"
        )
    return stats


class _Samples(_Checks):
    """``check_sampling``'s checks, every ``every`` steps, before the move."""

    def __init__(
        self,
        table: Table,
        rng: random.Random,
        every: int,
        on_sample: Callable[[DealState, int, DealState], Any] | None,
    ) -> None:
        super().__init__(table)
        self.rng, self.every, self.on_sample = rng, every, on_sample
        self.stats = SamplingStats()

    def before_move(self, match: Match, state: DealState, moves: list[Move], move: Move) -> None:
        if self.step % self.every:
            return
        for seat in sorted({state.to_act, (state.to_act + 1) % self.table.players}):
            sample = _check_sample(self.table, state, seat, self.rng, f"{self.at} seat {seat}", self.stats)
            if self.on_sample is not None:
                self.on_sample(state, seat, sample)


def _public_dump(dump: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in dump.items() if k not in ("hands", "stock")}


def _check_sample(
    table: Table, state: DealState, seat: int, rng: random.Random, where: str, stats: SamplingStats
) -> DealState:
    before, slots = table.dump_state(state), fingerprint(state)
    view, public = table.observe(state, seat).to_json(), table.spectate(state).to_json()
    sample = table.sample_state(state, seat, rng)
    if table.dump_state(state) != before or fingerprint(state) != slots:
        raise ConformanceError(f"{where}: sampling changed the real state")
    _sample_apart(state, sample, where)
    _sample_cards(table, state, sample, seat, where)
    dumped = table.dump_state(sample)
    changed = sorted(k for k, v in _public_dump(before).items() if dumped.get(k) != v)
    changed += sorted(k for k in _public_dump(dumped) if k not in before)
    if changed:
        raise ConformanceError(
            f"{where}: the sample changed {', '.join(changed)} (only hands and stock are unseen)"
        )
    if table.observe(sample, seat).to_json() != view:
        raise ConformanceError(f"{where}: the seat's view of the sample is not its view of the deal")
    if table.spectate(sample).to_json() != public:
        raise ConformanceError(f"{where}: the spectator's view of the sample is not that of the deal")
    stats.samples += 1
    _count_variety(state, sample, seat, stats)
    return sample


def _sample_apart(state: DealState, sample: DealState, where: str) -> None:
    """A sample is a state of its own: no hand or stock list shared with the real one."""
    if sample is state or sample.hands is state.hands or sample.stock is state.stock:
        raise ConformanceError(f"{where}: the sample is the real state, or shares its hands or stock")
    if any(a is b for a, b in zip(sample.hands, state.hands, strict=False)):
        raise ConformanceError(f"{where}: the sample shares a hand (a list) with the real state")


def _sample_cards(table: Table, state: DealState, sample: DealState, seat: int, where: str) -> None:
    """Every card of the deck once; the hands' and the stock's sizes; the seat's own hand."""
    cards = table.state_cards(sample)
    once = len({id(c) for c in cards}) == len(cards)
    if not once or sorted(c.sort_key for c in cards) != sorted(c.sort_key for c in table.deck):
        raise ConformanceError(f"{where}: the sample does not hold every card of the deck once")
    sizes, real = [len(h) for h in sample.hands], [len(h) for h in state.hands]
    if sizes != real or len(sample.stock) != len(state.stock):
        raise ConformanceError(
            f"{where}: the sample's hands and stock hold {sizes} and "
            f"{len(sample.stock)} cards, not {real} and {len(state.stock)}"
        )
    if sample.hands[seat] != state.hands[seat]:
        raise ConformanceError(
            f"{where}: the sample changed the seat's own hand {list(map(str, state.hands[seat]))} "
            f"into {list(map(str, sample.hands[seat]))}"
        )


def _count_variety(state: DealState, sample: DealState, seat: int, stats: SamplingStats) -> None:
    """Where another hand could be imagined otherwise, whether this sample did."""
    unseen = {c.name for i, h in enumerate(state.hands) if i != seat for c in h}
    unseen.update(c.name for c in state.stock)
    if len(unseen) > 1 and any(h for i, h in enumerate(state.hands) if i != seat):
        stats.could_vary += 1
        stats.varied += any(
            Counter(c.name for c in a) != Counter(c.name for c in b)
            for i, (a, b) in enumerate(zip(sample.hands, state.hands, strict=True))
            if i != seat
        )


# ---- what a seat imagines depends only on what it may know ------------------------------
@dataclass
class LeakStats:
    """What ``check_no_leak`` compared."""

    positions: int = 0  # (step, seat) pairs checked
    twins: int = 0  # arrangements compared with the real one
    searches: int = 0  # searches (hints) compared
    whys: int = 0  # unseen cards asked *why not?*


def check_no_leak(
    table: Table,
    deals: int,
    seed: int = 0,
    kinds: Sequence[str] | None = None,
    every: int = 5,
    twins: int = 2,
    search: str | None = "ismcts:iterations=8",
) -> LeakStats:
    """What a seat imagines, and so its hint, depends only on what it may
    know. Over ``deals`` seeded deals, every ``every`` steps, for the seat to
    act: ``twins`` other arrangements of the cards it cannot see, drawn with
    the game's own sampler (so they agree with everything the seat knows),
    each checked to leave its view and the public state as they are, are
    compared with the real deal: with one RNG, the sample
    (``Table.sample_state``) must be the same deal, the search bot ``search``
    (None: none) must play the same move with the same estimates (what a hint
    says), and the game's *why not?* (``players.reason_not``) must answer the
    same for every card the seat cannot see. Raises ``ConformanceError``
    naming the step, the seat and what differed; returns the counts."""
    check = _Twins(table, seed, every, twins, search)
    _play(table, deals, seed, kinds, check)
    return check.stats


class _Twins(_Checks):
    """``check_no_leak``'s checks, every ``every`` steps, before the move."""

    def __init__(self, table: Table, seed: int, every: int, twins: int, search: str | None) -> None:
        super().__init__(table)
        self.seed, self.every, self.twins, self.search = seed, every, twins, search
        self.stats = LeakStats()

    def before_move(self, match: Match, state: DealState, moves: list[Move], move: Move) -> None:
        if self.step % self.every:
            return
        table, seat = self.table, state.to_act  # who decides now (a partner answering, in Canasta)
        where = f"{self.at} seat {seat}"
        view = table.observe(state, seat).to_json()
        public = _public_dump(table.dump_state(state))
        truth = _Imagined(table, match, state, seat, self.step)
        self.stats.positions += 1
        for k in range(self.twins):
            twin = table.sample_state(state, seat, random.Random(f"{self.seed}/twin/{where}/{k}"))
            if table.observe(twin, seat).to_json() != view or _public_dump(table.dump_state(twin)) != public:
                continue  # not an arrangement the seat cannot tell apart (check_sampling says why)
            other = _Imagined(table, match, twin, seat, self.step)
            rng = f"{self.seed}/imagine/{where}/{k}"
            if truth.sample(rng) != other.sample(rng):
                raise ConformanceError(
                    f"{where}: the seat imagines another deal when the cards it cannot see lie "
                    "otherwise (does the sampler read their true order? sort them first: "
                    "cardcore.game.unseen_order)"
                )
            self.stats.twins += 1
            if self.search is not None and len(moves) > 1:
                mine, theirs = (
                    truth.searched(self.search, rng, moves),
                    other.searched(self.search, rng, moves),
                )
                if mine != theirs:
                    raise ConformanceError(
                        f"{where}: the search ({self.search}) plays or estimates otherwise when the "
                        f"cards the seat cannot see lie otherwise: {mine[0]} against {theirs[0]}"
                    )
                self.stats.searches += 1
            for c in sorted(unseen_cards(state, seat), key=unseen_order):
                if truth.why(c, moves) != other.why(c, moves):
                    raise ConformanceError(
                        f"{where}: why not {c}? is answered otherwise when the cards the seat cannot "
                        f"see lie otherwise: {truth.why(c, moves)!r} against {other.why(c, moves)!r}"
                    )
                self.stats.whys += 1


class _Imagined:
    """One arrangement of a deal at a decision of ``seat``: what the seat's
    sampler, a search and *why not?* make of it."""

    def __init__(self, table: Table, match: Match, state: DealState, seat: int, index: int) -> None:
        self.table, self.state, self.seat = table, state, seat
        self.decision = Decision(table, match, state, seat, len(match.deals) + 1, index)

    def sample(self, rng: str) -> dict[str, Any]:
        return self.table.dump_state(self.table.sample_state(self.state, self.seat, random.Random(rng)))

    def searched(self, spec: str, rng: str, moves: list[Move]) -> tuple[str, list[tuple[str, int, float]]]:
        bot: Any = make_player(self.table, spec, self.seat, random.Random(rng))
        observation = self.table.observe(self.state, self.seat)
        move = bot.choose(observation if bot.needs_observation else None, tuple(moves), self.decision)
        rows = bot.estimates() if hasattr(bot, "estimates") else []
        return str(move), [(str(m), n, round(p, 9)) for m, n, p in rows]

    def why(self, c: Card, moves: list[Move]) -> str | None:
        reason = reason_not(self.table, self.decision.explain, c, moves)
        return None if reason is None else str(reason)


def unseen_cards(state: DealState, seat: int) -> list[Card]:
    """The cards ``seat`` cannot see: those of its class's ``HIDDEN`` fields
    (the other hands and the stock, unless the game declares more)."""
    cards: list[Card] = []
    for name, per_seat in type(state).HIDDEN:
        held = getattr(state, name)
        for i, place in enumerate(held) if per_seat else ((-1, held),):
            if i != seat:
                cards += place
    return cards


# ---- everything -------------------------------------------------------------------------
@dataclass
class TableReport:
    """What ``check_table`` checked."""

    playouts: PlayoutStats
    views: int  # observations checked by check_hidden_information
    moves_replayed: int  # moves compared by check_determinism
    sampling: SamplingStats
    imagined: LeakStats  # what check_no_leak compared


def check_table(
    table: Table, deals: int = 10, seed: int = 0, kinds: Sequence[str] | None = None
) -> TableReport:
    """The whole conformance suite in one call, what a game's or a house
    rule's test runs: ``deals`` seeded deals of each of random playouts
    (conservation, legality, JSON round trip, clone independence, scores, no
    dead ends: ``check_random_playouts``), hidden information
    (``check_hidden_information``), determinism (``check_determinism``),
    sampling honesty (``check_sampling``) and what a seat imagines depending
    only on what it may know (``check_no_leak``), with the bots ``kinds``
    (random bots by default). Raises ``ConformanceError`` at the first failure;
    returns what each check counted."""
    return TableReport(
        playouts=check_random_playouts(table, deals, seed, kinds),
        views=check_hidden_information(table, deals, seed, kinds),
        moves_replayed=check_determinism(table, seed, deals, kinds),
        sampling=check_sampling(table, deals, seed, kinds),
        imagined=check_no_leak(table, deals, seed, kinds),
    )
