"""Canasta's words: the marking functions bound to the ``canasta`` domain
(``cardcore.i18n.words``), its catalogs in ``locale/`` beside this file."""

from __future__ import annotations

from pathlib import Path

from cardcore.i18n import RANK_CONTEXT, Text, words

DOMAIN = "canasta"

_, _n, _p, T, Tn = words(DOMAIN, Path(__file__).parent / "locale")


def rank(name: str) -> Text:
    """A meld's rank (``K``, ``7``) as a text: its letter in the reader's
    language (the core's ``rank letter`` words: ``R`` in French), its
    English value the name itself (``add 5H to the K meld``)."""
    return Text("cardcore", name, {}, context=RANK_CONTEXT)
