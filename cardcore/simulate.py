"""Many bot-only deals or matches, summarised (``cardcore simulate``), on one
core, on every core (``--jobs``) or on a Ray cluster (``--backend ray``).

Every match is independent: match k (from 0) plays with the seed
``match_seed(seed, k)``, from which its deck and every bot's RNG derive, so its
result does not depend on the matches played before it nor on which process
plays it. The work is cut into *chunks* (runs of consecutive matches) that
any backend plays with ``play_chunk`` — a plain function of picklable data
(``SimSpec``), never a live table — and the results are merged in match order
by ``Merger``. So the summary is the same for every ``--jobs`` and backend
(but ``seconds`` and ``cpu_seconds``).

With ``--deals N`` the number of matches is not known in advance. On one
process a match is played at a time, the last one cut at the N-th deal
(``max_deals``): nothing is played ahead of need. On several, chunks are
played ahead (at most the deals still wanted, at the mean deals a match seen
so far), and the match in which the N-th deal falls is played again in the
parent with ``max_deals`` (as the single process cut it), so its deals, moves
and log lines are exactly the serial run's.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import logging
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from cardcore.errors import CardcoreError
from cardcore.i18n import T
from cardcore.log import GameLog
from cardcore.plugins import discover
from cardcore.runner import ConservationCheck, Listener, make_players, play_match
from cardcore.seeds import match_seed
from cardcore.table import Table

CHUNK_SECONDS = 0.25  # CPU time a chunk should take: short enough for progress and Ctrl-C


@dataclass(frozen=True)
class SimSpec:
    """What a worker needs to play matches: plain, picklable data."""

    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    house_rules: tuple[str, ...]
    kinds: tuple[str, ...]
    seed: int
    log: bool = False
    check: bool = False  # card conservation after every deal (--check)


@dataclass
class MatchRecord:
    """One match as played: per deal the points per side and the moves."""

    number: int  # from 0
    deals: list[tuple[tuple[int, ...], int]]
    over: bool
    winners: list[int]
    log: list[str] = field(default_factory=list)  # JSON lines, match_start … match_end


@dataclass
class ChunkResult:
    records: list[MatchRecord]
    cpu_seconds: float


_TABLES: dict[tuple[Any, ...], Any] = {}  # a process's tables, by description


def _table(
    game: str, players: int, options: tuple[tuple[str, Any], ...], house_rules: tuple[str, ...]
) -> Table:
    """The table a description names, built once per process (``simulate``
    leaves its own table here before a pool forks: no worker builds it again)."""
    key = (game, players, options, house_rules)
    table = _TABLES.get(key)
    if table is None:
        if len(_TABLES) >= 4:
            _TABLES.clear()
        table = _TABLES[key] = Table.from_names(discover(), game, players, dict(options), list(house_rules))
    return table


def play_chunk(spec: SimSpec, first: int, count: int, max_deals: int | None = None) -> ChunkResult:
    """Play matches ``first`` … ``first + count - 1``; ``max_deals`` cuts the
    last one (the parent's replay of the match in which the N-th deal falls)."""

    start = time.process_time()
    table = _table(spec.game, spec.players, spec.options, spec.house_rules)
    records = []
    for k in range(first, first + count):
        seed = match_seed(spec.seed, k)
        players = make_players(table, list(spec.kinds), seed)
        listeners: list[Listener] = []
        if spec.check:
            listeners.append(ConservationCheck())
        buffer = None
        if spec.log:
            buffer = io.StringIO()
            listeners.append(GameLog(buffer, table, list(spec.kinds), spec.seed, header=False))
        cut = max_deals if k == first + count - 1 else None
        match, _ = play_match(table, players, seed, listeners, max_deals=cut, number=k + 1)
        deals = [(tuple(d.points), d.moves) for d in match.deals]
        winners = match.winners() if match.over else []
        lines = buffer.getvalue().splitlines(keepends=True) if buffer is not None else []
        records.append(MatchRecord(k, deals, match.over, winners, lines))
    return ChunkResult(records, time.process_time() - start)


# ---- backends --------------------------------------------------------------------
PlayChunk = Callable[..., ChunkResult]  # play_chunk(spec, first, count, max_deals=None), or another's


class Backend:
    """Plays chunks: ``submit`` returns something with ``result()``. ``play`` is
    the function that plays one (``play_chunk``; ``cardcore study`` passes its
    own, which also measures): a module-level function, so that it pickles."""

    workers = 1

    def submit(self, spec: Any, first: int, count: int, play: PlayChunk = play_chunk) -> Any:
        raise NotImplementedError

    def close(self, cancel: bool = False) -> None:
        pass


class _Done:
    def __init__(self, value: ChunkResult) -> None:
        self.value = value

    def result(self) -> ChunkResult:
        return self.value


class Serial(Backend):
    def submit(self, spec: Any, first: int, count: int, play: PlayChunk = play_chunk) -> Any:
        return _Done(play(spec, first, count))


def worker_start() -> None:
    """A pool worker: Ctrl-C is the parent's to handle, and a worker whose
    parent is gone (killed outright) stops instead of lingering."""
    import threading  # only a run that can be stopped by a signal needs it

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(1)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


class ProcessPool(Backend):
    """Chunks on local processes (``--jobs N``)."""

    def __init__(self, jobs: int) -> None:
        from concurrent.futures import ProcessPoolExecutor  # --jobs: a pool only when asked

        self.workers = jobs
        self.pool = ProcessPoolExecutor(max_workers=jobs, initializer=worker_start)

    def submit(self, spec: Any, first: int, count: int, play: PlayChunk = play_chunk) -> Any:
        return self.pool.submit(play, spec, first, count)

    def close(self, cancel: bool = False) -> None:
        self.pool.shutdown(wait=True, cancel_futures=cancel)


class RayBackend(Backend):
    """Chunks as Ray tasks (``--backend ray``): on the cluster at ``address``
    (or ``RAY_ADDRESS``), else on a local Ray that this machine alone can reach
    (``start_local_ray``)."""

    def __init__(self, address: str | None, jobs: int | None = None) -> None:
        try:
            import ray  # an optional extra (cardcore[ray])
        except ImportError:
            raise CardcoreError(T("--backend ray needs Ray: pip install 'cardcore[ray]'")) from None
        self.ray = ray
        if not ray.is_initialized():
            if address:
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
            else:
                start_local_ray(ray, jobs)
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call, unused-ignore]
        self.task = ray.remote(_play_remote)

    def submit(self, spec: Any, first: int, count: int, play: PlayChunk = play_chunk) -> Any:
        ref = self.task.remote(play, spec, first, count)
        ray = self.ray

        class _Ref:
            def result(self) -> ChunkResult:
                got: ChunkResult = ray.get(ref)
                return got

        return _Ref()


