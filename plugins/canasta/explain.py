"""Why a Canasta move is not legal, naming the ruling (``cardcore_explain_illegal``).

Every reason is checked against the position before it is given: a move a
person typed names cards by name (two decks: the hand may hold the other copy,
and suits never matter but for threes, N8a), so its cards are first found in
the hand by name; the reason is then the rule that actually blocks it — the
shape of a meld (N8), the side's melds, the pile (N9), the phase (N5), or, by
the turn's solver (``finish.can_finish``), what the player could no longer do
after it: keep a card to discard, go out (the canastas, N11; the partner's
answer, N12), reach the initial minimum (N10a)."""

from __future__ import annotations

from cardcore.cards import Card
from cardcore.i18n import Text
from cardcore.moves import Move
from cardcore_plugins.canasta.cards import RANK_NAMES, WILD, is_red_three
from cardcore_plugins.canasta.finish import Turn, can_finish, shape, tally
from cardcore_plugins.canasta.melds import (
    canastas_needed,
    count_canastas,
    frozen_for,
    meld_points,
    rank_of,
)
from cardcore_plugins.canasta.movegen import must_go_out, take_options
from cardcore_plugins.canasta.moves import move_text
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


def explain(state: CanastaState, m: Move, legal: list[Move], may_out: bool, minimum: int) -> str:
    """Why ``m`` is not legal (naming the ruling). ``legal``: the legal moves;
    ``may_out``, ``minimum``: the ``canasta_may_go_out`` and initial-minimum
    answers for the player to act (as the move generator had them)."""
    seat = state.to_act
    team = state.team_of(seat)
    kind = m.kind
    if state.phase == ANSWER:
        if kind != "answer":
            # i18n: the question asked by the partner, who wants to go out (end the deal, N12)
            return T('your partner asked "May I go out?": answer yes or no (N12)')
        return T("answer yes or no (N12)")
    if kind == "answer":
        return T('nobody asked you "May I go out?" (N12)')
    if m.card is not None and kind in NO_CARD:
        if kind == "take_pile":
            # i18n: "the pile": the discard pile; its top card is melded with cards from the hand (N9)
            return T("taking the pile names the cards from your hand that meld its top card, with them (N9)")
        no_card = NO_CARD[kind]
        assert no_card is not None
        return no_card
    if kind in ("draw", "take_pile") and state.phase != DRAW:
        return T("you have drawn or taken the pile already this turn (N5)")
    if kind == "take_pile":
        return _take(state, m, team)
    if state.phase == DRAW:
        return T("first draw from the stock or take the pile (N5)")
    if kind == "stop":
        if not state.last_red_three:
            # i18n: "stop": the move that ends the deal when the stock's last card is a red three (N13a)
            return T("stop is only for the turn of the stock's last card, a red three (N13a)")
        if state.staged:
            # i18n: "initial meld": the side's first melds, staged until laid down together (N10)
            return T("lay down or take back your initial meld first (N10)")
        # i18n: "are down": are melded on the table; "go out": meld every card (but one discarded),
        # ending the deal
        return T(
            "black threes are down or your partner said yes: you must go out this turn (N13c, N12c, N12)"
        )
    hand = state.hands[seat]
    if kind in ("meld", "add", "discard"):
        got = _resolve(state, m, hand, team)
        if isinstance(got, str):
            return got
        same = next((o for o in legal if _key(o) == _key(got)), None)
        if same is not None:
            # i18n: {move}: the legal move, in words (two decks: each card has two copies, N2)
            return T("that move is legal: {move} (either copy of a card, N2, N8a)", move=move_text(same))
        m = got
    if kind == "meld":
        reason = _meld_shape(state, m, team)
        if reason:
            return reason
    if kind == "add":
        reason = _add_shape(state, m, team)
        if reason:
            return reason
    if kind == "discard":
        if state.staged:
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
        if len(hand) == 1:
            return _going_out(state, team, may_out, after=None)
    if kind in ("meld", "add"):
        return _after_lay(state, m, team, may_out, minimum)
    if kind == "commit":
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
        # i18n: "it": the staged initial meld (N10)
        return T("after laying it down you could not end your turn (G1)")
    if kind == "withdraw":
        if not state.staged:
            return T("there is no initial meld staged to take back")
        # i18n: "go out": meld every card (but one discarded), ending the deal
        return T("you must go out this turn: your initial meld stays (N12, G1)")
    if kind == "ask_go_out":
        if state.players != 4:
            return T("only with 4 players is there a partner to ask (N12)")
        if state.asked is not None:
            return T("you have asked already this turn (N12a)")
        if state.laid:
            return T("ask before laying any card this turn (N12a)")
        # i18n: "ask": ask the partner "May I go out?"; "a no": the partner's answer no
        return T(
            "you may ask only when you can go out this turn, and keep a way to end it after a no (N12a, G1)"
        )
    return T("not a legal move now (N5)")


def _key(m: Move) -> tuple[object, ...]:
    """A move as a person names it: its kind, rank and cards by name."""
    cards = m.get("cards", ()) or ((m.card,) if m.card is not None else ())
    return (m.kind, m.get("rank"), tuple(sorted(c.name for c in cards)))


