"""Packages found, not listed: every folder of ``plugins/`` with an
``__init__.py`` is installed as ``cardcore_plugins.<name>``, so a new game's
folder cannot be left out of the wheel; nor can a subpackage of ``cardcore``.
Everything else is in pyproject.toml."""

from setuptools import find_packages, setup

plugins = find_packages("plugins")
setup(
    packages=[
        *find_packages(include=["cardcore", "cardcore.*"]),  # the core and its subpackages (web, study)
        "cardcore_plugins",
        *(f"cardcore_plugins.{p}" for p in plugins),
    ],
    package_dir={"cardcore": "cardcore", "cardcore_plugins": "plugins"},
)
