"""Paquet voleur (rulings P1–P8 and later ones, listed in docs/paquet_voleur.md) as a table plugin: its
hooks; the state is in ``state.py``, the engine loop (moves, apply, redeal) in ``movegen.py``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from cardcore.cards import Card
from cardcore.deck import DeckSpec, cut, deal_rounds, shuffled
from cardcore.game import (
    GamePlugin,
    GameSpec,
    Observation,
    SideScore,
    redeal_unseen,
    rules_page,
    unseen_order,
)
from cardcore.hookspecs import hookimpl
from cardcore.i18n import NP_, Side
from cardcore.match import Match
from cardcore.moves import Move
from cardcore.seats import left_of, make_sides, right_of
from cardcore.table import Table
from cardcore_plugins.paquet_voleur.features import features
from cardcore_plugins.paquet_voleur.movegen import HAND, apply_move, legal_moves
from cardcore_plugins.paquet_voleur.state import PVState
from cardcore_plugins.paquet_voleur.words import T, Tn

if TYPE_CHECKING:
    from cardcore.rl.encoding import Encoding

NAME = "paquet_voleur"
MIN_CUT = 5  # P3: at least five cards in each part of the cut
#: shuffles tried for an imagined deal that agrees with every seat's ``lacks``
SAMPLE_TRIES = 50


class Options(BaseModel):
    """Paquet voleur's table options."""

    model_config = ConfigDict(extra="forbid")
    # the options' descriptions are Texts: the CLI says them in the person's language
    partnerships: bool = Field(
        default=False, description=T("4 players in two partnerships, partners opposite (P1)")
    )
    deals: int = Field(default=1, ge=1, description=T("deals per match, card counts added up (P8)"))


