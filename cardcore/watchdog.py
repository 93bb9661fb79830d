"""A watchdog for a hook or a bot that overruns.

The engine's loop calls plugins' code (the game's hooks, house rules, bots)
in its own thread; Python cannot stop a thread from outside. What it can do
is notice: the loop says when it starts working (``busy``) and when it waits
for a person (``idle``); a ``Watchdog`` thread looks every quarter second,
and a thread busy past its timeout is named from its live stack — the
innermost frame of code that is not cardcore's, pluggy's or the standard
library's (the plugin), the registered plugin's name when that code is a
method of a plugin object, its installed package, and the hook it answers —
and handed to ``on_overrun``. ``cardcore serve`` stops that table only (the
thread is left behind, and whatever it does later is ignored; a search in it
reads ``given_up()`` and ends at its next iteration);
``simulate`` and ``play`` (``--move-timeout``) stop with that one line.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

from cardcore import i18n
from cardcore.i18n import _

_CORE = ("cardcore", "pluggy", "click", "pydantic", "yaml", "threading")
_STDLIB = os.path.dirname(os.__file__)


def _is_core(frame: FrameType) -> bool:
    name = str(frame.f_globals.get("__name__", ""))
    if not name or name.split(".")[0] in _CORE:
        return True
    return frame.f_code.co_filename.startswith(_STDLIB)


def culprit(thread_id: int | None, pm: Any = None) -> str:
    """Whose code ``thread_id`` is running: ``plugin NAME (module M, package
    P), hook H`` (the parts known), or the core function it is in."""
    frame = sys._current_frames().get(thread_id) if thread_id is not None else None
    if frame is None:
        return "no code running (the thread is gone)"
    stack: list[FrameType] = []
    while frame is not None:
        stack.append(frame)  # innermost first
        frame = frame.f_back
    plugin_frame = next((f for f in stack if not _is_core(f)), None)
    if pm is None:  # the table being played, if a frame of the loop has it
        table = next((f.f_locals["table"] for f in stack if hasattr(f.f_locals.get("table"), "pm")), None)
        pm = getattr(table, "pm", None)
    hook = None
    start = stack.index(plugin_frame) if plugin_frame is not None else 0
    for f in stack[start:]:
        if f.f_code.co_name.startswith("cardcore_"):
            hook = f.f_code.co_name
            break
        if f.f_code.co_name == "_multicall" and "hook_name" in f.f_locals:
            hook = str(f.f_locals["hook_name"])
            break
    if plugin_frame is None:
        inner = stack[0]
        where = f"{inner.f_globals.get('__name__', '?')}.{inner.f_code.co_name}"
        if hook:
            return _("cardcore code ({where}), hook {hook}").format(where=where, hook=hook)
        return _("cardcore code ({where})").format(where=where)
    from cardcore.plugins import package_of

    module = str(plugin_frame.f_globals.get("__name__", "?"))
    owner = plugin_frame.f_locals.get("self")
    name = None
    if pm is not None and owner is not None:
        try:
            name = pm.get_name(owner)
        except Exception:  # not a registered plugin (a bot, a helper object)
            name = None
    package = package_of(module)
    who = name or module
    if package:
        said = _("plugin {name} (module {module}, package {package})").format(
            name=who, module=module, package=package
        )
    else:
        said = _("plugin {name} (module {module})").format(name=who, module=module)
    if hook:
        return _("{plugin}, hook {hook}").format(plugin=said, hook=hook)
    return _("{plugin}, in {function}").format(plugin=said, function=plugin_frame.f_code.co_name)


class Busy:
    """What a watched loop tells the watchdog: ``busy()`` when it starts
    working, ``idle()`` when it waits for someone (a person, a pause)."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.since: float | None = None
        self.thread_id: int | None = None
        self.fired = False

    def busy(self) -> None:
        self.thread_id = threading.get_ident()
        self.since = time.monotonic()

    def idle(self) -> None:
        self.since = None

    def overdue(self, now: float) -> bool:
        return (
            not self.fired and self.since is not None and self.timeout > 0 and now - self.since > self.timeout
        )


