"""Carrousel's rules (rulings C1–C13 and later ones, listed in docs/carrousel.md) as a table plugin."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cardcore.cards import Card
from cardcore.deck import deal_more, deal_rounds, shuffled
from cardcore.game import (
    GamePlugin,
    GameSpec,
    Observation,
    SideScore,
    redeal_unseen,
    rules_page,
)
from cardcore.hookspecs import hookimpl
from cardcore.i18n import NP_
from cardcore.match import Match
from cardcore.moves import Move
from cardcore.moves import tuple_new as _new
from cardcore.seats import clockwise_from, left_of, make_sides
from cardcore.table import Table
from cardcore_plugins.carrousel.cards import (
    BROOM_CARD,
    TABLE_CARDS,
    TARGETS,
    VALUES,
    deck_spec,
)
from cardcore_plugins.carrousel.features import features
from cardcore_plugins.carrousel.hookspecs import CarrouselSpec
from cardcore_plugins.carrousel.movegen import generate
from cardcore_plugins.carrousel.scoring import score_piles
from cardcore_plugins.carrousel.state import Build, CarrouselState, item_cards
from cardcore_plugins.carrousel.words import T, Tn, _

if TYPE_CHECKING:
    from cardcore.rl.encoding import Encoding

NAME = "carrousel"
HAND = 4  # C4
#: redeals tried for a sample that agrees with the builds on the table
SAMPLE_TRIES = 200


class Options(BaseModel):
    """Carrousel's table options."""

    model_config = ConfigDict(extra="forbid")
    # the options' descriptions are Texts: the CLI says them in the person's language
    deck: Literal[56, 55, 54] = Field(default=56, description=T("deck size (C2)"))
    without: Literal["joker20", "broom"] = Field(
        default="joker20",
        # i18n: deck=55 is typed as it is (an option and its value)
        description=T("with deck=55, the card left out (C2)"),
    )
    target: int | None = Field(
        default=None, gt=0, description=T("match target; default 120/90/60 by deck (C3)")
    )
    partnerships: bool | None = Field(
        default=None, description=T("4 players in partnerships; default yes with 4 (C1)")
    )
    suit: Literal["clubs", "spades"] = Field(
        default="clubs",
        # i18n: 'most': the points for the most cards of that suit (C12)
        description=T("the suit of the 2 and of 'most' (C12a)"),
    )

    @model_validator(mode="after")
    def _without_needs_55(self) -> Options:
        if self.without != "joker20" and self.deck != 55:
            raise ValueError(
                # i18n: without= is the option's name, typed as it is; {n}: 56 or 54
                T("without= is for the 55-card deck, not for {n} cards (C2)", n=self.deck)
            )
        return self

    @property
    def target_points(self) -> int:
        return self.target if self.target is not None else TARGETS[self.deck]

    @property
    def suit_letter(self) -> str:
        return "C" if self.suit == "clubs" else "S"