class PaquetVoleur(GamePlugin[Options, PVState]):
    """The table plugin: Paquet voleur's answers to the core's hooks."""

    domain = "paquet_voleur"  # its catalog (plugins/paquet_voleur/words.py)
    bots = {
        "greedy": "cardcore_plugins.paquet_voleur.bots:GreedyPlayer",
        "careful": "cardcore_plugins.paquet_voleur.bots:CarefulPlayer",
    }
    # the levels a person picks (cardcore.levels): the search's budgets keep a decision
    # within ~300 ms (hard) and ~1 s (expert) of CPU here (benchmarks/search_bench.py --check)
    levels = {
        # easy: greedy erring at half of its decisions at two players; at three and four a
        # mistake costs little (likely: the cards taken get stolen on), greedy's lead over that
        # was small (4p: -0.05 over 300 boards, +0.58 over 1,000; 3p: +1.07 over 1,000), so
        # there easy errs at every decision (docs/BOTS.md)
        "easy": {2: "{base}:mistakes=0.5", 3: "{base}:mistakes=1", 4: "{base}:mistakes=1"},
        # hard: half-way up the ladder. The search's gain over greedy comes within a few
        # iterations and then flattens; the one-ply `careful` plays near that plateau in a
        # fiftieth of a millisecond. At two players expert does not separate from `careful`
        # (+1.02 over 1,000 boards), so hard is five iterations over it (careful's prior and
        # playouts), within the CPU of this release's plain search at ten and ahead of it; at
        # three and four expert leads `careful` (+1.17, +1.46 over 1,200), so hard is
        # `careful` itself, ahead of the plain search at three iterations (docs/BOTS.md)
        "hard": {
            2: "ismcts:iterations=5,prior=careful,rollout=careful",
            3: "careful",
            4: "careful",
        },
        # expert: the search at that plateau, 900 iterations (3,000 gained nothing: +0.15
        # cards); with greedy's prior and playouts at two and three players, plain at four,
        # where the plain search did better at equal CPU (-0.89 cards for greedy's, docs/BOTS.md)
        "expert": {
            2: "ismcts:iterations=900,prior=greedy,rollout=greedy",
            3: "ismcts:iterations=900,prior=greedy,rollout=greedy",
            4: "ismcts:iterations=900",
        },
    }
    # the hint asks expert (p95 about 200 ms of CPU a decision, docs/BOTS.md): hard's ten
    # imagined deals would give it the weaker move and noisy points to explain it with
    hint_level = "expert"
    card_kind = "trail"  # a card typed alone, when no move plays it
    state_class = PVState  # the state hooks are derived from its FIELDS

    def goal(self) -> str:
        deals = self.options.deals
        if deals == 1:
            # i18n: what wins: the side with the most cards in its pile at the end of the deal
            return T("most cards in the deal (P7)")
        # i18n: what wins: the side with the most cards in its piles, added up over {n} deals (2 or more)
        return Tn("most cards over {n} deal (P8)", "most cards over {n} deals (P8)", deals)

    @hookimpl
    def cardcore_build_deck(self, table: Table) -> list[Card]:
        return DeckSpec().build()  # P2: 52 cards

    @hookimpl
    def cardcore_first_dealer(self, table: Table, rng: random.Random, record: Callable[..., None]) -> int:
        """P3: cards face up one at a time clockwise from seat 0 until a jack appears."""
        dealt = []
        seat = 0
        for c in shuffled(table.deck, rng):
            dealt.append([seat, c.name])
            if c.rank == 11:
                break
            seat = left_of(seat, table.players)
        record("first_dealer", dealt=dealt, dealer=seat)
        return seat

    @hookimpl
    def cardcore_deal(
        self, table: Table, match: Match, rng: random.Random, record: Callable[..., None]
    ) -> PVState:
        """P3 (shuffle, cut by the dealer's right) and P4 (4 each, 4 on the table)."""
        deck = shuffled(table.deck, rng)
        cutter = right_of(match.dealer, table.players)
        at = rng.randint(MIN_CUT, len(deck) - MIN_CUT)
        deck = cut(deck, at)
        record("cut", seat=cutter, at=at)
        state = PVState.new(table, match.dealer)
        i = 0
        for _ in range(HAND):
            i = deal_rounds(state.hands, deck, match.dealer, 1, i)
            state.board.append(deck[i])  # one face up after each round (P4)
            i += 1
        state.stock = deck[i:]
        return state

    @hookimpl
    def cardcore_legal_moves(self, state: PVState) -> list[Move]:
        return legal_moves(state)

    @hookimpl
    def cardcore_explain_illegal(self, state: PVState, move: Move) -> str | None:
        """The rule that blocks ``move``, checked against the position (cards by name)."""
        c = move.card
        if c is None:
            return T("every move plays a card from your hand (P5)")
        if not any(h.name == c.name for h in state.hands[state.to_act]):
            return T("you do not hold {card}", card=c)
        legal = self.table.legal_moves(state)  # with the house rules
        if move.kind == "trail":
            if any(m.kind != "trail" for m in legal):
                # i18n: to trail: to lay a card on the table without taking anything; to pair: to take
                # a table card of the same rank; to steal: to take an opponent's whole pile (P5)
                return T("a card may be trailed only when no card of yours can pair or steal (P5c)")
            return None
        mine = [m for m in legal if m.kind == move.kind and m.card is not None and m.card.name == c.name]
        if mine and not move.takes:  # the card alone: say what it can do
            options = moves_list([self.cardcore_move_text(state, m) or "" for m in mine[:3]])
            # i18n: {options}: the moves the card can make ("5D pairs 5C; 5D steals side 1's pile (3 cards)")
            return T("say which: {options}", options=options)
        if move.kind == "steal":
            side = move.get("from")
            if side == state.table.side_of[state.to_act]:
                # i18n: a pile: the cards a side has taken, squared up, its top card showing (P5)
                return T("you cannot steal your own or your partner's pile (P5b)")
            # i18n: a pile's top card: the last card put on the pile, the only one showing (P5b)
            return T("no opponent's pile has a top card of the rank of {card} (P5b)", card=c)
        if move.kind == "pair":
            if not any(t.rank == c.rank for t in state.board):
                return T("no table card has the rank of {card} (P5a)", card=c)
            return T("a pair takes one table card of the same rank as the card played (P5a)")
        # i18n: {kind}: a kind of move as typed; pair, steal and trail are the kinds' names in words
        return T("Paquet voleur has no move {kind!r} (P5: pair, steal or trail)", kind=move.kind)

    @hookimpl
    def cardcore_apply_move(self, state: PVState, move: Move) -> PVState:
        return apply_move(state, move)

    @hookimpl
    def cardcore_sample_state(self, state: PVState, seat: int, rng: random.Random) -> PVState:
        """The other hands and the stock redealt in their sizes, each other
        seat's hand without the ranks it is known to lack (``PVState.lacks``,
        P5c): the imagined deals are those that agree with what every seat
        saw, each as likely as any other in two-player play."""
        lacks = state.lacks
        if not any(mask for s, mask in enumerate(lacks) if s != seat):
            sample: PVState = redeal_unseen(state, seat, rng)
        else:
            sample = _redeal_lacking(state, seat, rng)
        sample.reading = False  # nothing imagines deals from it: its playouts skip the reading
        return sample

    @hookimpl
    def cardcore_is_deal_over(self, state: PVState) -> bool:
        return not state.stock and not any(state.hands)  # P7

    @hookimpl
    def cardcore_finish_deal(self, state: PVState) -> None:
        """P7: cards left on the table belong to nobody (they stay there)."""

    @hookimpl
    def cardcore_score_deal(self, state: PVState) -> list[SideScore]:
        """P7: each side scores the number of cards in its pile."""
        return [
            SideScore(seats, len(state.piles[i]), {"cards": len(state.piles[i])})
            for i, seats in enumerate(state.table.sides)
        ]

    @hookimpl
    def cardcore_is_match_over(self, match: Match) -> bool:
        return len(match.deals) >= self.options.deals  # P8

    # the labels of the view's items (``obs.public`` keys), for the terminal
    VIEW_ITEMS = (
        # i18n: the cards lying face up on the table
        NP_("view item", "table"),
        # i18n: each side's pile of taken cards (its top card showing, its size)
        NP_("view item", "piles"),
    )
    # the lines of a deal's breakdown (its keys), for the terminal and the pages
    # i18n: the cards in a side's pile at the end of the deal: its points (P7)
    BREAKDOWN = (NP_("breakdown", "cards"),)

    @hookimpl
    def cardcore_rl_encoding(self, table: Table) -> Encoding:
        """Its arrays for learning agents (``cardcore.rl``): ``encoding.py``."""
        from cardcore_plugins.paquet_voleur.encoding import PaquetVoleurEncoding

        return PaquetVoleurEncoding(table)

    @hookimpl
    def cardcore_observe(self, state: PVState, seat: int | None) -> Observation:
        """The table cards, and each side's pile: its top card and size (the
        cards under the top are squared up, P5)."""
        piles = [
            {"seats": list(seats), "top": p[-1] if p else None, "size": len(p)}
            for seats, p in zip(state.table.sides, state.piles, strict=True)
        ]
        return Observation.of(state, seat, {"table": list(state.board), "piles": piles})

    @hookimpl
    def cardcore_move_text(self, state: PVState | None, move: Move) -> str | None:
        if move.card is None:
            return None
        c = move.card
        if move.kind == "pair":
            # i18n: to pair: {card} (played from the hand) takes {cards}, of its rank, from the table (P5a)
            return T("{card} pairs {cards}", card=c, cards=list(move.takes))
        if move.kind == "steal":
            n = len(move.takes)
            # i18n: {card} takes the whole pile of {side} (a side: its players' names, or "side 1"),
            # {n} cards (P5b)
            return Tn(
                "{card} steals {side}'s pile ({n} card)",
                "{card} steals {side}'s pile ({n} cards)",
                n,
                card=c,
                side=Side(move.get("from")),
            ).addressed(
                # i18n: the same steal said to the person whose pile it is ("You" at the terminal)
                Tn("{card} steals your pile ({n} card)", "{card} steals your pile ({n} cards)", n, card=c)
            )
        if move.kind == "trail":
            # i18n: to trail: to lay {card} on the table without taking anything (P5c)
            return T("{card} trails", card=c)
        return None