def _play_remote(play: PlayChunk, spec: Any, first: int, count: int) -> ChunkResult:
    return play(spec, first, count)


# Ray answers "this machine's address" with the loopback address when this is
# false (its default on macOS and Windows, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER);
# every server of a node whose address is 127.0.0.1 then listens on it alone
_RAY_CLUSTER_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def start_local_ray(ray: Any, jobs: int | None = None) -> None:
    """Start a local Ray that listens on the loopback address only, with no
    dashboard and so no job submission API (an open Ray head runs any code it
    is sent, for anyone who can reach it); ``jobs`` CPUs (None: every core).

    Its processes' listening sockets are then checked (``ray_listening``):
    where Ray cannot be held to loopback, it is shut down and the run refused
    in one line, naming ``--jobs`` (this machine's processes) instead."""
    # Ray's module read when it picks the node's address (missing in another
    # Ray: the check of the sockets below decides)
    ray_constants: Any = None
    with contextlib.suppress(ImportError):
        ray_constants = importlib.import_module("ray._private.ray_constants")
    kwargs: dict[str, Any] = {"num_cpus": jobs} if jobs else {}
    said = os.environ.get(_RAY_CLUSTER_ENV)
    before = getattr(ray_constants, "ENABLE_RAY_CLUSTER", None)
    os.environ[_RAY_CLUSTER_ENV] = "0"  # the processes Ray starts read it too
    if before is not None:
        ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        ray.init(
            _node_ip_address="127.0.0.1",
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
            **kwargs,
        )
    finally:
        # as it was: a later ray.init(address=…) in this process joins a cluster
        # with this machine's network address
        if said is None:
            os.environ.pop(_RAY_CLUSTER_ENV, None)
        else:
            os.environ[_RAY_CLUSTER_ENV] = said
        if before is not None:
            ray_constants.ENABLE_RAY_CLUSTER = before
    try:
        opened = [a for a in ray_listening() if not is_loopback(a)]
    except Exception as err:  # psutil missing, or the processes not readable here
        opened = [f"? ({type(err).__name__}: {str(err)[:80]})"]
    if opened:
        ray.shutdown()

        raise CardcoreError(
            T(
                "--backend ray: the local Ray would listen on {addresses}, not on this machine's "
                "loopback address alone; play on this machine's cores with --jobs N, or join a "
                "cluster with --address",
                addresses=", ".join(sorted(set(opened))[:4]),
            )
        )


