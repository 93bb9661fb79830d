"""Discovery: built-in folders and entry points → games and house rules.

A built-in game is a folder of ``plugins/`` (installed as the package
``cardcore_plugins.<name>``): the package registers the game, its
``house_rules`` module (if there is one) the game's house rules. Nothing is
listed anywhere else: a new folder is found. A third-party package declares
the entry-point groups ``cardcore.games`` and ``cardcore.house_rules``. Both
kinds register through the same hooks (``cardcore_register_games``,
``cardcore_register_house_rules``), built-ins first. There is no global plugin
manager: ``discover()`` builds one and returns a plain ``Registry``.

Switches (environment variables):

* ``CARDCORE_DISABLE_PLUGINS=name,name``: skip these plugins (by name — a
  built-in folder's or an entry point's — or ``group:name``).
* ``CARDCORE_TRACE_HOOKS=1``: print every hook call of every table to stderr.
"""

from __future__ import annotations

import difflib
import importlib
import os
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib.metadata import entry_points, packages_distributions
from typing import Any

import pluggy

from cardcore.entry_points import ENV_DISABLE as ENV_DISABLE
from cardcore.entry_points import register_entry_points
from cardcore.errors import CardcoreError
from cardcore.game import GameSpec, HouseRuleSpec
from cardcore.hookspecs import PROJECT, DiscoverySpec
from cardcore.i18n import T
from cardcore.text import describe

GROUPS = ("cardcore.games", "cardcore.house_rules")
BUILTIN = "cardcore_plugins"  # the import name of plugins/
ENV_TRACE = "CARDCORE_TRACE_HOOKS"


class UnknownNameError(CardcoreError, LookupError):
    """An unknown game or house rule; the message suggests close names."""

    def __str__(self) -> str:
        return str(self.args[0])


