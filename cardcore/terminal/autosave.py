"""The terminal's autosave: a game with a person kept resumable move by move.

``cardcore play`` with a person at the table writes every line of the game's
log, as it happens, to ``last-<game>.jsonl`` in the user's state folder
(``$CARDCORE_STATE_DIR``, else ``$XDG_STATE_HOME/cardcore``, else
``~/.local/state/cardcore``), mode 0600: a game killed, crashed or cut off
(Ctrl-C, a closed terminal) goes on with ``cardcore play --last`` up to its
last move. The file is the same JSON-lines log as ``--log`` writes, so it
replays (``cardcore replay --check``). It holds the deal, as it must to be
resumed: it lives on the player's own machine, which is trusted (reading it
while playing is cheating oneself). A game that ends, or that the person
quits (``q``, saving it or not), removes it.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import IO, Any

from cardcore.log import GameLog


def state_dir() -> Path:
    """The folder of the user's cardcore state (created on first use)."""
    given = os.environ.get("CARDCORE_STATE_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cardcore"


def autosave_path(game: str) -> Path:
    """Where the last game of ``game`` with a person is kept."""
    return state_dir() / f"last-{game}.jsonl"


def newest() -> Path | None:
    """The most recent autosave of any game, or None."""
    folder = state_dir()
    if not folder.is_dir():
        return None
    found = sorted(folder.glob("last-*.jsonl"), key=lambda p: p.stat().st_mtime)
    return found[-1] if found else None


def _open_private(path: Path) -> IO[str]:
    """``path`` emptied and opened for writing, readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)  # an older file keeps its mode otherwise
    return os.fdopen(fd, "w", encoding="utf-8")


class Journal(GameLog):
    """The autosave: a log written line by line as the game goes (never held
    back), flushed at each line (a killed process loses nothing written) and
    synced at each deal's end. An undone move is taken out of the file (the
    file is written anew from the lines kept)."""

    def __init__(self, path: Path, table: Any, kinds: list[str], seed: Any, before: str = "") -> None:
        self.path = path
        self.lines: list[str] = [line + "\n" for line in before.splitlines() if line.strip()]
        stream = _open_private(path)
        stream.write("".join(self.lines))
        stream.flush()
        super().__init__(stream, table, kinds, seed, header=not self.lines, private=False)

    def _put(self, line: str) -> None:
        self.lines.append(line)
        super()._put(line)

    def checkpoint(self) -> Any:
        return len(self.lines)

    def rewind(self, token: Any) -> None:
        if token is None or token >= len(self.lines):
            return
        del self.lines[token:]
        tmp = self.path.with_name(self.path.name + ".tmp")
        with _open_private(tmp) as out:
            out.write("".join(self.lines))
            out.flush()
            os.fsync(out.fileno())
        self.stream.close()
        os.replace(tmp, self.path)
        self.stream = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (kept open: the game goes on)

    def remove(self) -> None:
        """The game ended or was quit: nothing is left to resume."""
        with contextlib.suppress(OSError):
            self.stream.close()
        with contextlib.suppress(OSError):
            self.path.unlink()

    def finish(self) -> None:
        """The program stops with the game unfinished: the file stays, synced."""
        self.sync()
        with contextlib.suppress(OSError):
            self.stream.close()
