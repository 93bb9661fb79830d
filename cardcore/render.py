"""Text rendering of cards and observations for the terminal.

Observations are data (``cardcore.game.Observation``); this module turns the
shapes every game may use into text: cards, piles (``{"top", "size", …}``)
and anything per side (``{"seats": [...], …}``), labelled with the players'
names. A game's own items (Carrousel's builds, Canasta's melds) it asks the
game to show (``GamePlugin.show_item``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import click

from cardcore import i18n
from cardcore.cards import Card, card
from cardcore.game import Observation
from cardcore.i18n import NP_, _, _n, _p
from cardcore.text import columns, visible, wrapped

RED = {"D", "H"}
SYMBOLS = [True]  # suits as ♣ ♦ ♥ ♠; `cardcore play --ascii` sets False (C D H S)
_CARD_IN_TEXT = re.compile(r"\b(10|[2-9AJQK])([CDHS])\b")
_SPECIAL_IN_TEXT = re.compile(r"\b(?:JOKER(?:20|15|11)?|BROOM)\b")


def card_text(c: Card) -> str:
    """A card as the terminal shows it, in the language in use (``R♥`` in
    French): with a suit symbol, or letters (--ascii: ``RH``)."""
    return i18n.card_text(c, symbols=SYMBOLS[0])


def show_text(text: str, names: Sequence[str] = (), sides: Sequence[Sequence[int]] = ()) -> str:
    """A game's text as the terminal shows it, in the language in use: a
    ``Text`` said with the terminal's cards (and sides by ``names``); a plain
    string with its canonical card names in the terminal's notation (``6S`` →
    ``6♠``, ``KH`` → ``R♥`` in French)."""
    if isinstance(text, i18n.Text):
        return i18n.render(_cards_said(text), card=card_text, names=names, sides=sides)
    if SYMBOLS[0] or i18n.language() != i18n.SOURCE:
        text = _CARD_IN_TEXT.sub(lambda m: card_text(card(m.group(0))), text)
        text = _SPECIAL_IN_TEXT.sub(lambda m: card_text(card(m.group(0))), text)
    return text


def _cards_said(text: i18n.Text) -> i18n.Text:
    """``text`` with its plain-string arguments (a game's text not marked yet:
    ``7D trails``) in the terminal's notation, as ``show_text`` says them."""

    def said(v: Any) -> Any:
        if isinstance(v, i18n.Text):
            return _cards_said(v)
        return show_text(v) if isinstance(v, str) else v

    args = {k: said(v) for k, v in text.args.items()}
    if all(args[k] == v and type(args[k]) is type(v) for k, v in text.args.items()):
        return text
    return i18n.Text(text.domain, text.msgid, args, text.plural, text.n, text.context)


def say(value: Any) -> str:
    """Any text for the terminal: a ``Text`` in the language in use (cards in
    the terminal's notation), anything else as ``str``."""
    return show_text(value) if isinstance(value, i18n.Text) else str(value)


# the view's labels the core shows itself (a game marks its own: ``NP_("view item", …)``)
CORE_LABELS = (NP_("view item", "table"), NP_("view item", "scores"), NP_("view item", "pile"))


def label(key: str, domain: str = "cardcore", context: str = "view item") -> str:
    """A key of a game's data (``last_capture``) as a person reads it: its
    words (``last capture``) in the language in use, from the game's catalog
    (``pgettext(context, …)`` in ``domain``), else the core's."""
    words = key.replace("_", " ")
    said = i18n.pgettext(context, words, domain=domain)
    if said == words and domain != "cardcore":
        said = i18n.pgettext(context, words)
    return said


def use_color() -> bool:
    """Colours only on a terminal, and never with ``NO_COLOR`` set (no-color.org)."""
    import os
    import sys

    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def show_card(c: Card, color: bool | None = None) -> str:
    text = card_text(c)
    if color is None:
        color = use_color()
    if not color:
        return text
    if c.special:
        return click.style(text, fg="magenta", bold=True)
    return click.style(text, fg="red" if c.suit in RED else None, bold=True)