class Carrousel(GamePlugin[Options, CarrouselState]):
    """The table plugin: Carrousel's answers to the core's hooks."""

    domain = "carrousel"  # its catalog (plugins/carrousel/words.py)
    bots = {"greedy": "cardcore_plugins.carrousel.bots:GreedyPlayer"}
    # the levels a person picks (cardcore.levels): the search's budgets keep a decision
    # within ~300 ms (hard) and ~1 s (expert) of CPU here (benchmarks/search_bench.py --check);
    # its playouts stop after ten moves and score the piles as they stand (depth=10,
    # cardcore_score_position): cheaper, so more imagined deals a decision (docs/BOTS.md).
    # At two and three players the search's lead over greedy comes within a few hundred
    # iterations and then stays nearly flat (2p: 3,000 over 700: +0.70, over 100: +1.0;
    # 3p: 2,500 over 700: +0.43, over 100: +0.62), so the ladder is set by budget there:
    # hard a small search half-way up (10 iterations), expert the search at the plateau
    # (docs/BOTS.md, "Carrousel at two players set by budget", "... three players ...")
    levels = {
        "hard": {
            2: "ismcts:iterations=10,prior=greedy,rollout=greedy,depth=10",
            3: "ismcts:iterations=10,prior=greedy,rollout=greedy,depth=10",
            4: "ismcts:iterations=700,prior=greedy,rollout=greedy,depth=10",
        },
        "expert": {
            2: "ismcts:iterations=2000,prior=greedy,rollout=greedy,depth=10",
            # 2,200 at three players: 2,500 passed expert's 1 s (p95 1,098 ms over 50
            # positions, pure build, loaded machine), on the plateau either way
            3: "ismcts:iterations=2200,prior=greedy,rollout=greedy,depth=10",
            4: "ismcts:iterations=2500,prior=greedy,rollout=greedy,depth=10",
        },
    }
    # the hint asks expert's search at 1,000 iterations (within 500 ms of CPU, search_bench
    # --check: expert's own 2,000-2,500 took up to 1.1 s, p95 over 50 positions on the pure
    # build): hard at two and three players is kept small for the ladder, ten imagined
    # deals a weak hint
    hint_level = "expert:iterations=1000"
    card_kind = "trail"  # a card typed alone, when no move plays it
    state_class = CarrouselState  # the state hooks are derived from its FIELDS

    def goal(self) -> str:
        n = self.options.target_points
        # i18n: what wins the match: the first side to reach {n} points (the English says
        # "points" whatever the number: the target is never 1 in play)
        return Tn("first to {n} points (C3)", "first to {n} points (C3)", n)

    def deal_events(self, state: CarrouselState, names: list[str]) -> list[str]:
        side = state.last_capture
        if side is None:
            return [T("nobody captured: the cards left on the table count for nobody (C11a)")]
        who = " & ".join(names[s] for s in self.table.sides[side])
        # i18n: {who}: the players of the side ("Ana & Bo")
        return [T("the cards left on the table go to {who}, who captured last (C11)", who=who)]

    _may_trail: Callable[
        [CarrouselState, bool], bool
    ]  # ``carrousel_may_trail``, bound when the table is ready

    def show_item(
        self, item: dict[str, Any], show: Callable[[Any], str], name: Callable[[int], str]
    ) -> str | None:
        """A build (C8): ``[5♣+3♦=8 of Ana]``."""
        if "build" not in item:
            return None
        cards = "+".join(show(c) for c in item["build"])
        # i18n: a build on the table: its cards (5♣+3♦), its value, the player who owns it
        return _("[{cards}={value} of {owner}]").format(
            cards=cards, value=item["value"], owner=name(item["owner"])
        )

    @hookimpl
    def cardcore_table_ready(self, table: Table) -> None:
        """The game's own hook, called directly when one plain implementation answers it."""
        self._may_trail = table.direct("carrousel_may_trail", "state", "forced")

    @hookimpl
    def cardcore_build_deck(self, table: Table) -> list[Card]:
        return deck_spec(self.options.deck, self.options.without).build()  # C2

    @hookimpl
    def cardcore_deal(
        self, table: Table, match: Match, rng: random.Random, record: Callable[..., None]
    ) -> CarrouselState:
        """C4: four cards to each player (one at a time, clockwise from the dealer's
        left), then 8/7/6 cards face up on the table."""
        deck = shuffled(table.deck, rng)
        state = CarrouselState.new(table, match.dealer)
        i = deal_rounds(state.hands, deck, match.dealer, HAND)
        n = TABLE_CARDS[self.options.deck]
        state.board.extend(deck[i : i + n])
        state.stock = deck[i + n :]
        return state

    @hookimpl
    def cardcore_legal_moves(self, state: CarrouselState) -> list[Move]:
        moves, forced, bound = generate(state)
        if bound:
            return moves  # C8: the owner of a build captures it; he cannot trail
        if not forced or not moves or self._may_trail(state, True):
            # C10 (and C9: the broom is never trailed)
            hand = state.hands[state.to_act]
            moves = moves + [_new(Move, ("trail", c, (), ())) for c in hand if c is not BROOM_CARD]
        return moves

    @hookimpl
    def carrousel_may_trail(self, state: CarrouselState, forced: bool) -> bool:
        return not forced  # C10: only when he can neither capture nor build

    @hookimpl
    def cardcore_explain_illegal(self, state: CarrouselState, move: Move) -> str | None:
        """The rule that blocks ``move``, checked against the position: cards by
        name (a person names a card, not a copy)."""
        c = move.card
        if c is None:
            return T("every move plays a card from your hand")
        if not any(h.name == c.name for h in state.hands[state.to_act]):
            return T("you do not hold {card}", card=c)
        own = state.build_of(state.to_act)
        if own is not None and move.kind != "sweep" and not (set(own.cards) <= set(move.takes)):
            # i18n: a build (C8): cards on the table grouped to be captured together by a card of
            # their total {value}; "sweep": play the broom, which takes the whole table (C9)
            return T(
                "you own the build of {value}: this turn you must capture it, or sweep (C8b)", value=own.value
            )
        legal = self.table.legal_moves(state)  # with the house rules
        if move.kind == "trail":
            if c.name == "BROOM":
                # i18n: to trail: to lay a card on the table without capturing anything (C10)
                return T("the broom is never trailed (C9)")
            if any(m.kind != "trail" for m in legal):
                # i18n: to trail: to lay a card on the table without capturing anything
                return T("you may trail only when no card of yours can capture or build (C10)")
            return None
        if not move.takes and not move.extra:  # the card alone: say what it can take, or that it cannot
            bare = self._explain_card(state, legal, move, c)
            if bare is not None:
                return bare
        if move.kind == "capture":
            return _explain_capture(state, move, c)
        if move.kind == "build":
            return T(
                "a build adds one hand card to table items (at most one build) so the total is "
                "the value of another card you keep, and you may own only one build (C8)"
            )
        if move.kind == "sweep":
            return T("the broom takes everything on the table (C9)")
        # i18n: {kind}: a kind of move as typed (capture, build, sweep, trail)
        return T("Carrousel has no move {kind!r}", kind=move.kind)

    def _explain_card(self, state: CarrouselState, legal: list[Move], move: Move, c: Card) -> str | None:
        """A move of ``move.kind`` named by its card alone: the ways it can be
        played, or why it captures nothing."""
        mine = [m for m in legal if m.kind == move.kind and m.card is not None and m.card.name == c.name]
        if mine:
            options = moves_list([self.cardcore_move_text(state, m) or "" for m in mine[:3]])
            if len(mine) > 3:
                # i18n: {options}: up to three moves the card can make ("5D takes 5C; 5D takes 2H 3S"),
                # and there are more (…)
                return T("say which cards: {options} …", options=options)
            # i18n: {options}: the moves the card can make ("5D takes 5C; 5D takes 2H 3S")
            return T("say which cards: {options}", options=options)
        if move.kind == "capture":
            if c.rank > 10:
                # i18n: {card}: a face card (J, Q, K)
                return T("{card} takes a card of its rank from the table, and there is none (C7)", card=c)
            return T(
                "{card} captures nothing here: no table card or group adds up to {value} (C6)",
                card=c,
                value=VALUES[c],
            )
        return None

    @hookimpl
    def cardcore_apply_move(self, state: CarrouselState, move: Move) -> CarrouselState:
        seat = state.to_act
        kind, card, takes, _extra = move
        assert card is not None  # every Carrousel move plays a card
        hands = state.hands
        hands[seat].remove(card)
        if kind == "trail":
            state.board.append(card)
        elif kind == "capture" or kind == "sweep":
            pile = state.piles[self.table.side_of[seat]]
            if takes:
                taken = set(takes)
                state.board = [
                    it for it in state.board if (it.cards[0] if type(it) is Build else it) not in taken
                ]
                pile.extend(takes)
                state.last_capture = self.table.side_of[seat]  # C11 (a sweep of nothing is no capture, C9)
            pile.append(card)
        else:  # build
            onto = set(move.get("onto"))
            kept = []
            joined: list[Card] = []
            for it in state.board:
                cards = item_cards(it)
                if cards[0] in onto:
                    joined.extend(cards)
                else:
                    kept.append(it)
            joined.append(card)
            kept.append(Build(tuple(joined), move.get("value"), seat))
            state.board = kept
        # the turn passes clockwise; new hands when all are empty (C4)
        n = len(hands)
        state.to_act = (seat + 1) % n
        if state.stock and not any(hands):
            deal_more(hands, state.stock, state.dealer, HAND)
            state.to_act = left_of(state.dealer, n)
        return state

    @hookimpl
    def cardcore_is_deal_over(self, state: CarrouselState) -> bool:
        return not state.stock and not any(state.hands)

    @hookimpl
    def cardcore_finish_deal(self, state: CarrouselState) -> None:
        """C11: the cards left on the table go to the side that captured last."""
        if state.last_capture is not None and state.board:
            pile = state.piles[state.last_capture]
            for it in state.board:
                pile.extend(item_cards(it))
            state.board = []

    @hookimpl
    def cardcore_score_deal(self, state: CarrouselState) -> list[SideScore]:
        breakdowns = score_piles(state.piles, self.options.suit_letter)  # C12
        return [
            SideScore(seats, sum(b.values()), b)
            for seats, b in zip(self.table.sides, breakdowns, strict=True)
        ]

    @hookimpl
    def cardcore_score_position(self, state: CarrouselState) -> list[SideScore]:
        """A deal not over, for a search: the piles as they stand; the cards on
        the table are nobody's yet (C11 gives them to the last capturer only
        when the deal ends: mid-deal they are still to be fought for)."""
        return self.cardcore_score_deal(state)

    @hookimpl
    def cardcore_is_match_over(self, match: Match) -> bool:
        """C13: over when a side has reached the target and the highest total is single."""
        scores = match.scores
        best = max(scores)
        return best >= self.options.target_points and scores.count(best) == 1

    @hookimpl
    def cardcore_next_dealer(self, match: Match, state: CarrouselState) -> int:
        """C13: the side with the fewest points in the deal deals next; among tied
        sides the first clockwise from the last dealer; within a partnership the
        partner who did not deal last."""
        table = self.table
        n = table.players
        points = match.deals[-1].points
        low = min(points)
        last = match.dealer
        first = next(s for s in clockwise_from(left_of(last, n), n) if points[table.side_of[s]] == low)
        seats = table.sides[table.side_of[first]]
        if len(seats) == 1:
            return first
        history = [d.dealer for d in match.deals]

        def last_dealt(seat: int) -> int:
            return max((i for i, d in enumerate(history) if d == seat), default=-1)

        return min(clockwise_from(first, n), key=lambda s: (s not in seats, last_dealt(s)))

    # the labels of the view's items (``obs.public`` keys, "_" said as " "), for the terminal
    VIEW_ITEMS = (
        # i18n: the cards lying face up on the table (and the builds)
        NP_("view item", "table"),
        # i18n: how many cards each side has captured so far
        NP_("view item", "captured"),
        # i18n: the side that made the last capture (it takes what is left on the table, C11)
        NP_("view item", "last capture"),
    )

    @hookimpl
    def cardcore_rl_encoding(self, table: Table) -> Encoding:
        """Its arrays for learning agents (``cardcore.rl``): ``encoding.py``."""
        from cardcore_plugins.carrousel.encoding import CarrouselEncoding

        return CarrouselEncoding(table)

    @hookimpl
    def cardcore_observe(self, state: CarrouselState, seat: int | None) -> Observation:
        """The table (loose cards, and builds as ``{"build", "value", "owner"}``),
        how many cards each side has captured, and the side that captured last
        (``{"seats"}``, or None)."""
        table = [
            {"build": list(it.cards), "value": it.value, "owner": it.owner} if type(it) is Build else it
            for it in state.board
        ]
        sides = self.table.sides
        piles = [{"seats": list(s), "size": len(p)} for s, p in zip(sides, state.piles, strict=True)]
        last = state.last_capture
        public = {
            "table": table,
            "captured": piles,
            "last_capture": None if last is None else {"seats": list(sides[last])},
        }
        return Observation.of(state, seat, public)

    @hookimpl
    def cardcore_move_text(self, state: CarrouselState | None, move: Move) -> str | None:
        if move.card is None:
            return None
        c = move.card
        if move.kind == "capture":
            # i18n: a capture: {card} (played from the hand) takes {cards} from the table
            return T("{card} takes {cards}", card=c, cards=list(move.takes))
        if move.kind == "build":
            # i18n: a build (C8): {card} is laid on the table cards {onto}, grouped to be
            # captured together later by a card of value {value}
            return T(
                "{card} builds {value} on {onto}",
                card=c,
                value=move.get("value"),
                onto=list(move.get("onto")),
            )
        if move.kind == "sweep":
            if move.takes:
                # i18n: the broom ({card}) takes everything on the table: {cards} (C9)
                return T("{card} sweeps {cards}", card=c, cards=list(move.takes))
            # i18n: the broom ({card}) played on a table with no card (C9)
            return T("{card} sweeps the empty table", card=c)
        if move.kind == "trail":
            # i18n: to trail: to lay {card} on the table without capturing anything (C10)
            return T("{card} trails", card=c)
        return None

    @hookimpl
    def cardcore_sample_state(self, state: CarrouselState, seat: int, rng: random.Random) -> CarrouselState:
        """The other hands and the stock redealt (``redeal_unseen``), keeping
        only deals that agree with the builds on the table: C8, the owner of a
        build kept a card of its value when he made it, and has not played
        since. Each consistent deal is as likely as in a plain redeal (the
        unseen cards are dealt again, up to ``SAMPLE_TRIES`` times; then one
        card of its value is put in each owner's hand that lacks one)."""
        owed = [(b.owner, b.value) for b in state.board if type(b) is Build and b.owner != seat]
        sample: CarrouselState = redeal_unseen(state, seat, rng)
        if not owed:
            return sample
        for _try in range(SAMPLE_TRIES):
            if all(any(VALUES[c] == v for c in sample.hands[o]) for o, v in owed):
                return sample
            sample = redeal_unseen(state, seat, rng)
        owes = dict(owed)
        for o, v in owed:  # unlikely deals: make them agree
            hand = sample.hands[o]
            if any(VALUES[c] == v for c in hand):
                continue
            # from the stock first, then the hands of seats that owe nothing
            hands = sorted((i for i in range(len(sample.hands)) if i not in (seat, o)), key=owes.__contains__)
            givers: list[int | None] = [None, *hands]
            for giver in givers:
                place = sample.stock if giver is None else sample.hands[giver]
                fit = [i for i, c in enumerate(place) if VALUES[c] == v]
                if giver in owes and owes[giver] == v and len(fit) < 2:
                    continue  # he needs his card of that value
                if fit:
                    i = rng.choice(fit)
                    j = rng.randrange(len(hand))
                    hand[j], place[i] = place[i], hand[j]
                    break
        return sample


