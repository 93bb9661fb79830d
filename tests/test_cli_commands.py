"""Commands of other packages: the hook ``cardcore_register_commands(cli)``
(``cardcore.commands.plugins``), asked by the ``cardcore`` group when a name
is not a built-in command or the list is shown, as docs/PLUGINS.md tells."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from cardcore import hookimpl
from cardcore.cli import CardcoreGroup
from cardcore.commands import register_builtin
from cardcore.commands.base import friendly
from cardcore.commands.plugins import declared, register_plugin_commands
from cardcore.errors import CardcoreError
from cardcore.i18n import T


class Hello:
    @hookimpl
    def cardcore_register_commands(self, cli: click.Group) -> None:
        @cli.command()
        @click.argument("name")
        @friendly
        def hello(name: str) -> None:
            """Say hello to NAME."""
            if name == "nobody":
                raise CardcoreError(T("unknown game {name!r}; installed: none installed", name=name))
            click.echo(f"hello {name}")


class TakesPlay:
    @hookimpl
    def cardcore_register_commands(self, cli: click.Group) -> None:
        @cli.command("play")
        def mine() -> None:
            """Not the built-in play."""

        @cli.command("mine")
        def other() -> None:
            """A name of its own."""


class Raises:
    @hookimpl
    def cardcore_register_commands(self, cli: click.Group) -> None:
        @cli.command()
        def half() -> None:
            """Added before the plugin fails."""

        raise RuntimeError("broken")


def group_with(*plugins: object) -> tuple[click.Group, list[str]]:
    @click.group(cls=CardcoreGroup)
    def cardcore() -> None:
        """A group as ``cardcore.cli.main`` is made."""

    register_builtin(cardcore)
    warnings = register_plugin_commands(cardcore, plugins, use_entry_points=False)
    return cardcore, [str(w) for w in warnings]


def test_a_plugin_adds_a_command_that_runs_and_is_listed():
    cli, warnings = group_with(Hello())
    assert warnings == []
    out = CliRunner().invoke(cli, ["hello", "Ana"])
    assert out.exit_code == 0 and out.output == "hello Ana\n"
    listed = CliRunner().invoke(cli, ["--help"]).output
    assert "hello" in listed and "Say hello to NAME." in listed and "play" in listed
    said = CliRunner().invoke(cli, ["hello", "nobody"])  # its user's error: one line, exit 2
    assert said.exit_code == 2 and said.output.strip().count("\n") == 0 and "error:" in said.output


def test_a_built_in_name_stays_the_built_in_one():
    cli, warnings = group_with(TakesPlay())
    assert "play" in cli.commands and cli.commands["play"].help.startswith("Play GAME at the terminal")
    assert "mine" in cli.commands  # its other command is kept
    assert len(warnings) == 1 and "registers the command 'play', a name already taken" in warnings[0]


def test_a_plugin_that_fails_is_left_out_with_what_it_added():
    cli, warnings = group_with(Raises(), Hello())
    assert "half" not in cli.commands and "hello" in cli.commands
    assert len(warnings) == 1 and "failed to register (RuntimeError: broken)" in warnings[0]


def test_an_installed_package_adds_a_command(tmp_path):
    """A package on the path that declares the entry point group ``cardcore.commands``."""
    site = tmp_path / "site"
    (site / "hello_cardcore-0.1.dist-info").mkdir(parents=True)
    (site / "hello_cardcore-0.1.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: hello-cardcore\nVersion: 0.1\n"
    )
    (site / "hello_cardcore-0.1.dist-info" / "entry_points.txt").write_text(
        "[cardcore.commands]\nhello = hello_cardcore\n"
    )
    page = (Path(__file__).parent.parent / "docs" / "PLUGINS.md").read_text(encoding="utf-8")
    example = page.split("## A command of your own", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    (site / "hello_cardcore.py").write_text(example)  # the example of docs/PLUGINS.md, as it is
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("CARDCORE_DISABLE_PLUGINS", None)

    def run(*args: str, **more: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "cardcore.cli", *args],
            env={**env, **more},
            capture_output=True,
            text=True,
            timeout=120,
        )

    listed = run("--help")
    assert listed.returncode == 0 and "Say hello to NAME." in listed.stdout, listed.stderr
    said = run("hello", "Ana")
    assert said.returncode == 0 and said.stdout == "hello Ana\n", said.stderr
    left_out = run("hello", "Ana", CARDCORE_DISABLE_PLUGINS="hello")
    assert left_out.returncode == 2 and "No such command 'hello'" in left_out.stderr
    sys.path.insert(0, str(site))
    try:
        assert declared()
    finally:
        sys.path.remove(str(site))


def test_no_command_plugin_installed_loads_nothing_more():
    """Where no package declares commands, `cardcore --help` imports neither
    pluggy nor importlib.metadata (it stays quick)."""
    assert not declared()
    code = (
        "import sys\n"
        "from cardcore.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print([m for m in ('pluggy', 'importlib.metadata', 'cardcore.table') if m in sys.modules], "
        "file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stderr.strip() == "[]", out.stderr
