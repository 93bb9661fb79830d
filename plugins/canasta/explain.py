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
from cardcore_plugins.canasta.state import ANSWER, DRAW, PILE, CanastaState, wild_count

NO_CARD = {
    "draw": "a draw",
    "take_pile": "taking the pile",
    "commit": "laying down the initial meld",
    "withdraw": "taking back the initial meld",
    "ask_go_out": '"May I go out?"',
    "answer": "an answer",
    "stop": "stop",
}
PLURAL = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "3": "threes"}


def rank_words(r: int) -> str:
    name = RANK_NAMES.get(r, str(r))
    return PLURAL.get(name, name + "s")


def canastas_words(n: int) -> str:
    return {0: "no canasta", 1: "one canasta", 2: "two canastas"}.get(n, f"{n} canastas")


def in_hand(hand: list[Card], named: list[Card]) -> tuple[list[Card] | None, str | None]:
    """The hand's cards with the names of ``named`` (each once), or the name
    that is missing."""
    left = list(hand)
    out = []
    for c in named:
        found = next((h for h in left if h.name == c.name), None)
        if found is None:
            held = sum(1 for h in hand if h.name == c.name)
            if held:
                return None, f"you hold only {held} {c.name}"
            return None, f"{c.name} is not in your hand"
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
            return 'your partner asked "May I go out?": answer yes or no (N12)'
        return "answer yes or no (N12)"
    if kind == "answer":
        return 'nobody asked you "May I go out?" (N12)'
    if m.card is not None and kind in NO_CARD:
        if kind == "take_pile":
            return "taking the pile names the cards from your hand that meld its top card, with them (N9)"
        return f"{NO_CARD[kind]} names no card: choose it without one (N5)"
    if kind in ("draw", "take_pile") and state.phase != DRAW:
        return "you have drawn or taken the pile already this turn (N5)"
    if kind == "take_pile":
        return _take(state, m, team)
    if state.phase == DRAW:
        return "first draw from the stock or take the pile (N5)"
    if kind == "stop":
        if not state.last_red_three:
            return "stop is only for the turn of the stock's last card, a red three (N13a)"
        if state.staged:
            return "lay down or take back your initial meld first (N10)"
        return "black threes are down or your partner said yes: you must go out this turn (N13c, N12c, N12)"
    hand = state.hands[seat]
    if kind in ("meld", "add", "discard"):
        got = _resolve(state, m, hand, team)
        if isinstance(got, str):
            return got
        same = next((o for o in legal if _key(o) == _key(got)), None)
        if same is not None:
            return f"that move is legal: {_text(same)} (either copy of a card, N2, N8a)"
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
            return "lay down or take back your initial meld before discarding (N10)"
        if state.last_red_three:
            return "after the stock's last card, a red three, you may not discard (N13a)"
        if len(hand) > 1 and must_go_out(state, team):
            why = "your partner said yes" if state.asked == "yes" else "your black threes are down"
            return f"{why}: you must go out this turn, melding every card but one discard (N12, N12c)"
        if len(hand) == 1:
            return _going_out(state, team, may_out, after=None)
    if kind in ("meld", "add"):
        return _after_lay(state, m, team, may_out, minimum)
    if kind == "commit":
        if not state.staged:
            return "there is no initial meld staged to lay down (N10)"
        if meld_points(state.staged) < minimum:
            return (
                f"your staged melds are worth {meld_points(state.staged)}, "
                f"below your side's initial minimum of {minimum} (N10)"
            )
        return "after laying it down you could not end your turn (G1)"
    if kind == "withdraw":
        if not state.staged:
            return "there is no initial meld staged to take back"
        return "you must go out this turn: your initial meld stays (N12, G1)"
    if kind == "ask_go_out":
        if state.players != 4:
            return "only with 4 players is there a partner to ask (N12)"
        if state.asked is not None:
            return "you have asked already this turn (N12a)"
        if state.laid:
            return "ask before laying any card this turn (N12a)"
        return (
            "you may ask only when you can go out this turn, and keep a way to end it after a no (N12a, G1)"
        )
    return "not a legal move now (N5)"


