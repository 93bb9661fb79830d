"""The browser pages' catalogs: a language's gettext catalogs as JSON.

``GET /i18n/{lang}.json`` (``auto``: the language the request's
``Accept-Language`` prefers among ours) gives a page what ``static/i18n.js``
needs to say every text in that language, with no ``eval`` (the CSP forbids
it): for every domain (``i18n.domains()``: the core's and each game's; not
click's, the pages show none of its words) its messages and its plural
forms, the gettext index precomputed for n = 0 … 199 (a larger n uses the
index of ``100 + n % 100``: every language's rule repeats past 100).

    {"lang": "pl", "name": "Polski",
     "languages": {"en": "English", "fr": "Français", …},
     "domains": {"cardcore": {"plural": [2, 0, 1, 1, 1, 2, …],
                              "messages": {"msgid": "…",           a message
                                           "ctx\\u0004msgid": "…",  in a context
                                           "one card": ["…", "…", "…"]}}}}   plural forms

English (the source) is an empty catalog: the msgids are the English.
"""

from __future__ import annotations

import gettext as _gettext
from typing import Any

from cardcore import i18n

PLURAL_TABLE = 200  # n = 0 … 199 precomputed; past it, index[100 + n % 100]
SKIPPED = frozenset({"click"})  # click's words: the CLI's, never a page's


def english_plural(n: int) -> int:
    return 0 if n == 1 else 1


def plural_index(table: list[int], n: int) -> int:
    """The plural form of ``n`` by a precomputed ``table`` (what i18n.js does)."""
    n = abs(n)
    return table[n] if n < len(table) else table[100 + n % 100]


def domain_catalog(domain: str, lang: str) -> dict[str, Any]:
    """``domain``'s messages in ``lang`` and its plural table."""
    t = i18n.translations(domain, lang)
    gnu = isinstance(t, _gettext.GNUTranslations)
    rule: Any = getattr(t, "plural", english_plural) if gnu else english_plural
    plural = [int(rule(n)) for n in range(PLURAL_TABLE)]
    messages: dict[str, Any] = {}
    catalog: dict[Any, str] = getattr(t, "_catalog", {}) if gnu else {}
    forms: dict[str, dict[int, str]] = {}
    for key, value in catalog.items():
        if isinstance(key, tuple):  # (msgid, form index): a plural message
            msgid, index = key
            if msgid:
                forms.setdefault(msgid, {})[int(index)] = value
        elif key:  # "": the header
            messages[key] = value
    for msgid, by_index in forms.items():
        messages[msgid] = [by_index[i] for i in sorted(by_index)]
    return {"plural": plural, "messages": messages}


def page_catalog(lang: str) -> dict[str, Any]:
    """Everything a page needs to speak ``lang`` (a code of ``i18n.languages()``)."""
    domains: dict[str, Any] = {}
    if lang != i18n.SOURCE:
        for domain in sorted(i18n.domains()):
            if domain not in SKIPPED:
                domains[domain] = domain_catalog(domain, lang)
    return {
        "lang": lang,
        "name": i18n.LANGUAGES.get(lang, lang),
        "languages": {code: i18n.LANGUAGES.get(code, code) for code in i18n.languages()},
        "domains": domains,
    }


def wanted(code: str, accept_language: str | None) -> str | None:
    """The language of ``/i18n/{code}.json``: ``auto`` → the one
    ``Accept-Language`` prefers (English when none of ours); a code of ours →
    itself; anything else → None (a 404)."""
    if code == "auto":
        return i18n.from_accept_language(accept_language)
    return code if code in i18n.languages() else None
