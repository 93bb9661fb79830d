"""Canasta's rules with their reasons: one check per move kind
(``verify_draw``, ``verify_take``, ``verify_meld``, ``verify_add``,
``verify_discard``, ``verify_commit``, ``verify_withdraw``, ``verify_ask``,
``verify_answer``, ``verify_stop``), each returning why the move is not legal
now — naming the ruling — or None when it is; :func:`verify` picks the
kind's. ``explain.py`` gives their reason, the tests ask them as the
reference for what the move generator lists.

A check reads a move as a person names it: its cards by name, found in the
hand (two decks: the hand may hold the other copy, N2), suits never mattering
but for threes (N8a); ``meld X``, ``add X`` and ``discard X`` name one card.
It checks the phase (N5), the shape of a meld (N8), the side's melds, the pile
(N9), then what the player could still do after the move (G1) by the very
functions the generator asks on its slow path (``movegen.take_finishes``,
``lay_finishes``, ``commit_finishes``, ``ask_finishes``,
``may_discard_last``); only when that answer is no does it ask the turn's
solver (``finish.can_finish``) again with one condition relaxed at a time, to
name what blocks: keeping a card to discard, going out (the canastas, N11;
the partner's answer, N12), the initial minimum (N10a). The generator's
compiled enumeration stays the fast path; ``tests/test_canasta_verify.py``
holds every check None exactly for the moves it lists (or, N8a, for a listed
move laid with cards of the same classes)."""

from __future__ import annotations

from collections.abc import Callable

from cardcore.cards import Card
from cardcore.i18n import Text
from cardcore.moves import Move
from cardcore_plugins.canasta import moves
from cardcore_plugins.canasta.cards import RANK_NAMES, WILD, is_red_three
from cardcore_plugins.canasta.finish import Turn, can_finish, shape, tally
from cardcore_plugins.canasta.melds import (
    canastas_needed,
    count_canastas,
    frozen_for,
    meld_points,
    rank_of,
)
from cardcore_plugins.canasta.movegen import (
    ask_finishes,
    commit_finishes,
    exhausted_takes,
    lay_finishes,
    may_discard_last,
    must_go_out,
    take_finishes,
    take_options,
    turn_for,
)
from cardcore_plugins.canasta.state import ANSWER, DRAW, PILE, CanastaState, wild_count
from cardcore_plugins.canasta.words import T, Tn
from cardcore_plugins.canasta.words import rank as rank_text

# the moves that name no card (a card typed with one: why not); taking the pile says its own
NO_CARD = {
    # i18n: a card named with a move that takes none (N5); "choose it": the move
    "draw": T("a draw names no card: choose it without one (N5)"),
    "take_pile": None,
    # i18n: a card named with a move that takes none (N5); "the initial meld": the side's first melds (N10)
    "commit": T("laying down the initial meld names no card: choose it without one (N5)"),
    # i18n: a card named with a move that takes none (N5)
    "withdraw": T("taking back the initial meld names no card: choose it without one (N5)"),
    # i18n: a card named with a move that takes none (N5); "May I go out?": the question to the partner (N12)
    "ask_go_out": T('"May I go out?" names no card: choose it without one (N5)'),
    # i18n: a card named with a move that takes none (N5)
    "answer": T("an answer names no card: choose it without one (N5)"),
    # i18n: a card named with a move that takes none (N5); "stop": the move that ends the deal (N13a)
    "stop": T("stop names no card: choose it without one (N5)"),
}
# The ranks in the plural, as the reasons say them ("a meld of kings").
RANK_PLURAL: dict[int, Text] = {
    # i18n: a rank in the plural, in "your side has a meld of {ranks} already", "no meld of {ranks}"
    1: T("aces"),
    # i18n: a rank in the plural (the kings), as in "a meld of {ranks}"
    13: T("kings"),
    # i18n: a rank in the plural (the queens), as in "a meld of {ranks}"
    12: T("queens"),
    # i18n: a rank in the plural (the jacks), as in "a meld of {ranks}"
    11: T("jacks"),
    # i18n: a rank in the plural (the tens), as in "a meld of {ranks}"
    10: T("10s"),
    # i18n: a rank in the plural (the nines), as in "a meld of {ranks}"
    9: T("9s"),
    # i18n: a rank in the plural (the eights), as in "a meld of {ranks}"
    8: T("8s"),
    # i18n: a rank in the plural (the sevens), as in "a meld of {ranks}"
    7: T("7s"),
    # i18n: a rank in the plural (the sixes), as in "a meld of {ranks}"
    6: T("6s"),
    # i18n: a rank in the plural (the fives), as in "a meld of {ranks}"
    5: T("5s"),
    # i18n: a rank in the plural (the fours), as in "a meld of {ranks}"
    4: T("4s"),
    # i18n: a rank in the plural (the threes), as in "a meld of {ranks}"
    3: T("threes"),
    # i18n: a rank in the plural (the twos, wild cards), as in "a meld of {ranks}"
    2: T("2s"),
}
ANSWERS = (moves.answer(True), moves.answer(False))
DRAW_MOVE = moves.draw()