def _suggest(name: str, known: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(name, list(known), n=1)
    return close[0] if close else None


def _game_key(name: str) -> str:
    """A game's name as typed, compared: any case, ``-``, ``_`` and spaces alike."""
    return "_".join(name.lower().replace("-", " ").replace("_", " ").split())


@dataclass
class Registry:
    """The installed games and house rules, by name; ``warnings``, one line per
    plugin left out."""

    games: dict[str, GameSpec] = field(default_factory=dict)
    house_rules: dict[str, HouseRuleSpec] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def warn(self, name: str, ep: Any, problem: Any) -> None:
        """Note a plugin left out: its entry point, module, package and the switch."""
        module = ep.value.split(":")[0] if ep is not None else self.sources.get(name, "").split(":")[0]
        package = package_of(module) if module else None
        short = name.split(":")[-1]
        if module and package:
            said = T(
                "plugin {name} (module {module}, package {package}) {problem}; "
                "CARDCORE_DISABLE_PLUGINS={short} leaves it out quietly",
                name=name,
                module=module,
                package=package,
                problem=problem,
                short=short,
            )
        elif module:
            said = T(
                "plugin {name} (module {module}) {problem}; "
                "CARDCORE_DISABLE_PLUGINS={short} leaves it out quietly",
                name=name,
                module=module,
                problem=problem,
                short=short,
            )
        else:
            said = T(
                "plugin {name} {problem}; CARDCORE_DISABLE_PLUGINS={short} leaves it out quietly",
                name=name,
                problem=problem,
                short=short,
            )
        self.warnings.append(said)

    def game(self, name: str) -> GameSpec:
        """The game of that name, or of that alias (``GameSpec.aliases``; ``-``
        and ``_`` alike, any case)."""
        try:
            return self.games[name]
        except KeyError:
            wanted = _game_key(name)
            every = {_game_key(a): spec for spec in self.games.values() for a in (spec.name, *spec.aliases)}
            if wanted in every:
                return every[wanted]
            known = ", ".join(sorted(self.games))
            close = difflib.get_close_matches(wanted, list(every), n=1)  # the aliases too: karuzel → karuzele
            if not known:
                raise UnknownNameError(
                    T("unknown game {name!r}; installed: none installed", name=name)
                ) from None
            if not close:
                raise UnknownNameError(
                    T("unknown game {name!r}; installed: {known}", name=name, known=known)
                ) from None
            game = every[close[0]].name
            if game != close[0]:
                raise UnknownNameError(
                    T(
                        "unknown game {name!r} (did you mean {close!r}, {game}?); installed: {known}",
                        name=name,
                        close=close[0],
                        game=game,
                        known=known,
                    )
                ) from None
            raise UnknownNameError(
                T(
                    "unknown game {name!r} (did you mean {close!r}?); installed: {known}",
                    name=name,
                    close=close[0],
                    known=known,
                )
            ) from None

    def house_rule(self, name: str, game: str | None = None) -> HouseRuleSpec:
        try:
            spec = self.house_rules[name]
        except KeyError:
            close = _suggest(name, self.house_rules)
            if close is None:
                raise UnknownNameError(
                    T("unknown house rule {name!r}; see `cardcore house-rules`", name=name)
                ) from None
            raise UnknownNameError(
                T(
                    "unknown house rule {name!r} (did you mean {close!r}?); see `cardcore house-rules`",
                    name=name,
                    close=close,
                )
            ) from None
        if game is not None and spec.game != game:
            raise UnknownNameError(
                T("house rule {name!r} is for {game}, not for {table}", name=name, game=spec.game, table=game)
            )
        return spec

    def house_rules_for(self, game: str) -> list[HouseRuleSpec]:
        return [h for h in self.house_rules.values() if h.game == game]


@dataclass(frozen=True)
class BuiltIn:
    """A built-in plugin module, found in a folder of ``plugins/``: shaped like
    an entry point (``group``, ``name``, ``value``, ``load()``)."""

    group: str
    name: str
    value: str

    def load(self) -> Any:
        return importlib.import_module(self.value)


def builtins() -> list[BuiltIn]:
    """Every folder of ``plugins/`` with an ``__init__.py``: its package is a
    game plugin (group ``cardcore.games``), its ``house_rules`` module, when
    it has one, a house-rules plugin (``cardcore.house_rules``); by name."""
    try:
        package = importlib.import_module(BUILTIN)
    except ImportError:  # pragma: no cover - cardcore installed without its games
        return []
    found: list[BuiltIn] = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        module = f"{BUILTIN}.{info.name}"
        found.append(BuiltIn(GROUPS[0], info.name, module))
        sub = {i.name for i in pkgutil.iter_modules([os.path.join(p, info.name) for p in package.__path__])}
        if "house_rules" in sub:
            found.append(BuiltIn(GROUPS[1], info.name, f"{module}.house_rules"))
    return found


def discover(plugins: Iterable[object] = (), use_entry_points: bool = True) -> Registry:
    """Load the built-in folders and the entry points (unless told not to) and
    ``plugins``; return the registry.

    A plugin that fails — cannot be imported, declares a misspelled hook,
    raises while registering, or reuses a name already taken — is left out
    with one line in ``Registry.warnings`` naming it, its package and
    ``CARDCORE_DISABLE_PLUGINS``; every other game keeps working. Built-in
    plugins load first, so a third-party one cannot take their names.
    """
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(DiscoverySpec)
    registry = Registry()
    if use_entry_points:
        found: list[tuple[str, Any]] = [(b.group, b) for b in builtins()]
        # an older install may still declare the built-ins as entry points: the
        # folder's is the one loaded (same name), the entry point is skipped
        found += sorted(
            ((group, ep) for group in GROUPS for ep in entry_points(group=group)),
            key=lambda g_ep: (g_ep[0], g_ep[1].name),
        )
        registry.sources.update(register_entry_points(pm, found, registry.warn))
    for plugin in plugins:
        if not pm.is_registered(plugin):
            pm.register(plugin)
    pm.check_pending()

    def registering(kind: str, impl: Any) -> Callable[[Any], None]:
        source = impl.plugin_name

        def register(spec: Any) -> None:
            taken = registry.games if kind == "game" else registry.house_rules
            if spec.name in taken and taken[spec.name] is not spec:
                if kind == "game":
                    problem = T("registers the game {name!r}, a name already taken; left out", name=spec.name)
                else:
                    problem = T(
                        "registers the house rule {name!r}, a name already taken; left out", name=spec.name
                    )
                registry.warn(source, None, problem)
                return
            taken[spec.name] = spec

        return register

    hooks = (("game", pm.hook.cardcore_register_games), ("house rule", pm.hook.cardcore_register_house_rules))
    for kind, caller in hooks:
        for impl in caller.get_hookimpls():  # in registration order: built-ins first
            try:
                impl.function(register=registering(kind, impl))
            except Exception as err:
                registry.warn(impl.plugin_name, None, T("failed to register ({error})", error=describe(err)))
    return registry


def package_of(module: str) -> str | None:
    """The installed distribution that provides ``module`` (its top package)."""
    try:
        names = packages_distributions().get(module.split(".")[0])
    except Exception:  # metadata of a broken install: no name to give
        return None
    return names[0] if names else None


def game_catalog(reg: Registry) -> list[dict[str, Any]]:
    """Each installed game as data (``cardcore games --json``, the web lobby):
    name, title, player counts, summary, options (type, default, description,
    choices) and house rules."""
    rows: list[dict[str, Any]] = []
    for name in sorted(reg.games):
        g = reg.games[name]
        schema = g.options_model.model_json_schema()
        options = {
            key: {
                "type": prop.get("type", "any"),
                "default": prop.get("default"),
                "description": prop.get("description", ""),
                **({"enum": prop["enum"]} if "enum" in prop else {}),
            }
            for key, prop in schema.get("properties", {}).items()
        }
        rows.append(
            {
                "name": g.name,
                "title": g.title,
                "min_players": g.min_players,
                "max_players": g.max_players,
                "default_players": g.default_players,
                "summary": g.summary,
                "options": options,
                "house_rules": [h.name for h in reg.house_rules_for(name)],
            }
        )
    return rows
