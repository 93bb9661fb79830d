"""Packages found, not listed: every folder of ``plugins/`` with an
``__init__.py`` is installed as ``cardcore_plugins.<name>``, so a new game's
folder cannot be left out of the wheel; nor can a subpackage of ``cardcore``.
Everything else is in pyproject.toml."""

import importlib.util
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py


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


plugins = find_packages("plugins")
setup(
    packages=[
        *find_packages(include=["cardcore", "cardcore.*"]),  # the core and its subpackages (web, study)
        "cardcore_plugins",
        *(f"cardcore_plugins.{p}" for p in plugins),
    ],
    package_dir={"cardcore": "cardcore", "cardcore_plugins": "plugins"},
    cmdclass={"build_py": BuildWithCatalogs},
)
