"""The benchmarks measure what they say: the pure run of
``benchmarks/search_bench.py --random`` forces every module that
``tools/compile.py`` compiles (issue 49: Paquet voleur's ``movegen`` was
missed, and "compiling gains nothing" was measured compiled against compiled)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_the_pure_run_forces_every_compiled_module():
    sys.path.insert(0, str(ROOT / "tools"))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import compile as compile_tool
        import search_bench
    finally:
        del sys.path[:2]
    wanted = {"cardcore_plugins." + p.removesuffix(".py").replace("/", ".") for p in compile_tool.HOT}
    assert "cardcore_plugins.paquet_voleur.movegen" in wanted
    # the prelude run in a process of its own: each hot module then comes from its source
    probe = search_bench.PURE + (
        "import importlib\n"
        f"for name in sorted({sorted(wanted)!r}):\n"
        "    assert importlib.import_module(name).__file__.endswith('.py'), name\n"
        "print('pure')\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "pure", done.stderr