def _explain_capture(state: CarrouselState, move: Move, c: Card) -> str:
    """Why the cards ``move`` takes cannot be taken with ``c`` (C6, C6b, C7)."""
    taken = set(move.takes)
    for it in state.board:
        if (
            type(it) is Build
            and taken & set(it.cards)
            and (VALUES[c] != it.value or not set(it.cards) <= taken)
        ):
            return T(
                "the build of {value} is taken whole, only by a card of its value, "
                "as a group by itself (C6b)",
                value=it.value,
            )
    if c.rank > 10:
        return T("a face card takes one card of its rank, or all three when three lie there (C7)")
    return T("the cards taken must split into groups each adding up to the card's value (C6)")


def moves_list(texts: list[str]) -> str:
    """Moves said one after the other (``5D takes 5C; 5D takes 2H 3S``)."""
    out = texts[0]
    for t in texts[1:]:
        # i18n: moves one after the other, separated as a list ("5D takes 5C; 5D takes 2H 3S")
        out = T("{moves}; {move}", moves=out, move=t)
    return out


def _partnerships(players: int, options: Options) -> bool:
    return options.partnerships if options.partnerships is not None else players == 4


def _sides(players: int, options: Options) -> tuple[tuple[int, ...], ...]:
    return make_sides(players, _partnerships(players, options))  # C1


