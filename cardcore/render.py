"""Text rendering of cards and observations for the terminal."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import click

from cardcore.cards import Card, card_str
from cardcore.game import Observation

RED = {"D", "H"}


def show_card(c: Card, color: bool = True) -> str:
    text = card_str(c, symbols=True)
    if not color:
        return text
    if c.special:
        return click.style(text, fg="magenta", bold=True)
    return click.style(text, fg="red" if c.suit in RED else None, bold=True)


def show_value(value: Any, color: bool = True) -> str:
    """Render observation data: cards, lists of cards, dicts, numbers."""
    if isinstance(value, Card):
        return show_card(value, color)
    if isinstance(value, (list, tuple)):
        if not value:
            return "—"
        sep = " " if all(isinstance(v, Card) for v in value) else " | "
        return sep.join(show_value(v, color) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {show_value(v, color)}" for k, v in value.items()) or "—"
    if value is None:
        return "—"
    return str(value)


def show_observation(obs: Observation, names: list[str], color: bool = True) -> list[str]:
    lines = [f"  {key.replace('_', ' ')}: {show_value(v, color)}" for key, v in obs.public.items()]
    lines.append(f"  your hand ({names[obs.seat]}): {show_value(list(obs.hand), color)}")
    return lines


def numbered(texts: Iterable[str]) -> list[str]:
    return [f"  {i:>3}. {t}" for i, t in enumerate(texts, 1)]
