"""Carrousel's and Paquet voleur's texts in the person's language (issue 24):
every text the two games give a person goes through their catalogs — proved
in the pseudo-locale (no English left) over random-play positions of several
tables — while its English value (logs, JSON, golden files) stays as it was."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from conftest import REGISTRY
from explaincheck import candidates
from pseudo_locale import CODE, english_left
from pydantic import ValidationError

from cardcore import i18n
from cardcore.cards import card
from cardcore.game import GamePlugin
from cardcore.position_file import position_from_data
from cardcore.runner import make_players
from cardcore.table import Table

# (game, players, options, house rules): both games, every player count, options and rules
# that change the texts (a 54-card deck has no broom; strict pairs explain their own reasons)
TABLES = [
    ("carrousel", 2, {}, ()),
    ("carrousel", 3, {"deck": 55}, ("carrousel.strict_pairs",)),
    ("carrousel", 4, {}, ("carrousel.free_trail",)),
    ("carrousel", 4, {"partnerships": False, "suit": "spades"}, ("carrousel.specials_back",)),
    ("carrousel", 2, {"deck": 54, "target": 30}, ()),
    ("paquet_voleur", 2, {}, ()),
    ("paquet_voleur", 3, {"deals": 2}, ("paquet_voleur.take_all_of_rank",)),
    ("paquet_voleur", 4, {"partnerships": True}, ("paquet_voleur.last_taker_takes_table",)),
]
GAMES = ("carrousel", "paquet_voleur")
NAMES = ["Ana", "Bo", "Cy", "Di"]
FILE_WORDS = {"table", "build", "owner", "cards"}  # a position file's keys, the same in every language


def canonical(text: Any) -> str:
    """The English rendering with cards in canonical notation (what logs keep)."""
    return i18n.render(text, "en", card=lambda c: c.name)


def check(text: Any, what: str, sides: Any = ((0,), (1,), (2,), (3,)), allowed: Any = ()) -> str:
    """``text`` is a ``Text`` said in the pseudo-locale with no English left
    (its sides said by the players' names, and as "side n"), and its ``str``
    is its English rendering; its pseudo rendering."""
    assert isinstance(text, i18n.Text), f"{what}: {text!r} is not marked (a plain str)"
    said = i18n.render(text, CODE, names=NAMES, sides=sides)
    assert english_left(said, {*NAMES, *allowed}) == [], f"{what}: {text!r} said {said!r}"
    bare = i18n.render(text, CODE)
    assert english_left(bare, {*NAMES, *allowed}) == [], f"{what}: {text!r} said {bare!r}"
    assert str(text) == canonical(text), f"{what}: {text!r}"
    return said


def _is_card(key: str) -> bool:
    """A breakdown's key that is a card (``10D``, ``2C``): said as a card."""
    return re.fullmatch(r"(?:10|[2-9AJQK])[CDHS]", key) is not None


def _play(table: Table, deals: int, seed: int) -> dict[str, int]:
    """Random play of ``deals`` deals: every text a person reads checked."""
    plugin = table.plugin
    names = list(table.names)
    players = make_players(table, ["random"] * table.players, seed)
    master = random.Random(seed)
    match = table.new_match(master.getrandbits(63))
    counts = {"positions": 0, "moves": 0, "reasons": 0, "events": 0, "breakdowns": 0}
    for _ in range(deals):
        if match.over:
            match = table.new_match(master.getrandbits(63))
        state = match.start_deal()
        step = 0
        while not table.is_deal_over(state):
            moves = table.legal_moves(state)
            counts["positions"] += 1
            for m in moves:
                check(table.move_text(m, state), "move text", table.sides)
                counts["moves"] += 1
            if step % 4 == 0:  # the reasons why not, of the moves a person might try
                legal = set(moves)
                for move in candidates(table, state)[:40]:
                    if move in legal:
                        continue
                    reason = table.explain_illegal(state, move)
                    if reason is not None:
                        check(reason, f"why not {move!r}", table.sides)
                        counts["reasons"] += 1
            before = table.spectate(state)
            for key in before.public:
                said = i18n.pgettext("view item", key.replace("_", " "), plugin.domain, CODE)
                assert english_left(said) == [], f"view item {key!r}: {said!r}"
            p = players[state.to_act]
            table.apply(state, p.choose(None, tuple(moves)), moves)
            for event in plugin.events(before, table.spectate(state), names):
                if isinstance(event, i18n.Text) or type(plugin).events is not GamePlugin.events:
                    check(event, "event", table.sides)  # the core's default event is the core's to mark
                counts["events"] += 1
            step += 1
        result = match.end_deal(state)
        for event in plugin.deal_events(state, names):
            check(event, "deal event", table.sides)
            counts["events"] += 1
        for side in result.sides:
            for key in side.breakdown:
                if _is_card(key):  # 10D, 2C: said as cards
                    continue
                said = i18n.pgettext("breakdown", key.replace("_", " "), plugin.domain, CODE)
                assert english_left(said) == [], f"breakdown {key!r}: {said!r}"
                counts["breakdowns"] += 1
    return counts


@pytest.mark.parametrize(("game", "players", "options", "rules"), TABLES)
def test_random_play_says_no_english_in_the_pseudo_locale(
    pseudo_locale: str, game: str, players: int, options: dict[str, Any], rules: tuple[str, ...]
) -> None:
    table = Table.from_names(REGISTRY, game, players, options, rules, NAMES[:players])
    counts = _play(table, deals=2, seed=24 + players)
    assert counts["positions"] >= 30 and counts["moves"] >= counts["positions"]
    assert counts["reasons"] > 0 and counts["breakdowns"] > 0
    if game == "carrousel":
        assert counts["events"] >= 2  # the deal's end says who takes the table
    check(table.plugin.goal(), "goal")


@pytest.mark.parametrize("game", GAMES)
def test_the_games_words_say_no_english(pseudo_locale: str, game: str) -> None:
    spec = REGISTRY.game(game)
    check(spec.title, "title")
    check(spec.summary, "summary")
    for key, field in spec.options_model.model_fields.items():
        check(field.description, f"option {key}")
    for rule in REGISTRY.house_rules.values():
        if rule.game == game:
            check(rule.summary, rule.name)
    error = spec.check_table(2, spec.options_model(partnerships=True)) if spec.check_table else None
    check(error, "partnerships with 2 players")
    table = Table.from_names(REGISTRY, game, 4, {}, (), NAMES)
    assert type(table.plugin).domain == game


def test_carrousel_options_error_and_build_say_no_english(pseudo_locale: str) -> None:
    spec = REGISTRY.game("carrousel")
    with pytest.raises(ValidationError) as info:
        spec.options_model(deck=56, without="broom")
    error = info.value.errors()[0]["ctx"]["error"]
    said = check(error.args[0], "options error")
    assert str(error.args[0]) == "without= is for the 55-card deck, not for 56 cards (C2)"
    assert said != str(error.args[0])
    table = Table.from_names(REGISTRY, "carrousel", 2, {}, (), NAMES[:2])
    build = {"build": [card("5C"), card("3D")], "value": 8, "owner": 1}
    with i18n.using(CODE):
        shown = table.plugin.show_item(build, lambda c: i18n.card_text(c), lambda s: NAMES[s])
    assert shown is not None and english_left(shown, {"Bo"}) == [] and "Bo" in shown
    assert table.plugin.show_item(build, str, lambda s: NAMES[s]) == "[5C+3D=8 of Bo]"


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        (["5C", {"build": ["5D"], "owner": 0}], "a build holds two or more cards"),
        (["5C", {"build": ["KD", "5D"], "owner": 0}], "a build holds two or more cards"),
        ([{"build": ["10D", "10C", "5S"], "owner": 0}], "build value 25 is above 20"),
        ([{"build": ["5D", "3C"], "owner": 0}, {"build": ["4D", "3S"], "owner": 0}], "owns two builds"),
        ([{"build": ["5D", "3C"]}], "a build is {build: [cards…], owner: SEAT}"),
        ("5C 5D", "expected a list of cards and builds"),
    ],
)
def test_carrousel_position_errors_say_no_english(pseudo_locale: str, table: Any, problem: str) -> None:
    data = {
        "game": "carrousel",
        "players": 2,
        "dealer": 0,
        "to_act": 1,
        "hands": [["2H"], ["9H"]],
        "table": table,
        "stock": [],
        "piles": [[], []],
    }
    with pytest.raises(Exception) as info:
        position_from_data(data, REGISTRY, "p.yaml")  # a file name: not language
    texts = [a for e in (info.value, info.value.__cause__, info.value.__context__) if e for a in e.args]
    marked = [t for t in texts if isinstance(t, i18n.Text) and problem in t]
    assert marked, f"{problem!r} not a Text in {texts!r}"
    check(marked[0], "position error", allowed=FILE_WORDS)


def test_an_unmarked_text_is_caught(pseudo_locale: str) -> None:
    """The check can fail: a plain string, or a Text whose message has no entry."""
    with pytest.raises(AssertionError):
        check("5D takes 5C", "move text")
    with pytest.raises(AssertionError):
        check(i18n.Text("carrousel", "{card} takes it all", {"card": card("5D")}), "move text")
