from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardcore.cli import main
from cardcore.plugins import Registry, discover
from cardcore.position import read_position

POSITIONS = Path(__file__).parent / "positions"
# every game at every player count (and Paquet voleur's partnerships): the
# tables that the engine-wide checks (hidden information, sampling) run on
EVERY_TABLE = [
    ("paquet_voleur", 2, {}),
    ("paquet_voleur", 4, {"partnerships": True}),
    ("carrousel", 2, {}),
    ("carrousel", 3, {}),
    ("carrousel", 4, {}),
    ("canasta", 2, {}),
    ("canasta", 3, {}),
    ("canasta", 4, {}),
]


@pytest.fixture(scope="session")
def registry() -> Registry:
    return discover()


def position(name: str, registry: Registry | None = None):
    """(table, state) of a position file under tests/positions/."""
    return read_position(POSITIONS / name, registry or discover())


def run_cli(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.output


def cli_json(*args: str) -> Any:
    code, out = run_cli(*args)
    assert code == 0, out
    return json.loads(out)