# (state, move, may_out, minimum) → the reason, or None: legal
Check = Callable[[CanastaState, Move, bool, int], "Text | None"]


def rank_words(r: int) -> Text:
    return RANK_PLURAL[r]


def canastas_words(n: int) -> Text:
    """``n`` canastas in words, as the reasons say them (``no canasta``, ``two canastas``)."""
    if n == 0:
        # i18n: in "going out needs {need} for your side": no meld of seven cards
        return T("no canasta")
    if n == 1:
        # i18n: in "going out needs {need} for your side": a canasta is a meld of seven cards or more
        return T("one canasta")
    if n == 2:
        # i18n: in "going out needs {need} for your side": a canasta is a meld of seven cards or more
        return T("two canastas")
    # i18n: in "going out needs {need} for your side"
    return Tn("{n} canasta", "{n} canastas", n)


def in_hand(hand: list[Card], named: list[Card]) -> tuple[list[Card] | None, Text | None]:
    """The hand's cards with the names of ``named`` (each once), or the name
    that is missing."""
    left = list(hand)
    out = []
    for c in named:
        found = next((h for h in left if h.name == c.name), None)
        if found is None:
            held = sum(1 for h in hand if h.name == c.name)
            if held:
                # i18n: {n}: how many copies of {card} the hand holds (two decks: a card may be held twice)
                return None, Tn("you hold only {n} {card}", "you hold only {n} {card}", held, card=c)
            # i18n: {card}: a card the person named
            return None, T("{card} is not in your hand", card=c)
        left.remove(found)
        out.append(found)
    return out, None


def _first_draw() -> Text:
    return T("first draw from the stock or take the pile (N5)")


def _no_card(kind: str) -> Text:
    no_card = NO_CARD[kind]
    assert no_card is not None
    return no_card


# ---- the check of each kind ---------------------------------------------------------------------
def verify(state: CanastaState, m: Move, may_out: bool, minimum: int) -> Text | None:
    """Why ``m`` is not legal now (naming the ruling), or None when it is.
    ``may_out``, ``minimum``: the ``canasta_may_go_out`` and initial-minimum
    answers for the player to act (as the move generator has them)."""
    if state.phase == ANSWER and m.kind != "answer":
        # i18n: the question asked by the partner, who wants to go out (end the deal, N12)
        return T('your partner asked "May I go out?": answer yes or no (N12)')
    check = VERIFY.get(m.kind)
    if check is None:
        return _first_draw() if state.phase == DRAW else T("not a legal move now (N5)")
    return check(state, m, may_out, minimum)


def verify_answer(state: CanastaState, m: Move, may_out: bool, minimum: int) -> Text | None:
    """N12: the partner asked to go out; the answer is yes or no."""
    if state.phase != ANSWER:
        return T('nobody asked you "May I go out?" (N12)')
    if m in ANSWERS:
        return None
    return T("answer yes or no (N12)")


