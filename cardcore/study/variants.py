"""The variants of a study: ``NAME=SPEC`` on the command line (SPEC a
comma-separated list of ``option=value`` and ``+house.rule`` items), or a
table of ``games.yaml`` (``--table NAME``). Each is checked by building its
table, so a mistyped option or house rule is the table's own one-line error
("did you mean …"), naming the variant."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardcore.errors import CardcoreError, TableError, message
from cardcore.i18n import T

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


@dataclass(frozen=True)
class Variant:
    """A named set of options and house rules (the base game: none)."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    house_rules: tuple[str, ...] = ()

    def key(self) -> tuple[tuple[str, Any], ...]:
        return tuple(sorted(self.options.items()))


BASE = Variant("base")


def _value(text: str) -> Any:
    import yaml

    try:
        parsed = yaml.safe_load(text) if text.strip() else ""
    except yaml.YAMLError:
        return text
    return text if isinstance(parsed, (dict, list)) else parsed


def parse_variant(text: str) -> Variant:
    """``NAME=SPEC`` → a variant (not yet checked against the game)."""
    name, sep, spec = text.partition("=")
    name = name.strip()
    if not sep or not NAME.match(name):
        raise CardcoreError(
            T(
                "--variant {text!r}: expected NAME=SPEC, e.g. broom_free=+carrousel.free_trail "
                "or short=deck=54 (a name of letters, digits, _ . -)",
                text=text[:60],
            )
        )
    options: dict[str, Any] = {}
    rules: list[str] = []
    for item in filter(None, (i.strip() for i in spec.split(","))):
        if item.startswith("+"):
            rules.append(item[1:].strip())
            continue
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise CardcoreError(
                T(
                    "--variant {name}: {item!r} is neither option=value nor +house.rule",
                    name=name,
                    item=item[:40],
                )
            )
        options[key.strip()] = _value(value.strip())
    return Variant(name, options, tuple(rules))


def table_variant(config: Path, name: str, game: str, players: int) -> Variant:
    """The variant a table of the config file describes (its options and
    house rules; its game and player count must be the study's)."""
    from cardcore.config import load_config

    cfg = load_config(config)
    if name not in cfg.tables:
        if not cfg.tables:
            raise CardcoreError(T("{path}: no table {name!r}; tables: none", path=config, name=name))
        known = ", ".join(sorted(cfg.tables))
        raise CardcoreError(
            T("{path}: no table {name!r}; tables: {known}", path=config, name=name, known=known)
        )
    t = cfg.tables[name]
    count = len(t.players) if isinstance(t.players, list) else t.players
    if t.game != game:
        raise CardcoreError(
            T("--table {name}: a table of {game}, not of {study}", name=name, game=t.game, study=game)
        )
    if count is not None and count != players:
        raise CardcoreError(
            T(
                "--table {name}: a table of {n} players; the study has {players}",
                name=name,
                n=count,
                players=players,
            )
        )
    if not NAME.match(name):
        raise CardcoreError(
            T("--table {name!r}: not a usable variant name (letters, digits, _ . -)", name=name[:40])
        )
    return Variant(name, dict(t.options), tuple(t.house_rules))


def check_variants(registry: Any, game: str, players: int | None, variants: list[Variant]) -> list[Any]:
    """The table of each variant (the base first), or a one-line error naming
    the variant that does not make one."""
    from cardcore.table import Table

    seen: set[str] = set()
    tables = []
    for v in variants:
        if v.name in seen:
            raise CardcoreError(T("--variant {name}: two variants of that name", name=v.name))
        seen.add(v.name)
        try:
            tables.append(Table.from_names(registry, game, players, v.options, v.house_rules))
        except TableError as err:
            if v is variants[0]:
                raise CardcoreError(T("the base game: {error}", error=message(err))) from None
            raise CardcoreError(T("variant {name}: {error}", name=v.name, error=message(err))) from None
    return tables


def describe(base: Any, table: Any, variant: Variant) -> list[dict[str, Any]]:
    """What ``variant`` changes, in words: each option with its value, the
    base game's and what the option is (its description), each house rule
    with its summary, and the cards its deck leaves out or adds against the
    base game's (``base``, ``table``: the two tables). Plain JSON: ``text``
    in English, ``said`` the text as ``cardcore.i18n.to_data`` gives it (the
    report says it in the reader's language)."""
    from collections import Counter

    from cardcore.i18n import SOURCE, render, to_data

    out: list[dict[str, Any]] = []
    fields = type(table.options).model_fields
    for key, value in variant.options.items():
        f = fields.get(key)
        about = f.description if f is not None else None
        default = getattr(base.options, key, None)
        item: dict[str, Any] = {"kind": "option", "name": key, "value": value, "default": default}
        if about:
            item["text"] = render(about, SOURCE)
            item["said"] = to_data(about)
        out.append(item)
    for hr in table.house_rules:
        if hr.name in variant.house_rules:
            out.append(
                {
                    "kind": "house_rule",
                    "name": hr.name,
                    "text": render(hr.summary, SOURCE),
                    "said": to_data(hr.summary),
                }
            )
    had, has = Counter(c.name for c in base.deck), Counter(c.name for c in table.deck)
    gone, added = sorted((had - has).elements()), sorted((has - had).elements())
    if gone or added:
        out.append({"kind": "cards", "out": gone, "in": added, "count": [len(base.deck), len(table.deck)]})
    return out


def said(data: Any) -> str:
    """A text of ``describe`` (``to_data``'s form) in the language in use:
    its message from its catalog, its arguments filled in."""
    from cardcore.i18n import gettext

    if isinstance(data, dict) and "t" in data:
        args = {k: said(v) for k, v in data.get("a", {}).items()}
        try:
            return gettext(data["t"], data.get("d", "cardcore")).format(**args)
        except (KeyError, IndexError, ValueError):
            return str(data["t"])
    return "" if data is None else str(data)