def _key(m: Move) -> tuple[object, ...]:
    """A move as a person names it: its kind, rank and cards by name."""
    cards = m.get("cards", ()) or ((m.card,) if m.card is not None else ())
    return (m.kind, m.get("rank"), tuple(sorted(c.name for c in cards)))


def _text(m: Move) -> str:
    if m.kind == "meld":
        return "meld " + " ".join(c.name for c in m.get("cards"))
    if m.kind == "add":
        return f"add {m.card} to the {m.get('rank')} meld"
    return f"{m.kind} {m.card}"


def _resolve(state: CanastaState, m: Move, hand: list[Card], team: int) -> Move | str:
    """The move with the hand's own cards, found by name, and its meld's rank
    when the person named none; or the reason none such can be played."""
    if m.kind == "meld":
        named = list(m.get("cards", ()) or ())
        if not named and m.card is not None:  # ``meld X``: a meld with X
            return _meld_with(state, m.card, hand, team)
        cards, missing = in_hand(hand, named)
        if cards is None:
            return f"{missing}"
        rank = m.get("rank")
        if rank is None:
            naturals = [c for c in cards if not WILD[c]]
            rank = RANK_NAMES.get(naturals[0].rank) if naturals else None
        return Move("meld", None, (), (("cards", tuple(cards)), ("rank", rank)))
    if m.card is None:
        return f"say which card to {m.kind}"
    cards, missing = in_hand(hand, [m.card])
    if cards is None:
        return f"{missing}"
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
                return f"your side has no meld to add {c.name} to: meld three cards first (N8)"
            rank = RANK_NAMES[(open_ or targets)[0]]
    return Move("add", c, (), (("rank", rank),))


def _meld_with(state: CanastaState, x: Card, hand: list[Card], team: int) -> Move | str:
    """``meld X`` typed with one card: the meld of three the hand can make with X."""
    found, missing = in_hand(hand, [x])
    if found is None:
        return f"{missing}"
    c = found[0]
    if is_red_three(c):
        return "red threes are never melded: they are laid for the side (N7)"
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
            return "wild cards never meld alone: a meld needs two natural cards of its rank (N8)"
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
            return (
                f"black threes meld three or four together, without wild cards (N8, N12c): "
                f"you hold {have} of them"
            )
        return "a meld is three cards of a rank, two natural at least (N8): you hold " + (
            f"two {rank_words(c.rank)} and no wild card" if same else f"no other {RANK_NAMES[c.rank]}"
        )
    return Move("meld", None, (), (("cards", cards), ("rank", RANK_NAMES[c.rank])))


def _meld_shape(state: CanastaState, m: Move, team: int) -> str | None:
    cards = list(m.get("cards"))
    r = rank_of(m)
    naturals = [c for c in cards if not WILD[c]]
    if any(is_red_three(c) for c in cards):
        return "red threes are never melded: they are laid for the side (N7)"
    if r is None or any(c.rank != r for c in naturals):
        return "a meld holds natural cards of one rank, and wild cards (N8)"
    if len(naturals) < 2:
        return "a meld needs at least two natural cards (N8)"
    if len(cards) != 3:
        return "a new meld is three cards; add more one at a time (N8)"
    if r == 3 and len(naturals) < 3:
        return "black threes meld without wild cards (N8)"
    if r in state.melds[team] or r in state.staged:
        return f"your side has a meld of {rank_words(r)} already: add to it (N8)"
    if state.withdrew == "play" and not state.melds[team]:
        return "you took back an initial meld this turn: no other is tried in it (G1)"
    return None


def _add_shape(state: CanastaState, m: Move, team: int) -> str | None:
    r = rank_of(m)
    c = m.card
    assert c is not None
    targets = {**state.melds[team], **state.staged}
    if is_red_three(c):
        return "red threes are never melded: they are laid for the side (N7)"
    if r is None or r not in targets:
        what = rank_words(r) if r is not None else "that rank"
        return f"your side has no meld of {what} to add {c.name} to (N8)"
    if not WILD[c] and c.rank != r:
        if c.rank == 3:
            return f"{c.name} is not a wild card: a black three goes only onto black threes (N8, N12c)"
        return f"{c.name} is not a wild card: it goes only onto a meld of its own rank (N8)"
    if WILD[c]:
        if r == 3:
            return "black threes meld without wild cards (N8)"
        if wild_count(targets[r]) >= 3:
            return f"the meld of {rank_words(r)} holds three wild cards already (N8, N17a)"
    return None


