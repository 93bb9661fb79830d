"""Paquet voleur's words: the marking functions bound to the game's catalog
domain (``paquet_voleur``, in ``locale/`` beside this file)."""

from __future__ import annotations

from pathlib import Path

from cardcore.i18n import words

_, _n, _p, T, Tn = words("paquet_voleur", Path(__file__).parent / "locale")