def verify_draw(state: CanastaState, m: Move, may_out: bool, minimum: int) -> Text | None:
    """N5: a draw begins a turn, from the stock."""
    if m.card is not None:
        return _no_card("draw")
    if state.phase != DRAW:
        return T("you have drawn or taken the pile already this turn (N5)")
    if not state.stock or m != DRAW_MOVE:  # N13: with the stock empty only the pile can be taken
        return _first_draw()
    return None


def verify_take(state: CanastaState, m: Move, may_out: bool, minimum: int) -> Text | None:
    """N9, N13, N13b, N10a, G1: taking the pile with cards of the hand (their
    names; ``takes`` is the pile itself, whatever the move says)."""
    if m.card is not None:
        # i18n: "the pile": the discard pile; its top card is melded with cards from the hand (N9)
        return T("taking the pile names the cards from your hand that meld its top card, with them (N9)")
    if state.phase != DRAW:
        return T("you have drawn or taken the pile already this turn (N5)")
    reason = _pile_closed(state)
    if reason is not None:
        return reason
    got = resolve(state, m)
    if isinstance(got, Text):
        return got
    team = state.team_at[state.to_act]
    t = turn_for(state, may_out, minimum)
    if not state.stock:
        return _exhausted_take(state, got, team, t)
    if _is_option(got, take_options(state)):
        if take_finishes(state, got, t):
            return None
        if not state.melds[team]:
            # i18n: "initial minimum": the points a side's first melds must reach (N10)
            return T(
                "the pile's top card and cards from your hand cannot reach your initial "
                "minimum and still leave you a way to end your turn (N10a, G1)"
            )
        return T(
            "after this take you could not end your turn: no card left to discard and no way to go "
            "out (G1, N11)"
        )
    return _take_shape(state, list(got.get("cards")), team)


def verify_meld(state: CanastaState, m: Move, may_out: bool, minimum: int) -> Text | None:
    """N8 (a new meld of three), N7, N10, G1."""
    return _verify_lay(state, m, _meld_shape, may_out, minimum)


def verify_add(state: CanastaState, m: Move, may_out: bool, minimum: int) -> Text | None:
    """N8 (one card onto a meld of the side's, or a staged one), N7, N17a, G1."""
    return _verify_lay(state, m, _add_shape, may_out, minimum)


def _verify_lay(
    state: CanastaState,
    m: Move,
    shape: Callable[[CanastaState, Move, int], Text | None],
    may_out: bool,
    minimum: int,
) -> Text | None:
    """A meld or an add: drawn first (N5), its cards held, its shape
    (``shape``: the kind's own rules), then whether the turn can still end
    after it (G1, N10, N11: ``_lay``)."""
    if state.phase == DRAW:
        return _first_draw()
    got = resolve(state, m)
    if isinstance(got, Text):
        return got
    team = state.team_at[state.to_act]
    reason = shape(state, got, team)
    if reason is not None:
        return reason
    if got.kind == "meld":
        laid: tuple[Card, ...] = tuple(got.get("cards"))
    else:
        assert got.card is not None  # an add lays one card
        laid = (got.card,)
    return _lay(state, got, laid, team, may_out, minimum)


def verify_discard(state: CanastaState, m: Move, may_out: bool, minimum: int) -> Text | None:
    """N5 (a discard ends the turn), N10, N13a, N12, N12c, N11."""
    if state.phase == DRAW:
        return _first_draw()
    got = resolve(state, m)
    if isinstance(got, Text):
        return got
    team = state.team_at[state.to_act]
    hand = state.hands[state.to_act]
    if state.staged or state.phase == PILE:
        return T("lay down or take back your initial meld before discarding (N10)")
    if state.last_red_three:
        return T("after the stock's last card, a red three, you may not discard (N13a)")
    if len(hand) > 1 and must_go_out(state, team):
        if state.asked == "yes":
            # i18n: "go out": end the deal by melding every card (but one, discarded)
            return T(
                "your partner said yes: you must go out this turn, melding every card but one "
                "discard (N12, N12c)"
            )
        # i18n: black threes are melded only by a player who goes out in the same turn (N12c)
        return T(
            "your black threes are down: you must go out this turn, melding every card but one "
            "discard (N12, N12c)"
        )
    if len(hand) == 1 and not may_discard_last(state.melds[team], turn_for(state, may_out, minimum)):
        return _going_out(state, team, may_out, after=None)
    return None


