"""The shape of the code that the redesign of the front rooms (issue 47)
keeps: building a table loads no player, no terminal and no search (the
player kinds are built when a seat is made: ``cardcore.kinds``)."""

from __future__ import annotations

import subprocess
import sys


def test_building_a_table_loads_no_player_no_terminal_no_search():
    code = (
        "import sys\n"
        "from cardcore.plugins import discover\n"
        "from cardcore.table import Table\n"
        "registry = discover()\n"
        "for game in registry.games:\n"
        "    Table(registry.game(game))\n"
        "heavy = ('click', 'cardcore.players', 'cardcore.ismcts', 'cardcore.levels',\n"
        "         'cardcore.reads', 'cardcore.kinds', 'cardcore.render', 'cardcore.terminal')\n"
        "loaded = [m for m in heavy if m in sys.modules]\n"
        "print(','.join(loaded))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"building a table loaded {out.stdout.strip()}"


def test_the_kinds_are_there_when_a_seat_is_made(registry):
    from cardcore.table import Table

    table = Table(registry.game("carrousel"), 2)
    assert {"human", "random", "ismcts", "greedy", "easy", "normal", "hard", "expert"} <= set(
        table.player_kinds
    )
    assert table.player_kinds is table.player_kinds  # built once


def test_a_game_plugin_is_a_game_plugin(registry):
    """``Table.plugin`` is a ``GamePlugin`` (checked when the table is built),
    so the core reads its attributes as attributes, with the defaults the
    base class declares."""
    import dataclasses

    import pytest

    from cardcore.errors import PluginError
    from cardcore.game import GamePlugin
    from cardcore.table import Table

    table = Table(registry.game("carrousel"), 2)
    assert isinstance(table.plugin, GamePlugin) and table.plugin.hint_level == "expert:iterations=1000"

    class NotAGamePlugin:
        def __init__(self, table):
            self.table = table

    odd = dataclasses.replace(registry.game("carrousel"), plugin=NotAGamePlugin)
    with pytest.raises(PluginError, match="its plugin is no GamePlugin"):
        Table(odd, 2)
