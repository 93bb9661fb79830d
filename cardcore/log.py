"""Game logs (JSON lines) and their replay.

Line 1 is the table (game, players, options, house rules, seat kinds); then
per match ``match_start`` (with its seed), the chance steps, and per deal
``deal_start`` (the dealt state as a position), every ``move`` (and, where a
person took a move back against bots, ``redeal``: the seed that dealt the cards
he could not see again, ``runner.Listener.redealt``), ``deal_end``; finally
``match_end``.  Each line is flushed as it is written, so a game
stopped half-way keeps everything played so far.

The header also states the seeding (``play``: the match plays with the
seed; ``simulate``: match k with ``match_seed(seed, k)``), the planned run
(``plan``: deals or matches) and the versions of cardcore and of every plugin
distribution, so that a replay can say why a log made elsewhere differs.

Writing: each line is written whole and flushed, and the file is synced to
disk at every deal's end; a failed write (a full disk) is one clear error.
With ``private=True`` (a game with a person at the table) a match's lines are
held back until the match ends or the game stops (``close``): the dealt
hands, and the seed from which every deal of the match follows, never show
in the file while the person plays. The price: a process killed outright
loses the match in progress (the lines of finished matches stay).

``replay`` rebuilds the table, re-deals from the seeds, plays the logged moves
and compares everything with the log. It checks every complete line, and says
where and how the log stops: after a finished run, in the middle of a match
or a deal, or in the middle of a line (a crash while writing).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, NamedTuple

from cardcore.decision import Decision, Rewind, Step
from cardcore.errors import CardcoreError, ReplayMismatch, TableError, at, joined, message
from cardcore.game import DealState, Observation
from cardcore.i18n import T
from cardcore.match import DealResult, Match
from cardcore.moves import Move, find_move, json_key, move_to_json
from cardcore.plugins import Registry
from cardcore.runner import Listener, make_players, play_deal
from cardcore.seeds import match_seed
from cardcore.table import Table

FORMAT = "cardcore-log/1"


def versions() -> dict[str, str]:
    """cardcore's version and every plugin distribution's, for the log header
    (scanned once a process: a server writes a header for every table it opens)."""
    global _VERSIONS
    if _VERSIONS is None:
        _VERSIONS = _scan_versions()
    return dict(_VERSIONS)


_VERSIONS: dict[str, str] | None = None


def _scan_versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, entry_points, version

    out: dict[str, str] = {}
    try:
        out["cardcore"] = version("cardcore")
    except PackageNotFoundError:
        out["cardcore"] = "unknown"
    for group in ("cardcore.games", "cardcore.house_rules"):
        for ep in entry_points(group=group):
            dist = getattr(ep, "dist", None)
            if dist is not None:
                out[dist.metadata["Name"]] = dist.version
    return dict(sorted(out.items()))


class GameLog(Listener):
    """Writes every event of a game as one JSON line (see the module's docstring)."""

    def __init__(
        self,
        stream: IO[str],
        table: Table,
        kinds: list[str],
        seed: Any,
        header: bool = True,
        seeding: str = "play",
        plan: dict[str, int] | None = None,
        private: bool = False,
    ) -> None:
        self.stream = stream
        self.table = table
        self.private = private
        self.held: list[str] = []
        if header:  # the first line of a log (a parallel run's workers write matches only)
            head = {"event": "table", "format": FORMAT, **table.describe(), "seats": kinds, "seed": seed}
            head.update(seeding=seeding, plan=plan or {}, versions=versions())
            self.write(head)

    def write(self, data: dict[str, Any]) -> None:
        line = json.dumps(data, separators=(",", ":")) + "\n"
        if self.private and data["event"] != "table":
            self.held.append(line)  # written when the match ends or the game stops
            if data["event"] != "match_end":
                return
            line, self.held = "".join(self.held), []
        self._put(line)

    def checkpoint(self) -> Any:
        return len(self.held) if self.private else None

    def rewind(self, token: Any) -> None:
        if token is not None:
            del self.held[token:]  # undone moves never reach the file

    def save(self) -> None:
        """Write what a private log holds so far (``s`` at the prompt); it goes
        on holding what comes next."""
        self.close()

    def close(self) -> None:
        """Write what a private log holds (the game stopped): called on quit."""
        if self.held:
            line, self.held = "".join(self.held), []
            self._put(line)
            self.sync()

    def _put(self, line: str) -> None:
        try:
            self.stream.write(line)
            self.stream.flush()
        except OSError as err:
            name = getattr(self.stream, "name", "the log")
            raise CardcoreError(
                T(
                    "{name}: cannot write the log ({error}); every complete line before is kept",
                    name=name,
                    error=err.strerror or err,
                )
            ) from None

    def sync(self) -> None:
        """Push the file to disk (at each deal's end): a crash keeps every deal."""
        with contextlib.suppress(OSError, AttributeError, ValueError, io.UnsupportedOperation):
            os.fsync(self.stream.fileno())  # nothing to do for a buffer or a pipe

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
                **({"given": True} if match.given else {}),
            }
        )

    def move(self, match: Match, state: DealState, step: Step) -> None:
        self.write({"event": "move", "seat": step.seat, "move": step.public})

    def redealt(self, match: Match, state: DealState, event: dict[str, Any]) -> None:
        self.write(event)  # a take back's hidden cards dealt again: its seed

    def deal_end(self, match: Match, state: DealState, result: DealResult) -> None:
        self.write({"event": "deal_end", **result.to_json(), "scores": list(match.scores)})
        self.sync()

    def match_end(self, match: Match) -> None:
        self.write({"event": "match_end", "scores": list(match.scores), "winners": match.winners()})


