"""Packaging: the built-in games are found, not listed, so a new game's folder
cannot be left out of the wheel (setup.py). The wheel here is the pure build
(``CARDCORE_PURE_BUILD=1``: no compiling); the compiled one is
``tests/test_build.py``'s."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).parent.parent
PROBE = "zz_packaging_probe"


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
    probe = src / "plugins" / PROBE  # a name no real game will take
    probe.mkdir()
    (probe / "__init__.py").write_text('"""A new game, not listed anywhere."""\n')
    (probe / "rules.py").write_text("RULES = ()\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", "dist", "."],
        cwd=src,
        check=True,
        capture_output=True,
        env={**os.environ, "CARDCORE_PURE_BUILD": "1"},
    )
    (wheel,) = (src / "dist").glob("cardcore-*-py3-none-any.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert f"cardcore_plugins/{PROBE}/__init__.py" in names
    assert f"cardcore_plugins/{PROBE}/rules.py" in names
    for game in (p.parent.name for p in (ROOT / "plugins").glob("*/__init__.py")):
        assert f"cardcore_plugins/{game}/__init__.py" in names
        assert f"cardcore_plugins/{game}/rules.md" in names  # the rules page (cardcore rules GAME)
    # the learned models (cardcore.infer, cardcore.value): a search asked for one plays on without
    # it, silently, so every file of the games' inference folders is looked for in the wheel
    models = sorted((ROOT / "plugins").glob("*/inference/*.json"))
    assert models
    for model in models:
        assert "cardcore_plugins/" + model.relative_to(ROOT / "plugins").as_posix() in names
    assert "cardcore/py.typed" in names
    for init in (ROOT / "cardcore").rglob("__init__.py"):  # every subpackage (web, study …)
        assert init.relative_to(ROOT).as_posix() in names
    assert "cardcore/web/static/table.js" in names  # the browser table's pages ship in the wheel


def test_every_plugin_folder_is_found_without_a_line_elsewhere():
    """A folder of plugins/ is a game discovery finds by itself (no entry point
    in pyproject.toml), with its house_rules module when it has one."""
    from cardcore.plugins import discover

    registry = discover()
    folders = [p.parent for p in (ROOT / "plugins").glob("*/__init__.py")]
    assert folders
    for folder in folders:
        assert f"cardcore.games:{folder.name}" in registry.sources, folder.name
        if (folder / "house_rules.py").exists():
            assert f"cardcore.house_rules:{folder.name}" in registry.sources, folder.name
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = [v for group in project.get("entry-points", {}).values() for v in group.values()]
    assert not [v for v in declared if v.startswith("cardcore_plugins")]
    assert not registry.warnings
