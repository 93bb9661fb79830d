"""Canasta in the pseudo-locale (issue 24): every text the game gives a person
goes through its catalogs — move texts, reasons why a move is illegal, events,
the score's breakdown, the goal, the view's labels — with no English left, and
each text's ``str`` is still its English (the logs' and golden files' value)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from conftest import POSITIONS, REGISTRY
from pseudo_locale import english_left

from cardcore import i18n
from cardcore.cards import Card, card
from cardcore.game import Observation, PositionError
from cardcore.moves import Move
from cardcore.position_file import position_from_data
from cardcore.table import Table
from cardcore_plugins.canasta import game as canasta_game
from cardcore_plugins.canasta import moves as cm
from cardcore_plugins.canasta.explain import explain
from cardcore_plugins.canasta.house_rules import HOUSE_RULES
from cardcore_plugins.canasta.state import CanastaState

NAMES = ["Ann", "Bob", "Cid", "Dee"]
OTHER_CARDS = ["AS", "KH", "QD", "JC", "10S", "9H", "8D", "7C", "6S", "5H", "4D", "3C", "3H", "2S", "JOKER"]


def said(text: Any, lang: str) -> str:
    """``text`` as a person of ``lang`` reads it, the players named."""
    return i18n.render(text, lang, names=NAMES)


def check(text: Any, lang: str, where: str) -> None:
    """No English left in ``text`` said in ``lang``; its ``str`` its English."""
    assert isinstance(text, i18n.Text), f"{where}: {text!r} is not a Text"
    assert english_left(said(text, lang), allowed=NAMES) == [], f"{where}: {text!r} → {said(text, lang)!r}"
    assert str(text) == i18n.render(text, "en", card=str), f"{where}: {text!r}"


def table(players: int, house_rules: tuple[str, ...] = ()) -> Table:
    return Table.from_names(REGISTRY, "canasta", players, {}, list(house_rules), names=NAMES[:players])


def random_positions(t: Table, seeds: range, every: int = 1) -> Iterator[CanastaState]:
    """The positions of random play (a deal per seed), one in ``every``."""
    for seed in seeds:
        rng = random.Random(seed)
        s = t.new_match(seed).start_deal()
        step = 0
        while not t.is_deal_over(s) and step < 300:
            if step % every == 0:
                yield s
            legal = t.legal_moves(s)
            t.apply(s, rng.choice(legal), legal)
            step += 1


def candidates(s: CanastaState) -> list[Move]:
    """Moves a person might type here, most of them illegal: each kind with and
    without a card, the hand's cards (and others) discarded, added, melded."""
    hand = sorted({c.name for c in s.hands[s.to_act]})
    out = [
        Move(k) for k in ("draw", "take_pile", "commit", "withdraw", "ask_go_out", "stop", "discard", "add")
    ]
    out += [cm.answer(True), cm.answer(False)]
    out += [
        Move(k, card("KH"))
        for k in ("draw", "take_pile", "commit", "withdraw", "ask_go_out", "answer", "stop")
    ]
    for name in [*hand, *OTHER_CARDS]:
        c = card(name)
        out += [Move("discard", c), Move("add", c), Move("meld", c), cm.add(c, "K"), cm.add(c, "3")]
    for a in hand[:6]:
        for b in hand[:6]:
            out.append(Move("take_pile", None, (), (("cards", (card(a), card(b))),)))
            out.append(Move("meld", None, (), (("cards", (card(a), card(b), card(hand[0]))),)))
    out.append(Move("meld", None, (), (("cards", (card("KH"), card("KS"), card("KD"), card("KC"))),)))
    out.append(Move("take_pile", None, (), (("cards", (card("JOKER"),)),)))
    return out


def reasons(t: Table, s: CanastaState) -> Iterator[tuple[Move, str]]:
    legal = t.legal_moves(s)
    plugin = t.pm.get_plugin("canasta")
    seat = s.to_act
    may_out = plugin._may_go_out(s, seat) if s.phase != "answer" else True
    minimum = 0 if s.melds[s.team_at[seat]] else plugin.initial_minimum(s, seat)
    for m in candidates(s):
        if m not in legal:
            yield m, explain(s, m, legal, may_out, minimum)


