"""Canasta's rules (rulings N1–N18 and later ones, listed in docs/canasta.md) as a table plugin."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from cardcore.cards import Card
from cardcore.deck import deal_rounds, shuffled
from cardcore.game import GamePlugin, GameSpec, Observation, SideScore, redeal_unseen, rules_page
from cardcore.hookspecs import hookimpl
from cardcore.i18n import NP_, Text, gettext
from cardcore.match import Match
from cardcore.moves import Move
from cardcore.seats import left_of, make_sides
from cardcore.table import Table
from cardcore_plugins.canasta import movegen, moves, rules
from cardcore_plugins.canasta.cards import DECK, RANK_NAMES, RED_THREES, VALUES, WILD, is_red_three
from cardcore_plugins.canasta.checks import DealEnds
from cardcore_plugins.canasta.features import features
from cardcore_plugins.canasta.hookspecs import CanastaSpec
from cardcore_plugins.canasta.melds import canasta_kind
from cardcore_plugins.canasta.scoring import team_breakdown
from cardcore_plugins.canasta.state import (
    ANSWER,
    DRAW,
    HAND_ORDER,
    PILE,
    CanastaState,
    new_state,
)
from cardcore_plugins.canasta.words import DOMAIN, T, Tn, _

if TYPE_CHECKING:
    from cardcore.rl.encoding import Encoding

NAME = "canasta"
HAND_SIZE = {4: 11, 3: 13, 2: 15}  # N4


class Options(BaseModel):
    """Canasta's table options."""

    model_config = ConfigDict(extra="forbid")
    target: int | None = Field(
        default=None,
        gt=0,
        # i18n: the option "target": the points that win the match
        description=T("match target; default 5000, 7500 with 3 players (N1)"),
    )


