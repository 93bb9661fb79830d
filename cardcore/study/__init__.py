"""``cardcore study``: what a house rule does to a game, measured.

The base game and each variant play the same seeded deals (common random
numbers): match k of every variant is match k of ``cardcore simulate`` with
the same seed (``simulate.match_seed``), and duplicate deck d of the skill
runs is deck d of ``cardcore arena`` (``arena.deal_seed``). The work goes
through the simulator's chunks and backends (``--jobs``, ``--backend ray``),
with chunk functions of this module that also record what the metrics need
(``play_study_chunk``, ``play_skill_chunk``); with ``out`` every finished
match is kept under ``DIR/chunks`` and a study run again with the same
parameters goes on from there. ``run`` returns the JSON of ``--json``; the
metrics and their intervals are ``cardcore.study.metrics``, the report
``cardcore.study.report``; docs/STUDY.md defines every figure.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from cardcore.errors import CardcoreError
from cardcore.i18n import T, _
from cardcore.runner import Listener, make_players, play_match
from cardcore.simulate import (
    _TABLES,
    ChunkResult,
    MatchRecord,
    Merger,
    PlayChunk,
    SimSpec,
    backend_for,
    run_chunks,
)
from cardcore.study.metrics import (
    Blocks,
    Shape,
    binomial_mde,
    block_layout,
    dealer_place,
    deals_needed,
    differences,
    match_sums,
    metrics_from,
    places_p,
    skill_sums,
    tested_places,
    with_intervals,
)
from cardcore.study.rows import rows
from cardcore.study.variants import (
    BASE,
    Variant,
    check_variants,
    describe,
    parse_variant,
    table_variant,
)
from cardcore.study.verdicts import CORRECTION, verdicts

__all__ = ["BASE", "Variant", "parse_variant", "rows", "run", "table_variant"]

METRICS = (
    "seat_win_share",
    "side_win_share",
    "win_share_from_first",
    "first_player_advantage",
    "fairness_p",
    "moves_per_deal",
    "decisions_per_deal",
    "choices_per_decision",
    "deals_per_match",
    "margin",
    "spread",
    "lead_changes",
    "deal_lead_changes",
    "comeback_rate",
    "skill_greedy_vs_random",
    "skill_search_vs_greedy",
    "move_kinds",
)
DEFAULT_SEARCH = "ismcts"


# ---- what a chunk records -----------------------------------------------------------
@dataclass
class StudyRecord(MatchRecord):
    """A match (or a duplicate deck) as the study keeps it: ``data`` is plain JSON."""

    data: dict[str, Any] = field(default_factory=dict)


def fingerprint(table: Any, state: Any) -> str:
    """A short digest of a dealt state: two variants dealt the same cards
    the same way have the same one (the pairing of their intervals)."""
    data = table.hook.cardcore_state_to_json(state=state)
    return hashlib.blake2b(json.dumps(data, sort_keys=True).encode(), digest_size=8).hexdigest()


def running_score(table: Any, state: Any, mid_deal: bool | None = None) -> list[int]:
    """The score of a deal as its players see it while it is played: the
    points taken so far, by the game's own rule for what counts mid-deal
    (``cardcore_score_position``, asked of a copy), else the game's own count
    of the position (its plugin's ``cardcore_score_deal``, without the house
    rules that wrap it). Never the deal's end-of-deal scoring: a house rule
    that only adds points when the deal is scored changes none of it.
    ``mid_deal``: whether any plugin answers ``cardcore_score_position``
    (``has_mid_deal_score``; None: look)."""
    if mid_deal is None:
        mid_deal = has_mid_deal_score(table)
    held = table.hook.cardcore_score_position(state=state.clone()) if mid_deal else None
    if held is None:
        held = table.plugin.cardcore_score_deal(state)
    return [s.points for s in held]


def has_mid_deal_score(table: Any) -> bool:
    """Whether a plugin of ``table`` answers ``cardcore_score_position``."""
    return bool(table.hook.cardcore_score_position.get_hookimpls())


class Collect(Listener):
    """Per deal: who played first, its moves, its decisions with more than
    one legal move and how many each offered, the kinds of the moves, the
    points, how often the lead changed on the running score (``running_score``
    before every move and once the deal is over: never the deal's result, so
    a rule that only changes the scoring leaves it as it was); with
    ``fingerprints`` also a digest of the dealt cards."""

    def __init__(self, table: Any, fingerprints: bool = True) -> None:
        self.table = table
        self.fingerprints = fingerprints
        self.deals: list[dict[str, Any]] = []
        self.now: dict[str, Any] = {}
        self.kinds: dict[str, int] = {}
        self.mid_deal = has_mid_deal_score(table)

    def deal_start(self, match: Any, state: Any) -> None:
        self.kinds = {}
        self.now = {"first": state.to_act, "decisions": 0, "choices": 0, "kinds": self.kinds}
        if self.fingerprints:
            self.now["fp"] = fingerprint(self.table, state)
        self.leader: int | None = None
        self.changes: int | None = 0

    def before_move(self, match: Any, state: Any, moves: list[Any], move: Any) -> None:
        # the legal moves are known here only; the step record (Listener.move) does not
        # carry them, and asking for steps would make each move's text and JSON for nothing
        n = len(moves)
        if n > 1:
            self.now["decisions"] += 1
            self.now["choices"] += n
        kind = move.kind
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        self._standing(state)

    def _standing(self, state: Any) -> None:
        if self.changes is None:
            return
        try:
            points = running_score(self.table, state, self.mid_deal)
        except Exception:  # a game whose score cannot be read mid-deal: no figure for this deal
            self.changes = None
            return
        best = max(points)
        top = [i for i, p in enumerate(points) if p == best]
        if len(top) == 1:
            if self.leader is not None and top[0] != self.leader:
                self.changes += 1
            self.leader = top[0]

    def deal_end(self, match: Any, state: Any, result: Any) -> None:
        self._standing(state)  # the position the last move left (as the game tidied it), not the result
        points = list(result.points)
        self.now.update(dealer=result.dealer, points=points, moves=result.moves, leads=self.changes)
        self.deals.append(self.now)


def play_study_chunk(spec: SimSpec, first: int, count: int, max_deals: int | None = None) -> ChunkResult:
    """Matches ``first`` … ``first + count − 1`` of a variant, as
    ``simulate.play_chunk`` plays them (the same seeds, the same cut), each
    with its ``Collect``ed deals."""
    from cardcore.seeds import match_seed
    from cardcore.simulate import _table

    start = time.process_time()
    table = _table(spec.game, spec.players, spec.options, spec.house_rules)
    records: list[MatchRecord] = []
    for k in range(first, first + count):
        seed = match_seed(spec.seed, k)
        players = make_players(table, list(spec.kinds), seed)
        collect = Collect(table)
        cut = max_deals if k == first + count - 1 else None
        match, _ = play_match(table, players, seed, [collect], max_deals=cut, number=k + 1)
        deals = [(tuple(d.points), d.moves) for d in match.deals]
        winners = match.winners() if match.over else []
        data = {"k": k, "over": match.over, "winners": winners, "deals": collect.deals}
        records.append(StudyRecord(k, deals, match.over, winners, data=data))
    return ChunkResult(records, time.process_time() - start)


def play_skill_chunk(spec: SimSpec, first: int, count: int, max_deals: int | None = None) -> ChunkResult:
    """Duplicate decks ``first`` … of ``cardcore arena`` for the two bots of
    ``spec.kinds``: per deck, the first bot's margin in each rotation."""
    from cardcore.arena import ArenaSpec, play_tasks

    start = time.process_time()
    aspec = ArenaSpec(spec.game, spec.players, spec.options, spec.house_rules, spec.kinds[:2], spec.seed)
    results, _ = play_tasks(aspec, [(0, d) for d in range(first, first + count)])
    by_deck: dict[int, list[float]] = {}
    points: dict[int, list[tuple[int, ...]]] = {}
    for r in results:
        side = r.rotation
        others = [p for i, p in enumerate(r.points) if i != side]
        margin = r.points[side] - (sum(others) / len(others) if others else 0.0)
        by_deck.setdefault(r.deal, []).append(margin)
        points.setdefault(r.deal, []).append(r.points)
    records: list[MatchRecord] = []
    for d in range(first, first + count):
        data = {"k": d, "margins": by_deck.get(d, []), "points": [list(p) for p in points.get(d, [])]}
        records.append(StudyRecord(d, [(p, 0) for p in points.get(d, [])], True, [], data=data))
    return ChunkResult(records, time.process_time() - start)