@pytest.mark.parametrize("players,house_rules", [(2, ()), (4, ()), (4, ("canasta.permission_required",))])
def test_move_texts_and_reasons_leave_no_english(
    pseudo_locale: str, players: int, house_rules: tuple
) -> None:
    t = table(players, house_rules)
    texts: dict[str, Any] = {}
    why: dict[str, Any] = {}
    positions = 0
    for s in random_positions(t, range(4)):
        positions += 1
        for m in t.legal_moves(s):
            text = t.move_text(m, s)
            texts.setdefault(text, text)
        if positions % 7 == 0:  # the reasons: a position in seven
            for _, reason in reasons(t, s):
                why.setdefault(reason, reason)
    assert positions >= 200
    for text in texts.values():
        check(text, pseudo_locale, "move text")
    for reason in why.values():
        check(reason, pseudo_locale, "reason")
    assert len({r.msgid for r in why.values()}) >= 20  # many rules' reasons met


@pytest.mark.parametrize("path", sorted((POSITIONS / "canasta").glob("*.yaml")), ids=lambda p: p.stem)
def test_reasons_in_the_position_files_leave_no_english(pseudo_locale: str, registry, path) -> None:
    t, s = position_from_data(yaml.safe_load(path.read_text()), registry)
    assert isinstance(s, CanastaState)
    for m, reason in reasons(t, s):
        check(reason, pseudo_locale, f"{path.name}: {m}")
        check(t.explain_illegal(s, m), pseudo_locale, f"{path.name}: the hook")


@pytest.mark.parametrize("players,house_rules", [(2, ()), (3, ()), (4, ())])
def test_events_and_breakdowns_leave_no_english(pseudo_locale: str, players: int, house_rules: tuple) -> None:
    t = table(players, house_rules)
    plugin = t.plugin
    events = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = t.new_match(seed).start_deal()
        before = t.spectate(s)
        while not t.is_deal_over(s):
            legal = t.legal_moves(s)
            t.apply(s, rng.choice(legal), legal)
            after = t.spectate(s)
            for event in plugin.events(before, after, list(NAMES[:players])):
                check(event, pseudo_locale, "event")
                events += 1
            before = after
        t.finish_deal(s)
        for event in plugin.deal_events(s, list(NAMES[:players])):
            check(event, pseudo_locale, "deal event")
        for side in t.score_deal(s):
            for key in side.breakdown:
                check(key, pseudo_locale, "breakdown")
    assert events > 0


def test_red_threes_laid_by_you(pseudo_locale: str) -> None:
    """The person at the terminal (``You``) lays: the event says "You lay"."""
    one, two = [card("3H")], [card("3H"), card("3D")]
    for who, cards, english in [
        (["You"], one, "You lay the red three 3H (N7)"),
        (["You"], two, "You lay the red threes 3H 3D (N7)"),
        (["Ann"], two, "Ann lays the red threes 3H 3D (N7)"),
        (["Ann", "Cid"], one, "Ann/Cid lay the red three 3H (N7)"),
    ]:
        text = canasta_game.red_threes_laid(who, cards)
        assert text == english
        check(text, pseudo_locale, "event")


def test_deal_endings_leave_no_english(pseudo_locale: str) -> None:
    t = table(4)
    s = t.new_match(1).start_deal()
    for went_out, concealed, last in [
        (None, False, False),
        (None, False, True),
        (1, False, False),
        (1, True, True),
    ]:
        s.went_out, s.went_out_concealed, s.last_red_three = went_out, concealed, last
        for event in t.plugin.deal_events(s, NAMES):
            check(event, pseudo_locale, "deal event")


def test_goal_title_summary_house_rules_option(pseudo_locale: str) -> None:
    for players in (2, 3):
        check(table(players).plugin.goal(), pseudo_locale, "goal")
    spec = canasta_game.SPEC
    check(spec.title, pseudo_locale, "title")
    check(spec.summary, pseudo_locale, "summary")
    for rule in HOUSE_RULES:
        check(rule.summary, pseudo_locale, rule.name)
    # the option's description: marked (N_), said by the game's domain
    description = canasta_game.Options.model_fields["target"].description
    assert description == "match target; default 5000, 7500 with 3 players (N1)"
    assert english_left(i18n.gettext(description, domain="canasta", lang=pseudo_locale)) == []