MAX_LINE = 50_000_000  # bytes: a deal's dealt state is a few kilobytes


class CutLine(Exception):
    """The last line of a log was cut while written (a crash, a full disk)."""

    def __init__(self, lineno: int) -> None:
        self.lineno = lineno


def read_log(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The log's lines as data; a last line without its newline that does not
    parse was cut while written: ``CutLine`` after every complete line."""
    try:
        with path.open("rb") as f:
            i = 0
            while True:
                raw = f.readline(MAX_LINE)
                if not raw:
                    return
                i += 1
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as err:
                    if not raw.endswith(b"\n"):
                        raise CutLine(i) from None  # cut in the middle of a character
                    byte = err.start + 1
                    raise CardcoreError(
                        T(
                            "{path}:{line}: not UTF-8 text (byte {byte} of the line)",
                            path=path,
                            line=i,
                            byte=byte,
                        )
                    ) from None
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                except (json.JSONDecodeError, RecursionError, ValueError) as err:
                    if not line.endswith("\n"):
                        raise CutLine(i) from None
                    msg = getattr(err, "msg", type(err).__name__)
                    raise CardcoreError(
                        T("{path}:{line}: not valid JSON ({problem})", path=path, line=i, problem=msg)
                    ) from None
                if not isinstance(data, dict) or "event" not in data:
                    raise CardcoreError(T("{path}:{line}: not a cardcore log line", path=path, line=i))
                yield i, data
    except OSError as err:
        raise CardcoreError(at(path, err.strerror)) from None


class ReplaySummary:
    """What a replay found: counts, whether the run is complete, and where and
    how the log stops (``stop``)."""

    def __init__(self) -> None:
        self.matches = 0
        self.deals = 0
        self.moves = 0
        self.complete = False
        self.matches_ended = 0
        self.stop = ""


def replay(path: Path, registry: Registry, listener: Listener | None = None) -> ReplaySummary:
    """Re-run the logged game and raise ``ReplayMismatch`` on the first difference."""
    where = [0]
    head: dict[str, Any] = {}
    try:
        return _replay(path, registry, listener, where, head)
    except ReplayMismatch as err:
        raise ReplayMismatch(_with_version_note(err, head)) from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as err:
        # a line of the wrong shape (a hand-edited or corrupted log)
        error = type(err).__name__ + ": " + str(err)[:100]
        raise ReplayMismatch(
            T("{path}:{line}: malformed log line ({error})", path=path, line=where[0], error=error)
        ) from None


def _with_version_note(err: ReplayMismatch, head: dict[str, Any]) -> Any:
    note = _version_note(head)
    if not note:
        return message(err)
    # i18n: a difference found in a replay, then why it may differ (the versions)
    return T("{problem}{note}", problem=message(err), note=note)


def _version_note(head: dict[str, Any]) -> str:
    """Why a log made elsewhere may differ: the versions it names that differ here."""
    logged = head.get("versions")
    if not isinstance(logged, dict):
        return T(" (the log names no versions: it may come from another cardcore)")
    here = versions()
    differ = []
    for k, v in logged.items():
        if here.get(k) != v:
            if k in here:
                differ.append(T("{package} {version} (here {here})", package=k, version=v, here=here[k]))
            else:
                differ.append(T("{package} {version} (here not installed)", package=k, version=v))
    return T(" (the log was made with {packages})", packages=joined(differ, ", ")) if differ else ""


class Resumed(NamedTuple):
    """Where a log stops (``resume_point``): its table and header, the match
    and the deal in progress there (None when it stops between deals or
    before any match), the moves made in that deal and its take backs dealt
    again (``runner.play_deal``'s ``made`` and ``redeals``)."""

    table: Table
    head: dict[str, Any]
    match: Match | None
    state: DealState | None
    moves: int
    redeals: int


def resume_point(path: Path, registry: Registry) -> Resumed:
    """Replay a log to its last line, to go on playing from there (``cardcore
    play --resume``)."""
    head: dict[str, Any] = {}
    out: list[Any] = []
    try:
        summary = _replay(path, registry, None, [0], head, out)
    except ReplayMismatch as err:
        raise ReplayMismatch(_with_version_note(err, head)) from None
    if "middle of line" in summary.stop:
        raise CardcoreError(T("{path}: {stop}; remove the cut line to resume", path=path, stop=summary.stop))
    table, match, state, moves, redeals = out
    return Resumed(table, head, match, state, moves, redeals)


def _replay(
    path: Path,
    registry: Registry,
    listener: Listener | None,
    where: list[int],
    header: dict[str, Any],
    end: list[Any] | None = None,
) -> ReplaySummary:
    lines = read_log(path)
    try:
        lineno, head = next(lines)
    except StopIteration:
        raise CardcoreError(T("{path}: empty log", path=path)) from None
    except CutLine:
        raise CardcoreError(T("{path}: the log stops in the middle of its first line", path=path)) from None
    header.update(head)
    if head.get("event") != "table" or head.get("format") != FORMAT:
        raise CardcoreError(
            T("{path}:{line}: not a cardcore game log (no table line)", path=path, line=lineno)
        )
    table = Table.from_names(
        registry,
        head["game"],
        head.get("players"),
        head.get("options") or {},
        head.get("house_rules") or [],
        head.get("names"),
    )
    kinds = head.get("seats")
    if kinds is not None:
        try:
            make_players(table, list(kinds), head.get("seed"))
        except TableError as err:
            raise ReplayMismatch(
                T(
                    "{path}:{line}: the seats the log names: {error}",
                    path=path,
                    line=lineno,
                    error=message(err),
                )
            ) from None
    run = _Run(path, table, head, _Lines(lines, where))
    listeners: list[Listener] = [_Check(run), *([listener] if listener else [])]
    run.play([_Logged(run) for _ in range(table.players)], listeners)
    if end is not None:
        end.extend([table, run.match, run.state, run.deal_moves, run.deal_redeals])
    return run.conclude()


class _End(Exception):  # not an error: the log has no more lines
    """The log has no more (complete) lines: the replay stops where it is."""


class _Lines:
    """The log's lines after the header, with one line of look-ahead;
    ``lineno`` is the line last read (``where[0]`` too, for the error of a
    malformed line), ``cut_at`` the line cut while written, if any."""

    def __init__(self, lines: Iterator[tuple[int, dict[str, Any]]], where: list[int]) -> None:
        self.lines = lines
        self.where = where
        self.ahead: dict[str, Any] | None = None
        self.lineno = 1
        self.cut_at = 0

    def peek(self) -> dict[str, Any] | None:
        if self.ahead is None and not self.cut_at:
            try:
                self.lineno, self.ahead = next(self.lines)
                self.where[0] = self.lineno
            except StopIteration:
                pass
            except CutLine as cut:
                self.cut_at = cut.lineno
        return self.ahead

    def take(self) -> dict[str, Any]:
        """The next line (``_End`` when there is none)."""
        ev = self.peek()
        if ev is None:
            raise _End
        self.ahead = None
        return ev


class _Logged:
    """Every seat's player in a replay: plays the logged moves, in order."""

    needs_observation = False

    def __init__(self, run: _Run) -> None:
        self.run = run

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        run = self.run
        ahead = run.lines.peek()
        if ahead is not None and ahead.get("event") == "redeal" and decision is not None:
            # a take back went on from here with the hidden cards dealt again: the
            # engine deals them from the logged seed, and ``_Check.redealt`` reads the line
            count = ahead.get("count")
            seed = ahead.get("seed")
            if type(count) is not int or type(seed) is not str:
                said = T(
                    "chance steps differ: log {logged}, replay {replayed}", logged=str([ahead]), replayed="[]"
                )
                raise run.fail(said)
            raise Rewind(decision.checkpoint(heard=False), redeal=True, seed=seed, count=count)
        ev = run.lines.take()
        kind = ev.get("event")
        if kind != "move":
            raise run.fail(
                T("the log ends the deal; in the replay it goes on")
                if kind == "deal_end"
                else T("the log has a {kind!r} line; in the replay the deal goes on", kind=str(kind)[:40])
            )
        seat = decision.seat if decision is not None else None
        if ev.get("seat") != seat:
            raise run.fail(
                T("seat {logged} moves; the replay has seat {seat} to act", logged=ev.get("seat"), seat=seat)
            )
        data = ev.get("move") or {}
        move = find_move(moves, data)
        if move is None and decision is not None and isinstance(data, dict):
            move = _named(data, moves, decision)
        if move is None:
            text = (ev.get("move") or {}).get("text", ev.get("move"))
            raise run.fail(T("logged move {move!r} is not legal in the replay", move=str(text)[:80]))
        run.logged_move = ev["move"]
        return move


def _named(data: dict[str, Any], moves: Sequence[Move], decision: Decision) -> Move | None:
    """The logged move a person laid with cards he named (N8a): a listed move
    of its kind laid with the logged cards, when the game takes it."""
    cards = data.get("cards")
    names = ([data["card"]] if "card" in data else []) + (list(cards) if isinstance(cards, list) else [])
    if not all(type(n) is str for n in names):
        return None
    want = json_key(data)
    for m in moves:
        if m.kind == data.get("kind"):
            other = decision.laid_with(m, names, moves)
            if other is not None and json_key(move_to_json(other, "")) == want:
                return other
    return None


class _Check(Listener):
    """The replay's first listener: each step of the loop against the log's line."""

    def __init__(self, run: _Run) -> None:
        self.run = run

    def _logged(self, event: dict[str, Any]) -> None:
        """The log's next line is ``event`` (a chance step, a redeal), else the mismatch."""
        ev = self.run.lines.take()
        if ev != event:
            raise self.run.fail(
                T(
                    "chance steps differ: log {logged}, replay {replayed}",
                    logged=str([ev]),
                    replayed=str([event]),
                )
            )

    def chance(self, match: Match, event: dict[str, Any]) -> None:
        if self.run.lines.peek() is None:
            raise _End  # the log stops after the chance steps of a deal it does not start
        self._logged(event)

    def deal_start(self, match: Match, state: DealState) -> None:
        run = self.run
        ev = run.lines.take()
        if ev.get("event") != "deal_start":
            raise run.fail(
                T("chance steps differ: log {logged}, replay {replayed}", logged=str([ev]), replayed="[]")
            )
        if ev.get("dealer") != match.dealer:
            raise run.fail(
                T(
                    "dealer differs: log {logged}, replay {replayed}",
                    logged=ev.get("dealer"),
                    replayed=match.dealer,
                )
            )
        if ev.get("state") != run.table.dump_state(state):
            raise run.fail(T("the dealt cards differ from the log"))
        run.state = state
        run.deal_moves = 0
        run.deal_redeals = 0

    def move(self, match: Match, state: DealState, step: Step) -> None:
        run = self.run
        run.summary.moves += 1
        run.deal_moves += 1
        logged = run.logged_move
        if step.public != logged:
            differ = next((k for k in {**logged, **step.public} if logged.get(k) != step.public.get(k)), "?")
            raise run.fail(
                T(
                    "the move's {field!r} differs: log {logged!r}, replay {replayed!r}",
                    field=differ,
                    logged=str(logged.get(differ))[:60],
                    replayed=str(step.public.get(differ))[:60],
                )
            )
        if run.table.is_deal_over(state) and run.lines.peek() is None:
            raise _End  # the log stops after the deal's last move: nothing scored yet

    def redealt(self, match: Match, state: DealState, event: dict[str, Any]) -> None:
        self._logged(event)
        self.run.state = state  # the deal goes on from the cards dealt again
        self.run.deal_redeals = int(event["count"])

    def deal_end(self, match: Match, state: DealState, result: DealResult) -> None:
        run = self.run
        ev = run.lines.take()
        if ev.get("event") != "deal_end":
            raise run.fail(T("the replay ends the deal; the log goes on"))
        run.summary.deals += 1
        got = {**result.to_json(), "scores": list(match.scores)}
        want = {k: v for k, v in ev.items() if k != "event"}
        if got != want:
            raise run.fail(
                T(
                    "deal result differs: log {logged}, replay {replayed}",
                    logged=want.get("points"),
                    replayed=got["points"],
                )
            )
        run.state = None


class _Run:
    """A replay in progress: the log's lines, driven through the engine's loop
    (``runner.play_deal``) with ``_Logged`` players and the ``_Check`` listener."""

    def __init__(self, path: Path, table: Table, head: dict[str, Any], lines: _Lines) -> None:
        self.path = path
        self.table = table
        self.head = head
        self.lines = lines
        self.seeding = head.get("seeding")  # None in logs made before it was recorded
        self.plan = head.get("plan") or {}
        self.summary = ReplaySummary()
        self.match: Match | None = None
        self.state: DealState | None = None  # the deal being replayed
        self.deal_moves = 0
        self.deal_redeals = 0  # the deal's take backs dealt again, as its last redeal line counts them
        self.logged_move: dict[str, Any] = {}

    @property
    def lineno(self) -> int:
        return self.lines.lineno

    @property
    def cut_at(self) -> int:
        return self.lines.cut_at

    def fail(self, msg: str) -> ReplayMismatch:
        return ReplayMismatch(at(f"{self.path}:{self.lineno}", msg))

    def play(self, players: list[_Logged], listeners: list[Listener]) -> None:
        """Every line, in order: matches started and ended here, deals by the loop."""
        lines = self.lines
        try:
            while (ev := lines.peek()) is not None:
                kind = ev.get("event")
                if kind == "match_start":
                    self.match_start(lines.take(), listeners)
                elif kind in ("chance", "deal_start"):
                    if self.match is None:
                        raise self.fail(
                            T("chance step before any match")
                            if kind == "chance"
                            else T("deal before any match")
                        )
                    if kind == "deal_start" and ev.get("given"):  # a position played from a file, not dealt
                        self.match.next_deal = self.table.load_state(ev.get("state") or {})
                    play_deal(self.table, self.match, players, listeners)
                elif kind == "match_end":
                    self.match_end(lines.take(), listeners)
                elif kind in ("move", "deal_end"):
                    raise self.fail(
                        T("move outside a deal") if kind == "move" else T("deal end outside a deal")
                    )
                else:
                    raise self.fail(T("unknown event {kind!r}", kind=str(kind)[:40]))
        except _End:
            pass

    def match_start(self, ev: dict[str, Any], listeners: list[Listener]) -> None:
        summary = self.summary
        if self.match is not None and not self.match.over and self.plan.get("deals") is None:
            raise self.fail(T("a match starts before the previous one ended"))
        seed = ev.get("seed")
        number = ev.get("match", summary.matches + 1)
        if self.seeding == "simulate" and isinstance(number, int):
            if seed != match_seed(self.head.get("seed"), number - 1):  # type: ignore[arg-type]
                raise self.fail(
                    T("match {number}'s seed is not the one the header's seed gives", number=number)
                )
        elif (
            self.seeding == "play"
            and summary.matches == 0
            and self.head.get("seed") is not None  # None: kept out of the header (a server's table)
            and seed != self.head.get("seed")
        ):
            raise self.fail(T("the match's seed is not the header's"))
        self.match = match = self.table.new_match(seed)
        summary.matches += 1
        for lst in listeners:
            lst.match_start(match, number)
        for event in match.take_events():  # the first dealer's draw
            for lst in listeners:
                lst.chance(match, event)

    def match_end(self, ev: dict[str, Any], listeners: list[Listener]) -> None:
        match = self.match
        if match is None or not match.over or self.state is not None:
            raise self.fail(T("the log ends the match; in the replay it goes on"))
        if ev.get("winners") != match.winners() or ev.get("scores") != match.scores:
            raise self.fail(T("match result differs from the log"))
        self.summary.matches_ended += 1
        for lst in listeners:
            lst.match_end(match)

    def conclude(self) -> ReplaySummary:
        """Whether the run is complete, and where and how the log stops."""
        summary, match = self.summary, self.match
        in_deal = self.state is not None
        finished = match is None or (match.over and summary.matches_ended == summary.matches)
        if "deals" in self.plan:
            summary.complete = summary.deals == self.plan["deals"] and not in_deal
        elif "matches" in self.plan:
            summary.complete = summary.matches_ended == self.plan["matches"] and not in_deal
        else:
            summary.complete = summary.matches > 0 and finished and not in_deal
        where = T("match {n}", n=summary.matches) if match is not None else T("before any match")
        how: Any
        if self.cut_at:
            how = T(
                "stops in the middle of line {line} (cut while written), in {where}",
                line=self.cut_at,
                where=where,
            )
        elif summary.complete:
            how = T("complete")
        elif in_deal and match is not None:
            how = T(
                "stops in deal {deal} of {where}, after {moves} moves",
                deal=len(match.deals) + 1,
                where=where,
                moves=self.deal_moves,
            )
        elif match is not None and not match.over:
            how = T(
                "stops after deal {deal} of {where}, which was not finished",
                deal=len(match.deals),
                where=where,
            )
        else:
            how = T("stops after {where} ({n} finished)", where=where, n=summary.matches_ended)
        summary.stop = (
            how if summary.complete else T("incomplete: {how} (line {line})", how=how, line=self.lineno)
        )
        return summary
