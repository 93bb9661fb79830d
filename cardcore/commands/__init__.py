"""The ``cardcore`` command's commands, one module per family:

* ``inspecting``: ``games``, ``house-rules``, ``rules``, ``moves``, ``score``,
  ``replay``, ``validate``, ``schema``;
* ``play``: ``play`` (a game at the terminal);
* ``measure``: ``simulate``, ``arena``, ``study`` (bots only);
* ``serve``: ``serve`` (tables in the browser; its options one ``ServeSettings``).

Each module has ``register_commands(cli)``, which adds its commands to the
group (``cardcore.cli.main``); ``base`` holds what they share. A third-party
package adds commands the same way through the hook
``cardcore_register_commands(cli)`` (``plugins``, docs/PLUGINS.md). These
modules import click and the i18n module only: ``cardcore --help`` imports
them all, and the engine is imported by the commands when they run.
"""

from __future__ import annotations

import click

from cardcore.commands import inspecting, measure, play, serve

FAMILIES = (inspecting, play, measure, serve)


def register_builtin(cli: click.Group) -> None:
    """Add every built-in command to ``cli``: called once, by ``cardcore.cli``."""
    for family in FAMILIES:
        family.register_commands(cli)
