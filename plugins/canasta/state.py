"""Canasta's deal state and its JSON (position-file) form.

Turn progress is explicit so that a turn can be split into atomic decisions:
``phase`` is ``draw`` (start of the turn), ``pile`` (the pile was taken for the
side's initial meld, which is staged until it reaches the minimum), ``play``
(meld, add, discard …) or ``answer`` (the partner answers "May I go out?").
"""

from __future__ import annotations

from enum import StrEnum
from operator import attrgetter
from typing import Any, Literal

from cardcore.cards import Card, names
from cardcore.game import DealState, PositionError
from cardcore.position import PositionReader
from cardcore.table import Table
from cardcore_plugins.canasta.cards import RANK_NAMES, WILD, rank_of_name


class Phase(StrEnum):
    """Where a turn stands (see the module's docstring)."""

    DRAW = "draw"
    PILE = "pile"
    PLAY = "play"
    ANSWER = "answer"


DRAW, PILE, PLAY, ANSWER = Phase.DRAW, Phase.PILE, Phase.PLAY, Phase.ANSWER
PHASES = tuple(Phase)
Asked = Literal["pending", "yes", "no"]  # "May I go out?" (N12); None: not asked
Withdrew = Literal["", "pile", "play"]  # what was taken back this turn


HAND_ORDER = attrgetter("sort_key")  # hands are kept sorted: suit, then rank (a C-level key)


def meld_rank(cards: list[Card]) -> int:
    """The rank of a meld: that of its natural cards (N8)."""
    for c in cards:
        if not WILD[c]:
            return c.rank
    raise ValueError("a meld without natural cards")


def wild_count(cards: list[Card]) -> int:
    return sum(1 for c in cards if WILD[c])


class CanastaState(DealState):
    """A deal of Canasta.

    ``teams`` are the deal's sides (they change in a 3-player deal, N17);
    ``melds[t]`` maps rank → cards for team t; ``staged`` the current player's
    initial melds not yet committed (N10); ``pile_held`` the rest of a pile
    taken for a staged initial meld.
    """

    __slots__ = (
        "asked",
        "discard",
        "frozen_start",
        "has_melded",
        "known",
        "laid",
        "last_red_three",
        "melded_now",
        "melds",
        "new_ranks",
        "over",
        "phase",
        "pile_held",
        "pile_taker",
        "red_threes",
        "scores",
        "staged",
        "team_at",
        "teams",
        "touched",
        "went_out",
        "went_out_concealed",
        "withdrew",
    )

    discard: list[Card]
    frozen_start: bool
    teams: list[tuple[int, ...]]
    team_at: tuple[int, ...]  # per seat: his team's index in ``teams`` (set_teams keeps it)
    melds: list[dict[int, list[Card]]]
    red_threes: list[list[Card]]
    scores: list[int]
    phase: Phase
    staged: dict[int, list[Card]]
    pile_held: list[Card]
    asked: Asked | None
    withdrew: Withdrew
    touched: bool  # added to a meld that existed before this turn
    melded_now: bool
    laid: bool  # laid a card this turn, the pile's top card's meld apart (N12a)
    known: list[list[Card]]  # per seat: cards in his hand that all saw him take (pile, withdrawn melds)
    new_ranks: set[int]
    has_melded: list[bool]  # per seat: melded in an earlier turn of this deal
    last_red_three: bool
    pile_taker: int | None
    went_out: int | None
    went_out_concealed: bool
    over: bool

    def clone(self) -> CanastaState:
        s = CanastaState.__new__(CanastaState)
        self.copy_fields_to(s)
        s.discard = list(self.discard)
        s.frozen_start = self.frozen_start
        s.teams = list(self.teams)
        s.team_at = self.team_at
        s.melds = [{r: list(m) for r, m in t.items()} for t in self.melds]
        s.red_threes = [list(r) for r in self.red_threes]
        s.scores = list(self.scores)
        s.phase = self.phase
        s.staged = {r: list(m) for r, m in self.staged.items()}
        s.pile_held = list(self.pile_held)
        s.asked = self.asked
        s.withdrew = self.withdrew
        s.touched = self.touched
        s.melded_now = self.melded_now
        s.laid = self.laid
        s.known = [list(k) for k in self.known]
        s.new_ranks = set(self.new_ranks)
        s.has_melded = list(self.has_melded)
        s.last_red_three = self.last_red_three
        s.pile_taker = self.pile_taker
        s.went_out = self.went_out
        s.went_out_concealed = self.went_out_concealed
        s.over = self.over
        return s

    @property
    def turn(self) -> int:
        """The partner answers "May I go out?" within the asker's turn (N12)."""
        return (self.to_act + 2) % 4 if self.phase == ANSWER else self.to_act

    def team_of(self, seat: int) -> int:
        return self.team_at[seat]