class Canasta(GamePlugin[Options, CanastaState]):
    """The table plugin: Canasta's answers to the core's hooks."""

    domain = DOMAIN
    bots = {"greedy": "cardcore_plugins.canasta.bots:GreedyPlayer"}
    # the levels a person picks (cardcore.levels): the search's budgets keep a decision
    # within ~300 ms (hard) and ~1 s (expert) of CPU here (benchmarks/search_bench.py --check)
    levels = {
        # every decision searched, melds too: at two players this beat greedy clearly where
        # the macro tree (melds left to greedy: macro=true) was not separated from it
        # (docs/BOTS.md). On the pure Python build a deep position's long greedy rollouts
        # passed the time (p95 306 ms hard at two players, 1,099 ms expert at three):
        # ``plies`` stops such a search once its rollouts have played that many moves
        # (about 0.05 ms of CPU a move, pure), a count of work, so the moves stay the
        # same on every machine: p95 over 50 positions, pure, on a loaded machine, hard
        # 244 / 237 / 184 ms and expert 745 / 711 / 690 ms at 2 / 3 / 4 players
        # (benchmarks/search_bench.py canasta --check); hard at two players on the
        # learned evaluation (below): 158 ms, 196 ms on positions of its own games (--play hard).
        # At two and four players the search leaves greedy's move only when it is a standard
        # error better (confidence=1): at four, without it the search was not separated from
        # greedy, with it clearly ahead; at two it beat the same search without it (+125
        # points a deal over 200 boards), and expert over hard stayed separated (docs/BOTS.md)
        # At two players hard cuts its playouts 20 moves on and scores them with the learned
        # evaluation (value=learned, cardcore/value.py; the model ships in inference/): twice
        # the iterations of playouts to the deal's end at the same CPU, and ahead of them
        # (docs/BOTS.md, docs/INFERENCE.md)
        "hard": {
            2: "ismcts:iterations=150,plies=5400,prior=greedy,rollout=greedy,confidence=1,"
            "depth=20,value=learned",
            3: "ismcts:iterations=80,plies=5400,prior=greedy,rollout=greedy",
            4: "ismcts:iterations=100,plies=5400,prior=greedy,rollout=greedy,confidence=1",
        },
        # expert at two players too: the same search at 440 iterations, the CPU of the 250
        # played out it replaces (1.04 times its mean), ahead of it by +167 a deal over 180
        # fresh deals (seeds 5907, 5908) and of hard by +243 over 100 (seed 5909; docs/BOTS.md)
        "expert": {
            2: "ismcts:iterations=440,plies=18000,prior=greedy,rollout=greedy,confidence=1,"
            "depth=20,value=learned",
            3: "ismcts:iterations=300,plies=18000,prior=greedy,rollout=greedy",
            4: "ismcts:iterations=300,plies=18000,prior=greedy,rollout=greedy,confidence=1",
        },
    }
    # ismcts:macro=true melds what greedy would meld and searches the pile and discard decisions
    search_follows = frozenset({"meld", "add", "commit"})
    state_class = CanastaState  # the state hooks are derived from its FIELDS
    suits_matter = False  # but for threes, which never meld by suit alone
    card_kind = "discard"  # a card named alone, when no move plays it: why it cannot be discarded

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.target = self.options.target or (7500 if table.players == 3 else 5000)
        self._partners_on_pile: bool | None = None  # canasta_partnership_on_pile, once asked (N17)

    def goal(self) -> str:
        # i18n: what wins the match; {target}: a number of points
        return T("first to {target} points (N1)", target=self.target)

    def events(self, before: Observation, after: Observation, names: list[str]) -> list[str]:
        out = super().events(before, after, names)
        old = {tuple(s["seats"]): len(s["red_threes"]) for s in before.public["sides"]}
        for side in after.public["sides"]:
            seats = tuple(side["seats"])
            if seats in old and len(side["red_threes"]) > old[seats]:
                out.append(red_threes_laid([names[s] for s in seats], side["red_threes"][old[seats] :]))
        if [s["seats"] for s in before.public["sides"]] != [s["seats"] for s in after.public["sides"]]:
            teams = ["/".join(names[s] for s in side["seats"]) for side in after.public["sides"]]
            if len(teams) == 2:  # N17: the taker and his new partner against the third player
                # i18n: N17 (3 players): the first to take the pile makes a partnership;
                # {side}, {other}: the two sides' players' names (joined by /)
                out.append(
                    T(
                        "the pile is taken: {side} against {other} from now on (N17)",
                        side=teams[0],
                        other=teams[1],
                    )
                )
            else:  # (never: a 3-player deal has two sides once the pile is taken)
                # i18n: N17: {sides}: the sides, each its players' names
                out.append(T("the pile is taken: {sides} from now on (N17)", sides=teams))
        return out

    def deal_events(self, state: CanastaState, names: list[str]) -> list[str]:
        s = state
        if s.went_out is not None:
            name = names[s.went_out]
            # "going out": melding every card but one discard (or all), ending the deal; "concealed":
            # in one turn, without having melded before (a bonus of 200 instead of 100)
            if s.last_red_three:
                if s.went_out_concealed:
                    # i18n: {name}: a player's name; the bonus for going out concealed is not scored
                    return [
                        T("{name} went out concealed (no bonus after the last red three, N13a)", name=name)
                    ]
                # i18n: {name}: a player's name; the bonus for going out is not scored
                return [T("{name} went out (no bonus after the last red three, N13a)", name=name)]
            if s.went_out_concealed:
                # i18n: {name}: a player's name; "concealed": all his melds laid in this one turn
                return [T("{name} went out concealed", name=name)]
            # i18n: {name}: a player's name; going out ends the deal
            return [T("{name} went out", name=name)]
        if s.last_red_three:
            # i18n: how a deal ended (N13a)
            return [T("the stock ended with a red three: the deal is over (N13a)")]
        # i18n: how a deal ended (N13); "the pile": the discard pile
        return [T("the stock is out and the pile cannot be taken: the deal is over (N13)")]

    def show_item(
        self, item: dict[str, Any], show: Callable[[Any], str], name: Callable[[int], str]
    ) -> str | None:
        """A meld: its cards, and ``canasta (natural)`` once it is one."""
        if "rank" not in item or "cards" not in item:
            return None
        tag = ""
        if item.get("canasta") == "natural":
            # i18n: a meld of seven or more cards without a wild card (N8), shown after its cards
            tag = " " + _("canasta (natural)")
        elif item.get("canasta"):
            # i18n: a meld of seven or more cards with wild cards (N8), shown after its cards
            tag = " " + _("canasta (mixed)")
        return show(item["cards"]) + tag

    def hand_order(self, card: Card) -> Any:
        """Suits do not matter (but for threes): a hand shown by rank, wild cards last."""
        return (WILD[card], 14 if card.rank == 1 else card.rank, card.sort_key)

    # ---- setup -------------------------------------------------------------
    @hookimpl
    def cardcore_build_deck(self, table: Table) -> list[Card]:
        return DECK.build()  # N2: 108 cards, each copy distinct

    @hookimpl
    def cardcore_deal(
        self, table: Table, match: Match, rng: random.Random, record: Callable[..., None]
    ) -> CanastaState:
        """N4: 11/13/15 cards each, one at a time clockwise from the dealer's left;
        then the upcard."""
        deck = shuffled(table.deck, rng)
        n = table.players
        state = new_state(table, match.dealer, list(match.scores))
        i = deal_rounds(state.hands, deck, match.dealer, HAND_SIZE[n])
        for hand in state.hands:
            hand.sort(key=HAND_ORDER)
        state.stock = deck[i:]
        table.hook.canasta_start_pile(state=state)
        rules.begin_turn(state, left_of(match.dealer, n))
        return state

    @hookimpl
    def canasta_start_pile(self, state: CanastaState) -> bool:
        """N4: a wild card or red three turned up is covered by the next card,
        until the top is neither; a pile started so is frozen."""
        while state.stock:
            c = state.stock.pop(0)
            state.discard.append(c)
            if WILD[c] or is_red_three(c):
                state.frozen_start = True
                continue
            break
        return True

    # ---- small decisions (house rules override these) -------------------------
    @hookimpl
    def canasta_may_go_out(self, state: CanastaState, seat: int) -> bool:
        return state.asked != "no"  # N12: the partner's answer binds

    @hookimpl
    def canasta_initial_minimum(self, state: CanastaState, seat: int, score: int) -> int:
        return rules.minimum_for(score)  # N10

    @hookimpl
    def canasta_partnership_on_pile(self, state: CanastaState) -> bool:
        return True  # N17

    def _score_for_minimum(self, state: CanastaState, seat: int) -> int:
        # N10 per side; N17: with 3 players each player's own score
        return state.scores[self.table.side_of[seat]]

    # ---- one deal -------------------------------------------------------------
    @hookimpl
    def cardcore_legal_moves(self, state: CanastaState) -> list[Move]:
        seat = state.to_act
        if state.phase == "answer":
            return rules.legal_moves(state, True, 0)
        may_go_out, initial_minimum = self._may_go_out, self._minimum
        may_out = may_go_out(state, seat)
        minimum = 0
        if not state.melds[state.team_at[seat]]:
            minimum = initial_minimum(state, seat, self._score_for_minimum(state, seat))
        return rules.legal_moves(state, may_out, minimum)

    @hookimpl
    def cardcore_table_ready(self, table: Table) -> None:
        """The game's own hooks asked at every decision, called directly when
        one plain implementation answers them (``Table.direct``)."""
        self._may_go_out: Callable[[CanastaState, int], bool] = table.direct(
            "canasta_may_go_out", "state", "seat"
        )
        self._minimum: Callable[[CanastaState, int, int], int] = table.direct(
            "canasta_initial_minimum", "state", "seat", "score"
        )

    def initial_minimum(self, state: CanastaState, seat: int) -> int:
        """``canasta_initial_minimum`` for ``seat``'s side (N10), called directly."""
        return self._minimum(state, seat, self._score_for_minimum(state, seat))

    @hookimpl
    def cardcore_explain_illegal(self, state: CanastaState, move: Move) -> str | None:
        seat = state.to_act
        legal = self.cardcore_legal_moves(state)
        may_out = self._may_go_out(state, seat) if state.phase != ANSWER else True
        minimum = 0 if state.melds[state.team_at[seat]] else self.initial_minimum(state, seat)
        return rules.explain(state, move, legal, may_out, minimum)

    @hookimpl
    def cardcore_named_move(self, state: CanastaState, move: Move, legal: Sequence[Move]) -> Move | None:
        """N8a: a listed move laid with the cards the person named."""
        return movegen.named_move(state, move, legal)

    @hookimpl
    def cardcore_apply_move(self, state: CanastaState, move: Move) -> CanastaState:
        partnership = False
        if self.table.players == 3 and move.kind in ("take_pile", "commit"):
            partnership = self.table.hook.canasta_partnership_on_pile(state=state)
        rules.apply(state, move, partnership)
        return state

    @hookimpl
    def cardcore_is_deal_over(self, state: CanastaState) -> bool:
        if rules.deal_over(state):
            return True
        # N13, N13b: the stock is out and the player to play cannot take the
        # pile (or could not finish his turn after taking it, G1)
        return (
            state.phase == DRAW
            and not state.stock
            and not state.last_red_three
            and not self.table.legal_moves(state)
        )

    @hookimpl
    def cardcore_finish_deal(self, state: CanastaState) -> None:
        # N7a: red threes dealt to a seat whose turn never came count as laid
        for seat, hand in enumerate(state.hands):
            if not RED_THREES.isdisjoint(hand):  # (a search counts positions so: the quick test first)
                state.red_threes[state.team_at[seat]].extend(c for c in hand if is_red_three(c))
                hand[:] = [c for c in hand if not is_red_three(c)]
        # a staged initial meld that was never committed goes back to the hand
        if state.staged:
            hand = state.hands[state.to_act]
            staged = list(state.staged.values())
            if state.phase == PILE:
                state.discard = [*state.pile_held, staged[0][0]]
                staged[0] = staged[0][1:]
                state.pile_held = []
            for cards in staged:
                hand.extend(cards)
            state.staged = {}
        # N17: a player who went out before anyone took the pile scores alone
        if (
            self.table.players == 3
            and state.pile_taker is None
            and state.went_out is not None
            and self.table.hook.canasta_partnership_on_pile(state=state)
        ):
            rules.form_partnership(state, state.went_out)

    @hookimpl
    def cardcore_score_deal(self, state: CanastaState) -> list[SideScore]:
        """N14 per deal side; each match side scores its deal side's total (N17)."""
        per_team = [team_breakdown(state, t) for t in range(len(state.teams))]
        out = []
        for seats in self.table.sides:
            t = state.team_at[seats[0]]
            b = per_team[t]
            out.append(SideScore(state.teams[t], sum(b.values()), b))
        return out

    @hookimpl
    def cardcore_is_match_over(self, match: Match) -> bool:
        """N15: a side reached the target and the highest total is single."""
        best = max(match.scores)
        return best >= self.target and match.scores.count(best) == 1

    # ---- views -------------------------------------------------------------------
    @hookimpl
    def cardcore_rl_encoding(self, table: Table) -> Encoding:
        """Its arrays for learning agents (``cardcore.rl``): ``encoding.py``."""
        from cardcore_plugins.canasta.encoding import CanastaEncoding

        return CanastaEncoding(table)

    @hookimpl
    def cardcore_observe(self, state: CanastaState, seat: int | None) -> Observation:
        """The phase; the discard pile's top, size and whether it is frozen (for
        the seat's side; for everyone when seen by a spectator); the deal's
        sides (they change with 3 players, N17) with their melds (``{"rank",
        "cards", "canasta"}``: None, "natural" or "mixed"), red threes, the
        points of their melded cards and whether the pile is frozen for them; the
        match scores; the staged initial meld and its points; the seat's side's
        initial minimum while it has not melded; "May I go out?" asked; with 3
        players, ``alone_if_taken`` while whoever takes the pile would play
        alone against the two others (N17)."""
        pile = state.discard
        if seat is not None:
            frozen = rules.frozen_for(state, state.team_at[seat])
        else:
            frozen = state.frozen_start or any(WILD[c] for c in pile)
        public: dict[str, Any] = {
            "phase": state.phase,
            "pile": {"top": pile[-1] if pile else None, "size": len(pile), "frozen": frozen},
            "sides": [
                {
                    "seats": list(team),
                    "melds": [_meld_view(r, m) for r, m in sorted(melds.items())],
                    "red_threes": list(reds),
                    "meld_points": rules.meld_points(melds),  # the cards' points on the table so far
                    "frozen": rules.frozen_for(state, i),  # the pile, for this side (N9)
                }
                for i, (team, melds, reds) in enumerate(
                    zip(state.teams, state.melds, state.red_threes, strict=True)
                )
            ],
            "scores": [
                {"seats": list(side), "points": points}
                for side, points in zip(self.table.sides, state.scores, strict=True)
            ],
        }
        if state.staged:
            public["staged"] = [_meld_view(r, m) for r, m in state.staged.items()]
            public["staged_points"] = rules.meld_points(state.staged)
        if seat is not None and not state.melds[state.team_at[seat]]:
            public["initial_minimum"] = self.initial_minimum(state, seat)
        if state.asked:
            public["asked"] = state.asked
        if self.alone_if_taken(state):
            public["alone_if_taken"] = True
        return Observation.of(state, seat, public)

    def alone_if_taken(self, state: CanastaState) -> bool:
        """N17: whether whoever takes the pile now would play alone against the
        two others (3 players, nobody has taken it yet, and no house rule keeps
        everyone alone). The view says it; the greedy bot reads it in its rollouts, so
        the hook's answer (the table's rules: it does not change within a table) is
        asked once."""
        if len(state.teams) != 3:
            return False
        if self._partners_on_pile is None:
            self._partners_on_pile = bool(self.table.hook.canasta_partnership_on_pile(state=state))
        return self._partners_on_pile

    @hookimpl
    def cardcore_move_text(self, state: CanastaState | None, move: Move) -> str | None:
        return moves.move_text(move)

    @hookimpl
    def cardcore_sample_state(self, state: CanastaState, seat: int, rng: random.Random) -> CanastaState:
        """The cards ``seat`` cannot see redealt among the other hands and the
        stock, keeping their sizes; the cards an opponent is known to hold
        (taken with the pile, or seen and taken back) stay in his hand.

        While a partner answers "May I go out?", the asker is known to be able
        to go out (N12: he may ask only then): a redeal where he could not is
        dealt again (up to ``SAMPLE_TRIES`` times), so that the imagined deals
        are the consistent ones, each as likely as in a plain redeal."""
        sample = _redeal(state, seat, rng)
        if state.phase == ANSWER and state.turn != seat:
            yes = moves.answer(True)
            for _ in range(SAMPLE_TRIES):
                after = sample.clone()
                self.table.fast_apply_move(after, yes)
                if self.table.fast_legal_moves(after):
                    break  # after a yes he must go out, and he can
                sample = _redeal(state, seat, rng)
        return sample


