"""The rulings ship with the project: every ruling id the repository cites is
listed, with its reading and source, in the ``## Rulings`` section of its
game's rules page (``docs/<game>.md``, which ``cardcore rules GAME`` prints),
and no file names the sources the project does not contain (the rules of
record and the players' rules texts, kept outside the repository).

Every built-in game (a folder of ``plugins/``) has such a page; its ids share
one capital letter, read from its own Rulings table (C… are Carrousel's, N…
Canasta's, P… Paquet voleur's, a new game's its own); G… are general
rulings, listed on every game's page. A citation is an id in any text file of
the source, tests, position files, perft corpus, tools and docs (a range such
as "C1–C13" or "N12a–c" cites every id in it), or the name of a position file
(``tests/positions/canasta/n10a_….yaml`` covers N10a, as ``tools/perft.py``
reads it). The Rulings sections themselves cite nothing: they are the list.
"""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path

from conftest import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
THIS = Path(__file__).resolve()

GENERAL = "G"  # general rulings: on every page
SCANNED = ("cardcore", "plugins", "tests", "tools", "docs", "benchmarks", "examples", "README.md")
SECTION = re.compile(r"^## Rulings\n(.*?)(?=^## |\Z)", re.M | re.S)
ROW = re.compile(r"^\|\s*([A-Z]\d{1,2}[a-z]?)\s*\|", re.M)


@functools.cache
def pages() -> dict[str, str]:
    """Each built-in game (a folder of plugins/) and the letter of its ruling
    ids, read from its page's Rulings table (the letter other than G)."""
    out = {}
    for game in sorted(REGISTRY.games):
        if not (ROOT / "plugins" / game).is_dir():
            continue  # a third-party game installed here: its pages are its own
        letters = {i[0] for i in ROW.findall(rulings_section(game))} - {GENERAL}
        assert len(letters) == 1, (
            f"docs/{game}.md: its ruling ids share one letter (besides G), not {letters}"
        )
        out[game] = letters.pop()
    return out


@functools.cache
def patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """An id ("C6b", "N12a", "G1") and a range ("C1–C13", "N12a–c") of the pages' letters."""
    letters = "".join(sorted({*pages().values(), GENERAL}))
    one = re.compile(rf"\b([{letters}])(\d{{1,2}})([a-z]?)\b")
    span = re.compile(rf"\b([{letters}])(\d{{1,2}})([a-z]?)[–-](?:\1(\d{{1,2}})\b|([a-z])\b)")
    return one, span


# Files the project does not contain: the rules of record and the players' texts.
# ("RULINGS" in capitals only: "Rulings" is the title of the pages' section)
TEXTS = r"(?:carrousel|canasta|paquet_voleur|\w+)\.(?:en|fr|pl|lt|\*)\.txt"
ABSENT = re.compile(rf"\bRULINGS\b|(?i:\brulings\.md\b|\b{TEXTS}\b)")


def tracked() -> list[str]:
    """The repository's files (relative paths), symlinks apart: the rules.md
    of each game is a link to its docs page, read once as the page."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        names = [n for n in out.decode().split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = []
    if not names:  # not a git checkout (an unpacked source archive)
        skip = {".git", ".venv", "__pycache__", "build", "dist"}
        names = [
            str(p.relative_to(ROOT))
            for p in ROOT.rglob("*")
            if p.is_file() and not skip & set(p.relative_to(ROOT).parts) and ".egg-info" not in str(p)
        ]
    # tests/vendor holds third-party files as shipped (axe-core): not the project's words
    return [
        n
        for n in names
        if (ROOT / n).is_file() and not (ROOT / n).is_symlink() and not n.startswith("tests/vendor/")
    ]


def read(name: str) -> str | None:
    try:
        return (ROOT / name).read_text(encoding="utf-8")
    except UnicodeDecodeError:  # a binary file
        return None


def ids_in(text: str) -> set[str]:
    one, span = patterns()
    found = {"".join(m.groups()) for m in one.finditer(text)}
    for m in span.finditer(text):
        prefix, start, letter, end, last = m.groups()
        if end and not letter:
            found |= {f"{prefix}{n}" for n in range(int(start), int(end) + 1)}
        elif last and letter:
            found |= {f"{prefix}{start}{chr(c)}" for c in range(ord(letter), ord(last) + 1)}
    return found


def page(game: str) -> Path:
    return ROOT / "docs" / f"{game}.md"


def rulings_section(game: str) -> str:
    m = SECTION.search(page(game).read_text(encoding="utf-8"))
    assert m, f"docs/{game}.md has no '## Rulings' section"
    return m.group(1)


def cited() -> dict[str, str]:
    """Every ruling id cited in the repository, with one file citing it."""
    out: dict[str, str] = {}
    for name in sorted(tracked()):
        if not name.startswith(SCANNED) or ROOT / name == THIS:
            continue
        text = read(name)
        if text is None:
            continue
        if name.startswith("docs/") and Path(name).stem in pages():
            text = SECTION.sub("", text)  # the list itself cites nothing
        found = ids_in(text)
        parts = Path(name).parts
        if parts[:2] == ("tests", "positions"):  # c6b_build_by_value.yaml covers C6b
            found |= ids_in(Path(name).stem.split("_", 1)[0].capitalize())
        for ident in found:
            out.setdefault(ident, name)
    return out


def listed(game: str) -> list[str]:
    return ROW.findall(rulings_section(game))


def test_every_cited_ruling_is_listed_on_its_games_page():
    rows = {game: set(listed(game)) for game in pages()}
    missing = []
    for ident, where in sorted(cited().items()):
        games = [g for g, prefix in pages().items() if ident[0] in (prefix, GENERAL)]
        missing += [
            f"{ident} (cited in {where}) is not listed under '## Rulings' in docs/{g}.md"
            for g in games
            if ident not in rows[g]
        ]
    assert not missing, "\n".join(missing)


def test_the_rulings_sections_are_well_formed():
    assert len(set(pages().values())) == len(pages()), f"two games share a ruling letter: {pages()}"
    for game, prefix in pages().items():
        ids = listed(game)
        assert len(ids) > 5, f"docs/{game}.md: the Rulings table lists almost nothing"
        assert len(ids) == len(set(ids)), f"docs/{game}.md: a ruling is listed twice"
        strangers = [i for i in ids if i[0] not in (prefix, GENERAL)]
        assert not strangers, f"docs/{game}.md lists rulings of another game: {strangers}"
        for line in rulings_section(game).splitlines():
            if ROW.match(line):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                assert len(cells) == 3 and all(cells), f"docs/{game}.md: not id | reading | from: {line}"


def test_no_file_names_the_sources_the_project_does_not_contain():
    found = []
    for name in tracked():
        if ROOT / name == THIS:
            continue
        text = read(name)
        if text is None:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if ABSENT.search(line):
                found.append(f"{name}:{n}: {line.strip()}")
    assert not found, "names a file the repository does not contain:\n" + "\n".join(found)