def set_teams(s: CanastaState, teams: list[tuple[int, ...]]) -> None:
    """The deal's sides (N17 changes them in a 3-player deal), and each seat's."""
    s.teams = teams
    at = [0] * s.players
    for i, team in enumerate(teams):
        for seat in team:
            at[seat] = i
    s.team_at = tuple(at)


def new_state(table: Table, dealer: int, scores: list[int]) -> CanastaState:
    s = CanastaState.__new__(CanastaState)
    n = table.players
    s.start_fields(table, dealer)
    s.discard = []
    s.frozen_start = False
    set_teams(s, list(table.sides))
    s.melds = [{} for _ in s.teams]
    s.red_threes = [[] for _ in s.teams]
    s.scores = list(scores)
    reset_turn(s)
    s.has_melded = [False] * n
    s.known = [[] for _ in range(n)]
    s.last_red_three = False
    s.pile_taker = None
    s.went_out = None
    s.went_out_concealed = False
    s.over = False
    return s


def reset_turn(s: CanastaState) -> None:
    """What a turn keeps, empty: the start of a turn (its draw phase)."""
    s.phase = DRAW
    s.staged = {}
    s.pile_held = []
    s.asked = None
    s.withdrew = ""
    s.touched = False
    s.melded_now = False
    s.laid = False
    s.new_ranks = set()


def state_to_json(s: CanastaState) -> dict[str, Any]:
    return {
        "dealer": s.dealer,
        "to_act": s.to_act,
        "hands": {str(i): names(h) for i, h in enumerate(s.hands)},
        "stock": names(s.stock),
        "discard": names(s.discard),
        "melds": {str(i): [names(m) for _, m in sorted(t.items())] for i, t in enumerate(s.melds)},
        "red_threes": {str(i): names(r) for i, r in enumerate(s.red_threes)},
        "scores": {str(i): v for i, v in enumerate(s.scores)},
        "went_out": s.went_out,
        "concealed": s.went_out_concealed,
        "frozen_upcard": s.frozen_start,
        "pile_taker": s.pile_taker,
        "phase": str(s.phase),
        "staged": [names(m) for m in s.staged.values()],  # in order: the pile's meld first
        "pile_held": names(s.pile_held),
        "asked": s.asked,
        "withdrew": s.withdrew,
        "touched": s.touched,
        "melded_now": s.melded_now,
        "laid": s.laid,
        "known": {str(i): names(k) for i, k in enumerate(s.known) if k},
        "new_ranks": [RANK_NAMES[r] for r in sorted(s.new_ranks)],
        "has_melded": [i for i, m in enumerate(s.has_melded) if m],
        "last_red_three": s.last_red_three,
        "over": s.over,
    }


def _melds(
    r: PositionReader, field: str, value: Any, check: bool = True, max_wild: int = 3
) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {}
    if not isinstance(value, list):
        raise PositionError(f"{field}: expected a list of melds")
    for j, raw in enumerate(value or []):
        cards = r.cards(f"{field}[{j}]", raw)
        try:
            rank = meld_rank(cards)
        except ValueError:
            raise PositionError(f"{field}[{j}]: a meld needs natural cards (N8)") from None
        if any(not WILD[c] and c.rank != rank for c in cards):
            raise PositionError(f"{field}[{j}]: a meld holds cards of one rank (N8)")
        if rank in out:
            raise PositionError(f"{field}[{j}]: two melds of the same rank (N8)")
        if check:
            wilds = wild_count(cards)
            if len(cards) < 3 or len(cards) - wilds < 2 or wilds > max_wild:
                raise PositionError(
                    f"{field}[{j}]: a meld is three or more cards, two natural at least, "
                    "three wild at most (N8)"
                )
            if rank == 3 and (wilds or any(c.suit in "HD" for c in cards)):
                raise PositionError(f"{field}[{j}]: only black threes, without wild cards, meld (N8)")
        out[rank] = cards
    return out