def _redeal_lacking(state: PVState, seat: int, rng: random.Random) -> PVState:
    """``cardcore_sample_state`` when some other seat lacks ranks: the unseen
    cards shuffled, each seat that lacks ranks dealt the first cards it may
    hold, the other hands and the stock the rest in their order (after
    ``SAMPLE_TRIES`` shuffles that leave a seat short, which the real deal
    shows possible but a bad order can do with three or four players: a
    plain redeal)."""
    sample = state.clone()
    hands = sample.hands
    others = [s for s in range(len(hands)) if s != seat]
    pool = [c for s in others for c in hands[s]]
    pool += sample.stock
    pool.sort(key=unseen_order)  # the canonical order, not the true one (what a seat imagines)
    bound = [s for s in others if state.lacks[s] and hands[s]]
    for _try in range(SAMPLE_TRIES):
        rng.shuffle(pool)
        left = pool
        dealt: dict[int, list[Card]] = {}
        for s in bound:
            no = state.lacks[s]
            need = len(hands[s])
            got: list[Card] = []
            rest: list[Card] = []
            for c in left:
                if len(got) < need and not no >> c.rank & 1:
                    got.append(c)
                else:
                    rest.append(c)
            if len(got) < need:
                break
            dealt[s] = got
            left = rest
        else:
            at = 0
            for s in others:
                if s in dealt:
                    hands[s][:] = dealt[s]
                else:
                    n = len(hands[s])
                    hands[s][:] = left[at : at + n]
                    at += n
            sample.stock[:] = left[at:]
            return sample
    return redeal_unseen(state, seat, rng)


