"""Game logs (JSON lines) and their replay.

Line 1 is the table (game, players, options, house rules, seat kinds); then
per match ``match_start`` (with its seed), the chance steps, and per deal
``deal_start`` (the dealt state as a position), every ``move``, ``deal_end``;
finally ``match_end``.  Each line is flushed as it is written, so a game
stopped half-way keeps everything played so far.

``replay`` rebuilds the table, re-deals from the seeds, plays the logged moves
and compares everything with the log.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from cardcore.errors import CardcoreError, ReplayMismatch
from cardcore.game import DealState
from cardcore.match import DealResult, Match
from cardcore.moves import Move, find_move
from cardcore.plugins import Registry
from cardcore.runner import Listener
from cardcore.table import Table

FORMAT = "cardcore-log/1"


class GameLog(Listener):
    """Writes every event of a game as one JSON line."""

    def __init__(
        self, stream: IO[str], table: Table, kinds: list[str], seed: Any, header: bool = True
    ) -> None:
        self.stream = stream
        self.table = table
        if header:  # the first line of a log (a parallel run's workers write matches only)
            self.write({"event": "table", "format": FORMAT, **table.describe(), "seats": kinds, "seed": seed})

    def write(self, data: dict[str, Any]) -> None:
        self.stream.write(json.dumps(data, separators=(",", ":")) + "\n")
        self.stream.flush()

    def match_start(self, match: Match, number: int) -> None:
        self.write({"event": "match_start", "match": number, "seed": match.seed})

    def chance(self, match: Match, event: dict[str, Any]) -> None:
        self.write(event)

    def deal_start(self, match: Match, state: DealState) -> None:
        self.write(
            {
                "event": "deal_start",
                "deal": len(match.deals) + 1,
                "dealer": match.dealer,
                "state": self.table.dump_state(state),
            }
        )

    def move(self, match: Match, state: DealState, seat: int, move: Move) -> None:
        self.write({"event": "move", "seat": seat, "move": self.table.move_json(move)})

    def deal_end(self, match: Match, state: DealState, result: DealResult) -> None:
        self.write({"event": "deal_end", **result.to_json(), "scores": list(match.scores)})

    def match_end(self, match: Match) -> None:
        self.write({"event": "match_end", "scores": list(match.scores), "winners": match.winners()})


def read_log(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        with path.open(encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                except json.JSONDecodeError as err:
                    raise CardcoreError(f"{path}:{i}: not valid JSON ({err.msg})") from None
                if not isinstance(data, dict) or "event" not in data:
                    raise CardcoreError(f"{path}:{i}: not a cardcore log line")
                yield i, data
    except OSError as err:
        raise CardcoreError(f"{path}: {err.strerror}") from None


class ReplaySummary:
    def __init__(self) -> None:
        self.matches = 0
        self.deals = 0
        self.moves = 0
        self.complete = False


def replay(path: Path, registry: Registry, listener: Listener | None = None) -> ReplaySummary:
    """Re-run the logged game and raise ``ReplayMismatch`` on the first difference."""
    where = [0]
    try:
        return _replay(path, registry, listener, where)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as err:
        # a line of the wrong shape (a hand-edited or corrupted log)
        raise ReplayMismatch(f"{path}:{where[0]}: malformed log line ({type(err).__name__}: {err})") from None


def _replay(path: Path, registry: Registry, listener: Listener | None, where: list[int]) -> ReplaySummary:
    lines = read_log(path)
    try:
        lineno, head = next(lines)
    except StopIteration:
        raise CardcoreError(f"{path}: empty log") from None
    if head.get("event") != "table" or head.get("format") != FORMAT:
        raise CardcoreError(f"{path}:{lineno}: not a cardcore game log (no table line)")
    table = Table.from_names(
        registry,
        head["game"],
        head.get("players"),
        head.get("options") or {},
        head.get("house_rules") or [],
        head.get("names"),
    )
    summary = ReplaySummary()
    match: Match | None = None
    state: DealState | None = None
    logged: list[dict[str, Any]] = []  # chance steps read since the last check
    produced: list[dict[str, Any]] = []  # chance steps the replay made since then
    last_result: DealResult | None = None

    def fail(msg: str) -> ReplayMismatch:
        return ReplayMismatch(f"{path}:{lineno}: {msg}")

    def check_chance() -> None:
        produced.extend(match.take_events() if match else [])
        if produced != logged:
            raise fail(f"chance steps differ: log {logged}, replay {produced}")
        produced.clear()
        logged.clear()

    for lineno, ev in lines:
        where[0] = lineno
        kind = ev["event"]
        if kind == "match_start":
            check_chance()
            match = table.new_match(ev.get("seed"))
            summary.matches += 1
            if listener:
                listener.match_start(match, ev.get("match", summary.matches))
        elif kind == "chance":
            if match is None:
                raise fail("chance step before any match")
            logged.append(ev)
        elif kind == "deal_start":
            if match is None:
                raise fail("deal before any match")
            state = match.start_deal()
            check_chance()
            if ev.get("dealer") != match.dealer:
                raise fail(f"dealer differs: log {ev.get('dealer')}, replay {match.dealer}")
            dumped = table.dump_state(state)
            if ev.get("state") != dumped:
                raise fail("the dealt cards differ from the log")
            if listener:
                listener.deal_start(match, state)
        elif kind == "move":
            if match is None or state is None:
                raise fail("move outside a deal")
            if ev.get("seat") != state.to_act:
                raise fail(f"seat {ev.get('seat')} moves; the replay has seat {state.to_act} to act")
            moves = table.legal_moves(state)
            move = find_move(moves, ev.get("move") or {})
            if move is None:
                text = (ev.get("move") or {}).get("text", ev.get("move"))
                raise fail(f"logged move {text!r} is not legal in the replay")
            table.fast_apply_move(state, move)
            summary.moves += 1
            if listener:
                listener.move(match, state, ev["seat"], move)
        elif kind == "deal_end":
            if match is None or state is None:
                raise fail("deal end outside a deal")
            if not table.is_deal_over(state):
                raise fail("the log ends the deal; in the replay it goes on")
            last_result = match.end_deal(state)
            summary.deals += 1
            got = {**last_result.to_json(), "scores": list(match.scores)}
            want = {k: v for k, v in ev.items() if k != "event"}
            if got != want:
                raise fail(f"deal result differs: log {want['points']}, replay {got['points']}")
            if listener:
                listener.deal_end(match, state, last_result)
            state = None
        elif kind == "match_end":
            if match is None or not match.over:
                raise fail("the log ends the match; in the replay it goes on")
            if ev.get("winners") != match.winners() or ev.get("scores") != match.scores:
                raise fail("match result differs from the log")
            summary.complete = True
            if listener:
                listener.match_end(match)
        else:
            raise fail(f"unknown event {kind!r}")
    check_chance()
    return summary