def state_from_json(table: Table, data: dict[str, Any]) -> CanastaState:
    r = PositionReader(table, data)
    n = table.players
    dealer, to_act = r.dealer_and_to_act()
    scores_raw = r.per("scores", len(table.sides), "side")
    scores = [0] * len(table.sides)
    for k, v in scores_raw.items():
        if not isinstance(v, int) or isinstance(v, bool):
            raise PositionError(f"scores.{k}: expected a whole number")
        scores[k] = v
    s = new_state(table, dealer, scores)
    s.to_act = to_act
    taker = r.get("pile_taker")
    if taker is not None:
        if n != 3:
            raise PositionError("pile_taker: only in a 3-player deal (N17)")
        s.pile_taker = r.seat("pile_taker")
        set_teams(s, partnership_teams(n, s.pile_taker))
        s.melds = [{} for _ in s.teams]
        s.red_threes = [[] for _ in s.teams]
    s.hands = r.hands()
    s.stock = r.cards("stock")
    s.discard = r.cards("discard")
    # N17: melds merged when the 3-player partnership formed may hold more wild cards
    merged = 6 if s.pile_taker is not None else 3
    for t, value in sorted(r.per("melds", len(s.teams), "side").items()):
        s.melds[t] = _melds(r, f"melds.{t}", value or [], max_wild=merged)
    for t, value in sorted(r.per("red_threes", len(s.teams), "side").items()):
        cards = r.cards(f"red_threes.{t}", value or [])
        if any(not (c.rank == 3 and c.suit in "HD") for c in cards):
            raise PositionError(f"red_threes.{t}: only red threes (3H, 3D)")
        s.red_threes[t] = cards
    went = r.get("went_out")
    s.went_out = None if went is None else r.seat("went_out")
    s.went_out_concealed = bool(r.get("concealed", False))
    s.frozen_start = bool(r.get("frozen_upcard", False))
    phase = r.get("phase", DRAW)
    if phase not in PHASES:
        raise PositionError(f"phase: one of {', '.join(PHASES)}")
    s.phase = Phase(phase)
    staged = r.get("staged", [])
    s.staged = _melds(r, "staged", staged, check=False)
    s.pile_held = r.cards("pile_held")
    asked = r.get("asked")
    if asked not in (None, "pending", "yes", "no"):
        raise PositionError("asked: null, pending, yes or no")
    s.asked = asked
    withdrew = r.get("withdrew", "")
    if withdrew not in ("", "pile", "play"):
        raise PositionError('withdrew: "", pile or play')
    s.withdrew = withdrew
    s.touched = bool(r.get("touched", False))
    s.melded_now = bool(r.get("melded_now", False))
    s.laid = bool(r.get("laid", False))
    known = r.get("known", {})
    if not isinstance(known, dict):
        raise PositionError("known: expected a mapping of seats to cards in their hands")
    for key, value in known.items():
        seat = r.index("known", key, n, "seat")
        left = list(s.hands[seat])
        for name in value if isinstance(value, list) else []:
            found = next((c for c in left if c.name == str(name).upper()), None)
            if found is None:
                raise PositionError(f"known.{seat}: {str(name)[:20]!r} is not in that seat's hand")
            left.remove(found)
            s.known[seat].append(found)
    for name in _list(r, "new_ranks"):
        rank = rank_of_name(name)
        if rank is None:
            raise PositionError(f"new_ranks: {name!r} is not a rank (A, K … 3)")
        s.new_ranks.add(rank)
    for seat in _list(r, "has_melded"):
        s.has_melded[r.index("has_melded", seat, n, "seat")] = True
    s.last_red_three = bool(r.get("last_red_three", False))
    s.over = bool(r.get("over", False))
    ended = s.over or s.went_out is not None  # N7a: a red three may then remain in a hand
    if not ended and any(c.rank == 3 and c.suit in "HD" for c in s.hands[to_act]):
        raise PositionError(
            f"hands.{to_act}: red threes are laid at the turn's start; list them under red_threes (N7)"
        )
    if phase == PILE and not s.staged:
        raise PositionError("phase: pile needs the staged meld with the pile's top card")
    return s


def _list(r: PositionReader, field: str) -> list[Any]:
    value = r.get(field, [])
    if not isinstance(value, list):
        raise PositionError(f"{field}: expected a list")
    return value


def partnership_teams(players: int, alone: int) -> list[tuple[int, ...]]:
    """N17: the player who took the pile alone, the other two as partners;
    teams ordered by their lowest seat."""
    others = tuple(s for s in range(players) if s != alone)
    return sorted([(alone,), others], key=min)
