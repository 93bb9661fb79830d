"""tools/deviations.py: where a bot leaves the reference bot's move."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "tools"))

from deviations import deviations, main


def test_a_bot_against_itself_never_leaves_its_move() -> None:
    out = deviations("carrousel", 2, "greedy", "greedy", 2, 7)
    assert out["decisions"] > 0
    assert out["left"] == {}
    assert sum(out["same"].values()) == out["decisions"]


def test_a_search_leaves_greedy_somewhere_and_every_decision_is_counted() -> None:
    out = deviations("paquet_voleur", 2, "ismcts:iterations=10", "greedy", 2, 7)
    left = sum(out["left"].values())
    assert left > 0
    assert left + sum(out["same"].values()) == out["decisions"]
    assert all(" -> " in pair for pair in out["left"])
    assert len(out["points"]) == 2
    # the same seed gives the same counts
    assert deviations("paquet_voleur", 2, "ismcts:iterations=10", "greedy", 2, 7) == out


def test_the_command_prints_its_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["carrousel", "--players", "2", "--bot", "ismcts:iterations=5", "--deals", "1"]) == 0
    text = capsys.readouterr().out
    assert "decisions with a choice:" in text and "against greedy" in text
