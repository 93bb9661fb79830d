"""The compiled engine by default (setup.py): a build where a C compiler is
there makes a platform wheel holding every hot module compiled beside its
source, and the installed wheel's ``cardcore --version`` says so; without a
compiler the build is the pure one, said in one line; an editable install
stays pure (``tools/compile.py`` compiles a checkout).

Building the compiled wheel takes a minute of CPU (mypyc): the test is marked
``slow``; CI hands it the wheel its smoke test built (``CARDCORE_TEST_WHEEL``)
so that the engine is compiled once."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from test_packaging import _copy_sources

from cardcore.compiled import HOT, build_kind, compiled_modules, module_name

ROOT = Path(__file__).parent.parent
PURE_LINE = "cardcore: no C compiler (or mypyc failed): installing the pure Python build (slower)"
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def _wheel(src: Path, env: dict[str, str]) -> tuple[Path, str]:
    """``pip wheel`` of the project copied to ``src``: the wheel and what the build said."""
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation", "-w", "dist", "."],
        cwd=src,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    (wheel,) = (src / "dist").glob("cardcore-*.whl")
    return wheel, run.stdout + run.stderr


def _installed(wheel: Path, venv: Path) -> Path:
    """The wheel installed alone in a fresh venv, its dependencies this one's
    (a ``.pth`` naming this environment's site-packages, read after the venv's
    own: its editable ``cardcore`` is not made importable there). The venv's python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(site, "cardcore_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    return python


@pytest.mark.slow
@pytest.mark.skipif(
    not (os.environ.get("CC") or shutil.which("cc")), reason="no C compiler: the build is the pure one"
)
def test_the_build_compiles_the_hot_modules(tmp_path):
    given = os.environ.get("CARDCORE_TEST_WHEEL")
    if given:
        wheel = Path(given)
    else:
        src = tmp_path / "src"
        _copy_sources(src)
        wheel, said = _wheel(src, {"CARDCORE_PURE_BUILD": ""})
        assert PURE_LINE not in said
    tag = f"-cp{sys.version_info.major}{sys.version_info.minor}-"
    assert tag in wheel.name and not wheel.name.endswith("-none-any.whl"), wheel.name  # a platform wheel
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in HOT:
        stem = f"cardcore_plugins/{path.removesuffix('.py')}"
        assert f"cardcore_plugins/{path}" in names  # the source stays: the reference and the fallback
        assert f"{stem}{SUFFIX}" in names, stem  # the module, compiled
        assert f"{stem}__mypyc{SUFFIX}" in names, stem  # its own shared library, in its package's folder
    python = _installed(wheel, tmp_path / "venv")
    bin_ = python.parent
    version = subprocess.run(
        [str(bin_ / "cardcore"), "--version"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    assert f"(compiled engine: {len(HOT)} of {len(HOT)} hot modules)" in version, version
    # the compiled modules are those imported, and they play
    modules = [module_name(p) for p in HOT]
    code = f"import importlib\nfor m in {modules!r}: print(importlib.import_module(m).__file__)"
    files = subprocess.run(
        [str(python), "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout.split()
    assert all(f.endswith(SUFFIX) and str(tmp_path / "venv") in f for f in files), files
    for game in ("carrousel", "canasta", "paquet_voleur"):
        subprocess.run(
            [str(bin_ / "cardcore"), "simulate", game, "--deals", "1", "--seed", "1", "--json"],
            cwd=tmp_path, capture_output=True, check=True,
        )  # fmt: skip


@pytest.mark.parametrize(
    ("env", "line"),
    [
        ({"CC": "/bin/false", "CARDCORE_PURE_BUILD": ""}, PURE_LINE),
        (
            {"CARDCORE_PURE_BUILD": "1"},
            "cardcore: CARDCORE_PURE_BUILD is set: installing the pure Python build (slower)",
        ),
    ],
    ids=["no-compiler", "pure-asked"],
)
def test_without_a_compiler_the_build_is_pure_and_says_so(tmp_path, env, line):
    src = tmp_path / "src"
    _copy_sources(src)
    wheel, said = _wheel(src, env)
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    (said_line,) = [x.strip() for x in said.splitlines() if x.strip().startswith("cardcore:")]
    assert said_line.startswith(line), said_line  # and why, in brackets
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith(SUFFIX)]
    assert all(f"cardcore_plugins/{path}" in names for path in HOT)


def test_the_build_kind_is_read_without_importing_a_game():
    code = (
        "import sys\n"
        "from cardcore.compiled import build_kind\n"
        "print(build_kind())\n"
        "print([m for m in sys.modules if m.startswith('cardcore_plugins.')])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    kind, loaded = out.stdout.splitlines()
    assert loaded == "[]"
    assert kind in (
        "pure Python engine",
        f"compiled engine: {len(compiled_modules())} of {len(HOT)} hot modules",
    )


def test_version_says_which_build_runs():
    from click.testing import CliRunner

    from cardcore.cli import main

    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip().endswith(f"({build_kind()})"), result.output
    # the suite's own build: CI's first pass is the editable install's, pure; its second the compiled
    if os.environ.get("CARDCORE_REQUIRE_COMPILED"):
        assert build_kind() == f"compiled engine: {len(HOT)} of {len(HOT)} hot modules"
    elif not compiled_modules():
        assert build_kind() == "pure Python engine"


def test_an_editable_install_stays_pure(tmp_path):
    """``pip install -e .`` (the tests' command, CI's) compiles nothing: the checkout's
    modules stay the sources (``tools/compile.py`` compiles them in place). The
    editable wheel is built by the hook pip calls (setuptools' ``build_editable``)."""
    src = tmp_path / "src"
    _copy_sources(src)
    code = "from setuptools import build_meta; print(build_meta.build_editable('dist'))"
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=src,
        capture_output=True,
        text=True,
        env={**os.environ, "CARDCORE_PURE_BUILD": ""},
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    said = run.stdout + run.stderr
    assert "mypyc" not in said and "cardcore:" not in said
    assert run.stdout.strip().splitlines()[-1].endswith("-py3-none-any.whl")
    assert not [p for p in (src / "plugins").rglob("*") if p.name.endswith(SUFFIX)]