# ---- resuming ---------------------------------------------------------------------
class Store:
    """Finished matches kept under ``DIR/chunks`` (one JSON line each, in
    order), so that an interrupted study goes on from them. ``DIR/plan.json``
    holds the parameters: another study is refused there."""

    def __init__(self, out: Path | None, plan: dict[str, Any], memory: bool = False) -> None:
        self.out = out
        # memory: without ``out``, the records kept in memory (a study that grows, --until-precision)
        self.mem: dict[str, list[dict[str, Any]]] | None = {} if memory and out is None else None
        self.growing = "until_precision" in plan
        if out is None:
            return
        try:
            (out / "chunks").mkdir(parents=True, exist_ok=True)
            path = out / "plan.json"
            if path.exists():
                try:
                    had = json.loads(path.read_text())
                except (OSError, ValueError):
                    had = None
                if had != plan:
                    raise CardcoreError(
                        T(
                            "{path}: holds a study of other parameters (plan.json); give another --out "
                            "or remove that directory",
                            path=out,
                        )
                    )
            else:
                path.write_text(json.dumps(plan, indent=1) + "\n")
        except OSError as err:
            raise CardcoreError(
                T("{path}: cannot write the study there ({error})", path=out, error=err.strerror or err)
            ) from None

    def _path(self, phase: str) -> Path:
        assert self.out is not None
        return self.out / "chunks" / f"{phase}.jsonl"

    def load(self, phase: str) -> list[dict[str, Any]]:
        """The records kept for ``phase``, in order (a last line cut short is dropped)."""
        if self.mem is not None:
            return list(self.mem.get(phase, []))
        if self.out is None:
            return []
        path = self._path(phase)
        if not path.exists():
            return []
        out: list[dict[str, Any]] = []
        good = 0
        with path.open("rb") as f:
            for line in f:
                try:
                    rec = json.loads(line)
                except ValueError:
                    break
                if not line.endswith(b"\n") or rec.get("k") != len(out):
                    break
                out.append(rec)
                good += len(line)
        if good != path.stat().st_size:
            with path.open("r+b") as f:
                f.truncate(good)
        return out

    def spent(self) -> tuple[float, float]:
        """The wall and CPU seconds the earlier runs of this study spent."""
        if self.out is None:
            return 0.0, 0.0
        try:
            got = json.loads((self.out / "chunks" / "time.json").read_text())
            return float(got["seconds"]), float(got["cpu_seconds"])
        except (OSError, ValueError, KeyError, TypeError):
            return 0.0, 0.0

    def add_spent(self, wall: float, cpu: float) -> None:
        """Count this run's seconds with the earlier runs' (kept even when it is interrupted)."""
        if self.out is None:
            return
        had_wall, had_cpu = self.spent()
        data = {"seconds": had_wall + wall, "cpu_seconds": had_cpu + cpu}
        with contextlib.suppress(OSError):
            (self.out / "chunks" / "time.json").write_text(json.dumps(data) + "\n")

    def writer(self, phase: str) -> IO[str] | None:
        if self.mem is not None:
            return _Keep(self.mem.setdefault(phase, []))
        if self.out is None:
            return None
        return self._path(phase).open("a", encoding="utf-8")


