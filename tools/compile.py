"""The compiled fast path: the engine's hot modules built with mypyc, in place.

    python tools/compile.py            # compile (a C compiler and mypyc needed)
    python tools/compile.py --pure     # remove the compiled modules: pure Python again
    python tools/compile.py --status   # which hot modules are compiled now

The modules are the games' move generation and what it calls on every
decision (Carrousel's ``movegen``; Canasta's ``movegen``, ``finish``,
``melds``, ``turn``; Paquet voleur's ``movegen``), compiled **unchanged**: the Python source stays the
reference and the fallback. A compiled module is a file beside its source
(``movegen.cpython-311-x86_64-linux-gnu.so``), which Python imports before the
``.py``; removing it (``--pure``) gives the pure build back. Each module is
compiled on its own (mypyc's separate compilation), so that every shared
library sits in its package's folder. A machine without a compiler keeps the
pure modules: nothing needs this step (``pip install .`` never runs it).
The test suite runs on both builds in CI (``.ci/run``) and
``tests/test_compiled.py`` checks that the compiled modules give the same
moves as the pure ones over the perft corpus.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOT = (
    "carrousel/movegen.py",
    "canasta/movegen.py",
    "canasta/finish.py",
    "canasta/melds.py",
    "canasta/turn.py",
    "paquet_voleur/movegen.py",
)
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


def status() -> None:
    for module in HOT:
        print(f"{module}: {'compiled' if built(module) else 'pure'}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pure", action="store_true", help="remove the compiled modules")
    parser.add_argument("--status", action="store_true", help="which hot modules are compiled")
    args = parser.parse_args()
    if args.status:
        status()
        return 0
    if args.pure:
        pure()
        status()
        return 0
    return compile_all()


if __name__ == "__main__":
    sys.exit(main())
