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
from cardcore.state import (
    DEALER,
    HANDS,
    STOCK,
    TO_ACT,
    Field,
    cards,
    dump_per,
    flag,
    one_of,
    seat_or_none,
    slots,
    value,
)
from cardcore.table import Table
from cardcore_plugins.canasta.cards import RANK_NAMES, WILD, rank_of_name
from cardcore_plugins.canasta.words import T


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


def _melds(
    r: PositionReader, field: str, listed: Any, check: bool = True, max_wild: int = 3
) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {}
    if not isinstance(listed, list):
        # i18n: an error in a position file; {field}: where in the file (keep it as it is)
        raise PositionError(T("{field}: expected a list of melds", field=field))
    for j, raw in enumerate(listed or []):
        cards = r.cards(f"{field}[{j}]", raw)
        try:
            rank = meld_rank(cards)
        except ValueError:
            # i18n: an error in a position file; {field}: where in the file (keep it as it is)
            raise PositionError(
                T("{field}: a meld needs natural cards (N8)", field=f"{field}[{j}]")
            ) from None
        if any(not WILD[c] and c.rank != rank for c in cards):
            # i18n: an error in a position file; {field}: where in the file (keep it as it is)
            raise PositionError(T("{field}: a meld holds cards of one rank (N8)", field=f"{field}[{j}]"))
        if rank in out:
            # i18n: an error in a position file; {field}: where in the file (keep it as it is)
            raise PositionError(T("{field}: two melds of the same rank (N8)", field=f"{field}[{j}]"))
        if check:
            wilds = wild_count(cards)
            if len(cards) < 3 or len(cards) - wilds < 2 or wilds > max_wild:
                # i18n: an error in a position file; {field}: where in the file (keep it as it is)
                raise PositionError(
                    T(
                        "{field}: a meld is three or more cards, two natural at least, "
                        "three wild at most (N8)",
                        field=f"{field}[{j}]",
                    )
                )
            if rank == 3 and (wilds or any(c.suit in "HD" for c in cards)):
                # i18n: an error in a position file; {field}: where in the file (keep it as it is)
                raise PositionError(
                    T("{field}: only black threes, without wild cards, meld (N8)", field=f"{field}[{j}]")
                )
        out[rank] = cards
    return out


def _list(r: PositionReader, field: str) -> list[Any]:
    value = r.get(field, [])
    if not isinstance(value, list):
        # i18n: an error in a position file; {field}: where in the file (keep it as it is)
        raise PositionError(T("{field}: expected a list", field=field))
    return value


# ---- the fields' JSON where it is Canasta's own (cardcore.state reads the rest) ----


def _read_scores(r: PositionReader, key: str, s: CanastaState) -> list[int]:
    scores = [0] * len(r.table.sides)
    for k, v in r.per(key, len(r.table.sides), "side").items():
        if not isinstance(v, int) or isinstance(v, bool):
            # i18n: an error in a position file; {field}: where in the file (keep it as it is)
            raise PositionError(T("{field}: expected a whole number", field=f"{key}.{k}"))
        scores[k] = v
    return scores


def _read_pile_taker(r: PositionReader, key: str, s: CanastaState) -> int | None:
    """N17: the seat that took the pile alone in a 3-player deal; it sets the
    deal's sides, which the melds and red threes are read for."""
    if r.get(key) is None:
        return None
    if r.table.players != 3:
        # i18n: an error in a position file; {field}: where in the file (keep it as it is)
        raise PositionError(T("{field}: only in a 3-player deal (N17)", field=key))
    taker = r.seat(key)
    set_teams(s, partnership_teams(r.table.players, taker))
    return taker


def _dump_scores(scores: list[int]) -> dict[str, int]:
    return {str(i): v for i, v in enumerate(scores)}


def _dump_melds(melds: list[dict[int, list[Card]]]) -> dict[str, list[list[str]]]:
    return {str(i): [names(m) for _, m in sorted(t.items())] for i, t in enumerate(melds)}


def _read_melds(r: PositionReader, key: str, s: CanastaState) -> list[dict[int, list[Card]]]:
    out: list[dict[int, list[Card]]] = [{} for _ in s.teams]
    # N17: melds merged when the 3-player partnership formed may hold more wild cards
    merged = 6 if s.pile_taker is not None else 3
    for t, listed in sorted(r.per(key, len(s.teams), "side").items()):
        out[t] = _melds(r, f"{key}.{t}", [] if listed is None else listed, max_wild=merged)
    return out


def _read_red_threes(r: PositionReader, key: str, s: CanastaState) -> list[list[Card]]:
    out: list[list[Card]] = [[] for _ in s.teams]
    for t, listed in sorted(r.per(key, len(s.teams), "side").items()):
        cards = r.cards(f"{key}.{t}", [] if listed is None else listed)
        if any(not (c.rank == 3 and c.suit in "HD") for c in cards):
            # i18n: an error in a position file; {field}: where in the file (keep it as it is)
            raise PositionError(T("{field}: only red threes (3H, 3D)", field=f"{key}.{t}"))
        out[t] = cards
    return out