def verify_commit(state: CanastaState, m: Move, may_out: bool, minimum: int) -> Text | None:
    """N10: the staged initial meld is laid down once it reaches the minimum; G1."""
    if m.card is not None:
        return _no_card("commit")
    if state.phase == DRAW:
        return _first_draw()
    if not state.staged:
        # i18n: "initial meld": the side's first melds, staged until laid down together (N10)
        return T("there is no initial meld staged to lay down (N10)")
    if meld_points(state.staged) < minimum:
        # i18n: {points}: the staged melds' points; {minimum}: what a side's first melds must reach (N10)
        return T(
            "your staged melds are worth {points}, below your side's initial minimum of {minimum} (N10)",
            points=meld_points(state.staged),
            minimum=minimum,
        )
    if commit_finishes(state, turn_for(state, may_out, minimum)):
        return None
    # i18n: "it": the staged initial meld (N10)
    return T("after laying it down you could not end your turn (G1)")


def verify_withdraw(state: CanastaState, m: Move, may_out: bool, minimum: int) -> Text | None:
    """G1: the staged initial meld may be taken back, unless he must go out (N12, N12c)."""
    if m.card is not None:
        return _no_card("withdraw")
    if state.phase == DRAW:
        return _first_draw()
    if not state.staged:
        return T("there is no initial meld staged to take back")
    if must_go_out(state, state.team_at[state.to_act]):
        # i18n: "go out": meld every card (but one discarded), ending the deal
        return T("you must go out this turn: your initial meld stays (N12, G1)")
    return None


def verify_ask(state: CanastaState, m: Move, may_out: bool, minimum: int) -> Text | None:
    """N12a: "May I go out?", with 4 players, once, before laying a card, when
    he can go out and a no would still leave him a way to end his turn (G1)."""
    if m.card is not None:
        return _no_card("ask_go_out")
    if state.phase == DRAW:
        return _first_draw()
    if state.players != 4:
        return T("only with 4 players is there a partner to ask (N12)")
    if state.asked is not None:
        return T("you have asked already this turn (N12a)")
    if state.laid:
        return T("ask before laying any card this turn (N12a)")
    if ask_finishes(state, turn_for(state, may_out, minimum)):
        return None
    # i18n: "ask": ask the partner "May I go out?"; "a no": the partner's answer no
    return T("you may ask only when you can go out this turn, and keep a way to end it after a no (N12a, G1)")


def verify_stop(state: CanastaState, m: Move, may_out: bool, minimum: int) -> Text | None:
    """N13a: the stock's last card was a red three: the deal may end; N13c:
    not once he must go out."""
    if m.card is not None:
        return _no_card("stop")
    if state.phase == DRAW:
        return _first_draw()
    if not state.last_red_three:
        # i18n: "stop": the move that ends the deal when the stock's last card is a red three (N13a)
        return T("stop is only for the turn of the stock's last card, a red three (N13a)")
    if state.staged or state.phase == PILE:
        # i18n: "initial meld": the side's first melds, staged until laid down together (N10)
        return T("lay down or take back your initial meld first (N10)")
    if must_go_out(state, state.team_at[state.to_act]):
        # i18n: "are down": are melded on the table; "go out": meld every card (but one discarded),
        # ending the deal
        return T(
            "black threes are down or your partner said yes: you must go out this turn (N13c, N12c, N12)"
        )
    return None


VERIFY: dict[str, Check] = {
    "draw": verify_draw,
    "take_pile": verify_take,
    "meld": verify_meld,
    "add": verify_add,
    "discard": verify_discard,
    "commit": verify_commit,
    "withdraw": verify_withdraw,
    "ask_go_out": verify_ask,
    "answer": verify_answer,
    "stop": verify_stop,
}


