"""The compiled engine: which hot modules are built with mypyc, and which build runs.

``HOT`` is the one list of the modules compiled (paths under ``plugins/``, the
package ``cardcore_plugins``): the games' move generation and what it calls on
every decision, and Canasta's greedy bot (the searches' playouts). The build
(``setup.py``) compiles them into the wheel where a C compiler is there,
``tools/compile.py`` compiles them in place in a checkout;
both read this list (``setup.py`` by the file's path: this module imports
nothing of the project). ``build_kind()`` says which build is running, for
``cardcore --version``: a compiled module is a shared library beside its
source, which Python's import prefers to the ``.py``; it is looked for the
same way here, without importing a game.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path

HOT = (
    "carrousel/movegen.py",
    "canasta/movegen.py",
    "canasta/finish.py",
    "canasta/melds.py",
    "canasta/turn.py",
    "canasta/bots.py",
    "paquet_voleur/movegen.py",
)
PURE_ENV = "CARDCORE_PURE_BUILD"  # set (to anything but "" or "0"): the build compiles nothing


def module_name(path: str) -> str:
    """``canasta/movegen.py`` → ``cardcore_plugins.canasta.movegen``."""
    return "cardcore_plugins." + path.removesuffix(".py").replace("/", ".")


def compiled_modules() -> list[str]:
    """The hot modules (``HOT``'s paths) that import as compiled ones now: a
    file of an extension suffix beside the source (Python's own path finder
    tries those before ``.py``). The games' packages are not imported."""
    spec = importlib.util.find_spec("cardcore_plugins")
    folders = [Path(p) for p in (spec.submodule_search_locations or []) if p] if spec else []
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    found = []
    for path in HOT:
        package, _, name = path.removesuffix(".py").rpartition("/")
        for folder in folders:  # the first folder that holds the module is the one imported
            if any((folder / package / (name + suffix)).is_file() for suffix in suffixes):
                found.append(path)
                break
            if (folder / package / f"{name}.py").is_file():
                break
    return found


def build_kind() -> str:
    """``compiled engine: 7 of 7 hot modules`` or ``pure Python engine``."""
    compiled = compiled_modules()
    if not compiled:
        return "pure Python engine"
    return f"compiled engine: {len(compiled)} of {len(HOT)} hot modules"