def _resolve(state: CanastaState, m: Move, hand: list[Card], team: int) -> Move | str:
    """The move with the hand's own cards, found by name, and its meld's rank
    when the person named none; or the reason none such can be played."""
    if m.kind == "meld":
        named = list(m.get("cards", ()) or ())
        if not named and m.card is not None:  # ``meld X``: a meld with X
            return _meld_with(state, m.card, hand, team)
        cards, missing = in_hand(hand, named)
        if cards is None:
            assert missing is not None
            return missing
        rank = m.get("rank")
        if rank is None:
            naturals = [c for c in cards if not WILD[c]]
            rank = RANK_NAMES.get(naturals[0].rank) if naturals else None
        return Move("meld", None, (), (("cards", tuple(cards)), ("rank", rank)))
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
        if not WILD[c]:
            rank = RANK_NAMES.get(c.rank)
        else:
            targets = [r for r, cs in sorted({**state.melds[team], **state.staged}.items()) if r != 3]
            open_ = [r for r in targets if wild_count({**state.melds[team], **state.staged}[r]) < 3]
            if not targets:
                # i18n: {card}: a wild card the person would add to a meld
                return T("your side has no meld to add {card} to: meld three cards first (N8)", card=c)
            rank = RANK_NAMES[(open_ or targets)[0]]
    return Move("add", c, (), (("rank", rank),))


def _meld_with(state: CanastaState, x: Card, hand: list[Card], team: int) -> Move | str:
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
    same = [h for h in rest if h.rank == c.rank and not WILD[h] and not is_red_three(h)]
    if c.rank == 3:
        same = [h for h in same if not is_red_three(h)]
    wilds = [h for h in rest if WILD[h]]
    if len(same) >= 2:
        cards = (c, same[0], same[1])
    elif same and wilds and c.rank != 3:
        cards = (c, same[0], wilds[0])
    else:
        have = 1 + len(same)
        if c.rank == 3:
            # i18n: {n}: the black threes the hand holds
            return Tn(
                "black threes meld three or four together, without wild cards (N8, N12c): you hold "
                "{n} of them",
                "black threes meld three or four together, without wild cards (N8, N12c): you hold "
                "{n} of them",
                have,
            )
        if same:
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
    return Move("meld", None, (), (("cards", cards), ("rank", RANK_NAMES[c.rank])))


def _meld_shape(state: CanastaState, m: Move, team: int) -> str | None:
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


def _add_shape(state: CanastaState, m: Move, team: int) -> str | None:
    r = rank_of(m)
    c = m.card
    assert c is not None
    targets = {**state.melds[team], **state.staged}
    if is_red_three(c):
        return T("red threes are never melded: they are laid for the side (N7)")
    if r is None or r not in targets:
        if r is None:
            # i18n: {card}: the card the person would add
            return T("your side has no meld of that rank to add {card} to (N8)", card=c)
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
    if WILD[c]:
        if r == 3:
            return T("black threes meld without wild cards (N8)")
        if wild_count(targets[r]) >= 3:
            # i18n: {ranks}: a rank in the plural ("kings"); a meld holds three wild cards at most
            return T("the meld of {ranks} holds three wild cards already (N8, N17a)", ranks=rank_words(r))
    return None


def _going_out(state: CanastaState, team: int, may_out: bool, after: CanastaState | None) -> str:
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


def _after_lay(state: CanastaState, m: Move, team: int, may_out: bool, minimum: int) -> str:
    """A meld or add of the right shape that the turn's solver refuses: what he
    could no longer do after it."""
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
    if m.get("rank") == "3":
        # i18n: "go out": meld every card (but one discarded), ending the deal
        return T(
            "black threes are melded only by a player who then goes out in the same turn "
            "(N8, N12c), and you could not meld every other card"
        )
    return T("after it you could neither keep a card to discard nor go out (G1)")


def _take(state: CanastaState, m: Move, team: int) -> str:
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
    hand = state.hands[state.to_act]
    named = list(m.get("cards", ()) or ())
    cards, missing = in_hand(hand, named)
    if cards is None:
        assert missing is not None
        return missing
    if not state.stock:
        if top.rank not in state.melds[team]:
            # i18n: {ranks}: the rank of the pile's top card, in the plural ("kings")
            return T(
                "with the stock empty the pile is taken only onto a meld of your side, "
                "which has no meld of {ranks} (N13)",
                ranks=rank_words(top.rank),
            )
        return T("with the stock empty you could not end your turn after taking the pile (N13b, G1)")
    names = sorted(c.name for c in cards)
    if any(sorted(c.name for c in o.get("cards")) == names for o in take_options(state)):
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
    if len(hand) == 1 and len(state.discard) == 1:
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
            "the pile is frozen for your side (it holds a wild card): take it only with a natural "
            "pair (N9, N9a)"
        )
    if not cards and top.rank not in state.melds[team]:
        # i18n: {ranks}: the rank of the pile's top card, in the plural ("kings")
        return T("your side has no meld of {ranks} to take the pile onto (N9)", ranks=rank_words(top.rank))
    if cards and top.rank in state.melds[team] and len(naturals) < 2:
        # i18n: "a natural pair": two cards of the top card's rank, neither wild
        return T("your side has a meld of that rank: take the pile onto it or with a natural pair (N9)")
    # i18n: "naturals": cards that are not wild; "onto your meld": the top card added to the side's meld
    # of its rank
    return T("take the pile with two naturals, a natural and a wild card, or onto your meld (N9)")