class _Keep(io.StringIO):
    """A writer that keeps each JSON line written as a record, in memory."""

    def __init__(self, into: list[dict[str, Any]]) -> None:
        super().__init__()
        self.into = into

    def write(self, text: str) -> int:
        self.into.append(json.loads(text))
        return len(text)


# ---- a phase: one variant's matches or decks ---------------------------------------
class _Bar:
    """A progress bar on stderr: done of total, per second, time left."""

    def __init__(self, label: str, total: int, unit: str, enabled: bool) -> None:
        self.enabled = enabled
        self.cm: Any = None
        self.bar: Any = None
        if not enabled or total <= 0:
            return
        import click

        self.start = time.perf_counter()
        self.done = 0
        self.kept = 0  # taken from the store: shown as done, not counted in the rate
        self.unit = unit

        def show(_: Any) -> str:
            from cardcore.study.say import num

            spent = time.perf_counter() - self.start
            now = self.done - self.kept
            return f"{num(now / spent, 0)} {unit}/s" if spent > 0 and now > 0 else ""

        self.cm = click.progressbar(
            length=total, label=label, file=sys.stderr, show_eta=True, item_show_func=show
        )
        self.bar = self.cm.__enter__()

    def update(self, n: int) -> None:
        if self.bar is not None:
            self.done += n
            self.bar.update(n, self.done)

    def resume(self, n: int) -> None:
        """``n`` done before (kept chunks): on the bar, not in the rate."""
        if self.bar is not None:
            self.kept += n
            self.update(n)

    def close(self) -> None:
        if self.cm is not None:
            self.cm.__exit__(None, None, None)


