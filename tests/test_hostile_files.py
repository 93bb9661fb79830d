"""Position files whose fields are of the wrong shape or contradict each other
are refused: one line naming the file and the field, exit code 2, for
`moves`, `score` and `play --from` alike (issue #46, item 9).

The hostile files are under ``tests/positions/hostile/``, each saying what it
was read as before; the variants below change one field of a good position.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import POSITIONS, REGISTRY, run_cli

from cardcore.errors import CardcoreError
from cardcore.position import position_from_data

HOSTILE = POSITIONS / "hostile"

# file → what the one line says (after "FILE: ")
FILES = {
    "carrousel_build_as_text.yaml": (
        "table[0].build: expected a list of cards such as [2H, 3H], not the text '2H 3H'"
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