# ---- the move as named: the hand's own cards ----------------------------------------------------
def resolve(state: CanastaState, m: Move) -> Move | Text:
    """``m`` with the hand's own cards, found by name, and its meld's rank
    when the person named none (a ``meld``, ``add``, ``discard`` or
    ``take_pile``; another move as it is); or the reason none such can be
    played."""
    hand = state.hands[state.to_act]
    if m.kind == "take_pile":
        cards, missing = in_hand(hand, list(m.get("cards", ()) or ()))
        if cards is None:
            assert missing is not None
            return missing
        return Move("take_pile", None, tuple(state.discard), (("cards", tuple(cards)),))
    if m.kind == "meld":
        return _resolve_meld(state, m, hand)
    if m.kind not in ("add", "discard"):
        return m
    if m.card is None:
        # i18n: a move typed without its card
        return T("say which card to discard") if m.kind == "discard" else T("say which card to add")
    cards, missing = in_hand(hand, [m.card])
    if cards is None:
        assert missing is not None
        return missing
    c = cards[0]
    if m.kind == "discard":
        return Move("discard", c)
    rank = m.get("rank")
    if rank is None:
        return _add_rank(state, c)
    return Move("add", c, (), (("rank", rank),))


def _resolve_meld(state: CanastaState, m: Move, hand: list[Card]) -> Move | Text:
    named = list(m.get("cards", ()) or ())
    if not named and m.card is not None:  # ``meld X``: a meld with X
        return _meld_with(m.card, hand)
    cards, missing = in_hand(hand, named)
    if cards is None:
        assert missing is not None
        return missing
    rank = m.get("rank")
    if rank is None:
        naturals = [c for c in cards if not WILD[c]]
        rank = RANK_NAMES.get(naturals[0].rank) if naturals else None
    return Move("meld", None, (), (("cards", tuple(cards)), ("rank", rank)))


def _add_rank(state: CanastaState, c: Card) -> Move | Text:
    """``add X`` without a rank: onto X's own, or, for a wild card, the side's
    first meld that takes one more (N8)."""
    if not WILD[c]:
        return Move("add", c, (), (("rank", RANK_NAMES.get(c.rank)),))
    melds = {**state.melds[state.team_at[state.to_act]], **state.staged}
    targets = [r for r, cs in sorted(melds.items()) if r != 3]
    open_ = [r for r in targets if wild_count(melds[r]) < 3]
    if not targets:
        # i18n: {card}: a wild card the person would add to a meld
        return T("your side has no meld to add {card} to: meld three cards first (N8)", card=c)
    return Move("add", c, (), (("rank", RANK_NAMES[(open_ or targets)[0]]),))


def _meld_with(x: Card, hand: list[Card]) -> Move | Text:
    """``meld X`` typed with one card: the meld of three the hand can make with X."""
    found, missing = in_hand(hand, [x])
    if found is None:
        assert missing is not None
        return missing
    c = found[0]
    if is_red_three(c):
        # i18n: "laid for the side": put face up before the side, scoring for it (N7)
        return T("red threes are never melded: they are laid for the side (N7)")
    rest = [h for h in hand if h is not c]
    if WILD[c]:
        return _meld_with_wild(c, rest)
    same = [h for h in rest if h.rank == c.rank and not WILD[h] and not is_red_three(h)]
    wilds = [h for h in rest if WILD[h]]
    if len(same) >= 2:
        cards = (c, same[0], same[1])
    elif same and wilds and c.rank != 3:
        cards = (c, same[0], wilds[0])
    else:
        return _no_meld_with(c, 1 + len(same))
    return Move("meld", None, (), (("cards", cards), ("rank", RANK_NAMES[c.rank])))


def _meld_with_wild(c: Card, rest: list[Card]) -> Move | Text:
    """``meld X`` with X wild: onto the lowest natural pair of the hand."""
    pairs = sorted(
        {
            h.rank
            for h in rest
            if not WILD[h] and h.rank != 3 and sum(1 for k in rest if k.rank == h.rank) >= 2
        }
    )
    if not pairs:
        # i18n: "wild cards": jokers and twos; "natural": a card that is not wild; "a meld": cards
        # of one rank laid on the table (N8)
        return T("wild cards never meld alone: a meld needs two natural cards of its rank (N8)")
    r = pairs[0]
    nat = [h for h in rest if h.rank == r and not WILD[h]][:2]
    return Move("meld", None, (), (("cards", (nat[0], nat[1], c)), ("rank", RANK_NAMES[r])))


