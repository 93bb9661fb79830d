"""The terminal's autosave (``cardcore.terminal.autosave.Journal``): written line by
line, private to its owner, rewritten without an undone move."""

from __future__ import annotations

import os

from cardcore.table import Table
from cardcore.terminal.autosave import Journal, autosave_path, newest, state_dir


def test_the_journal_writes_each_line_and_forgets_an_undone_move(registry):
    table = Table.from_names(registry, "carrousel", 2)
    path = autosave_path("carrousel")
    assert path.parent == state_dir() and os.environ["CARDCORE_STATE_DIR"] in str(path)
    journal = Journal(path, table, ["human", "greedy"], 5)
    assert path.stat().st_mode & 0o777 == 0o600
    journal.write({"event": "match_start", "match": 1, "seed": 5})
    mark = journal.checkpoint()
    journal.write({"event": "move", "seat": 0, "move": {"kind": "trail", "text": "undone"}})
    assert "undone" in path.read_text()  # on disk at once
    journal.rewind(mark)
    journal.write({"event": "move", "seat": 0, "move": {"kind": "trail", "text": "played"}})
    text = path.read_text()
    assert "undone" not in text and "played" in text and text.count('"event":"table"') == 1
    assert newest() == path
    journal.remove()
    assert not path.exists() and newest() is None


def test_a_journal_goes_on_from_the_lines_before(registry):
    table = Table.from_names(registry, "carrousel", 2)
    path = autosave_path("carrousel")
    first = Journal(path, table, ["human", "greedy"], 5)
    first.write({"event": "match_start", "match": 1, "seed": 5})
    first.finish()
    before = path.read_text()
    again = Journal(path, table, ["human", "greedy"], 5, before)
    again.write({"event": "move", "seat": 0, "move": {"kind": "trail", "text": "next"}})
    after = path.read_text()
    assert after.startswith(before) and after.count('"event":"table"') == 1 and "next" in after
    again.finish()
