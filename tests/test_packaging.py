"""Packaging: the built-in games are found, not listed, so a new game's folder
cannot be left out of the wheel (setup.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).parent.parent


def _copy_sources(dest: Path) -> None:
    """The project's own files (what a clean clone holds) into ``dest``."""
    try:
        listed = (
            subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
            .stdout.decode()
            .split("\0")
        )
    except (OSError, subprocess.CalledProcessError):
        listed = []
    files = [f for f in listed if f] or [
        str(p.relative_to(ROOT))
        for p in ROOT.rglob("*")
        if p.is_file() and not {".venv", ".git", "__pycache__", "dist", "build"} & set(p.parts)
    ]
    for name in files:
        src = ROOT / name
        if not (src.exists() or src.is_symlink()):
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            target.symlink_to(src.readlink())
        else:
            shutil.copy2(src, target)


def test_a_new_game_folder_lands_in_the_wheel(tmp_path):
    src = tmp_path / "src"
    _copy_sources(src)
    scopa = src / "plugins" / "scopa"
    scopa.mkdir()
    (scopa / "__init__.py").write_text('"""A fourth game, not listed anywhere."""\n')
    (scopa / "rules.py").write_text("RULES = ()\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", "dist", "."],
        cwd=src,
        check=True,
        capture_output=True,
    )
    (wheel,) = (src / "dist").glob("cardcore-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "cardcore_plugins/scopa/__init__.py" in names
    assert "cardcore_plugins/scopa/rules.py" in names
    for game in ("paquet_voleur", "carrousel", "canasta"):
        assert f"cardcore_plugins/{game}/game.py" in names
        assert f"cardcore_plugins/{game}/rules.md" in names  # the rules page (cardcore rules GAME)
    assert "cardcore/py.typed" in names
    assert "cardcore/web/static/table.js" in names  # the browser table's pages ship in the wheel
