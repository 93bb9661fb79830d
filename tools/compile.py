"""The compiled fast path: the engine's hot modules built with mypyc, in place.

    python tools/compile.py            # compile (a C compiler and mypyc needed)
    python tools/compile.py --pure     # remove the compiled modules: pure Python again
    python tools/compile.py --status   # which hot modules are compiled now
    python tools/compile.py --from-wheel dist/cardcore-*.whl   # a compiled wheel's modules, in place

The modules (``HOT``, read from ``cardcore/compiled.py``, which the build reads
too) are the games' move generation and what it calls on every
decision (Carrousel's ``movegen``; Canasta's ``movegen``, ``finish``,
``melds``, ``turn``, and its greedy bot, ``bots``, which the searches'
playouts call at every move; Paquet voleur's ``movegen``), compiled **unchanged**: the Python source stays the
reference and the fallback. A compiled module is a file beside its source
(``movegen.cpython-311-x86_64-linux-gnu.so``), which Python imports before the
``.py``; removing it (``--pure``) gives the pure build back. Each module is
compiled on its own (mypyc's separate compilation), so that every shared
library sits in its package's folder. A machine without a compiler keeps the
pure modules. ``pip install .`` compiles the same modules into the wheel by
itself (``setup.py``); an editable install stays pure, and this tool is how a
checkout gets the compiled build (``--from-wheel``: a wheel's compiled modules
copied in place instead, as CI does so as to compile once).
The test suite runs on both builds in CI (``.ci/run``) and
``tests/test_compiled.py`` checks that the compiled modules give the same
moves as the pure ones over the perft corpus.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _load_compiled() -> ModuleType:
    """``cardcore/compiled.py`` by its path (it imports nothing of the project)."""
    spec = importlib.util.spec_from_file_location("cardcore_compiled", ROOT / "cardcore" / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOT: tuple[str, ...] = _load_compiled().HOT  # the one list, cardcore/compiled.py's
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def built(module: str) -> list[Path]:
    """The compiled files of one hot module (``canasta/movegen.py``)."""
    source = ROOT / "plugins" / module
    stem = source.stem
    return sorted(
        p
        for p in source.parent.iterdir()
        if p.name.endswith(SUFFIXES) and p.name.split(".")[0] in (stem, f"{stem}__mypyc")
    )


def pure() -> None:
    for module in HOT:
        for path in built(module):
            path.unlink()


def compile_all() -> int:
    mypyc = shutil.which(
        "mypyc", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
    )
    if mypyc is None:
        print("compile: mypyc is not installed (pip install mypy); the pure modules stay", file=sys.stderr)
        return 1
    pure()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        # the packages under the names they are imported by
        shutil.copytree(
            ROOT / "cardcore", work / "cardcore", ignore=shutil.ignore_patterns("*.so", "__pycache__")
        )
        shutil.copytree(
            ROOT / "plugins", work / "cardcore_plugins", ignore=shutil.ignore_patterns("*.so", "__pycache__")
        )
        for module in HOT:
            target = f"cardcore_plugins/{module}"
            run = subprocess.run([mypyc, target], cwd=work, capture_output=True, text=True)
            if run.returncode:
                print(
                    f"compile: {module} failed; the pure modules stay\n{run.stdout[-2000:]}", file=sys.stderr
                )
                pure()
                return 1
            folder = (work / target).parent
            stem = Path(module).stem
            for path in folder.iterdir():
                if path.name.endswith(SUFFIXES) and path.name.split(".")[0] in (stem, f"{stem}__mypyc"):
                    shutil.copy2(path, ROOT / "plugins" / Path(module).parent / path.name)
            print(f"compile: {module}")
    return 0


def from_wheel(wheel: Path) -> int:
    """The compiled hot modules of a built wheel (``pip wheel .``) put beside
    their sources, as if compiled here: the same files, compiled once."""
    pure()
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        for module in HOT:
            folder = "cardcore_plugins/" + str(Path(module).parent)
            stem = Path(module).stem
            found = [
                n
                for n in names
                if n.startswith(folder + "/")
                and "/" not in n[len(folder) + 1 :]
                and n.endswith(SUFFIXES)
                and Path(n).name.split(".")[0] in (stem, f"{stem}__mypyc")
            ]
            if not found:
                print(
                    f"compile: {module} is not compiled in {wheel.name}; the pure modules stay",
                    file=sys.stderr,
                )
                pure()
                return 1
            for name in found:
                (ROOT / "plugins" / Path(module).parent / Path(name).name).write_bytes(archive.read(name))
            print(f"compile: {module} (from {wheel.name})")
    return 0


def status() -> None:
    for module in HOT:
        print(f"{module}: {'compiled' if built(module) else 'pure'}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pure", action="store_true", help="remove the compiled modules")
    parser.add_argument("--status", action="store_true", help="which hot modules are compiled")
    parser.add_argument(
        "--from-wheel", type=Path, metavar="WHEEL", help="a compiled wheel's modules, in place"
    )
    args = parser.parse_args()
    if args.status:
        status()
        return 0
    if args.pure:
        pure()
        status()
        return 0
    if args.from_wheel:
        return from_wheel(args.from_wheel)
    return compile_all()


if __name__ == "__main__":
    sys.exit(main())
