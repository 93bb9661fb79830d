"""Packages found, not listed: every folder of ``plugins/`` with an
``__init__.py`` is installed as ``cardcore_plugins.<name>``, so a new game's
folder cannot be left out of the wheel; nor can a subpackage of ``cardcore``.

The compiled engine: a build (``pip install .``, ``pip wheel .``) compiles the
hot modules (``cardcore/compiled.py``: ``HOT``) with mypyc where a C compiler
is there, each on its own (its shared libraries in its package's folder, as
``tools/compile.py`` does), beside their sources, which the wheel keeps: a
platform wheel. Without a compiler, or where mypyc fails, or with
``CARDCORE_PURE_BUILD=1``, one line says so and the build is the pure one (a
``py3-none-any`` wheel). An editable install (``pip install -e .``) is always
pure: ``tools/compile.py`` compiles a checkout in place.
Everything else is in pyproject.toml."""

import importlib.util
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import find_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).parent
WORK = Path("build") / "cardcore-mypyc"  # the compiled engine's sources and C files (relative: the build's)
PURE = "cardcore: no C compiler (or mypyc failed): installing the pure Python build (slower)"


def _load(name: str) -> ModuleType:
    """A module of ``cardcore/`` by its path (the package is not importable while it is built)."""
    spec = importlib.util.spec_from_file_location(f"cardcore_build_{name}", HERE / "cardcore" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildWithCatalogs(build_py):
    """The build compiles every ``.po`` catalog to ``.mo`` in the build's copy
    (``cardcore.i18n_tools.compile_all``): compiled catalogs ship in the wheel."""

    def run(self) -> None:
        super().run()
        path = Path(__file__).parent / "cardcore" / "i18n_tools.py"
        spec = importlib.util.spec_from_file_location("cardcore_i18n_tools", path)
        assert spec is not None and spec.loader is not None
        tools = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(tools)
        if not self.dry_run:
            for folder in tools.catalog_folders(Path(self.build_lib), Path(__file__).parent):
                tools.compile_folder(folder)


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _reason(err: BaseException) -> str:
    """Why, in a few words on the same line."""
    said = " ".join(str(err).split())
    return f"{type(err).__name__}: {said}"[:200]


def _compiler_works() -> bool:
    """A C compiler builds a file that includes ``Python.h`` (the one mypyc's will be given)."""
    from distutils.ccompiler import new_compiler  # setuptools' distutils (imported above)
    from distutils.sysconfig import customize_compiler

    probe = WORK / "probe"
    probe.mkdir(parents=True, exist_ok=True)
    (probe / "probe.c").write_text("#include <Python.h>\nint cardcore_probe(void) { return 0; }\n")
    compiler: Any = new_compiler()
    customize_compiler(compiler)
    try:
        compiler.compile(
            [str(probe / "probe.c")], output_dir=str(probe), include_dirs=[sysconfig.get_paths()["include"]]
        )
    except Exception:
        return False
    return True


def _compiled_engine() -> list[Any]:
    """The hot modules' extensions (``mypycify``), or none, the reason said in one line."""
    compiled = _load("compiled")
    if os.environ.get(compiled.PURE_ENV, "") not in ("", "0"):
        _say(f"cardcore: {compiled.PURE_ENV} is set: installing the pure Python build (slower)")
        return []
    try:
        if not _compiler_works():
            raise RuntimeError("no C compiler builds a file including Python.h")
        from mypyc.build import mypycify

        # the packages under the names they are imported by (plugins/ is cardcore_plugins), as
        # tools/compile.py does, with no mypy configuration of the project's (the same build as its)
        source = WORK / "src"
        shutil.rmtree(source, ignore_errors=True)
        for package, folder in (("cardcore", "cardcore"), ("cardcore_plugins", "plugins")):
            shutil.copytree(
                HERE / folder, source / package, ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__")
            )
        (WORK / "mypy.ini").write_text("[mypy]\n")
        # the build's environment (pip's isolated one) need not hold the dependencies: their
        # types unknown (Any) where the core uses them, which the hot modules' own code never is
        options = ["--config-file", str(WORK / "mypy.ini"), "--cache-dir", str(WORK / "cache")]
        options.append("--ignore-missing-imports")
        paths = [str(source / "cardcore_plugins" / module) for module in compiled.HOT]
        return list(mypycify([*options, *paths], separate=True, target_dir=str(WORK / "c")))
    except BaseException as err:  # mypyc exits (SystemExit) on a type error
        if isinstance(err, KeyboardInterrupt):
            raise
        _say(f"{PURE} [{_reason(err)}]")
        return []


class BuildCompiledEngine(build_ext):
    """The extensions built, as many at once as there are cores; where the compiler
    fails after all, the pure build, said in one line."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:
            _say(f"{PURE} [{_reason(err)}]")
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)


def _ext_modules() -> list[Any]:
    """The compiled engine for a build that makes a wheel or installs; none for an
    editable install (pure: ``tools/compile.py`` compiles a checkout) nor for the
    metadata pip asks first (which needs no compiling)."""
    commands = set(sys.argv[1:])
    if commands & {"editable_wheel", "develop"}:
        return []
    if not commands & {"bdist_wheel", "build", "build_ext", "install"}:
        return []
    return _compiled_engine()


plugins = find_packages("plugins")
setup(
    packages=[
        *find_packages(include=["cardcore", "cardcore.*"]),  # the core and its subpackages (web, study)
        "cardcore_plugins",
        *(f"cardcore_plugins.{p}" for p in plugins),
    ],
    package_dir={"cardcore": "cardcore", "cardcore_plugins": "plugins"},
    cmdclass={"build_py": BuildWithCatalogs, "build_ext": BuildCompiledEngine},
    ext_modules=_ext_modules(),
)