class Watchdog:
    """A daemon thread that checks every watched ``Busy`` and calls its
    ``on_overrun`` once when it runs past its timeout."""

    PERIOD = 0.25  # seconds between looks

    def __init__(self) -> None:
        self._watched: dict[int, tuple[Busy, Callable[[], None]]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def watch(self, busy: Busy, on_overrun: Callable[[], None]) -> None:
        with self._lock:
            self._watched[id(busy)] = (busy, on_overrun)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="cardcore-watchdog", daemon=True)
                self._thread.start()

    def forget(self, busy: Busy) -> None:
        """Stop watching ``busy`` (its loop ended): its thread, if it was given
        up, is no longer (a new thread may get its id)."""
        with self._lock:
            self._watched.pop(id(busy), None)
            if busy.fired and busy.thread_id is not None:
                _GIVEN_UP.discard(busy.thread_id)

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.PERIOD):
            now = time.monotonic()
            with self._lock:
                due = [(b, fn) for b, fn in self._watched.values() if b.overdue(now)]
            for busy, fn in due:
                busy.fired = True
                if busy.thread_id is not None:
                    _GIVEN_UP.add(busy.thread_id)  # its searches end at their next iteration
                try:
                    fn()
                except Exception as err:  # the watchdog must go on watching the others
                    print(f"cardcore: watchdog: {type(err).__name__}: {err}", file=sys.stderr)


WATCHDOG = Watchdog()  # one per process

#: the threads the watchdog gave up on, until their loop says it ended (``forget``)
_GIVEN_UP: set[int] = set()


def given_up() -> bool:
    """Whether the watchdog gave up on the calling thread: the stop flag that
    long work (a search: ``cardcore.ismcts``) reads to end early, since a
    thread cannot be stopped from outside. Cheap: a set lookup."""
    return threading.get_ident() in _GIVEN_UP


_ARMED: list[Busy] = []  # the heartbeat ``arm`` set up in this process, if any

#: called by the engine's loop once per move of every deal (``runner.play_deal``):
#: ``arm`` (``--move-timeout``) makes it the watchdog's heartbeat; None: nothing is called
heartbeat: Callable[[], None] | None = None


def arm(timeout: float, command: str, finish: Callable[[], str | None] | None = None) -> None:
    """``--move-timeout`` for a command playing in this process's main thread
    (``simulate``, ``play``): each move of the engine's loop is a heartbeat
    (and a person's prompt, ``person_waits``, is no overrun); a step past
    ``timeout`` prints one line naming the plugin and the hook, and the
    process exits with code 1 (the thread cannot be stopped, nor unwound).
    ``finish`` runs first (``play``: the autosave synced); what it returns
    ends the line."""
    global heartbeat
    busy = Busy(timeout)
    heartbeat = busy.busy
    _ARMED[:] = [busy]
    lang = i18n.language()  # the watchdog's thread has a context of its own: say it in the person's

    def overrun() -> None:
        i18n.set_language(lang)
        who = culprit(busy.thread_id)
        said = ""
        if finish is not None:
            with contextlib.suppress(Exception):
                said = finish() or ""
        line = _("error: cardcore {command}: {who} ran past the move timeout ({timeout} s){said}").format(
            command=command, who=who, timeout=f"{timeout:g}", said=said
        )
        print(line, file=sys.stderr)
        sys.stderr.flush()
        os._exit(1)

    busy.busy()
    WATCHDOG.watch(busy, overrun)


@contextlib.contextmanager
def person_waits() -> Iterator[None]:
    """Around a prompt: waiting for a person is no overrun (``arm``)."""
    busy = _ARMED[0] if _ARMED else None
    if busy is None:
        yield
        return
    busy.idle()
    try:
        yield
    finally:
        busy.busy()