#: redeals tried for a sample that agrees with what the seat knows
SAMPLE_TRIES = 200


def _redeal(state: CanastaState, seat: int, rng: random.Random) -> CanastaState:
    """A copy of ``state`` with the cards ``seat`` cannot see dealt anew, the
    cards known to be in a hand kept there (``cardcore_sample_state``)."""
    sample: CanastaState = redeal_unseen(state, seat, rng, state.known)
    for i, hand in enumerate(sample.hands):
        if i != seat:
            hand.sort(key=HAND_ORDER)
    return sample


def red_threes_laid(who: list[str], new: list[Card]) -> Text:
    """The event of red threes laid (N7) by a side's players ``who``."""
    n = len(new)
    if who in (["You"], [gettext("You")]):  # the person at the terminal ("You lay", not "You lays")
        # i18n: an event (N7): red threes are laid face up for the side; {cards}: the threes laid
        return Tn("You lay the red three {cards} (N7)", "You lay the red threes {cards} (N7)", n, cards=new)
    if len(who) == 1:
        # i18n: an event (N7): {player}: a player's name; {cards}: the red threes laid
        return Tn(
            "{player} lays the red three {cards} (N7)",
            "{player} lays the red threes {cards} (N7)",
            n,
            player=who[0],
            cards=new,
        )
    # i18n: an event (N7): {players}: the side's players' names (joined by /); {cards}: the red threes
    return Tn(
        "{players} lay the red three {cards} (N7)",
        "{players} lay the red threes {cards} (N7)",
        n,
        players="/".join(who),
        cards=new,
    )


