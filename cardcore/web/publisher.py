"""What a table sends its connections: frames, numbered, whole or as changes.

The ``Publisher`` of a table keeps its connections (``Subscriber``), the
lines of "what happened" this deal (``say``, a window of at most
``HISTORY`` lines, each numbered among all the lines said at the table), and
per frame kind (a seat; None: the spectators) the last frame it numbered.
``publish`` builds each kind's frame once (``build``: what that seat may see
now, the session's ``frame``), numbers it when it changed, and sends each
connection the change from the frame it holds (``changes``: encoded once per
kind) or the whole frame (encoded once per kind and number). The step
listener feeds it (the session's game thread: each deal, move and deal's
end); the match's state a frame shows is the session's ``Status``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardcore.i18n import to_data
from cardcore.render import plain

HISTORY = 200  # lines of "what happened" (this deal's) a frame carries at most
PHASES = ("starting", "playing", "deal_over", "match_over", "stopped", "error")

Frame = tuple[int, dict[str, Any], tuple[int, int]]  # its number, the frame without its history, the window


class Subscriber:
    """One connection: the seat it holds (None: a spectator) and how to send
    it a frame. ``push(text, kind)`` gets the frame as JSON text (encoded once
    for all the connections that get the same frame: the spectators) and its
    kind (``state``: a whole frame; ``change``: what changed since the frame
    numbered ``base``); it is called from any thread and must not block (the
    web layer hands the text to its event loop); ``kick`` tells the
    connection that another one took its seat. ``changes``: the connection
    understands change frames (``?changes=1``); ``base``: the number of the
    last frame it was sent (None: it needs a whole one)."""

    def __init__(
        self,
        seat: int | None,
        push: Callable[[str, str], None],
        kick: Callable[[], None],
        changes: bool = False,
    ):
        self.seat = seat
        self.push = push
        self.kick = kick
        self.changes = changes
        self.base: int | None = None
        self.client: str | None = None  # its address (the web layer's): whose search CPU its hints spend


@dataclass
class Status:
    """The match as the frames show it (``status``), and who is ready for the next deal."""

    phase: str = "starting"  # one of PHASES
    match: int = 0
    deal: int = 0
    dealer: int = 0
    scores: list[int] = field(default_factory=list)
    sheet: list[dict[str, Any]] = field(default_factory=list)  # this match's deals: their points per side
    result: dict[str, Any] | None = None
    winners: list[int] | None = None
    ready: set[int] = field(default_factory=set)
    error: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "match": self.match,
            "deal": self.deal,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "sheet": list(self.sheet),  # this match's deals: {"deal", "points": per side}
            "result": self.result,
            "winners": self.winners,
            "ready": sorted(self.ready),
            "error": self.error,
            "error_say": to_data(self.error),  # the same, said in the page's language
        }


class Publisher:
    """A table's connections and the frames they were sent. Every method but
    the constructor is called with the session's lock held."""

    def __init__(self, build: Callable[[int | None], dict[str, Any]]) -> None:
        self.build = build  # what a seat (None: a spectator) may see now, history included
        self.subs: list[Subscriber] = []
        self.history: list[dict[str, Any]] = []
        self.history_start = 0  # the number of history[0] among all the lines said at this table
        self.frames = 0  # frames published: each new one gets the next number ("n")
        # per frame kind (a seat; None: the spectators): the last frame published,
        # its number and its history's window (first line's number, end)
        self.last: dict[int | None, Frame] = {}
        self.whole: dict[int | None, tuple[int, str]] = {}  # per frame kind: its last whole frame, encoded

    # ---- what happened ----------------------------------------------------
    def say(self, text: str, seat: int | None = None, kind: str = "move") -> None:
        # "text": the English, no ruling ids in play; "say": the same as data (a page says it
        # in its own language, its ruling ids left out there too)
        self.history.append({"seat": seat, "text": plain(text), "kind": kind, "say": to_data(text)})
        if len(self.history) > HISTORY:
            self.history_start += len(self.history) - HISTORY
            del self.history[:-HISTORY]

    def clear_history(self) -> None:
        """A new deal: the lines of the last one go (the cards named are dealt anew)."""
        self.history_start += len(self.history)
        self.history.clear()

    # ---- connections -------------------------------------------------------
    def seats_here(self) -> set[int | None]:
        return {s.seat for s in self.subs}

    def resync(self, sub: Subscriber) -> None:
        """``sub`` lost track (a change whose base it does not hold): a whole
        frame of its own kind next (the others' are not rebuilt; its own is
        encoded once per frame number, ``whole``)."""
        if sub not in self.subs:
            return
        sub.base = None
        self.publish({sub.seat})

    def publish(self, only: set[int | None] | None = None) -> None:
        """Send every connection what is new for it: per frame kind (a seat;
        the spectators share one; ``only``: those kinds, when nothing changed
        for the others) the frame is built once and, when it changed,
        numbered; a connection that holds the last one gets the change
        (encoded once per kind), any other the whole frame (encoded once per
        kind and number); one that holds this frame already gets nothing."""
        kinds: dict[int | None, list[Subscriber]] = {}
        for sub in self.subs:
            if only is None or sub.seat in only:
                kinds.setdefault(sub.seat, []).append(sub)
        for seat, subs in kinds.items():
            self._send(seat, subs)

    def _send(self, seat: int | None, subs: list[Subscriber]) -> None:
        """The frame of one kind to its connections."""
        frame = self.build(seat)
        history = frame.pop("history")
        window = (self.history_start, self.history_start + len(history))
        before = self.last.get(seat)
        if before is None or before[2] != window or before[1] != frame:
            self.frames += 1
            now = self.last[seat] = (self.frames, frame, window)
        else:
            now, before = before, None  # nothing changed for this kind
        whole: str | None = None
        change: str | None = None
        for sub in subs:
            if sub.base == now[0]:
                continue
            if sub.changes and before is not None and sub.base == before[0]:
                if change is None:
                    change = _dumps(changes(before, now, history))
                text, kind = change, "change"
            else:
                if whole is None:
                    whole = self._whole(seat, now, history)
                text, kind = whole, "state"
            sub.base = now[0]
            with contextlib.suppress(Exception):  # a connection going away is not the table's problem
                sub.push(text, kind)

    def _whole(self, seat: int | None, now: Frame, history: list[dict[str, Any]]) -> str:
        """Frame ``now`` of that kind, whole, encoded once per number."""
        kept = self.whole.get(seat)
        if kept is not None and kept[0] == now[0]:
            return kept[1]
        whole = _dumps({**now[1], "n": now[0], "history": history})
        self.whole[seat] = (now[0], whole)
        return whole


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def changes(before: Frame, now: Frame, history: list[dict[str, Any]]) -> dict[str, Any]:
    """The change message from frame ``before`` to frame ``now`` (each: its
    number, the frame without its history, the history's window: the number
    of its first line and its end); ``history``: ``now``'s lines. See
    docs/WEB.md, "Change frames"."""
    (base, old, (start0, end0)), (n, new, (start, end)) = before, now
    out: dict[str, Any] = {"type": "change", "n": n, "base": base}
    for key, value in new.items():
        if key not in ("type", "view") and (key not in old or old[key] != value):
            out[key] = value
    view = _view_change(old.get("view"), new.get("view"))
    out.update(view)
    if (start0, end0) != (start, end):
        if start0 <= start <= end0:  # the same lines go on: those past the old end are new
            drop, add = start - start0, history[end0 - start :]
        else:
            drop, add = end0 - start0, history
        if drop:
            out["history_drop"] = drop
        if add:
            out["history_add"] = add
    return out


def _view_change(view0: dict[str, Any] | None, view: dict[str, Any] | None) -> dict[str, Any]:
    """A change message's ``view`` (the whole view, or its keys that changed) and ``view_drop``."""
    out: dict[str, Any] = {}
    if view is None or view0 is None:
        if view is not view0:
            out["view"] = view  # the whole view (or null)
        return out
    changed = {k: v for k, v in view.items() if k not in view0 or view0[k] != v}
    if changed:
        out["view"] = changed
    gone = [k for k in view0 if k not in view]
    if gone:
        out["view_drop"] = gone
    return out