def ray_listening() -> list[str]:
    """The addresses (``ip:port``) on which this process and the processes it
    started (a local Ray's: GCS, raylet, object manager, agents, workers)
    listen for TCP connections."""
    import psutil  # with Ray only (the ray extra)

    me = psutil.Process()
    out = []
    for proc in [me, *me.children(recursive=True)]:
        try:
            conns = proc.net_connections(kind="inet")
        except psutil.NoSuchProcess:
            continue  # ended meanwhile: it listens on nothing
        out += [f"{c.laddr.ip}:{c.laddr.port}" for c in conns if c.status == psutil.CONN_LISTEN]
    return out


def is_loopback(address: str) -> bool:
    """Whether ``ip:port`` is on the loopback address (127.0.0.0/8, ::1, or
    127.0.0.1 as IPv6 writes it, ::ffff:127.0.0.1)."""
    import ipaddress  # with Ray only: which addresses are loopback

    host = address.rsplit(":", 1)[0].strip("[]")
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def backend_for(name: str, jobs: int, address: str | None = None) -> Backend:
    """``local`` with ``jobs`` processes (0: every core; 1: this process) or ``ray``."""
    if name == "ray":
        return RayBackend(address or os.environ.get("RAY_ADDRESS"), jobs or None)
    jobs = jobs or os.cpu_count() or 1
    return Serial() if jobs == 1 else ProcessPool(jobs)


# ---- merging -----------------------------------------------------------------------
class Merger:
    """Adds matches in order and keeps the summary's counts."""

    def __init__(self, sides: int, deals: int | None, matches: int | None) -> None:
        self.deals_wanted = deals
        self.matches_wanted = matches
        self.wins = [0] * sides
        self.deal_wins = [0] * sides
        self.points_total = [0] * sides
        self.deal_points: list[list[int]] = []
        self.deals = self.matches = self.draws = self.moves = 0

    def done(self) -> bool:
        if self.deals_wanted is not None:
            return self.deals >= self.deals_wanted
        return self.matches >= (self.matches_wanted or 0)

    def room(self) -> int | None:
        """Deals still wanted (None with --matches)."""
        return None if self.deals_wanted is None else self.deals_wanted - self.deals

    def add(self, record: MatchRecord) -> None:
        for points, n in record.deals:
            self.deal_points.append(list(points))
            best = max(points)
            for i, p in enumerate(points):
                self.points_total[i] += p
                if p == best:
                    self.deal_wins[i] += 1
            self.moves += n
        self.deals += len(record.deals)
        if record.over:
            self.matches += 1
            if len(record.winners) > 1:
                self.draws += 1
            for w in record.winners:
                self.wins[w] += 1


