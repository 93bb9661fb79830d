"""Managing the catalogs (Babel): ``python -m cardcore.i18n_tools COMMAND``.

- ``extract``: every domain's template (``<locale>/<domain>.pot``) from its
  sources: the ``cardcore`` domain from the core's Python and the browser
  pages' scripts and from the CLI's help (every command's and option's text,
  read from the command tree: help texts need no marking); ``click`` from
  click's own modules (its usage lines and errors); each game's from its
  package.
- ``update``: every language's ``.po`` brought up to its template (new entries
  empty, gone ones dropped; no fuzzy guesses).
- ``compile``: ``.po`` → ``.mo`` (the build does it: ``setup.py``).
- ``check``: what CI checks — the templates are those the sources give today,
  and every catalog is complete: no untranslated or fuzzy entry, the same
  placeholders as the source, every plural form given. Exit code 1 and a line
  per problem.
- ``pseudo DIR [--code xx]``: a generated locale in ``DIR`` (every message
  transformed: letters swapped for accented look-alikes, in brackets), for the
  tests that fail on any English left (``CARDCORE_LOCALE_PATH=DIR``).
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ("fr", "pl", "lt")
KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "gettext": None,
    "_n": (1, 2),
    "ngettext": (1, 2),
    "_p": ((1, "c"), 2),
    "NP_": ((1, "c"), 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "T": None,
    "Tn": (1, 2),
}
COMMENT_TAGS = ["i18n:"]
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)  # templates that do not change with the day they were made


def domains() -> dict[str, tuple[Path, list[tuple[str, Path]]]]:
    """domain → (its locale folder, [(extraction method, source file)])."""
    import click

    core = ROOT / "cardcore"
    out: dict[str, tuple[Path, list[tuple[str, Path]]]] = {}
    sources = [("python", p) for p in sorted(core.rglob("*.py")) if p.name != "i18n_tools.py"]
    sources += [("javascript", p) for p in sorted((core / "web" / "static").glob("*.js"))]
    out["cardcore"] = (core / "locale", sources)
    click_dir = Path(click.__file__).parent
    out["click"] = (core / "locale", [("python", p) for p in sorted(click_dir.glob("*.py"))])
    for game in sorted((ROOT / "plugins").iterdir()):
        if (game / "__init__.py").is_file():
            out[game.name] = (game / "locale", [("python", p) for p in sorted(game.glob("*.py"))])
    return out


def _help_texts() -> Iterator[tuple[str, str]]:
    """(text, where) for every help text of the CLI (commands, options)."""
    import click

    from cardcore.cli import main
    from cardcore.i18n import help_msgid

    def walk(cmd: click.Command, path: str) -> Iterator[tuple[str, str]]:
        for text in (cmd.help, cmd.short_help, cmd.epilog):
            if text:
                yield help_msgid(text), path
        for param in cmd.params:
            text = getattr(param, "help", None)
            if text:
                yield help_msgid(text), f"{path} {param.name}"
        if isinstance(cmd, click.Group):
            for name, sub in sorted(cmd.commands.items()):
                yield from walk(sub, f"{path} {name}")

    yield from walk(main, "cardcore")


def template(domain: str) -> Catalog:
    sources = domains()[domain][1]
    cat = Catalog(project="cardcore", domain=domain, creation_date=EPOCH, revision_date=EPOCH, fuzzy=False)
    for method, path in sources:
        rel = _rel(path)
        with contextlib.redirect_stderr(io.StringIO()):  # Babel's notes on f-string arguments (not messages)
            found = list(
                extract_from_file(
                    method, str(path), keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True
                )
            )
        for lineno, message, comments, context in found:
            if not message or (isinstance(message, tuple) and not message[0]):
                continue
            msg = message if not isinstance(message, tuple) else tuple(m or "" for m in message)
            cat.add(
                msg, locations=[(rel, lineno)], auto_comments=comments, context=context, flags=_flags(msg)
            )
    if domain == "cardcore":
        for text, where in _help_texts():
            cat.add(text, locations=[(f"cli: {where}", 0)], flags=_flags(text))
    return cat


def _flags(msg: Any) -> list[str]:
    first = msg[0] if isinstance(msg, tuple) else msg
    return ["python-brace-format"] if PLACEHOLDER.search(first) else []


def _rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return "click/" + path.name


def _pot_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, omit_header=False, sort_output=False, include_lineno=False)
    return buf.getvalue()


def extract() -> None:
    for domain, (localedir, _) in domains().items():
        localedir.mkdir(parents=True, exist_ok=True)
        (localedir / f"{domain}.pot").write_bytes(_pot_bytes(template(domain)))
        print(f"{domain}: {len(template(domain))} messages")


def _po_path(domain: str, lang: str) -> Path:
    return domains()[domain][0] / lang / "LC_MESSAGES" / f"{domain}.po"


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def update(langs: Iterable[str] = TARGETS) -> None:
    for domain, (localedir, _) in domains().items():
        pot = _read(localedir / f"{domain}.pot")
        for lang in langs:
            path = _po_path(domain, lang)
            if path.is_file():
                cat = _read(path, lang)
                cat.update(pot, no_fuzzy_matching=True)
                cat.obsolete.clear()
            else:
                cat = Catalog(
                    locale=lang, domain=domain, project="cardcore", creation_date=EPOCH, fuzzy=False
                )
                cat.update(pot, no_fuzzy_matching=True)
            cat.revision_date = EPOCH
            path.parent.mkdir(parents=True, exist_ok=True)
            buf = io.BytesIO()
            write_po(buf, cat, width=100, include_lineno=False, ignore_obsolete=True)
            path.write_bytes(buf.getvalue())


def catalog_folders(tree: Path, source: Path | None = None) -> list[Path]:
    """The ``locale`` folders of a tree (the build's copy: ``setup.py``)."""
    return sorted(p for p in tree.rglob("locale") if p.is_dir())


def compile_folder(folder: Path) -> int:
    """Compile every ``<lang>/LC_MESSAGES/*.po`` of ``folder`` to ``.mo``; how many."""
    count = 0
    for po in sorted(folder.glob("*/LC_MESSAGES/*.po")):
        cat = _read(po, po.parent.parent.name)
        with po.with_suffix(".mo").open("wb") as f:
            write_mo(f, cat)
        count += 1
    return count


def compile_all() -> int:
    """Compile the checkout's catalogs in place (``.mo`` are not kept in git)."""
    return sum(compile_folder(loc) for loc in {loc for loc, _ in domains().values()})


def _placeholders(text: Any) -> set[str]:
    return {m.group(1) for m in PLACEHOLDER.finditer(str(text or ""))}


def check() -> list[str]:
    problems: list[str] = []
    for domain, (localedir, _) in domains().items():
        pot_path = localedir / f"{domain}.pot"
        fresh = template(domain)
        if not pot_path.is_file():
            problems.append(f"{_rel(pot_path)}: missing (python -m cardcore.i18n_tools extract)")
            continue
        pot = _read(pot_path)
        fresh_ids = {m.id if not isinstance(m.id, tuple) else m.id[0]: m for m in fresh if m.id}
        pot_ids = {m.id if not isinstance(m.id, tuple) else m.id[0] for m in pot if m.id}
        for key in sorted(set(fresh_ids) - pot_ids)[:20]:
            problems.append(f"{_rel(pot_path)}: not extracted yet: {key[:70]!r} (extract, update, translate)")
        for key in sorted(pot_ids - set(fresh_ids))[:20]:
            problems.append(f"{_rel(pot_path)}: no longer in the sources: {key[:70]!r} (extract, update)")
        for lang in TARGETS:
            path = _po_path(domain, lang)
            if not path.is_file():
                problems.append(f"{_rel(path)}: missing")
                continue
            cat = _read(path, lang)
            for m in pot:
                if not m.id:
                    continue
                got = cat.get(m.id, context=m.context)
                where = f"{_rel(path)}: {str(m.id if not isinstance(m.id, tuple) else m.id[0])[:60]!r}"
                if got is None:
                    problems.append(f"{where}: missing (update)")
                    continue
                if got.fuzzy:
                    problems.append(f"{where}: fuzzy")
                strings = got.string if isinstance(got.string, tuple) else (got.string,)
                if not all(strings):
                    problems.append(f"{where}: untranslated")
                    continue
                if isinstance(got.string, tuple) and len(got.string) != cat.num_plurals:
                    problems.append(f"{where}: {len(got.string)} plural forms, {lang} has {cat.num_plurals}")
                ids = m.id if isinstance(m.id, tuple) else (m.id,)
                source = set().union(*(_placeholders(i) for i in ids))
                for s in strings:
                    if _placeholders(s) - source or (len(ids) == 1 and _placeholders(s) != source):
                        problems.append(
                            f"{where}: placeholders {sorted(_placeholders(s))} ≠ {sorted(source)}"
                        )
                        break
    return problems


# ---- the pseudo-locale -------------------------------------------------------------
_LOOKALIKE = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ",
)
_KEEP = re.compile(
    r"(\{[^{}]*\}|`[^`]*`|(?<![\w}])--?[a-z][a-z0-9-]*|\\b|\([A-Z]\d+[a-z]?(?:, [A-Z]\d+[a-z]?)*\))"
)