ItemShower = Callable[[dict[str, Any], Callable[[Any], str], Callable[[int], str]], "str | None"]


def show_value(
    value: Any,
    color: bool | None = None,
    names: Sequence[str] = (),
    item: ItemShower | None = None,
    domain: str = "cardcore",
) -> str:
    """Render observation data: cards, lists, piles, per-side items, and the
    game's own items (builds, melds …) through ``item`` (``GamePlugin.show_item``);
    the words in the language in use (labels from the catalog of ``domain``, the game's)."""
    if isinstance(value, Card):
        return show_card(value, color)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, (list, tuple)):
        if not value:
            return "—"
        sep = " " if all(isinstance(v, Card) for v in value) else " | "
        return sep.join(show_value(v, color, names, item, domain) for v in value)
    if isinstance(value, dict):
        return _show_dict(value, color, names, item, domain)
    if value is None:
        return "—"
    if isinstance(value, str) and not isinstance(value, i18n.Text):
        return value_word(value, domain)
    return say(value)


def value_word(value: str, domain: str) -> str:
    """A word among a view's values (Canasta's phase ``draw``, an answer
    ``pending``) in the language in use, when the game's catalog has it as a
    ``view item``; any other string (a name) as it is."""
    said = i18n.pgettext("view item", value, domain=domain)
    if said == value and domain != "cardcore":
        said = i18n.pgettext("view item", value)
    return said


def _show_dict(
    value: dict[str, Any],
    color: bool | None,
    names: Sequence[str],
    item: ItemShower | None,
    domain: str = "cardcore",
) -> str:
    def name(seat: int) -> str:
        return names[seat] if seat < len(names) else _("seat {n}").format(n=seat)

    def show(v: Any) -> str:
        return show_value(v, color, names, item, domain)

    prefix = ""
    if "seats" in value:  # something per side, labelled with its players
        prefix = "/".join(name(s) for s in value["seats"])
        value = {k: v for k, v in value.items() if k != "seats"}
        if not value:
            return prefix
        if list(value) == ["points"]:
            return f"{prefix} {value['points']}"
        prefix += ": "
    own = item(value, show, name) if item is not None else None
    if own is not None:  # the game's own item (a build, a meld …)
        return prefix + own
    if "top" in value and "size" in value:  # a pile, its top card face up
        if not value["size"]:
            return prefix + _p("pile", "empty")
        size = value["size"]
        if value.get("frozen"):
            text = _n("{top} on top, {n} card, frozen", "{top} on top, {n} cards, frozen", size)
        else:
            text = _n("{top} on top, {n} card", "{top} on top, {n} cards", size)
        return prefix + text.format(top=show(value["top"]), n=size)
    if prefix and list(value) == ["size"]:
        return f"{prefix}{value['size']}"
    if prefix:
        # i18n: an item of a side's: its label and its value ("melds 9♣ 9♠ 9♦")
        pair = _("{label} {value}")
        return prefix + "; ".join(
            pair.format(label=label(k, domain), value=show(v)) for k, v in value.items()
        )
    # i18n: an item: its label and its value ("top: 9♣")
    pair = _("{label}: {value}")
    return ", ".join(pair.format(label=label(k, domain), value=show(v)) for k, v in value.items()) or "—"


def show_observation(
    obs: Observation,
    names: list[str],
    color: bool | None = None,
    hand_order: Any = None,
    item: ItemShower | None = None,
    domain: str = "cardcore",
) -> list[str]:
    """The lines a person at the terminal sees before choosing a move
    (``item``: the game's ``show_item``), compact so that the others' moves
    stay on an 80×24 screen above them: one line for the deal (dealer, stock,
    the others' hands), the game's short items packed on lines, each side's
    items on a line of their own, every line broken at words; the hand last.
    The match's scores are the status line's (``Decision.status``): a view
    item ``scores`` is not repeated. In the language in use (``domain``: the
    game's catalog, for its labels)."""
    view, hand = observation_parts(obs, names, color, hand_order, item, domain)
    return view + hand


