"""Commands of third-party packages: the hook ``cardcore_register_commands(cli)``
(``cardcore.hookspecs.DiscoverySpec``) of the plugins of the entry-point
group ``cardcore.commands``, called on the ``cardcore`` group.

The group asks for them the first time a name is not a built-in command or
the list of commands is shown (``cardcore --help``); ``cardcore play …``
never looks. Reading entry points imports ``importlib.metadata`` and pluggy
(some 30 ms of CPU, a third of ``cardcore --help``): first ``declared()``
looks at the ``entry_points.txt`` of the distributions on ``sys.path`` (the
files ``importlib.metadata`` reads), and where none names the group nothing
more is imported. ``CARDCORE_DISABLE_PLUGINS`` leaves a plugin out by its
entry point's name, as for games.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from importlib.machinery import PathFinder
from typing import Any

import click

GROUP = "cardcore.commands"


def declared() -> bool:
    """Whether a distribution on ``sys.path`` may declare ``GROUP``: an
    ``entry_points.txt`` of a ``.dist-info`` or ``.egg-info`` folder naming it.
    True too whenever this look cannot tell: a file (a zip) on the path, or a
    finder of distributions other than the standard one."""
    if any(hasattr(f, "find_distributions") and f is not PathFinder for f in sys.meta_path):
        return True
    for entry in sys.path:
        folder = entry or "."
        if os.path.isfile(folder):
            return True
        try:
            names = os.listdir(folder)
        except OSError:  # not there (a path entry may name nothing)
            continue
        for name in names:
            lower = name.lower()
            if not (lower.endswith((".dist-info", ".egg-info")) or name == "EGG-INFO"):
                continue
            try:
                with open(os.path.join(folder, name, "entry_points.txt"), encoding="utf-8") as f:
                    if GROUP in f.read():
                        return True
            except (OSError, UnicodeDecodeError):  # no entry points (or unreadable): none declared there
                continue
    return False


def register_plugin_commands(
    cli: click.Group, plugins: Iterable[object] = (), use_entry_points: bool = True
) -> list[Any]:
    """Call ``cardcore_register_commands(cli=cli)`` on the plugins of the
    ``cardcore.commands`` entry points (unless told not to) and on
    ``plugins``; return the warnings (``Text``), one per plugin left out: one
    that cannot be imported, is not a valid plugin or raises while
    registering (what it added is taken back), and one per built-in name a
    plugin tried to take (the built-in command stays)."""
    plugins = list(plugins)
    if not plugins and not (use_entry_points and declared()):
        return []
    # pluggy and the entry points: loaded only where a package declares commands
    from importlib.metadata import entry_points

    import pluggy

    from cardcore.entry_points import register_entry_points
    from cardcore.hookspecs import PROJECT, DiscoverySpec
    from cardcore.i18n import T
    from cardcore.text import describe

    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(DiscoverySpec)
    problems: list[tuple[str, str | None, Any]] = []  # (plugin, its module, what is wrong)
    sources: dict[str, str] = {}
    if use_entry_points:
        found = [(GROUP, ep) for ep in sorted(entry_points(group=GROUP), key=lambda ep: ep.name)]
        sources = register_entry_points(
            pm, found, lambda name, ep, why: problems.append((name, ep.value, why))
        )
    for plugin in plugins:
        if not pm.is_registered(plugin):
            pm.register(plugin)
    pm.check_pending()
    for impl in pm.hook.cardcore_register_commands.get_hookimpls():  # in registration order
        before = dict(cli.commands)
        source = sources.get(impl.plugin_name)
        try:
            impl.function(cli=cli)
        except Exception as err:
            cli.commands.clear()
            cli.commands.update(before)  # nothing of it is kept
            problems.append(
                (impl.plugin_name, source, T("failed to register ({error})", error=describe(err)))
            )
            continue
        for name, command in before.items():
            if cli.commands.get(name) is not command:
                cli.commands[name] = command
                problems.append(
                    (
                        impl.plugin_name,
                        source,
                        T("registers the command {name!r}, a name already taken; left out", name=name),
                    )
                )
    return [_warning(*problem) for problem in problems]


def _warning(name: str, value: str | None, problem: Any) -> Any:
    """A plugin left out, said as discovery says it (``Registry.warn``: its
    entry point, module, package and ``CARDCORE_DISABLE_PLUGINS``)."""
    from cardcore.plugins import Registry  # a plugin is broken: loaded to say it

    said = Registry(sources={name: value} if value else {})
    said.warn(name, None, problem)
    return said.warnings[0]
