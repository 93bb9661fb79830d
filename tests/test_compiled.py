"""The compiled engine in a checkout (``tools/compile.py``; CI puts the built
wheel's compiled modules in place with ``--from-wheel``; the build itself is
``tests/test_build.py``'s): when the suite runs on the compiled build (CI sets
``CARDCORE_REQUIRE_COMPILED=1`` then), the
hot modules really are the compiled ones; the perft corpus and the golden
outputs (``test_perft.py``, ``test_golden.py``), made by the pure modules,
then check that the compiled ones give the same moves and the same games."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "tools"))
import compile as compile_tool


def _module(path: str) -> str:
    return "cardcore_plugins." + path.removesuffix(".py").replace("/", ".")


@pytest.mark.skipif(not os.environ.get("CARDCORE_REQUIRE_COMPILED"), reason="the pure build is running")
def test_the_hot_modules_are_compiled():
    for path in compile_tool.HOT:
        module = importlib.import_module(_module(path))
        assert module.__file__ is not None and module.__file__.endswith(compile_tool.SUFFIXES), (
            module.__file__
        )


def test_the_hot_modules_exist_as_sources():
    # the pure code is the reference: every module named for compiling is a source file
    for path in compile_tool.HOT:
        assert (compile_tool.ROOT / "plugins" / path).is_file(), path
        assert importlib.import_module(_module(path)) is not None
