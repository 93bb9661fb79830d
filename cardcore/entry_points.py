"""Loading plugins from entry points, one at a time: what the discovery of
games and house rules (``cardcore.plugins.discover``) and of commands
(``cardcore.commands.plugins``) share. Light on purpose (no pydantic), so that
the command line can load other packages' commands before anything else."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from cardcore.i18n import T
from cardcore.text import describe

ENV_DISABLE = "CARDCORE_DISABLE_PLUGINS"  # plugins left out, by name, comma-separated


def disabled() -> set[str]:
    """The plugins ``CARDCORE_DISABLE_PLUGINS`` names (entry point names or ``group:name``)."""
    raw = os.environ.get(ENV_DISABLE, "")
    return {x.strip() for x in raw.split(",") if x.strip()}


def register_entry_points(
    pm: Any, found: Iterable[tuple[str, Any]], warn: Callable[[str, Any, Any], None]
) -> dict[str, str]:
    """Register on ``pm`` the plugin of each ``(group, entry point)`` of
    ``found``, in order, as ``group:name``: unless it is disabled, its name is
    taken or it is registered already. One that cannot be imported or is not
    a valid plugin is left out, with ``warn(qualified name, entry point,
    problem)``; a broken package never breaks the others. Returns the
    registered plugins' names → their entry points' values."""
    off = disabled()
    sources: dict[str, str] = {}
    for group, ep in found:
        qualified = f"{group}:{ep.name}"
        if ep.name in off or qualified in off or pm.has_plugin(qualified):
            continue
        try:
            plugin = ep.load()
        except Exception as err:  # a broken package must not break the others
            warn(qualified, ep, T("cannot be imported ({error})", error=describe(err)))
            continue
        if pm.is_registered(plugin):
            continue
        try:
            pm.register(plugin, name=qualified)
            pm.check_pending()
        except Exception as err:
            if pm.is_registered(plugin):
                pm.unregister(plugin)
            warn(qualified, ep, T("is not a valid plugin ({error})", error=describe(err)))
            continue
        sources[qualified] = ep.value
    return sources