def observation_parts(
    obs: Observation,
    names: list[str],
    color: bool | None = None,
    hand_order: Any = None,
    item: ItemShower | None = None,
    domain: str = "cardcore",
) -> tuple[list[str], list[str]]:
    """``show_observation``'s lines: the view, and the hand's lines apart."""
    others = [f"{names[i]} {n}" for i, n in enumerate(obs.hand_sizes) if i != obs.seat]
    dealer, stock = names[obs.dealer], obs.stock
    if others:
        # i18n: the deal at a glance; {others}: "Left 4, Partner 3"
        head = _("dealer {name} · stock {n} · in hand: {others}").format(
            name=dealer, n=stock, others=", ".join(others)
        )
    else:
        head = _("dealer {name} · stock {n}").format(name=dealer, n=stock)
    lines = wrapped(head)
    # i18n: a view item: its label and its value ("table: 3♦ ★15")
    pair = _("{label}: {value}")
    short: list[str] = []
    for key, value in obs.public.items():
        if key == "scores":
            continue
        said = label(key, domain)
        if isinstance(value, list) and value and all(isinstance(v, dict) and "seats" in v for v in value):
            if all(list(v) in (["seats", "size"], ["seats", "points"]) for v in value):
                shown = ", ".join(show_value(v, color, names, item, domain) for v in value)
                short.append(pair.format(label=said, value=shown))
            else:
                for v in value:
                    lines += wrapped(plain(show_value(v, color, names, item, domain)))
            continue
        short.append(pair.format(label=said, value=show_value(value, color, names, item, domain)))
    if short:
        lines += wrapped(plain(" · ".join(short)))
    hand_lines: list[str] = []
    if obs.seat is not None:
        hand = sorted(obs.hand, key=hand_order) if hand_order is not None else list(obs.hand)
        text = _("your hand ({name}): {cards}").format(name=names[obs.seat], cards=show_value(hand, color))
        hand_lines = wrapped(text)
    return lines, hand_lines


def numbered(texts: Iterable[str], width: int | None = None) -> list[str]:
    """The entries ``  1. text``; in two columns when they fit side by side in
    ``width`` (numbers down the first column, then the second)."""
    entries = [f"{i:>3}. {t}" for i, t in enumerate(texts, 1)]
    width = width or columns()
    half = (width - 2) // 2
    if len(entries) < 3 or any(visible(e) > half - 2 for e in entries):
        return ["  " + e for e in entries]
    rows = (len(entries) + 1) // 2
    out = []
    for r in range(rows):
        left = entries[r]
        right = entries[r + rows] if r + rows < len(entries) else ""
        out.append(("  " + left + " " * (half - visible(left)) + right).rstrip())
    return out


_RULING = re.compile(r"\s\((?:[A-Z]\d+[a-z]?)(?:, [A-Z]\d+[a-z]?)*\)")


_RULING_TAIL = re.compile(r"(?:, [A-Z]\d+[a-z]?)+(?=\))")


_SIDE = re.compile(r"\bside (\d+)'s\b")


def named_sides(text: str, names: Sequence[str], sides: Sequence[Sequence[int]]) -> str:
    """A game's text with its sides named by their players (``steals side 1's
    pile`` → ``steals Bob's pile``): a person reads names, not numbers. A
    ``Text`` is said in the language in use, its ``Side`` arguments by the
    names; a plain (English) string has its ``side N's`` replaced."""
    if isinstance(text, i18n.Text):
        return show_text(text, names, sides)

    def name(m: re.Match[str]) -> str:
        n = int(m.group(1))
        return " & ".join(names[s] for s in sides[n]) + "'s" if n < len(sides) else m.group(0)

    return _SIDE.sub(name, text)


def plain(text: str) -> str:
    """Play text without ruling ids (``first to 120 points (C3)`` → ``first to
    120 points``; ``(no bonus …, N13a)`` → ``(no bonus …)``): they belong to
    ``why`` and the rules pages, not the game."""
    return _RULING_TAIL.sub("", _RULING.sub("", text))
