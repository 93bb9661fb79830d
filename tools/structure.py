"""The shape of the code, in numbers: what the front rooms' redesign is
measured by (issue 47).

    python tools/structure.py            # this checkout
    python tools/structure.py --rev REV  # a git revision (read with git show)

Prints the largest circle of the core's import graph at run time (imports at
a module's top level, those under ``if TYPE_CHECKING:`` left out), the
imports made inside functions, the five largest modules of ``cardcore/``,
and the ``type: ignore`` comments of ``cardcore/`` and ``plugins/``.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def sources(rev: str | None) -> dict[str, str]:
    """Path → text of every Python file under cardcore/ and plugins/."""
    if rev is None:
        return {
            str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
            for folder in ("cardcore", "plugins")
            for p in (ROOT / folder).rglob("*.py")
        }
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", rev, "cardcore", "plugins"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    return {
        n: subprocess.run(["git", "show", f"{rev}:{n}"], cwd=ROOT, capture_output=True, text=True).stdout
        for n in names
        if n.endswith(".py")
    }


def module_of(path: str) -> str:
    parts = path[:-3].split("/")
    if parts[0] == "plugins":
        parts[0] = "cardcore_plugins"
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(tree: ast.Module, module: str, known: set[str]) -> tuple[set[str], set[str], int]:
    """(the modules of ``known`` imported at the top level at run time, those
    imported inside functions, the count of imports inside functions)."""
    top: set[str] = set()
    late: set[str] = set()

    def add(name: str, into: set[str] = top) -> None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            into.add(name)

    def walk(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If) and _type_checking(node):
                walk(node.orelse)
                continue
            if isinstance(node, ast.Import):
                for a in node.names:
                    add(a.name)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                add(node.module)
                for a in node.names:
                    add(f"{node.module}.{a.name}")
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                for part in ("body", "orelse", "finalbody", "handlers"):
                    for sub in getattr(node, part, []):
                        walk([sub] if isinstance(sub, ast.stmt) else sub.body)

    walk(tree.body)
    inner = 0
    for f in ast.walk(tree):
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for n in ast.walk(f):
                if isinstance(n, ast.Import):
                    inner += 1
                    for a in n.names:
                        add(a.name, late)
                elif isinstance(n, ast.ImportFrom) and n.module and not n.level:
                    inner += 1
                    add(n.module, late)
                    for a in n.names:
                        add(f"{n.module}.{a.name}", late)
    return top, late, inner


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found, key=len, reverse=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rev", help="a git revision instead of the work tree")
    args = parser.parse_args()
    files = sources(args.rev)
    known = {module_of(p) for p in files}
    graph: dict[str, set[str]] = {}
    whole: dict[str, set[str]] = {}
    inner_of: dict[str, int] = {}
    for path, text in files.items():
        top, late, inner = imports(ast.parse(text), module_of(path), known)
        graph[module_of(path)] = top
        whole[module_of(path)] = top | late
        inner_of[path] = inner
    for title, g in (("at import (top level)", graph), ("at run time (imports inside functions too)", whole)):
        core = {
            m: {w for w in ws if w.startswith("cardcore.")}
            for m, ws in g.items()
            if m.startswith("cardcore.")
        }
        found = circles(core)
        print(f"largest import circle of cardcore/ {title}: {len(found[0]) if found else 0} modules")
        for comp in found:
            print(f"  {len(comp)}: {', '.join(comp)}")
    core_files = {p: t for p, t in files.items() if p.startswith("cardcore/")}
    most = sorted(core_files, key=lambda p: -inner_of[p])[:4]
    counts = ", ".join(f"{p} {inner_of[p]}" for p in most)
    print(f"imports inside functions: {sum(inner_of[p] for p in core_files)} in cardcore/ ({counts})")
    sizes = sorted(((len(t.splitlines()), p) for p, t in core_files.items()), reverse=True)[:5]
    print("largest modules: " + ", ".join(f"{p} {n}" for n, p in sizes))
    ignores = sum(t.count("type: ignore") for t in files.values())
    print(f"type: ignore in cardcore/ and plugins/: {ignores}")


if __name__ == "__main__":
    main()