def _no_meld_with(c: Card, have: int) -> Text:
    """Why the hand makes no meld of three with the natural ``c`` (``have``
    cards of its rank, counting it)."""
    if c.rank == 3:
        # i18n: {n}: the black threes the hand holds
        return Tn(
            "black threes meld three or four together, without wild cards (N8, N12c): you hold {n} of them",
            "black threes meld three or four together, without wild cards (N8, N12c): you hold {n} of them",
            have,
        )
    if have > 1:
        # i18n: {ranks}: a rank in the plural ("kings")
        return T(
            "a meld is three cards of a rank, two natural at least (N8): you hold two {ranks} "
            "and no wild card",
            ranks=rank_words(c.rank),
        )
    # i18n: {rank}: a rank (a letter or a number)
    return T(
        "a meld is three cards of a rank, two natural at least (N8): you hold no other {rank}",
        rank=rank_text(RANK_NAMES[c.rank]),
    )


# ---- the shapes: N8, N9 -------------------------------------------------------------------------
def _meld_shape(state: CanastaState, m: Move, team: int) -> Text | None:
    cards = list(m.get("cards"))
    r = rank_of(m)
    naturals = [c for c in cards if not WILD[c]]
    if any(is_red_three(c) for c in cards):
        return T("red threes are never melded: they are laid for the side (N7)")
    if r is None or any(c.rank != r for c in naturals):
        # i18n: "natural": a card that is not wild (jokers and twos are wild)
        return T("a meld holds natural cards of one rank, and wild cards (N8)")
    if len(naturals) < 2:
        return T("a meld needs at least two natural cards (N8)")
    if len(cards) != 3:
        # i18n: "add": put one card onto one's side's meld
        return T("a new meld is three cards; add more one at a time (N8)")
    if r == 3 and len(naturals) < 3:
        return T("black threes meld without wild cards (N8)")
    if r in state.melds[team] or r in state.staged:
        # i18n: {ranks}: a rank in the plural ("kings"); a side has one meld per rank
        return T("your side has a meld of {ranks} already: add to it (N8)", ranks=rank_words(r))
    if state.withdrew == "play" and not state.melds[team]:
        # i18n: "it": the turn
        return T("you took back an initial meld this turn: no other is tried in it (G1)")
    return None


def _add_shape(state: CanastaState, m: Move, team: int) -> Text | None:
    r = rank_of(m)
    c = m.card
    assert c is not None
    targets = {**state.melds[team], **state.staged}
    if is_red_three(c):
        return T("red threes are never melded: they are laid for the side (N7)")
    if r is None:
        # i18n: {card}: the card the person would add
        return T("your side has no meld of that rank to add {card} to (N8)", card=c)
    if r not in targets:
        # i18n: {ranks}: a rank in the plural ("kings"); {card}: the card the person would add
        return T("your side has no meld of {ranks} to add {card} to (N8)", ranks=rank_words(r), card=c)
    if not WILD[c] and c.rank != r:
        if c.rank == 3:
            # i18n: {card}: a black three
            return T(
                "{card} is not a wild card: a black three goes only onto black threes (N8, N12c)", card=c
            )
        # i18n: {card}: the card the person would add to a meld of another rank
        return T("{card} is not a wild card: it goes only onto a meld of its own rank (N8)", card=c)
    if WILD[c] and r == 3:
        return T("black threes meld without wild cards (N8)")
    if WILD[c] and wild_count(targets[r]) >= 3:
        # i18n: {ranks}: a rank in the plural ("kings"); a meld holds three wild cards at most
        return T("the meld of {ranks} holds three wild cards already (N8, N17a)", ranks=rank_words(r))
    return None


