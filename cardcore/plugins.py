"""Discovery: entry points → games and house rules.

Built-in games and house rules are found exactly as a third-party package's
are, through the entry-point groups ``cardcore.games`` and
``cardcore.house_rules``.  There is no global plugin manager: ``discover()``
builds one and returns a plain ``Registry``.

Switches (environment variables):

* ``CARDCORE_DISABLE_PLUGINS=name,name``: skip these entry points (by entry
  point name, or ``group:name``).
* ``CARDCORE_TRACE_HOOKS=1``: print every hook call of every table to stderr.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.metadata import entry_points

import pluggy

from cardcore.errors import CardcoreError
from cardcore.game import GameSpec, HouseRuleSpec
from cardcore.hookspecs import PROJECT, DiscoverySpec

GROUPS = ("cardcore.games", "cardcore.house_rules")
ENV_DISABLE = "CARDCORE_DISABLE_PLUGINS"
ENV_TRACE = "CARDCORE_TRACE_HOOKS"


class UnknownNameError(CardcoreError, LookupError):
    """An unknown game or house rule; the message suggests close names."""

    def __str__(self) -> str:
        return str(self.args[0])


def _suggest(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


@dataclass
class Registry:
    """The installed games and house rules, by name."""

    games: dict[str, GameSpec] = field(default_factory=dict)
    house_rules: dict[str, HouseRuleSpec] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)

    def game(self, name: str) -> GameSpec:
        try:
            return self.games[name]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none installed"
            raise UnknownNameError(
                f"unknown game {name!r}{_suggest(name, self.games)}; installed: {known}"
            ) from None

    def house_rule(self, name: str, game: str | None = None) -> HouseRuleSpec:
        try:
            spec = self.house_rules[name]
        except KeyError:
            raise UnknownNameError(
                f"unknown house rule {name!r}{_suggest(name, self.house_rules)}; see `cardcore house-rules`"
            ) from None
        if game is not None and spec.game != game:
            raise UnknownNameError(f"house rule {name!r} is for {spec.game}, not for {game}")
        return spec

    def house_rules_for(self, game: str) -> list[HouseRuleSpec]:
        return [h for h in self.house_rules.values() if h.game == game]


def _disabled() -> set[str]:
    raw = os.environ.get(ENV_DISABLE, "")
    return {x.strip() for x in raw.split(",") if x.strip()}


def discover(plugins: Iterable[object] = (), use_entry_points: bool = True) -> Registry:
    """Load the entry points (unless told not to) and ``plugins``; return the registry."""
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(DiscoverySpec)
    registry = Registry()
    if use_entry_points:
        disabled = _disabled()
        for group in GROUPS:
            for ep in sorted(entry_points(group=group), key=lambda e: e.name):
                qualified = f"{group}:{ep.name}"
                if ep.name in disabled or qualified in disabled or pm.has_plugin(qualified):
                    continue
                plugin = ep.load()
                if pm.is_registered(plugin):
                    continue
                pm.register(plugin, name=qualified)
                registry.sources[qualified] = ep.value
    for plugin in plugins:
        if not pm.is_registered(plugin):
            pm.register(plugin)
    pm.check_pending()

    def register_game(spec: GameSpec) -> None:
        if spec.name in registry.games and registry.games[spec.name] is not spec:
            raise ValueError(f"two games are named {spec.name!r}")
        registry.games[spec.name] = spec

    def register_house_rule(spec: HouseRuleSpec) -> None:
        if spec.name in registry.house_rules and registry.house_rules[spec.name] is not spec:
            raise ValueError(f"two house rules are named {spec.name!r}")
        registry.house_rules[spec.name] = spec

    pm.hook.cardcore_register_games(register=register_game)
    pm.hook.cardcore_register_house_rules(register=register_house_rule)
    return registry
