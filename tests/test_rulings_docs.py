"""The rulings ship with the project: every ruling id the repository cites is
listed, with its reading and source, in the ``## Rulings`` section of its
game's rules page (``docs/<game>.md``, which ``cardcore rules GAME`` prints),
and no file names the sources the project does not contain (the rules of
record and the players' rules texts, kept outside the repository).

Ids: C… are Carrousel's, N… Canasta's, P… Paquet voleur's; G… are general
rulings, listed on every game's page. A citation is an id in any text file of
the source, tests, position files, perft corpus, tools and docs (a range such
as "C1–C13" or "N12a–c" cites every id in it), or the name of a position file
(``tests/positions/canasta/n10a_….yaml`` covers N10a, as ``tools/perft.py``
reads it). The Rulings sections themselves cite nothing: they are the list.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THIS = Path(__file__).resolve()

PAGES = {"carrousel": "C", "canasta": "N", "paquet_voleur": "P"}
GENERAL = "G"  # general rulings: on every page
SCANNED = ("cardcore", "plugins", "tests", "tools", "docs", "benchmarks", "examples", "README.md")

# an id: a prefix, a number, an optional letter ("C6b", "N12a", "G1")
ID = re.compile(r"\b([CNPG])(\d{1,2})([a-z]?)\b")
# "C1–C13" (numbers, no letters) or "N12a–c" (letters of one number)
RANGE = re.compile(r"\b([CNPG])(\d{1,2})([a-z]?)[–-](?:\1(\d{1,2})\b|([a-z])\b)")
SECTION = re.compile(r"^## Rulings\n(.*?)(?=^## |\Z)", re.M | re.S)
ROW = re.compile(r"^\|\s*([CNPG]\d{1,2}[a-z]?)\s*\|", re.M)

# Files the project does not contain: the rules of record and the players' texts.
# ("RULINGS" in capitals only: "Rulings" is the title of the pages' section)
TEXTS = r"(?:carrousel|canasta|paquet_voleur)\.(?:en|fr|pl|\*)\.txt"
ABSENT = re.compile(rf"\bRULINGS\b|(?i:\brulings\.md\b|\b{TEXTS}\b)")
# Lines the lead engineer is rewording in his own branch (kept exact, so that any
# other mention in these files still fails); delete once his change is merged.


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
    return [n for n in names if (ROOT / n).is_file() and not (ROOT / n).is_symlink()]


def read(name: str) -> str | None:
    try:
        return (ROOT / name).read_text(encoding="utf-8")
    except UnicodeDecodeError:  # a binary file
        return None


def ids_in(text: str) -> set[str]:
    found = {"".join(m.groups()) for m in ID.finditer(text)}
    for m in RANGE.finditer(text):
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
        if name.startswith("docs/") and Path(name).stem in PAGES:
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
    rows = {game: set(listed(game)) for game in PAGES}
    missing = []
    for ident, where in sorted(cited().items()):
        games = [g for g, prefix in PAGES.items() if ident[0] in (prefix, GENERAL)]
        missing += [
            f"{ident} (cited in {where}) is not listed under '## Rulings' in docs/{g}.md"
            for g in games
            if ident not in rows[g]
        ]
    assert not missing, "\n".join(missing)


def test_the_rulings_sections_are_well_formed():
    for game, prefix in PAGES.items():
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
