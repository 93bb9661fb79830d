"""The ``cardcore`` command: the group, its global options (``--lang``,
``--version``, ``--debug``), its errors and the entry point. The commands
are ``cardcore.commands``' (one module per family), added by
``register_builtin``; a third-party package's come through the hook
``cardcore_register_commands`` (``cardcore.commands.plugins``), asked the
first time a name is not a built-in command or the list is shown.

Every user error (unknown game, bad option, malformed file, illegal move, a
mistyped flag …) is one line on stderr and exit code 2, never a traceback.
The engine is imported only by the commands that need it, so that
``cardcore --help`` stays quick.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

import click

from cardcore import i18n
from cardcore.commands import register_builtin
from cardcore.commands.base import Env, GameCommand, TranslatedHelp, lang_option
from cardcore.i18n import _
from cardcore.text import describe, one_line

DEBUG_ENV = "CARDCORE_DEBUG"


class CardcoreGroup(TranslatedHelp, click.Group):
    """click's group, with every error as one line: ``error: …``, exit code 2
    for the user's mistakes; an unexpected error (a bug, a broken plugin) is
    one line too, naming the command, with exit code 1 (``--debug`` or
    ``CARDCORE_DEBUG=1`` shows the traceback)."""

    command_class = GameCommand

    _plugins_asked = False  # the third-party commands: asked once per process

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._plugin_commands()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and not self._plugins_asked:  # not a built-in: maybe a plugin's
            self._plugin_commands()
            command = super().get_command(ctx, cmd_name)
        return command

    def _plugin_commands(self) -> None:
        """Add the commands of third-party packages (``cardcore_register_commands``),
        once; a plugin left out is one warning line on stderr."""
        if self._plugins_asked:
            return
        self._plugins_asked = True
        from cardcore.commands.plugins import register_plugin_commands  # entry points: only when asked

        for warning in register_plugin_commands(self):
            click.echo(_("warning: {message}").format(message=i18n.render(warning)), err=True)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        before = i18n.language()
        try:
            return self._main(*args, **kwargs)
        finally:
            i18n.set_language(before)  # a caller in the same process (a test) keeps its language

    def _main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        i18n.set_language(i18n.from_environment())  # `--lang` (eager, first) may change it
        argv = list(kwargs.get("args") or (args[0] if args else sys.argv[1:]) or [])
        debug = "--debug" in argv or bool(os.environ.get(DEBUG_ENV))
        if "--debug" in argv:
            argv.remove("--debug")
            if "args" in kwargs:
                kwargs["args"] = argv
            elif args:
                args = (argv, *args[1:])
            else:
                kwargs["args"] = argv
        for stream in (sys.stdout, sys.stderr):
            # a stream that cannot encode "♣" (a cp1252 redirect) gets "?" instead of an error
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                with contextlib.suppress(ValueError, OSError):
                    reconfigure(errors="replace")
        try:
            code = super().main(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError as err:
            click.echo(err.ctx.get_help())
            sys.exit(0)
        except click.ClickException as err:
            said = one_line(
                i18n.render(err.message) if isinstance(err.message, i18n.Text) else err.format_message()
            )
            if isinstance(err, click.UsageError) and err.ctx is not None:
                line = _("error: {message} (see `{command} --help`)").format(
                    message=said, command=err.ctx.command_path
                )
            else:
                line = _("error: {message}").format(message=said)
            click.echo(line, err=True)
            sys.exit(err.exit_code)
        except click.exceptions.Abort:
            click.echo("\n" + _("Aborted."), err=True)
            sys.exit(130)
        except KeyboardInterrupt:
            click.echo("\n" + _("Interrupted."), err=True)
            sys.exit(130)
        except BrokenPipeError:  # `cardcore games | head -1`: the reader has gone
            with contextlib.suppress(OSError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(141)
        except Exception as err:  # the last resort: never a traceback unless asked
            if debug:
                raise
            command = " ".join(a for a in argv[:1] if not a.startswith("-")) or "cardcore"
            where = culprit(err)
            if where:
                line = _(
                    "error: internal error in `cardcore {command}` in plugin code ({where}; "
                    "CARDCORE_DISABLE_PLUGINS=<its entry point> leaves it out): {error} "
                    "(run with --debug or {env}=1 for the traceback)"
                )
            else:
                line = _(
                    "error: internal error in `cardcore {command}`: {error} "
                    "(run with --debug or {env}=1 for the traceback)"
                )
            click.echo(
                line.format(command=command, where=where, error=_described(err), env=DEBUG_ENV), err=True
            )
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


CORE = ("cardcore", "pluggy", "click", "pydantic", "yaml")


def culprit(err: BaseException) -> str:
    """``MODULE, package P`` when the error was raised in a plugin's code (the
    innermost frame outside the core and the standard library), else ""."""
    import traceback  # loaded when an error is said

    stdlib = os.path.dirname(os.__file__)
    ours = os.path.dirname(os.path.abspath(__file__))  # cardcore itself (cli.py run as __main__ too)
    module = None
    for frame, _lineno in traceback.walk_tb(err.__traceback__):
        name = frame.f_globals.get("__name__", "")
        path = frame.f_code.co_filename
        if name.split(".")[0] in CORE or path.startswith((stdlib, ours)) or not name:
            continue
        module = name
    if module is None:
        return ""
    from cardcore.plugins import package_of  # pluggy, the games: loaded when a plugin failed

    package = package_of(module)
    if package:
        return _("{module}, package {package}").format(module=module, package=package)
    return str(module)


def _described(err: BaseException) -> str:
    """``describe(err)`` with its message in the language in use where it is a ``Text``."""
    from cardcore.errors import message  # pydantic: loaded when an error is said

    said = message(err)
    if not isinstance(said, i18n.Text):
        return describe(err)
    return f"{type(err).__name__}: {one_line(i18n.render(said), 160)}"


class _VersionAndBuild(str):
    """The version ``--version`` says, with the build running (``cardcore.compiled.build_kind``:
    the compiled engine or the pure one), both found only when it is said (a quick start)."""

    def __str__(self) -> str:
        from importlib.metadata import version

        from cardcore.compiled import build_kind

        return f"{version('cardcore')} ({build_kind()})"


# ---- the command group ------------------------------------------------------
@click.group(cls=CardcoreGroup, context_settings={"help_option_names": ["-h", "--help"]})
@lang_option("Language of everything shown: en, fr, pl, lt (default: LANGUAGE, LC_ALL, LANG).")
@click.version_option(_VersionAndBuild(), package_name="cardcore")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Play, simulate and study fishing and rummy card games.

    Start with `cardcore games`, then `cardcore play GAME`.
    """
    ctx.ensure_object(Env)


register_builtin(main)


if __name__ == "__main__":  # pragma: no cover
    main()