def _pile_closed(state: CanastaState) -> Text | None:
    """N9, N6: why the pile cannot be taken at all this turn (G1: not twice)."""
    if not state.discard:
        # i18n: "the pile": the discard pile
        return T("the pile is empty")
    top = state.discard[-1]
    if WILD[top]:
        # i18n: {card}: the discard pile's top card
        return T("the pile's top card {card} is a wild card: the pile cannot be taken (N9)", card=top)
    if top.rank == 3:
        # i18n: {card}: the discard pile's top card
        return T("the pile's top card {card} is a black three: the pile cannot be taken (N6, N9)", card=top)
    if state.withdrew:
        # i18n: "took back": undid the taking of the discard pile, in this turn
        return T("you took the pile back this turn: it cannot be taken again (G1)")
    return None


def _is_option(m: Move, options: list[Move]) -> bool:
    """N8a: whether ``m`` takes the pile with cards of the classes of one of ``options``."""
    mine = sorted(_classes(m.get("cards")))
    return any(sorted(_classes(o.get("cards"))) == mine for o in options)


def _classes(cards: tuple[Card, ...]) -> list[int]:
    """What of each card the rules see (N8a): its rank, red threes apart."""
    return [-3 if is_red_three(c) else c.rank for c in cards]


def _exhausted_take(state: CanastaState, m: Move, team: int, t: Turn) -> Text | None:
    """N13, N13b: with the stock empty the pile is taken only onto a meld of the side."""
    top = state.discard[-1]
    if top.rank not in state.melds[team]:
        # i18n: {ranks}: the rank of the pile's top card, in the plural ("kings")
        return T(
            "with the stock empty the pile is taken only onto a meld of your side, "
            "which has no meld of {ranks} (N13)",
            ranks=rank_words(top.rank),
        )
    if _is_option(m, exhausted_takes(state)) and take_finishes(state, m, t):
        return None
    return T("with the stock empty you could not end your turn after taking the pile (N13b, G1)")


def _take_shape(state: CanastaState, cards: list[Card], team: int) -> Text:
    """N9: why the top card does not meld with ``cards`` (none of the ways to take the pile)."""
    top = state.discard[-1]
    if len(state.hands[state.to_act]) == 1 and len(state.discard) == 1:
        # i18n: "the pile": the discard pile
        return T("holding one card you cannot take a pile of one card (N9)")
    naturals = [c for c in cards if not WILD[c]]
    if any(c.rank != top.rank for c in naturals) or len(cards) > 2:
        # i18n: {card}: the discard pile's top card; "a natural": a card that is not wild
        return T(
            "the top card {card} is melded with two cards of its rank, or a natural and a wild card (N9)",
            card=top,
        )
    if frozen_for(state, team) and (len(naturals) < 2 or not cards):
        return _frozen(state, team)
    if not cards and top.rank not in state.melds[team]:
        # i18n: {ranks}: the rank of the pile's top card, in the plural ("kings")
        return T("your side has no meld of {ranks} to take the pile onto (N9)", ranks=rank_words(top.rank))
    if cards and top.rank in state.melds[team] and len(naturals) < 2:
        # i18n: "a natural pair": two cards of the top card's rank, neither wild
        return T("your side has a meld of that rank: take the pile onto it or with a natural pair (N9)")
    # i18n: "naturals": cards that are not wild; "onto your meld": the top card added to the side's meld
    # of its rank
    return T("take the pile with two naturals, a natural and a wild card, or onto your meld (N9)")


def _frozen(state: CanastaState, team: int) -> Text:
    """N9, N9a: why the pile is frozen for the side."""
    if not state.melds[team]:
        # i18n: a frozen pile is taken only with two natural cards of its top card's rank (N9)
        return T(
            "the pile is frozen for your side (your side has not melded): take it only with a "
            "natural pair (N9, N9a)"
        )
    if state.frozen_start and not any(WILD[c] for c in state.discard):
        # i18n: "started frozen": its first card (the upcard) was a wild card or a red three (N4)
        return T(
            "the pile is frozen for your side (it was started frozen): take it only with a "
            "natural pair (N9, N9a)"
        )
    # i18n: a pile holding a wild card is frozen (N9)
    return T(
        "the pile is frozen for your side (it holds a wild card): take it only with a natural pair (N9, N9a)"
    )