def moves_list(texts: list[str]) -> str:
    """Moves said one after the other (``5D pairs 5C; 5D pairs 5H``)."""
    out = texts[0]
    for t in texts[1:]:
        # i18n: moves one after the other, separated as a list ("5D pairs 5C; 5D pairs 5H")
        out = T("{moves}; {move}", moves=out, move=t)
    return out


def _sides(players: int, options: Options) -> tuple[tuple[int, ...], ...]:
    return make_sides(players, options.partnerships)  # P1


def _check(players: int, options: Options) -> str | None:
    if options.partnerships and players != 4:
        # i18n: paquet_voleur is the game's id, typed as it is
        return T("paquet_voleur: partnerships need 4 players (P1)")
    return None


SPEC = GameSpec(
    name=NAME,
    # i18n: the game's name as the players say it (Paquet voleur, Stealing Bundles …)
    title=T("Paquet voleur (Stealing Bundles)"),
    min_players=2,
    max_players=4,
    default_players=3,
    options_model=Options,
    plugin=PaquetVoleur,
    sides=_sides,
    summary=T("Pair cards by rank, steal opponents' piles; most cards wins."),
    rules_page=rules_page(__package__),
    check_table=_check,
    aliases=("stealing_bundles",),
    example_tables=((2, {}), (4, {"partnerships": True})),
    test_configs=tuple(
        (players, options, rules)
        for players, options in ((2, {}), (3, {}), (4, {}), (4, {"partnerships": True}), (3, {"deals": 3}))
        for rules in (
            (),
            ("paquet_voleur.take_all_of_rank",),
            ("paquet_voleur.last_taker_takes_table",),
            ("paquet_voleur.take_all_of_rank", "paquet_voleur.last_taker_takes_table"),
        )
    ),
    features=features,
)


# The kinds of move as the terminal's menu groups them and a person may type them
# (``pgettext("move kind", …)``, English always read too).
MOVE_KINDS = (
    # i18n: a kind of move: take the table cards of the card's rank
    NP_("move kind", "pair"),
    # i18n: a kind of move: steal a side's pile
    NP_("move kind", "steal"),
    # i18n: a kind of move: lay a card on the table, taking nothing
    NP_("move kind", "trail"),
)
PaquetVoleur.move_kinds = tuple(k.replace(" ", "_") for k in MOVE_KINDS)  # ``why`` may ask of any