def run_chunks(
    spec: SimSpec,
    backend: Backend,
    merger: Merger,
    on_record: Callable[[MatchRecord], None],
    start: int = 0,
    play: PlayChunk = play_chunk,
) -> float:
    """Play chunks on ``backend`` until ``merger`` is done; hand each match to
    ``on_record`` in order. Returns the CPU seconds spent playing.

    A chunk is sized to take about ``CHUNK_SECONDS`` (from the chunks played so
    far), and near the end to a share of what is left, so that the workers
    finish together; up to three per worker are in flight. With ``--deals`` no
    more matches are in flight than the deals still wanted call for (at the
    mean number of deals per match seen so far; one before any is seen) and
    one a worker beyond, so little is played in vain."""
    if isinstance(backend, Serial):
        return _run_serially(spec, merger, on_record, start, play)
    per_chunk = 1
    window = 3 * backend.workers
    pending: deque[tuple[Any, int]] = deque()
    next_match = start
    cpu = 0.0
    played_matches = played_deals = 0

    share = 2 * backend.workers  # near the end, chunks shrink to this share of what is left

    def fill() -> None:
        nonlocal next_match
        while len(pending) < window:
            count = per_chunk
            if merger.matches_wanted is not None:
                left = merger.matches_wanted - next_match
                if left <= 0:
                    return
                count = min(count, max(1, -(-left // share)))
            else:  # --deals: the matches they call for (one until one is seen), and one a worker more
                in_flight = sum(n for _, n in pending)
                needed = -(-(merger.room() or 0) * played_matches // played_deals) if played_deals else 1
                wanted = max(needed, 1) + backend.workers - 1 - in_flight
                if wanted <= 0:
                    return
                count = max(1, min(count, -(-wanted // share)))
            pending.append((backend.submit(spec, next_match, count, play), count))
            next_match += count

    fill()
    while pending and not merger.done():
        future, _ = pending.popleft()
        chunk = future.result()
        cpu += chunk.cpu_seconds
        if chunk.records:
            played_matches += len(chunk.records)
            played_deals += sum(len(r.deals) for r in chunk.records)
            if backend.workers > 1:
                per_match = max(chunk.cpu_seconds / len(chunk.records), 1e-4)
                per_chunk = max(1, min(256, int(CHUNK_SECONDS / per_match)))
        for record in chunk.records:
            if merger.done():
                break
            room = merger.room()
            if room is not None and len(record.deals) > room:
                # the N-th deal falls in this match: play it again, cut as one process would
                cut = play(spec, record.number, 1, max_deals=room)
                cpu += cut.cpu_seconds
                record = cut.records[0]
            merger.add(record)
            on_record(record)
        if not merger.done():
            fill()
    return cpu


def _run_serially(
    spec: SimSpec,
    merger: Merger,
    on_record: Callable[[MatchRecord], None],
    start: int,
    play: PlayChunk,
) -> float:
    """``run_chunks`` on one process: a match at a time, none played ahead of
    need; with ``--deals`` the match in which the N-th deal falls is cut there
    as it is played (``max_deals``), so no deal is played in vain."""
    cpu = 0.0
    k = start
    while not merger.done():
        chunk = play(spec, k, 1, max_deals=merger.room())
        cpu += chunk.cpu_seconds
        for record in chunk.records:
            merger.add(record)
            on_record(record)
        k += 1
    return cpu


def simulate(
    table: Any,
    kinds: list[str],
    seed: int,
    deals: int | None = None,
    matches: int | None = None,
    log: IO[str] | None = None,
    progress: bool = False,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    check: bool = False,
) -> dict[str, Any]:
    """Play ``deals`` deals or ``matches`` matches; return the JSON summary.

    Deterministic: the same table, kinds and seed give the same summary (but
    ``seconds`` and ``cpu_seconds``) for every ``jobs`` and backend. On
    Ctrl-C the summary of the matches merged so far is returned with
    ``"interrupted": true``.
    """
    import click  # the progress bar: loaded when a run starts, not with the module (workers)

    spec = SimSpec(
        table.game.name,
        table.players,
        tuple(sorted(table.options.model_dump(exclude_defaults=True).items())),
        tuple(h.name for h in table.house_rules),
        tuple(kinds),
        seed,
        log is not None,
        check,
    )
    if log is not None:  # the header line
        plan = {"deals": deals} if deals is not None else {"matches": matches or 0}
        GameLog(log, table, kinds, seed, seeding="simulate", plan=plan)
    merger = Merger(len(table.sides), deals, matches)
    bar_cm: Any = None
    bar: Any = None
    if progress:
        total = deals if deals is not None else matches
        bar_cm = click.progressbar(length=total, label=table.game.name, file=sys.stderr)
        bar = bar_cm.__enter__()

    def on_record(record: MatchRecord) -> None:
        if log is not None:
            try:
                log.writelines(record.log)
                log.flush()
                with contextlib.suppress(OSError, AttributeError, ValueError, io.UnsupportedOperation):
                    os.fsync(log.fileno())
            except OSError as err:
                raise CardcoreError(
                    T(
                        "{name}: cannot write the log ({error}); every complete line before is kept",
                        name=getattr(log, "name", "the log"),
                        error=err.strerror or err,
                    )
                ) from None
        if bar is not None:
            bar.update(len(record.deals) if deals is not None else int(record.over))

    start = time.perf_counter()
    cpu_start = time.process_time()
    _TABLES.setdefault((spec.game, spec.players, spec.options, spec.house_rules), table)
    runner = backend_for(backend, jobs, address)
    interrupted = False
    cpu = 0.0
    try:
        cpu = run_chunks(spec, runner, merger, on_record)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        runner.close(cancel=True)  # chunks not started are not needed
        if bar_cm is not None:
            bar_cm.__exit__(None, None, None)
    if isinstance(runner, Serial):
        cpu = time.process_time() - cpu_start
    summary: dict[str, Any] = {
        "game": table.game.name,
        "players": table.players,
        "options": table.options.model_dump(mode="json"),
        "house_rules": [h.name for h in table.house_rules],
        "seats": kinds,
        "sides": [list(s) for s in table.sides],
        "seed": seed,
        "deals": merger.deals,
        "matches": merger.matches,
        "moves": merger.moves,
        "seconds": round(time.perf_counter() - start, 3),
        "cpu_seconds": round(cpu, 3),
        "wins": merger.wins,
        "draws": merger.draws,
        "deal_wins": merger.deal_wins,
        "points_total": merger.points_total,
        "deal_points": merger.deal_points,
    }
    if interrupted:
        summary["interrupted"] = True
    return summary


class _Callable(type(sys)):  # type: ignore[misc]  # (types.ModuleType)
    """``cardcore.simulate(game, seats=[...], deals=N)``: the module called
    gives the deals as rows a DataFrame takes (``cardcore.quick.deal_rows``)."""

    def __call__(self, *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        from cardcore.quick import deal_rows

        return deal_rows(*args, **kwargs)


sys.modules[__name__].__class__ = _Callable