# ---- after a meld or add: G1 --------------------------------------------------------------------
def _lay(
    state: CanastaState, m: Move, used: tuple[Card, ...], team: int, may_out: bool, minimum: int
) -> Text | None:
    """G1 for a meld or add of the right shape: None when the turn can still
    end after it (``movegen.lay_finishes``), else what he could no longer do."""
    r = rank_of(m)
    assert r is not None
    if lay_finishes(state, used, r, turn_for(state, may_out, minimum)):
        return None
    return _after_lay(state, m, team, may_out, minimum)


def _going_out(state: CanastaState, team: int, may_out: bool, after: CanastaState | None) -> Text:
    """Why he could not go out (after a meld or add, ``after``; else now)."""
    s = after or state
    need = canastas_needed(state)
    melds = {**s.melds[team], **s.staged}
    if not may_out:
        if state.asked == "no":
            return T("your partner said no: you may not go out this turn (N12)")
        # i18n: canasta.permission_required: the name of a house rule (keep it as it is)
        return T(
            "you may go out only after asking your partner and hearing yes (canasta.permission_required, N18)"
        )
    have = count_canastas(melds)
    if have < need:
        # i18n: {need}, {have}: numbers of canastas in words ("one canasta", "no canasta")
        return T(
            "going out needs {need} for your side (N11), and it would have {have}: keep a card to "
            "discard (G1)",
            need=canastas_words(need),
            have=canastas_words(have),
        )
    return T("you could neither keep a card to discard nor meld every card but one (G1, N12)")


def _after_lay(state: CanastaState, m: Move, team: int, may_out: bool, minimum: int) -> Text:
    """A meld or add of the right shape that the turn's solver refuses: what he
    could no longer do after it, the solver asked with one condition relaxed
    at a time."""
    from cardcore_plugins.canasta.turn import _apply  # (turn imports movegen, which this module does)

    after = state.clone()
    _apply(after, m, False)
    seat = state.to_act
    hand = tally(after.hands[seat])
    staging = after.phase == PILE or bool(after.staged) or not after.melds[team]
    melds = after.staged if staging else after.melds[team]
    base = meld_points(after.staged) if staging else 0
    held = tally(after.pile_held)
    must = must_go_out(after, team)
    need = canastas_needed(state)

    def finishes(need: int = need, minimum: int = minimum, may: bool = may_out) -> bool:
        t = Turn(need, minimum, may, must, state.last_red_three)
        return can_finish(shape(melds), base, hand, held, staging, t)

    if staging and not finishes(minimum=minimum) and finishes(minimum=0):
        # i18n: "it": the meld or the card added; {minimum}: the points a side's first melds must reach (N10)
        return T(
            "after it your side could no longer reach its initial minimum of {minimum} and still end "
            "the turn (N10a, G1)",
            minimum=minimum,
        )
    if not may_out and finishes(may=True):
        return _going_out(state, team, may_out, after)
    if finishes(need=0, may=True):
        return _must_go_out_after(after, team, need)
    if m.get("rank") == "3":
        # i18n: "go out": meld every card (but one discarded), ending the deal
        return T(
            "black threes are melded only by a player who then goes out in the same turn "
            "(N8, N12c), and you could not meld every other card"
        )
    return T("after it you could neither keep a card to discard nor go out (G1)")


def _must_go_out_after(after: CanastaState, team: int, need: int) -> Text:
    """After the meld or add he could end his turn only by going out, which needs ``need`` canastas."""
    canastas = count_canastas({**after.melds[team], **after.staged})
    if canastas < need:
        # i18n: "it": the meld or the card added; {need}, {have}: numbers of canastas in words
        # ("one canasta")
        return T(
            "after it you would have to go out, which needs {need} for your side (N11), "
            "and you could not complete them (it would have {have})",
            need=canastas_words(need),
            have=canastas_words(canastas),
        )
    # i18n: "it": the meld or the card added; {need}: a number of canastas in words ("one canasta")
    return T(
        "after it you would have to go out, which needs {need} for your side (N11)",
        need=canastas_words(need),
    )
