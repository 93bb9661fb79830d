from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardcore.cli import main
from cardcore.plugins import Registry, discover
from cardcore.position_file import read_position

POSITIONS = Path(__file__).parent / "positions"
# Every installed game, and each of its example tables (GameSpec.tables():
# every player count unless the game names its own): what the engine-wide
# checks (hidden information, determinism, sampling, the web table, the
# search bot) run on. Derived, never listed: a new folder of plugins/ is
# covered by them without a line here.
REGISTRY = discover()
GAMES = sorted(REGISTRY.games)
EVERY_TABLE = [(game, players, opts) for game in GAMES for players, opts in REGISTRY.game(game).tables()]


def largest_table(game: str) -> tuple[int, dict[str, Any]]:
    """The example table of ``game`` with the most players (for tests that
    play one table per game)."""
    return max(REGISTRY.games[game].tables(), key=lambda t: t[0])


def smallest_table(game: str) -> tuple[int, dict[str, Any]]:
    """The example table of ``game`` with the fewest players."""
    return min(REGISTRY.games[game].tables(), key=lambda t: t[0])


@pytest.fixture(autouse=True)
def _own_state_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal's autosave (``cardcore.terminal.autosave``) goes to a folder of the
    test's own, never to the user's state folder (subprocesses inherit it)."""
    monkeypatch.setenv("CARDCORE_STATE_DIR", str(tmp_path_factory.mktemp("state")))


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests read English whatever the developer's locale (the CLI follows
    ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); a test asks for a
    language with ``--lang`` or sets them itself."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


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


from pseudo_locale import pseudo_dir, pseudo_locale  # noqa: E402  (fixtures)

__all__ = ["pseudo_dir", "pseudo_locale"]
