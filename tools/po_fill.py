"""Translating a language's catalogs in batches: the entries still to
translate out as JSON, the translations back into the ``.po`` files.

    python tools/po_fill.py todo fr [--domain D] [--limit N] > todo.json
    python tools/po_fill.py fill fr done.json

``todo`` lists, per domain, the entries of ``fr`` not translated yet (or
fuzzy): ``{"domain", "id", "plural", "context", "comments", "where"}``.
``fill`` reads a list of ``{"domain", "id", "context", "str"}`` (``"str"``: the
translation, or the list of plural forms, as many as the language has) and
writes them, refusing one whose placeholders differ from the source's.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po, write_po

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardcore.i18n_tools import _placeholders, _po_path, domains


def _load(domain: str, lang: str) -> Any:
    with _po_path(domain, lang).open("rb") as f:
        return read_po(f, locale=lang)


def _save(cat: Any, domain: str, lang: str) -> None:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, include_lineno=False, ignore_obsolete=True)
    _po_path(domain, lang).write_bytes(buf.getvalue())


def todo(lang: str, only: str | None, limit: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for domain in domains():
        if only and domain != only:
            continue
        cat = _load(domain, lang)
        for m in cat:
            if not m.id:
                continue
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            if all(strings) and not m.fuzzy:
                continue
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            out.append(
                {
                    "domain": domain,
                    "id": ids[0],
                    "plural": ids[1] if len(ids) > 1 else None,
                    "forms": cat.num_plurals if len(ids) > 1 else None,
                    "context": m.context,
                    "comments": list(m.auto_comments),
                    "where": [f"{p}:{n}" if n else p for p, n in m.locations][:3],
                }
            )
            if limit and len(out) >= limit:
                return out
    return out


def fill(lang: str, entries: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    by_domain: dict[str, list[dict[str, Any]]] = {}
    for e in entries:
        by_domain.setdefault(e["domain"], []).append(e)
    for domain, items in by_domain.items():
        cat = _load(domain, lang)
        for e in items:
            m = cat.get(e["id"], context=e.get("context"))
            if m is None:
                problems.append(f"{domain}: no entry {e['id'][:60]!r}")
                continue
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            given = e["str"]
            forms = given if isinstance(given, list) else [given]
            source = set().union(*(_placeholders(i) for i in ids))
            bad = [
                f
                for f in forms
                if _placeholders(f) - source or (len(ids) == 1 and _placeholders(f) != source)
            ]
            if bad or (len(ids) > 1 and len(forms) != cat.num_plurals) or not all(forms):
                problems.append(f"{domain}: refused {e['id'][:60]!r}: {given!r}")
                continue
            m.string = tuple(forms) if len(ids) > 1 else forms[0]
            m.flags.discard("fuzzy")
        _save(cat, domain, lang)
    return problems


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("todo", "fill"):
        print(__doc__)
        return 2
    lang = argv[1]
    if argv[0] == "todo":
        only = argv[argv.index("--domain") + 1] if "--domain" in argv else None
        limit = int(argv[argv.index("--limit") + 1]) if "--limit" in argv else 0
        json.dump(todo(lang, only, limit), sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    entries = json.loads(Path(argv[2]).read_text(encoding="utf-8"))
    problems = fill(lang, entries)
    for p in problems:
        print(p)
    print(f"{len(entries) - len(problems)} filled, {len(problems)} refused")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
