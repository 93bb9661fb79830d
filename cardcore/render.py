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

from cardcore.cards import SPECIAL_SYMBOLS, SYMBOL_OF_SUIT, Card, card_str
from cardcore.game import Observation

RED = {"D", "H"}
SYMBOLS = [True]  # suits as ♣ ♦ ♥ ♠; `cardcore play --ascii` sets False (C D H S)
_CARD_IN_TEXT = re.compile(r"\b(10|[2-9AJQK])([CDHS])\b")
_SPECIAL_IN_TEXT = re.compile(r"\b(?:JOKER(?:20|15|11)?|BROOM)\b")


def card_text(c: Card) -> str:
    """A card as the terminal shows it: with a suit symbol, or letters (--ascii)."""
    return card_str(c, symbols=SYMBOLS[0])


def show_text(text: str) -> str:
    """A move's text with its cards in the terminal's notation (``6S`` → ``6♠``)."""
    if not SYMBOLS[0]:
        return text
    text = _CARD_IN_TEXT.sub(lambda m: m.group(1) + SYMBOL_OF_SUIT[m.group(2)], text)
    return _SPECIAL_IN_TEXT.sub(lambda m: SPECIAL_SYMBOLS[m.group(0)], text)


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
    value: Any, color: bool | None = None, names: Sequence[str] = (), item: ItemShower | None = None
) -> str:
    """Render observation data: cards, lists, piles, per-side items, and the
    game's own items (builds, melds …) through ``item`` (``GamePlugin.show_item``)."""
    if isinstance(value, Card):
        return show_card(value, color)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        if not value:
            return "—"
        sep = " " if all(isinstance(v, Card) for v in value) else " | "
        return sep.join(show_value(v, color, names, item) for v in value)
    if isinstance(value, dict):
        return _show_dict(value, color, names, item)
    if value is None:
        return "—"
    return str(value)


def _show_dict(
    value: dict[str, Any], color: bool | None, names: Sequence[str], item: ItemShower | None
) -> str:
    def name(seat: int) -> str:
        return names[seat] if seat < len(names) else f"seat {seat}"

    def show(v: Any) -> str:
        return show_value(v, color, names, item)

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
            return prefix + "empty"
        size = value["size"]
        text = f"{show(value['top'])} on top, {size} card{'' if size == 1 else 's'}"
        return prefix + text + (", frozen" if value.get("frozen") else "")
    if prefix and list(value) == ["size"]:
        return f"{prefix}{value['size']}"
    if prefix:
        return prefix + "; ".join(f"{k.replace('_', ' ')} {show(v)}" for k, v in value.items())
    return ", ".join(f"{k}: {show(v)}" for k, v in value.items()) or "—"


def show_observation(
    obs: Observation,
    names: list[str],
    color: bool | None = None,
    hand_order: Any = None,
    item: ItemShower | None = None,
) -> list[str]:
    """The lines a person at the terminal sees before choosing a move
    (``item``: the game's ``show_item``), compact so that the others' moves
    stay on an 80×24 screen above them: one line for the deal (dealer, stock,
    the others' hands), the game's short items packed on lines, each side's
    items on a line of their own, every line broken at words; the hand last.
    The match's scores are the status line's (``Decision.status``): a view
    item ``scores`` is not repeated."""
    others = [f"{names[i]} {n}" for i, n in enumerate(obs.hand_sizes) if i != obs.seat]
    head = f"dealer {names[obs.dealer]} · stock {obs.stock}"
    lines = wrapped(head + (" · in hand: " + ", ".join(others) if others else ""))
    short: list[str] = []
    for key, value in obs.public.items():
        if key == "scores":
            continue
        label = key.replace("_", " ")
        if isinstance(value, list) and value and all(isinstance(v, dict) and "seats" in v for v in value):
            if all(list(v) in (["seats", "size"], ["seats", "points"]) for v in value):
                short.append(f"{label}: " + ", ".join(show_value(v, color, names, item) for v in value))
            else:
                for v in value:
                    lines += wrapped(plain(show_value(v, color, names, item)))
            continue
        short.append(f"{label}: {show_value(value, color, names, item)}")
    if short:
        lines += wrapped(plain(" · ".join(short)))
    if obs.seat is not None:
        hand = sorted(obs.hand, key=hand_order) if hand_order is not None else list(obs.hand)
        lines += wrapped(f"your hand ({names[obs.seat]}): {show_value(hand, color)}")
    return lines


def numbered(texts: Iterable[str], width: int | None = None) -> list[str]:
    """The entries ``  1. text``; in two columns when they fit side by side in
    ``width`` (numbers down the first column, then the second)."""
    entries = [f"{i:>3}. {t}" for i, t in enumerate(texts, 1)]
    width = width or columns()
    half = (width - 2) // 2
    if len(entries) < 3 or any(_visible(e) > half - 2 for e in entries):
        return ["  " + e for e in entries]
    rows = (len(entries) + 1) // 2
    out = []
    for r in range(rows):
        left = entries[r]
        right = entries[r + rows] if r + rows < len(entries) else ""
        out.append(("  " + left + " " * (half - _visible(left)) + right).rstrip())
    return out


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_RULING = re.compile(r" \((?:[A-Z]\d+[a-z]?)(?:, [A-Z]\d+[a-z]?)*\)")


def _visible(text: str) -> int:
    return len(_ANSI.sub("", text))


def columns() -> int:
    """The terminal's width (80 when it cannot be told)."""
    import shutil

    return max(40, shutil.get_terminal_size((80, 24)).columns)


_RULING_TAIL = re.compile(r"(?:, [A-Z]\d+[a-z]?)+(?=\))")


_SIDE = re.compile(r"\bside (\d+)'s\b")


def named_sides(text: str, names: Sequence[str], sides: Sequence[Sequence[int]]) -> str:
    """A game's text with its sides named by their players (``steals side 1's
    pile`` → ``steals Bob's pile``): a person reads names, not numbers."""

    def name(m: re.Match[str]) -> str:
        n = int(m.group(1))
        return " & ".join(names[s] for s in sides[n]) + "'s" if n < len(sides) else m.group(0)

    return _SIDE.sub(name, text)


def plain(text: str) -> str:
    """Play text without ruling ids (``first to 120 points (C3)`` → ``first to
    120 points``; ``(no bonus …, N13a)`` → ``(no bonus …)``): they belong to
    ``why`` and the rules pages, not the game."""
    return _RULING_TAIL.sub("", _RULING.sub("", text))


def wrapped(text: str, indent: str = "  ", hang: str = "    ", width: int | None = None) -> list[str]:
    """``text`` as lines of the terminal's width, broken at spaces only (a
    word, a card, is never cut), the first line indented by ``indent``, the
    others by ``hang``."""
    width = width or columns()
    words = text.split(" ")
    lines: list[str] = []
    line = indent
    for word in words:
        if not word:
            continue
        room = line not in (indent, hang) and _visible(line) + 1 + _visible(word) > width - 1
        if room:
            lines.append(line)
            line = hang + word
        else:
            line = line + word if line in (indent, hang) else line + " " + word
    lines.append(line)
    return lines