def _check(players: int, options: Options) -> str | None:
    if options.partnerships and players != 4:
        # i18n: carrousel is the game's id, typed as it is
        return T("carrousel: partnerships need 4 players (C1)")
    return None


VALUE_OF = VALUES  # re-exported for bots and tests

SPEC = GameSpec(
    name=NAME,
    # i18n: the game's name as the players say it (Karuzelė, Carrousel, Karuzela)
    title=T("Carrousel (Karuzelė)"),
    min_players=2,
    max_players=4,
    default_players=4,
    options_model=Options,
    plugin=Carrousel,
    sides=_sides,
    summary=T("Capture by sums, build, take face cards in pairs, sweep with the broom; 120 wins."),
    rules_page=rules_page(__package__),
    check_table=_check,
    hookspecs=(CarrouselSpec,),
    aliases=("karuzele", "karuzelė", "karuzela"),
    test_configs=tuple(
        (players, options, rules)
        for players, options in (
            *(
                (p, d)
                for p in (2, 3, 4)
                for d in ({}, {"deck": 55}, {"deck": 55, "without": "broom"}, {"deck": 54})
            ),
            (4, {"partnerships": False}),
            (2, {"suit": "spades"}),
            (3, {"target": 30}),
        )
        for rules in (
            (),
            ("carrousel.free_trail",),
            ("carrousel.strict_pairs",),
            ("carrousel.specials_back",),
            ("carrousel.free_trail", "carrousel.strict_pairs", "carrousel.specials_back"),
        )
    ),
    features=features,
)


# The kinds of move as the terminal's menu groups them and a person may type them
# (``pgettext("move kind", …)``, English always read too).
MOVE_KINDS = (
    # i18n: a kind of move: take table cards adding up to the card played (C6)
    NP_("move kind", "capture"),
    # i18n: a kind of move: make a build on the table (C8)
    NP_("move kind", "build"),
    # i18n: a kind of move: sweep the table with the broom
    NP_("move kind", "sweep"),
    # i18n: a kind of move: lay a card on the table, taking nothing (C10)
    NP_("move kind", "trail"),
)
Carrousel.move_kinds = tuple(k.replace(" ", "_") for k in MOVE_KINDS)  # ``why`` may ask of any
