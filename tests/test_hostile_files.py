"""Position files whose fields are of the wrong shape or contradict each other
are refused: one line naming the file and the field, exit code 2, for
`moves`, `score` and `play --from` alike (issue #46, item 9).

The hostile files are under ``tests/positions/hostile/``, each saying what it
was read as before; the variants below change one field of a good position.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import POSITIONS, REGISTRY, run_cli

from cardcore.errors import CardcoreError
from cardcore.position_file import position_from_data
from cardcore.table import Table

HOSTILE = POSITIONS / "hostile"

# file → what the one line says (after "FILE: ")
FILES = {
    "carrousel_build_as_text.yaml": (
        "table[0].build: expected a list of cards such as [2H, 3H], not the text '2H 3H'"
    ),
    "canasta_asked_pending_in_play.yaml": (
        "asked: pending: the partner has not answered yet, so phase: answer, not play (N12)"
    ),
    "canasta_asker_answers.yaml": (
        'phase: answer: only a partner answers "May I go out?", so only with 4 players (N12)'
    ),
    "canasta_stop_with_stock.yaml": (
        "last_red_three: the stock's last card was a red three, so the stock is empty (N13a)"
    ),
}


def _one_line(code: int, out: str, path: Path, said: str) -> None:
    assert code == 2, out
    assert "Traceback" not in out and len(out.strip().splitlines()) == 1, out
    assert out.strip() == f"error: {path}: {said}", out


@pytest.mark.parametrize("name", sorted(FILES))
@pytest.mark.parametrize("command", ["moves", "score"])
def test_hostile_files_are_refused_in_one_line(name, command):
    path = HOSTILE / name
    _one_line(*run_cli(command, str(path)), path, FILES[name])


@pytest.mark.parametrize("name", sorted(FILES))
def test_play_from_a_hostile_file_is_refused(name):
    path = HOSTILE / name
    _one_line(*run_cli("play", "--from", str(path)), path, FILES[name])


def test_every_hostile_file_is_tested():
    assert sorted(p.name for p in HOSTILE.glob("*.yaml")) == sorted(FILES)


def _good(name: str) -> dict[str, Any]:
    data = yaml.safe_load((POSITIONS / name).read_text())
    assert position_from_data(dict(data), REGISTRY)  # the position itself reads
    return data


def _refused(data: dict[str, Any], change: dict[str, Any]) -> str:
    with pytest.raises(CardcoreError) as err:
        position_from_data({**data, **change}, REGISTRY, "p.yaml")
    text = str(err.value)
    assert "\n" not in text and text.startswith("p.yaml: "), text
    return text.removeprefix("p.yaml: ")


# ---- a text where a list of cards belongs ---------------------------------------

TEXT = "expected a list of cards such as [2H, 3H], not the text"


@pytest.mark.parametrize(
    "name,change,field",
    [
        ("carrousel/c8_build.yaml", {"hands": {0: "AH 6S", 1: ["6D", "3H", "9C"], 2: ["5C"]}}, "hands.0"),
        ("carrousel/c8_build.yaml", {"stock": "KD KS"}, "stock"),
        ("carrousel/c8_build.yaml", {"piles": {0: "KD KS"}}, "piles.0"),
        ("carrousel/c8_build.yaml", {"table": ["2C", {"build": "3D,4C", "owner": 1}]}, "table[1].build"),
        ("canasta/n12a_ask_meld_all.yaml", {"discard": "4S 7C"}, "discard"),
        ("canasta/n12a_ask_meld_all.yaml", {"melds": {0: ["JC JS JD JH"], 1: []}}, "melds.0[0]"),
        ("canasta/n12a_ask_meld_all.yaml", {"red_threes": {0: "3H 3D"}}, "red_threes.0"),
        ("canasta/n12a_ask_meld_all.yaml", {"known": {0: "JH JD"}}, "known.0"),
        ("canasta/n12a_ask_meld_all.yaml", {"pile_held": "5C 6C"}, "pile_held"),
        ("paquet_voleur/p5_pair_steal.yaml", {"table": "5C KD"}, "table"),
        ("paquet_voleur/p5_pair_steal.yaml", {"piles": {1: "3C 9D"}}, "piles.1"),
    ],
)
def test_a_text_where_a_list_of_cards_belongs_is_refused(name, change, field):
    said = _refused(_good(name), change)
    assert said.startswith(f"{field}: {TEXT} "), said


def test_a_list_of_cards_still_reads_and_null_is_empty():
    data = _good("carrousel/c8_build.yaml")
    _, state = position_from_data({**data, "stock": None, "piles": {0: None, 1: ["KD"]}}, REGISTRY)
    assert state.stock == [] and [[c.name for c in p] for p in state.piles] == [[], ["KD"], []]


# ---- Canasta: fields that contradict each other (N12, N12a, N13a, N13c) ----------


@pytest.mark.parametrize(
    "name,change,said",
    [
        # N12: the partner answers in phase answer, asked pending
        (
            "canasta/n12a_ask_meld_all.yaml",
            {"asked": "pending"},
            "asked: pending: the partner has not answered yet, so phase: answer, not play (N12)",
        ),
        (
            "canasta/n12a_ask_meld_all.yaml",
            {"phase": "answer", "to_act": 2},
            "phase: answer: the partner answers a question asked, so asked: pending (N12)",
        ),
        (
            "canasta/n12a_ask_meld_all.yaml",
            {"phase": "answer", "to_act": 2, "asked": "yes"},
            "phase: answer: the partner answers a question asked, so asked: pending (N12)",
        ),
        # N12a: asked after the turn's draw, never before it
        (
            "canasta/n12a_ask_meld_all.yaml",
            {"phase": "draw", "asked": "no"},
            "asked: no: the question comes after the turn's draw (N12a), not in phase: draw",
        ),
        # N12: only a partner answers: 4 players (the asker cannot answer himself)
        (
            "canasta/n13_exhausted.yaml",
            {"players": 3, "dealer": 2, "phase": "answer", "asked": "pending", "hands": {0: ["9S"]}},
            'phase: answer: only a partner answers "May I go out?", so only with 4 players (N12)',
        ),
        (
            "canasta/n13_exhausted.yaml",
            {"players": 2, "dealer": 1, "phase": "play", "asked": "yes", "hands": {0: ["9S"], 1: ["4D"]}},
            'asked: yes: only a partner answers "May I go out?", so only with 4 players (N12)',
        ),
        # N13a: stop only in the turn of the stock's last card, a red three
        (
            "canasta/n13a_red_three_no_bonus.yaml",
            {"stock": ["9C"]},
            "last_red_three: the stock's last card was a red three, so the stock is empty (N13a)",
        ),
        (
            "canasta/n13a_red_three_no_bonus.yaml",
            {"phase": "draw"},
            "last_red_three: the player has drawn it, so phase: play or answer, not draw (N13a)",
        ),
        (
            "canasta/n13a_red_three_no_bonus.yaml",
            {"red_threes": {0: [], 1: ["3D"]}},
            "last_red_three: the player laid it for his side, but red_threes.0 is empty (N13a)",
        ),
    ],
)
def test_canasta_fields_that_contradict_each_other_are_refused(name, change, said):
    assert _refused(_good(name), change) == said


@pytest.mark.parametrize(
    "change",
    [
        {"phase": "answer", "to_act": 2, "asked": "pending"},  # the partner answers (N12)
        {"asked": "yes"},  # answered: back to play (N12)
        {"asked": "no"},
        {"phase": "draw", "stock": ["9S"], "asked": None},
    ],
)
def test_canasta_turns_the_engine_reaches_still_read(change):
    data = _good("canasta/n12a_ask_meld_all.yaml")
    position_from_data({**data, **change}, REGISTRY)


def test_n13c_asked_in_the_last_red_three_turn_still_reads():
    # N13c: he may ask in that turn: the partner answers (phase answer, seat 2 to act)
    data = _good("canasta/n13a_red_three_no_bonus.yaml")
    table, state = position_from_data({**data, "phase": "answer", "to_act": 2, "asked": "pending"}, REGISTRY)
    assert state.turn == 0 and [m.kind for m in table.legal_moves(state)] == ["answer", "answer"]


def _reads_back(table: Table, state: Any) -> None:
    data = {"game": "canasta", "players": table.players, **table.dump_state(state)}
    position_from_data(data, REGISTRY)


def test_the_engines_own_positions_read_back():
    """Every position of played Canasta deals (4 players: "May I go out?" asked
    whenever offered, then answered) is one the reader accepts: the checks
    refuse only what no deal reaches."""
    seen: set[str] = set()
    for players in (2, 3, 4):
        table = Table.from_names(REGISTRY, "canasta", players)
        for seed in range(4):
            rng = random.Random(seed)
            state = table.new_match(seed).start_deal()
            for _ in range(400):
                _reads_back(table, state)
                if table.is_deal_over(state):
                    break
                seen.add(f"{state.phase} {state.asked}")
                moves = table.legal_moves(state)
                ask = [m for m in moves if m.kind == "ask_go_out"]
                table.apply(state, ask[0] if ask else rng.choice(moves), moves)
    assert {"draw None", "play None", "answer pending"} <= seen and seen & {"play yes", "play no"}, seen


def test_the_last_red_three_turn_reads_back():
    # N13a: the stock's last card, a red three, drawn: the turn that follows reads back
    data = _good("canasta/n12_go_out.yaml")
    table, state = position_from_data({**data, "phase": "draw", "stock": ["3D"], "discard": ["7C"]}, REGISTRY)
    moves = table.legal_moves(state)
    table.apply(state, next(m for m in moves if m.kind == "draw"), moves)
    assert state.last_red_three and "stop" in [m.kind for m in table.legal_moves(state)]
    _reads_back(table, state)


# ---- a tables file: each seat kind's options (cardcore validate) -----------------


def test_validate_names_the_table_and_seat_of_a_bad_bot_option(tmp_path):
    path = tmp_path / "games.yaml"
    path.write_text(
        "tables:\n"
        "  evening:\n"
        "    game: carrousel\n"
        "    players: [{kind: 'hard:iterations=abc'}, {kind: random}, {kind: 'ismcts:foo=3'}]\n"
        "  late:\n"
        "    game: paquet_voleur\n"
        "    players: [{kind: human}, {kind: 'greedy:depth=2'}]\n"
    )
    code, out = run_cli("validate", str(path))
    assert code == 2 and "Traceback" not in out and "internal error" not in out, out
    lines = out.strip().splitlines()
    assert len(lines) == 3, out
    assert lines[0].startswith(f"{path}: tables.evening: players.0.kind: player kind 'hard': cannot use ")
    assert "iterations=abc" in lines[0] and "ValueError" in lines[0]
    assert lines[1].startswith(f"{path}: tables.evening: players.2.kind: player kind 'ismcts' has no option")
    assert lines[2].startswith(f"{path}: tables.late: players.1.kind: player kind 'greedy' has no option")
    assert "'foo'" in lines[1] and "'depth'" in lines[2]


def test_simulate_with_a_bad_bot_option_is_one_line():
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "hard:iterations=abc")
    assert code == 2 and len(out.strip().splitlines()) == 1, out
    assert out.startswith("error: player kind 'hard': cannot use the options iterations=abc"), out
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "ismcts:iterations=abc")
    assert code == 2 and len(out.strip().splitlines()) == 1, out  # the search names its own option
    assert out.startswith("error: ismcts: iterations='abc' is not a number"), out
