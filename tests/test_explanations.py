"""Explanations that are true (issue 21), for Carrousel and Paquet voleur
(Canasta's: tests/test_explain_canasta.py): over random positions of every
example table, each candidate move a person might try that is not legal gets
a reason, and what the reason says holds in the position (the claim checkers
below); and the wrong reasons once given are regression tests."""

from __future__ import annotations

import pytest
from conftest import EVERY_TABLE, REGISTRY
from explaincheck import check_explanations

from cardcore.cards import card
from cardcore.moves import Move
from cardcore.position_file import position_from_data
from cardcore.table import Table
from cardcore.terminal.human import HumanPlayer


def _others(table, state, move):
    return [m for m in table.legal_moves(state) if m.kind != "trail"]


def _with_card(table, state, move, kind=None):
    return [m for m in table.legal_moves(state) if m.card is not None and m.card.name == move.card.name
            and (kind is None or m.kind == kind)]  # fmt: skip


def carrousel_c10(table, state, move, reason):
    if "(C10)" in reason and not _others(table, state, move):
        return "says a capture or build is possible; every legal move is a trail"
    return None


def carrousel_owner(table, state, move, reason):
    if "(C8b)" in reason and state.build_of(state.to_act) is None:
        return "says he owns a build; he owns none"
    return None


def carrousel_nothing(table, state, move, reason):
    if "captures nothing here" in reason and _with_card(table, state, move, "capture"):
        return "says the card captures nothing; it has a legal capture"
    if "and there is none (C7)" in reason and any(
        getattr(i, "rank", 0) == move.card.rank for i in state.board
    ):
        return "says no card of its rank lies on the table; one does"
    return None


def pv_p5c(table, state, move, reason):
    if "(P5c)" in reason and not _others(table, state, move):
        return "says a pair or steal is possible; every legal move is a trail"
    return None


def pv_ranks(table, state, move, reason):
    if "no table card has the rank" in reason and any(t.rank == move.card.rank for t in state.board):
        return "says no table card has its rank; one has"
    if "no opponent's pile has a top card" in reason and _with_card(table, state, move, "steal"):
        return "says no pile can be stolen with it; one can"
    if "your own or your partner's pile" in reason and move.get("from") != table.side_of[state.to_act]:
        return "says the pile is his own side's; it is not"
    return None


CLAIMS = {
    "carrousel": [carrousel_c10, carrousel_owner, carrousel_nothing],
    "paquet_voleur": [pv_p5c, pv_ranks],
}
TABLES = [
    (game, players, options, rules)
    for game in CLAIMS
    for players, options in REGISTRY.game(game).tables()
    for rules in [
        (),
        *((h.name,) for h in REGISTRY.house_rules_for(game) if not h.players or players in h.players),
    ]
]


@pytest.mark.parametrize("game,players,options,rules", TABLES)
def test_every_explanation_holds_in_its_position(game, players, options, rules):
    table = Table.from_names(REGISTRY, game, players, options, list(rules))
    counts = check_explanations(table, deals=2, seed=players, claims=CLAIMS[game], limit=600)
    assert counts["explained"] > 20


def _person(table):
    human = HumanPlayer(table, 0, None)  # type: ignore[arg-type]
    human.echo = lambda line: None
    return human


def _explaining(human, table, state):
    human.explain = lambda move: table.explain_illegal(state, move)
    return table.legal_moves(state)


# C10: 5S takes 5C; 6H can neither capture nor build, and may not trail
MUST_CAPTURE = {
    "game": "carrousel",
    "players": 2,
    "dealer": 1,
    "to_act": 0,
    "hands": {"0": ["6H", "5S"], "1": ["9S", "2D"]},
    "table": ["5C", "KD"],
}


def test_a_card_typed_to_trail_is_told_the_rule_against_trailing():
    """Regression: typing 6H to trail was told the groups of a capture (C6);
    the rule that forbids it is C10 (capture or build when you can)."""
    table, state = position_from_data(dict(MUST_CAPTURE), REGISTRY, "must capture")
    human = _person(table)
    moves = _explaining(human, table, state)
    assert [table.move_text(m) for m in moves] == ["5S takes 5C"]
    said = human.parse("6h", moves)
    assert "(C10)" in said and "(C6)" not in said


def test_why_a_trail_typed_as_its_text_names_the_rule():
    """Regression: ``why 6h trails`` answered "'6h trails' is not a move"."""
    table, state = position_from_data(dict(MUST_CAPTURE), REGISTRY, "must capture")
    human = _person(table)
    moves = _explaining(human, table, state)
    for typed in ("6h trails", "trail 6h", "6H"):
        said = human.why(typed, moves)
        assert said.startswith("not legal:") and "(C10)" in said, (typed, said)
    assert human.why("5s takes 5c", moves) == "5♠ takes 5♣ is legal now"


def test_a_card_not_held_is_said_in_plain_words():
    table, state = position_from_data(dict(MUST_CAPTURE), REGISTRY, "must capture")
    reason = table.explain_illegal(state, Move("trail", card("QH")))
    assert reason == "you do not hold QH"
    assert "seat" not in (table.explain_illegal(state, Move("capture", card("AS"))) or "")


@pytest.mark.parametrize("game,players,options", EVERY_TABLE)
def test_every_game_gives_a_reason_that_holds_the_hand(game, players, options):
    """Every installed game (a new one too): each illegal candidate gets a
    reason, and none says a card is not in the hand when it is; the games'
    own claims are checked above (and in tests/test_explain_canasta.py)."""
    table = Table.from_names(REGISTRY, game, players, options)
    assert check_explanations(table, deals=1, seed=7, claims=[], limit=300)["explained"] > 10