def _dump_staged(staged: dict[int, list[Card]]) -> list[list[str]]:
    return [names(m) for m in staged.values()]  # in order: the pile's meld first


def _read_staged(r: PositionReader, key: str, s: CanastaState) -> dict[int, list[Card]]:
    return _melds(r, key, r.get(key, []), check=False)


def _dump_known(known: list[list[Card]]) -> dict[str, list[str]]:
    return {str(i): names(k) for i, k in enumerate(known) if k}


def _read_known(r: PositionReader, key: str, s: CanastaState) -> list[list[Card]]:
    """Cards of a hand that all saw its seat take: the hand's own cards, by name."""
    n = r.table.players
    out: list[list[Card]] = [[] for _ in range(n)]
    known = r.get(key, {})
    if not isinstance(known, dict):
        # i18n: an error in a position file; {field}: where in the file (keep it as it is)
        raise PositionError(T("{field}: expected a mapping of seats to cards in their hands", field=key))
    for k, listed in known.items():
        seat = r.index(key, k, n, "seat", key=True)
        left = list(s.hands[seat])
        for name in [] if listed is None else r.card_names(f"{key}.{seat}", listed):
            found = next((c for c in left if c.name == str(name).upper()), None)
            if found is None:
                # i18n: an error in a position file; {field}: where in the file; {name}: what it lists
                raise PositionError(
                    T(
                        "{field}: {name} is not in that seat's hand",
                        field=f"{key}.{seat}",
                        name=repr(str(name)[:20]),
                    )
                )
            left.remove(found)
            out[seat].append(found)
    return out


def _dump_new_ranks(ranks: set[int]) -> list[str]:
    return [RANK_NAMES[r] for r in sorted(ranks)]


def _read_new_ranks(r: PositionReader, key: str, s: CanastaState) -> set[int]:
    out = set()
    for name in _list(r, key):
        rank = rank_of_name(name)
        if rank is None:
            # i18n: an error in a position file; {field}: where in the file; {name}: what it lists
            raise PositionError(T("{field}: {name} is not a rank (A, K … 3)", field=key, name=repr(name)))
        out.add(rank)
    return out


def _dump_has_melded(has_melded: list[bool]) -> list[int]:
    return [i for i, m in enumerate(has_melded) if m]


def _read_has_melded(r: PositionReader, key: str, s: CanastaState) -> list[bool]:
    out = [False] * r.table.players
    for seat in _list(r, key):
        out[r.index(key, seat, r.table.players, "seat")] = True
    return out