# The labels of the view's items (``cardcore_observe``: its keys, ``_`` said as a space) and
# the words among their values, as the terminal shows them (``pgettext("view item", …)``).
VIEW_ITEMS = (
    # i18n: a label of the table's view: the turn's phase (its values: draw, pile, play, answer)
    NP_("view item", "phase"),
    # i18n: a label of the table's view: the discard pile
    NP_("view item", "pile"),
    # i18n: a label of the table's view: the sides (their melds, red threes …)
    NP_("view item", "sides"),
    # i18n: a label of the table's view: the match's scores
    NP_("view item", "scores"),
    # i18n: a label of the table's view: the melds of the initial meld, staged (not laid down yet, N10)
    NP_("view item", "staged"),
    # i18n: a label of the table's view: the points of the staged initial meld (N10)
    NP_("view item", "staged points"),
    # i18n: a label of the table's view: the points a side's first melds must reach (N10)
    NP_("view item", "initial minimum"),
    # i18n: a label of the table's view: "may I go out?" asked (its values: pending, yes, no)
    NP_("view item", "asked"),
    # i18n: a label of the table's view (3 players, N17): whoever takes the discard pile now plays
    # alone against the two others, who become partners (its value: yes)
    NP_("view item", "alone if taken"),
    # i18n: a label of a side's items: its melds
    NP_("view item", "melds"),
    # i18n: a label of a side's items: its red threes laid (N7)
    NP_("view item", "red threes"),
    # i18n: a label of a side's items: the points of its melded cards
    NP_("view item", "meld points"),
    # i18n: a label of a side's items: whether the discard pile is frozen for it (N9)
    NP_("view item", "frozen"),
    # i18n: a label of a side's score in the match
    NP_("view item", "points"),
    # i18n: the phase (a value of the view's "phase"): the player draws or takes the pile (N5)
    NP_("view item", "draw"),
    # i18n: the phase: the pile's top card is staged, the initial meld being made with it (N10)
    NP_("view item", "pile"),
    # i18n: the phase: the player melds, adds and discards (N5)
    NP_("view item", "play"),
    # i18n: the phase: the partner answers "may I go out?" (N12)
    NP_("view item", "answer"),
    # i18n: "may I go out?" asked, the partner's answer not given yet (N12)
    NP_("view item", "pending"),
    # i18n: the partner's answer to "may I go out?"
    NP_("view item", "yes"),
    # i18n: the partner's answer to "may I go out?"
    NP_("view item", "no"),
)