def _phase(
    spec: SimSpec,
    runner: Any,
    store: Store,
    phase: str,
    play: PlayChunk,
    deals: int | None,
    matches: int | None,
    label: str,
    progress: bool,
    sides: int,
) -> tuple[list[dict[str, Any]], float]:
    """Play (or take from the store) one variant's deals or decks; return the
    records in order and the CPU seconds spent now."""
    kept = store.load(phase)
    merger = Merger(sides, deals, matches)
    records = []
    for rec in kept:
        if merger.done():
            break
        if deals is not None:
            merger.deals += len(rec["deals"])
        merger.matches += 1 if rec.get("over", True) else 0
        records.append(rec)
    if deals is not None and merger.deals > deals and not store.growing:  # a longer study's: not ours
        raise CardcoreError(T("{phase}: the kept chunks do not fit this study", phase=phase))
    total = deals if deals is not None else matches or 0
    bar = _Bar(label, total, _("deals") if deals is not None else _("decks"), progress)
    bar.resume(merger.deals if deals is not None else len(records))
    out = store.writer(phase)

    def on_record(record: MatchRecord) -> None:
        data = record.data if isinstance(record, StudyRecord) else {}
        records.append(data)
        if out is not None:
            out.write(json.dumps(data, separators=(",", ":")) + "\n")
            out.flush()
        bar.update(len(record.deals) if deals is not None else 1)

    cpu = 0.0
    try:
        if not merger.done():
            # matches mode counts merger.matches; deals mode merger.deals (set from the store above)
            cpu = run_chunks(spec, runner, merger, on_record, start=len(records), play=play)
    finally:
        bar.close()
        if out is not None:
            out.close()
    return records, cpu