def _going_out(state: CanastaState, team: int, may_out: bool, after: CanastaState | None) -> str:
    """Why he could not go out (after a meld or add, ``after``; else now)."""
    s = after or state
    need = canastas_needed(state)
    melds = {**s.melds[team], **s.staged}
    if not may_out:
        if state.asked == "no":
            return "your partner said no: you may not go out this turn (N12)"
        return (
            "you may go out only after asking your partner and hearing yes (canasta.permission_required, N18)"
        )
    have = count_canastas(melds)
    if have < need:
        return (
            f"going out needs {canastas_words(need)} for your side (N11), and it would have "
            f"{canastas_words(have)}: keep a card to discard (G1)"
        )
    return "you could neither keep a card to discard nor meld every card but one (G1, N12)"


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
        return (
            f"after it your side could no longer reach its initial minimum of {minimum} "
            "and still end the turn (N10a, G1)"
        )
    if not may_out and finishes(may=True):
        return _going_out(state, team, may_out, after)
    if finishes(need=0, may=True):
        canastas = count_canastas({**after.melds[team], **after.staged})
        return (
            f"after it you would have to go out, which needs {canastas_words(need)} for your side "
            f"(N11), and you could not complete them (it would have {canastas_words(canastas)})"
            if canastas < need
            else f"after it you would have to go out, which needs {canastas_words(need)} for your side (N11)"
        )
    if m.get("rank") == "3":
        return (
            "black threes are melded only by a player who then goes out in the same turn "
            "(N8, N12c), and you could not meld every other card"
        )
    return "after it you could neither keep a card to discard nor go out (G1)"


def _take(state: CanastaState, m: Move, team: int) -> str:
    if not state.discard:
        return "the pile is empty"
    top = state.discard[-1]
    if WILD[top]:
        return f"the pile's top card {top.name} is a wild card: the pile cannot be taken (N9)"
    if top.rank == 3:
        return f"the pile's top card {top.name} is a black three: the pile cannot be taken (N6, N9)"
    if state.withdrew:
        return "you took the pile back this turn: it cannot be taken again (G1)"
    hand = state.hands[state.to_act]
    named = list(m.get("cards", ()) or ())
    cards, missing = in_hand(hand, named)
    if cards is None:
        return f"{missing}"
    if not state.stock:
        if top.rank not in state.melds[team]:
            return (
                f"with the stock empty the pile is taken only onto a meld of your side, "
                f"which has no meld of {rank_words(top.rank)} (N13)"
            )
        return "with the stock empty you could not end your turn after taking the pile (N13b, G1)"
    names = sorted(c.name for c in cards)
    if any(sorted(c.name for c in o.get("cards")) == names for o in take_options(state)):
        if not state.melds[team]:
            return (
                "the pile's top card and cards from your hand cannot reach your initial "
                "minimum and still leave you a way to end your turn (N10a, G1)"
            )
        return (
            "after this take you could not end your turn: "
            "no card left to discard and no way to go out (G1, N11)"
        )
    if len(hand) == 1 and len(state.discard) == 1:
        return "holding one card you cannot take a pile of one card (N9)"
    naturals = [c for c in cards if not WILD[c]]
    if any(c.rank != top.rank for c in naturals) or len(cards) > 2:
        return (
            f"the top card {top.name} is melded with two cards of its rank, or a natural and a wild card (N9)"
        )
    if frozen_for(state, team) and (len(naturals) < 2 or not cards):
        why = "your side has not melded" if not state.melds[team] else "it holds a wild card"
        if state.melds[team] and state.frozen_start and not any(WILD[c] for c in state.discard):
            why = "it was started frozen"
        return f"the pile is frozen for your side ({why}): take it only with a natural pair (N9, N9a)"
    if not cards and top.rank not in state.melds[team]:
        return f"your side has no meld of {rank_words(top.rank)} to take the pile onto (N9)"
    if cards and top.rank in state.melds[team] and len(naturals) < 2:
        return "your side has a meld of that rank: take the pile onto it or with a natural pair (N9)"
    return "take the pile with two naturals, a natural and a wild card, or onto your meld (N9)"