# The kinds of move as the terminal's menu groups them and a person may type
# them (``meld 9 9 9``; ``pgettext("move kind", …)``, English always read too).
MOVE_KINDS = (
    # i18n: a kind of move (a group of the menu; typed: "meld 9 9 9"): draw from the stock (N5)
    NP_("move kind", "draw"),
    # i18n: a kind of move: take the discard pile (N9)
    NP_("move kind", "take pile"),
    # i18n: a kind of move: lay a new meld (N8)
    NP_("move kind", "meld"),
    # i18n: a kind of move: add cards to a meld of one's side
    NP_("move kind", "add"),
    # i18n: a kind of move: lay down the staged initial meld (N10)
    NP_("move kind", "commit"),
    # i18n: a kind of move: take back the staged initial meld (N10)
    NP_("move kind", "withdraw"),
    # i18n: a kind of move: ask the partner "may I go out?" (N12)
    NP_("move kind", "ask go out"),
    # i18n: a kind of move: answer the partner's "may I go out?" (N12)
    NP_("move kind", "answer"),
    # i18n: a kind of move: discard a card, ending the turn (N5)
    NP_("move kind", "discard"),
    # i18n: a kind of move: stop (end the turn without discarding, where allowed)
    NP_("move kind", "stop"),
)
Canasta.move_kinds = tuple(k.replace(" ", "_") for k in MOVE_KINDS)  # ``why`` may ask of any


