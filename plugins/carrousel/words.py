"""Carrousel's words: the marking functions bound to the game's catalog
domain (``carrousel``, in ``locale/`` beside this file)."""

from __future__ import annotations

from pathlib import Path

from cardcore.i18n import words

_, _n, _p, T, Tn = words("carrousel", Path(__file__).parent / "locale")