class CanastaState(DealState):
    """A deal of Canasta.

    ``teams`` are the deal's sides (they change in a 3-player deal, N17);
    ``melds[t]`` maps rank → cards for team t; ``staged`` the current player's
    initial melds not yet committed (N10); ``pile_held`` the rest of a pile
    taken for a staged initial meld.
    """

    FIELDS = (
        DEALER,
        TO_ACT,
        HANDS,
        STOCK,
        cards("discard"),
        Field("melds", "dicts", per="side", cards=True, dump=_dump_melds, read=_read_melds),
        Field("red_threes", "lists", per="side", cards=True, dump=dump_per, read=_read_red_threes),
        Field("scores", "list", per="side", default=0, dump=_dump_scores, read=_read_scores, first=True),
        value("went_out", read=seat_or_none),
        value("went_out_concealed", False, key="concealed", read=flag),
        value("frozen_start", False, key="frozen_upcard", read=flag),
        value("pile_taker", read=_read_pile_taker, first=True),
        value("phase", DRAW, dump=str, read=one_of(PHASES, DRAW, "one of " + ", ".join(PHASES))),
        Field("staged", "dict", cards=True, dump=_dump_staged, read=_read_staged),
        cards("pile_held"),
        value("asked", read=one_of((None, "pending", "yes", "no"), None, "null, pending, yes or no")),
        value("withdrew", "", read=one_of(("", "pile", "play"), "", '"", pile or play')),
        value("touched", False, read=flag),
        value("melded_now", False, read=flag),
        value("laid", False, read=flag),
        Field("known", "lists", per="seat", dump=_dump_known, read=_read_known),
        Field("new_ranks", "set", dump=_dump_new_ranks, read=_read_new_ranks),
        Field("has_melded", "list", per="seat", default=False, dump=_dump_has_melded, read=_read_has_melded),
        value("last_red_three", False, read=flag),
        value("over", False, read=flag),
        # the deal's sides, not in the JSON: pile_taker sets them (N17)
        Field("teams", "list", key=None, new=lambda table: list(table.sides)),
        value("team_at", key=None, new=lambda table: table.side_of),
    )
    __slots__ = slots(FIELDS)

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

    @property
    def turn(self) -> int:
        """The partner answers "May I go out?" within the asker's turn (N12)."""
        return (self.to_act + 2) % 4 if self.phase == ANSWER else self.to_act

    def team_of(self, seat: int) -> int:
        return self.team_at[seat]

    def check_position(self, r: PositionReader) -> None:
        to_act = self.to_act
        ended = self.over or self.went_out is not None  # N7a: a red three may then remain in a hand
        if not ended and any(c.rank == 3 and c.suit in "HD" for c in self.hands[to_act]):
            # i18n: an error in a position file; {field}: where in the file; red_threes: a field's name
            raise PositionError(
                T(
                    "{field}: red threes are laid at the turn's start; list them under red_threes (N7)",
                    field=f"hands.{to_act}",
                )
            )
        if self.phase == PILE and not self.staged:
            # i18n: an error in a position file; {field}: a field's name, {value}: its value (phase: pile)
            raise PositionError(
                T(
                    "{field}: {value} needs the staged meld with the pile's top card",
                    field="phase",
                    value="pile",
                )
            )
        self._check_asked()
        self._check_last_red_three()

    def _check_asked(self) -> None:
        """The question "May I go out?" (N12, N12a) as the fields tell it: asked
        by the player whose turn it is and answered by his partner (4 players only),
        ``asked: pending`` exactly while the partner answers (phase
        ``answer``), and never before the turn's draw. A position saying
        otherwise would offer moves no deal reaches (the asker answering
        himself, ``stop`` while the partner has not answered)."""
        phase, asked = self.phase, self.asked
        if (phase == ANSWER or asked is not None) and self.players != 4:
            # i18n: an error in a position file; {field}: a field's name, {value}: its value; "May I
            # go out?": the question a player asks his partner (N12)
            raise PositionError(
                T(
                    '{field}: {value}: only a partner answers "May I go out?", so only with 4 players (N12)',
                    field="phase" if phase == ANSWER else "asked",
                    value=phase if phase == ANSWER else asked,
                )
            )
        if phase == ANSWER and asked != "pending":
            # i18n: an error in a position file; phase, answer, asked, pending: the file's words (keep them)
            raise PositionError(
                T("phase: answer: the partner answers a question asked, so asked: pending (N12)")
            )
        if asked == "pending" and phase != ANSWER:
            # i18n: an error in a position file; {phase}: the phase it gives; asked, pending, phase,
            # answer: the file's words (keep them)
            raise PositionError(
                T(
                    "asked: pending: the partner has not answered yet, so phase: answer, not {phase} (N12)",
                    phase=phase,
                )
            )
        if asked is not None and phase == DRAW:
            # i18n: an error in a position file; {asked}: its value (yes or no); asked, phase, draw:
            # the file's words (keep them)
            raise PositionError(
                T(
                    "asked: {asked}: the question comes after the turn's draw (N12a), not in phase: draw",
                    asked=asked,
                )
            )

    def _check_last_red_three(self) -> None:
        """N13a: ``last_red_three`` says the stock's last card, a red three, was
        just laid by the player whose turn it is: so the stock is empty, he has
        drawn (phase ``play``, or ``answer`` when he asked, N13c), and his side
        holds a red three. Only then is ``stop`` a move."""
        if not self.last_red_three:
            return
        if self.stock:
            raise PositionError(
                # i18n: an error in a position file; last_red_three, stock: the file's words (keep them)
                T("last_red_three: the stock's last card was a red three, so the stock is empty (N13a)")
            )
        if self.phase not in (PLAY, ANSWER):
            # i18n: an error in a position file; {phase}: the phase it gives; last_red_three, phase,
            # play, answer: the file's words (keep them)
            raise PositionError(
                T(
                    "last_red_three: the player has drawn it, so phase: play or answer, not {phase} (N13a)",
                    phase=self.phase,
                )
            )
        team = self.team_of(self.turn)
        if not self.red_threes[team]:
            # i18n: an error in a position file; {side}: a side's number; last_red_three, red_threes:
            # the file's words (keep them)
            raise PositionError(
                T(
                    "last_red_three: the player laid it for his side, but red_threes.{side} is empty (N13a)",
                    side=team,
                )
            )


def set_teams(s: CanastaState, teams: list[tuple[int, ...]]) -> None:
    """The deal's sides (N17 changes them in a 3-player deal), and each seat's."""
    s.teams = teams
    at = [0] * s.players
    for i, team in enumerate(teams):
        for seat in team:
            at[seat] = i
    s.team_at = tuple(at)


def new_state(table: Table, dealer: int, scores: list[int]) -> CanastaState:
    s = CanastaState.new(table, dealer)
    s.scores = list(scores)
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


def partnership_teams(players: int, alone: int) -> list[tuple[int, ...]]:
    """N17: the player who took the pile alone, the other two as partners;
    teams ordered by their lowest seat."""
    others = tuple(s for s in range(players) if s != alone)
    return sorted([(alone,), others], key=min)