def pseudo_text(text: Any) -> str:
    """``text`` with every letter swapped for an accented look-alike and in
    brackets; placeholders, `code`, option names and ruling ids kept."""
    text = str(text)
    parts = _KEEP.split(text)
    out = "".join(p if i % 2 else p.translate(_LOOKALIKE) for i, p in enumerate(parts))
    return f"⟦{out}⟧" if text.strip() else text


def pseudo(folder: Path, code: str = "xx") -> None:
    """The pseudo-locale ``code`` of every domain, compiled, in ``folder``."""
    for domain in domains():
        pot = template(domain)
        cat = Catalog(locale="en", domain=domain, fuzzy=False)
        for m in pot:
            if not m.id:
                continue
            if m.context in ("rank letter",):
                string: Any = {"A": "Ȧ", "J": "Ĵ", "Q": "Ɋ", "K": "Ķ"}.get(str(m.id), str(m.id))
            elif isinstance(m.id, tuple):
                string = tuple(pseudo_text(i) for i in m.id)
            else:
                string = pseudo_text(m.id)
            cat.add(m.id, string, context=m.context)
        out = folder / code / "LC_MESSAGES"
        out.mkdir(parents=True, exist_ok=True)
        with (out / f"{domain}.mo").open("wb") as f:
            write_mo(f, cat)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    command = argv[0]
    if command == "extract":
        extract()
    elif command == "update":
        update()
    elif command == "compile":
        print(f"{compile_all()} catalogs compiled")
    elif command == "check":
        problems = check()
        for p in problems:
            print(p)
        if problems:
            print(f"{len(problems)} problems in the catalogs")
            return 1
        print("catalogs complete")
    elif command == "pseudo":
        code = argv[argv.index("--code") + 1] if "--code" in argv else "xx"
        pseudo(Path(argv[1]), code)
    else:
        print(f"unknown command {command!r}: extract, update, compile, check, pseudo DIR")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