# ---- the study ----------------------------------------------------------------------
def run(
    game: str,
    players: int | None = None,
    variants: Sequence[Variant | str] = (),
    tables: Sequence[str] = (),
    deals: int = 2000,
    skill_deals: int = 100,
    greedy_deals: int | None = None,
    seed: int = 1,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    out: Path | str | None = None,
    bot: str | None = None,
    search_bot: str = DEFAULT_SEARCH,
    progress: bool = False,
    registry: Any = None,
    config: Path | str = "games.yaml",
    report: bool = True,
    on_phase: Callable[[str], None] | None = None,
    base: Variant | None = None,
    until_precision: float | None = None,
    on_power: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Study ``game``: the base game and each variant (``NAME=SPEC`` strings or
    ``Variant``s, then the ``tables`` of ``config``), ``deals`` deals each
    (played by ``bot``, default the game's greedy), greedy against random on
    as many duplicate decks and ``search_bot`` against greedy on
    ``skill_deals`` decks (``greedy_deals``: decks of greedy against random,
    default ``deals``, 0 none). Returns the JSON of ``cardcore study --json``
    (the same for every ``jobs`` and backend, but ``seconds`` and
    ``cpu_seconds``); with ``out``, also writes the report there. ``base``:
    the game the variants are measured against, named ``base`` (default: the
    game with no option and no house rule). ``until_precision``: ``deals``
    first, then twice as many, and so on (at most ``MAX_GROWTH`` times
    ``deals``), until every headline interval (``headline_width``) is at
    most that wide. ``on_power``: told, before any deal is played, the
    line saying how small a change the study's size can find."""
    from cardcore.plugins import discover
    from cardcore.runner import make_player

    reg = registry if registry is not None else discover()
    first = BASE if base is None else Variant(BASE.name, dict(base.options), tuple(base.house_rules))
    chosen = [first] + [v if isinstance(v, Variant) else parse_variant(v) for v in variants]
    built = check_variants(reg, game, players, chosen)
    players = built[0].players
    chosen += [table_variant(Path(config), t, built[0].game.name, players) for t in tables]
    built = check_variants(reg, game, players, chosen)
    base_table = built[0]
    kinds_of = base_table.player_kinds
    main_bot = bot or ("greedy" if "greedy" in kinds_of else "random")
    greedy_decks = deals if greedy_deals is None else greedy_deals
    has_greedy = "greedy" in kinds_of
    import random as _random

    from cardcore.runner import parse_kind

    for kind in (main_bot, search_bot):
        if parse_kind(kind)[0] == "human":
            raise CardcoreError(T("a study plays bots only; use `cardcore play` to play"))
        make_player(base_table, kind, 0, _random.Random(0))  # an unknown kind: one line, now
    out_dir = Path(out) if out is not None else None
    plan = {
        "game": base_table.game.name,
        "players": players,
        "deals": deals,
        "skill_deals": skill_deals,
        "seed": seed,
        "bot": main_bot,
        "search_bot": search_bot,
        "variants": [
            {"name": v.name, "options": v.options, "house_rules": list(v.house_rules)} for v in chosen
        ],
    }
    if greedy_decks != deals:
        plan["greedy_deals"] = greedy_decks
    if until_precision is not None:
        plan["until_precision"] = until_precision
    store = Store(out_dir, plan, memory=until_precision is not None)
    if on_power is not None:
        from cardcore.study.report import power_line

        on_power(
            power_line({"power": {"deals": deals, "share_mde": binomial_mde(deals, len(base_table.sides))}})
        )
    shape = Shape(players, tuple(tuple(s) for s in base_table.sides))
    started, cpu_started = time.perf_counter(), time.process_time()
    earlier_wall, earlier_cpu = store.spent()  # a resumed study: the time of its earlier runs counts
    runner = backend_for(backend, jobs, address)
    cpu = 0.0
    main: dict[str, list[dict[str, Any]]] = {}
    greedy: dict[str, list[dict[str, Any]]] = {}
    search: dict[str, list[dict[str, Any]]] = {}
    target = deals
    result: dict[str, Any] | None = None
    try:
        while True:
            for v, table in zip(chosen, built, strict=True):
                options = tuple(sorted(table.options.model_dump(exclude_defaults=True).items()))
                rules = tuple(h.name for h in table.house_rules)
                _TABLES.setdefault((table.game.name, players, options, rules), table)

                def spec(kinds: tuple[str, ...], options: Any = options, rules: Any = rules) -> SimSpec:
                    return SimSpec(base_table.game.name, players, options, rules, kinds, seed)

                if on_phase:
                    on_phase(f"{v.name}: deals")
                main[v.name], c = _phase(
                    spec((main_bot,) * players),
                    runner,
                    store,
                    f"{v.name}.deals",
                    play_study_chunk,
                    target,
                    None,
                    _("{variant}: deals").format(variant=v.name),
                    progress,
                    len(shape.sides),
                )
                cpu += c
                if has_greedy and greedy_decks:
                    greedy[v.name], c = _phase(
                        spec(("greedy", "random")),
                        runner,
                        store,
                        f"{v.name}.greedy",
                        play_skill_chunk,
                        None,
                        greedy_decks,
                        _("{variant}: greedy-random decks").format(variant=v.name),
                        progress,
                        len(shape.sides),
                    )
                    cpu += c
                if has_greedy and skill_deals:
                    search[v.name], c = _phase(
                        spec((search_bot, "greedy")),
                        runner,
                        store,
                        f"{v.name}.search",
                        play_skill_chunk,
                        None,
                        skill_deals,
                        _("{variant}: search-greedy decks").format(variant=v.name),
                        progress,
                        len(shape.sides),
                    )
                    cpu += c
            if until_precision is None:
                break
            result = summarize({**plan, "deals": target}, chosen, shape, main, greedy, search)
            widest = headline_width(result)
            result["precision"] = {
                "asked": until_precision,
                "widest": widest,
                "reached": widest <= until_precision,
            }
            if widest <= until_precision or target >= deals * MAX_GROWTH:
                break
            target *= 2
    finally:
        runner.close(cancel=True)
        from cardcore.simulate import Serial

        if isinstance(runner, Serial):
            cpu = time.process_time() - cpu_started
        store.add_spent(time.perf_counter() - started, cpu)
    if result is None:
        result = summarize(plan, chosen, shape, main, greedy, search)
    for row, v, table in zip(result["variants"][1:], chosen[1:], built[1:], strict=True):
        row["changes"] = describe(base_table, table, v)
    result["seconds"] = round(earlier_wall + time.perf_counter() - started, 3)
    result["cpu_seconds"] = round(earlier_cpu + cpu, 3)
    if out_dir is not None and report:
        from cardcore.study.report import write_report

        write_report(out_dir, result, shape, main, greedy, search, base_table.plugin.domain)
    return result


def _blocks(units: dict[int, dict[str, float]], layout: tuple[int, int]) -> Blocks:
    return Blocks(units, *layout)


def summarize(
    plan: dict[str, Any],
    chosen: list[Variant],
    shape: Shape,
    main: dict[str, list[dict[str, Any]]],
    greedy: dict[str, list[dict[str, Any]]],
    search: dict[str, list[dict[str, Any]]],
) -> dict[str, Any]:
    """The study's JSON from the records of every variant."""
    units = {v.name: {r["k"]: match_sums(shape, r) for r in main[v.name]} for v in chosen}
    layout = block_layout(max((max(u, default=-1) + 1 for u in units.values()), default=1))
    g_units = {n: {r["k"]: skill_sums(r["margins"]) for r in rs} for n, rs in greedy.items()}
    s_units = {n: {r["k"]: skill_sums(r["margins"]) for r in rs} for n, rs in search.items()}
    g_layout = block_layout(max((len(u) for u in g_units.values()), default=1))
    s_layout = block_layout(max((len(u) for u in s_units.values()), default=1))

    def fn(t: dict[str, float]) -> dict[str, Any]:
        return metrics_from(shape, t)

    def skill(t: dict[str, float]) -> dict[str, Any]:
        return {"skill": metrics_from(shape, t).get("skill")}

    fps = {
        v.name: {(r["k"], i): d.get("fp") for r in main[v.name] for i, d in enumerate(r["deals"])}
        for v in chosen
    }
    base = chosen[0].name
    out_variants = []
    for v in chosen:
        seed = f"{plan['seed']}/{v.name}"
        mine = _blocks(units[v.name], layout)
        metrics = with_intervals(mine, fn, seed)
        for key, found, lay in (
            ("skill_greedy_vs_random", g_units, g_layout),
            ("skill_search_vs_greedy", s_units, s_layout),
        ):
            if v.name in found:
                metrics[key] = with_intervals(_blocks(found[v.name], lay), skill, seed)["skill"]
            else:
                metrics[key] = {"value": None, "ci95": None}
        row: dict[str, Any] = {
            "name": v.name,
            "options": v.options,
            "house_rules": list(v.house_rules),
            "metrics": {m: metrics[m] for m in METRICS if m in metrics},
            "matches": int(sum(u.get("matches", 0) for u in units[v.name].values())),
        }
        few = small_samples(units[v.name], g_units.get(v.name), s_units.get(v.name))
        if few:
            row["few"] = few
        by_place = metrics.get("win_share_from_first")
        if by_place:
            total = mine.total()
            row["places"] = {
                "share": by_place["value"],
                "ci95": by_place["ci95"],
                "tested": tested_places(shape),
                "p": places_p(shape, total),
                "edge": None,  # set by the verdicts: the place a standing chi-square names
                "dealer": dealer_place(shape, total),
            }
        if v.name != base:
            common = [k for k in fps[base] if k in fps[v.name]]
            same = sum(1 for k in common if fps[base][k] == fps[v.name][k])
            share = same / len(fps[base]) if fps[base] else 0.0
            paired = share >= 0.5
            vs = differences(_blocks(units[base], layout), mine, fn, paired, seed + "/vs")
            for key, found, lay in (
                ("skill_greedy_vs_random", g_units, g_layout),
                ("skill_search_vs_greedy", s_units, s_layout),
            ):
                if v.name in found and base in found:
                    b, m = _blocks(found[base], lay), _blocks(found[v.name], lay)
                    vs[key] = differences(b, m, skill, paired, seed + "/" + key)["skill"]
            got = vs.get("seat_win_share") or {}
            if got.get("mde") and got["mde"][0] is not None:
                row["power"] = {
                    "metric": "seat_win_share",
                    "item": 0,
                    "mde": got["mde"][0],
                    "diff": got["diff"][0],
                    "deals_needed": deals_needed(plan["deals"], got["diff"][0], got["mde"][0]),
                }
            row["same_deals"] = round(share, 4)
            row["paired"] = paired
            row["vs_base"] = {m: vs[m] for m in METRICS if m in vs}
        out_variants.append(row)
    result = {
        "game": plan["game"],
        "players": plan["players"],
        "deals": plan["deals"],
        "skill_deals": plan["skill_deals"],
        "seed": plan["seed"],
        "bot": plan["bot"],
        "search_bot": plan["search_bot"],
        "sides": [list(s) for s in shape.sides],
        "variants": out_variants,
        "correction": CORRECTION,
    }
    result["power"] = {
        "deals": plan["deals"],
        "share_mde": round(binomial_mde(plan["deals"], len(shape.sides)), 6),
    }
    result["verdicts"] = verdicts(result, [list(s) for s in shape.sides])
    return result


MAX_GROWTH = 32  # --until-precision: at most five doublings of --deals


def headline_width(result: dict[str, Any]) -> float:
    """The widest headline interval: of every variant's win share by seat
    (by side) and by place in the turn order, and of their differences from
    the base game (``--until-precision`` plays on until it is narrow enough)."""
    widest = 0.0
    for v in result["variants"]:
        for metric in ("seat_win_share", "side_win_share", "win_share_from_first"):
            for got in (v["metrics"].get(metric), v.get("vs_base", {}).get(metric)):
                for ci in (got or {}).get("ci95") or []:
                    if ci:
                        widest = max(widest, ci[1] - ci[0])
    return widest


MIN_UNITS = 30  # fewer matches, finished matches or decks than this: an interval not to trust
MIN_DEALS = 100  # the per-deal figures: fewer deals, or their deals in fewer matches than MIN_MATCHES
MIN_MATCHES = 10


def small_samples(
    units: dict[int, dict[str, float]],
    greedy: dict[int, dict[str, float]] | None,
    search: dict[int, dict[str, float]] | None,
) -> dict[str, int]:
    """The metrics whose sample is too small to trust their interval (the
    bootstrap resamples a handful of units), with its size: every per-deal
    figure under ``MIN_DEALS`` deals or ``MIN_MATCHES`` matches, the per-match
    ones under ``MIN_UNITS`` finished matches, the skill ones under
    ``MIN_UNITS`` decks."""
    out: dict[str, int] = {}

    def total(key: str) -> int:
        return int(sum(u.get(key, 0) for u in units.values()))

    deals, matches, finished = total("deals"), len(units), total("matches")
    if deals < MIN_DEALS or matches < MIN_MATCHES:
        for m in PER_DEAL:
            out[m] = deals
    if finished < MIN_UNITS:
        for m in ("deals_per_match", "lead_changes", "comeback_rate"):
            out[m] = finished
    for key, found in (("skill_greedy_vs_random", greedy), ("skill_search_vs_greedy", search)):
        if found is not None and len(found) < MIN_UNITS:
            out[key] = len(found)
    return out


PER_DEAL = (
    "seat_win_share",
    "side_win_share",
    "win_share_from_first",
    "first_player_advantage",
    "moves_per_deal",
    "decisions_per_deal",
    "choices_per_decision",
    "margin",
    "spread",
    "deal_lead_changes",
)