def _meld_view(rank: int, cards: list[Card]) -> dict[str, Any]:
    """A meld as data: its rank, its cards, and whether it is a canasta (N8)."""
    return {"rank": RANK_NAMES[rank], "cards": cards[:], "canasta": canasta_kind(cards)}


def _sides(players: int, options: Options) -> tuple[tuple[int, ...], ...]:
    return make_sides(players, players == 4)  # N1: partners opposite with 4


VALUE_OF = VALUES

SPEC = GameSpec(
    name=NAME,
    # i18n: the game's name, as its players say it
    title=T("Canasta"),
    min_players=2,
    max_players=4,
    default_players=4,
    options_model=Options,
    plugin=Canasta,
    sides=_sides,
    # i18n: the game in a line (N8: a canasta, a meld of seven cards; "go out": end the deal
    # by melding every card)
    summary=T("Meld ranks, make canastas of seven, lay red threes, go out; 5000 wins."),
    rules_page=rules_page(__package__),
    hookspecs=(CanastaSpec,),
    take_backs=("withdraw",),
    test_configs=(
        (2, {}, ()),
        (2, {}, ("canasta.hoyle_upcard",)),
        (3, {}, ()),
        (3, {}, ("canasta.every_man_for_himself",)),
        (3, {}, ("canasta.hoyle_upcard",)),
        (4, {}, ()),
        (4, {}, ("canasta.hoyle_upcard",)),
        (4, {}, ("canasta.permission_required",)),
        (4, {}, ("canasta.hoyle_upcard", "canasta.permission_required")),
        (4, {"target": 1500}, ()),
    ),
    features=features,
    checks=DealEnds,
)