def view_labels(obs: Observation) -> Iterator[str]:
    """The labels the terminal shows for a view's items (keys, ``_`` as a
    space, and the words among their values), nested ones too."""
    for key, value in obs.public.items():
        yield key.replace("_", " ")
        if key in ("phase", "asked"):
            yield str(value)
        if isinstance(value, list):
            for item in value:
                if isinstance(item, dict) and "seats" in item:
                    yield from (k.replace("_", " ") for k in item if k != "seats")
        if key == "pile":
            yield from (k for k in value if k == "frozen")


def test_view_labels_are_in_the_catalog(pseudo_locale: str) -> None:
    shown: set[str] = set()
    for players in (2, 3, 4):
        t = table(players)
        for s in random_positions(t, range(2), every=3):
            for seat in (None, s.to_act):
                shown |= set(view_labels(t.observe(s, seat)))
    assert {"phase", "pile", "sides", "melds", "red threes", "meld points", "frozen", "draw", "play"} <= shown
    assert t.plugin.domain == "canasta"
    for label in sorted(shown):
        word = i18n.pgettext("view item", label, domain="canasta", lang=pseudo_locale)
        assert word != label and english_left(word) == [], label


def test_a_meld_shown_with_its_canasta(pseudo_locale: str) -> None:
    t = table(2)
    cards: list[Card] = [card(n) for n in ("KH", "KS", "KD", "KC", "KH", "KS", "JOKER")]

    def show(v: Any) -> str:
        return " ".join(i18n.card_text(c, symbols=False) for c in v)

    for kind in ("natural", "mixed"):
        item = {"rank": "K", "cards": cards, "canasta": kind}
        assert t.plugin.show_item(item, show, str) == "KH KS KD KC KH KS JOKER canasta (" + kind + ")"
        with i18n.using(pseudo_locale):
            shown = t.plugin.show_item(item, show, str)
        assert shown is not None and english_left(shown) == [], shown


BAD_POSITIONS = [
    {"melds": {0: [["KH", "QS", "KD"]]}},  # one rank
    {"melds": {0: [["KH", "KS", "KD"], ["KC", "KH", "KS"]]}},  # two of a rank
    {"melds": {0: [["KH", "KS"]]}},  # too short
    {"melds": {0: [["2H", "2S", "JOKER"]]}},  # no natural card
    {"melds": {0: [["3S", "3C", "JOKER"]]}},  # black threes with a wild card
    {"melds": {0: "KH"}},  # not a list
    {"red_threes": {0: ["3S"]}},
    {"scores": {0: "many"}},
    {"known": {1: ["AS"]}},
    {"known": ["AS"]},
    {"new_ranks": ["Z"]},
    {"new_ranks": "K"},
    {"pile_taker": 0},  # only with 3 players
    {"hands": {0: [], 1: ["9C", "3H"], 2: [], 3: ["JOKER"]}, "went_out": None},  # a red three in hand
    {"phase": "pile", "went_out": None},
    {"phase": "answer"},  # N12: asked pending
    {"asked": "pending"},  # N12: phase answer
    {"asked": "yes", "phase": "draw"},  # N12a
    {"last_red_three": True, "stock": ["9C"]},  # N13a
    {"last_red_three": True},  # N13a: phase draw
    {"last_red_three": True, "phase": "play", "to_act": 1},  # N13a: side 1 laid no red three
]


@pytest.mark.parametrize("change", BAD_POSITIONS, ids=lambda c: ",".join(c))
def test_position_errors_are_texts(pseudo_locale: str, change: dict) -> None:
    """A position file's error (naming its field) is a text of the catalog."""
    raw = {**yaml.safe_load((POSITIONS / "canasta" / "n14_score.yaml").read_text()), **change}
    t = table(4)
    with pytest.raises(PositionError) as err:
        t.load_state(raw)
    text = err.value.args[0]
    assert isinstance(text, i18n.Text), text
    fields = [w for v in text.args.values() for w in re.findall(r"[A-Za-z]+", str(v))]
    assert english_left(said(text, pseudo_locale), allowed=fields) == [], said(text, pseudo_locale)
    assert str(err.value) == i18n.render(text, "en")
