"""What the web tests share: a record of what was hidden when each frame was
made, and the check that a frame names no card it should not."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from cardcore.web.session import TableSession

_TOKEN = re.compile(r"[A-Za-z0-9]+")


class Audit:
    """Installed as ``session.audit``: at each version of the views, how many
    copies of each card every seat (None: a spectator) may see — the copies
    that are neither in another hand nor in the stock (two decks: counted).
    A card every seat saw taken into a hand (Canasta's pile: ``known``) may
    be named, as the history of moves names it."""

    def __init__(self, session: TableSession) -> None:
        self.table = session.table
        self.names = {c.name for c in session.table.deck}
        self.total = Counter(c.name for c in session.table.deck)
        self.allowed: dict[int, dict[int | None, Counter[str]]] = {}
        session.audit = self.record

    def record(self, version: int, state: Any) -> None:
        known = getattr(state, "known", None)
        hidden_in = []
        for seat, hand in enumerate(state.hands):
            shown = {id(c) for c in known[seat]} if known else set()
            hidden_in.append(Counter(c.name for c in hand if id(c) not in shown))
        stock = Counter(c.name for c in state.stock)
        per: dict[int | None, Counter[str]] = {}
        for seat in [*range(len(state.hands)), None]:
            hidden = stock + sum((h for i, h in enumerate(hidden_in) if i != seat), Counter())
            per[seat] = Counter({n: self.total[n] - hidden[n] for n in self.total})
        self.allowed[version] = per

    def leaks(self, frame: dict[str, Any]) -> list[str]:
        """The cards ``frame`` names beyond what its seat may see when it was made."""
        # before the first deal is dealt (version 0) a frame may name no card
        allowed = self.allowed[frame["seq"]][frame["you"]] if frame["seq"] else Counter()
        named: Counter[str] = Counter()
        for part in parts(frame):
            named |= self.named(part)  # the most copies any one part names
        return sorted(n for n, k in named.items() if k > allowed[n])

    def named(self, value: Any) -> Counter[str]:
        out: Counter[str] = Counter()

        def walk(v: Any) -> None:
            if isinstance(v, str):
                out.update(t for t in _TOKEN.findall(v) if t in self.names)
            elif isinstance(v, dict):
                for x in v.values():
                    walk(x)
            elif isinstance(v, list):
                for x in v:
                    walk(x)

        walk(value)
        return out

    def check(self, frame: dict[str, Any]) -> None:
        bad = self.leaks(frame)
        assert not bad, f"seat {frame['you']} was sent {bad} (frame {frame['seq']})"


def parts(frame: dict[str, Any]) -> list[Any]:
    """A frame's parts, each naming a physical card at most once: the view
    (its hand, table, piles …), each move's text and each move's fields, each
    line of the history, and the rest. A text's data (``say`` beside
    ``text``, ``cardcore.i18n.to_data``) is a part of its own, cut where its
    text is (each argument: a move, a card)."""
    rest = {k: v for k, v in frame.items() if k not in ("view", "moves", "history")}
    moves = frame.get("moves", [])
    hint = frame.get("hint") or {}
    why = frame.get("why") or {}
    estimates = hint.get("estimates") or []
    return [
        frame.get("view"),
        *(m.get("text") for m in moves),  # a move's text names its cards again
        *(m.get("say") for m in moves),  # and its data
        *({k: v for k, v in m.items() if k not in ("text", "say")} for m in moves),
        *({k: v for k, v in line.items() if k != "say"} for line in frame.get("history", [])),
        *(line.get("say") for line in frame.get("history", [])),
        *({k: v for k, v in e.items() if k != "say"} for e in estimates),  # one move each
        *(e.get("say") for e in estimates),
        # the hint's and why's words: each clause names one move ("I would play X: … than Y")
        *clauses(hint.get("text")),
        *say_parts(hint.get("say")),
        *clauses(why.get("text")),
        *say_parts(why.get("say")),
        why.get("rule"),
        *say_parts(why.get("rule_say")),
        {
            **{k: v for k, v in rest.items() if k not in ("hint", "why")},
            "hint": {k: v for k, v in hint.items() if k not in ("estimates", "text", "say")},
        },
    ]


def clauses(text: str | None) -> list[str]:
    return re.split(r": |; | than ", text) if text else []


def say_parts(data: Any) -> list[Any]:
    """A text's data cut as its text is by ``clauses``: a message's arguments
    each a part (a move, a card), a plain string by its clauses."""
    if isinstance(data, str):
        return clauses(data)
    if isinstance(data, dict) and "t" in data:
        return [data.get("t"), *(data.get("a") or {}).values()]
    return [data]


class AuditedSession(TableSession):
    """A table whose every version of the views is recorded from the start
    (``self.checker``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.checker = Audit(self)


CHANGE_KEYS = {"type", "base", "view", "view_drop", "history_drop", "history_add"}


def next_frame(prev: dict[str, Any] | None, m: dict[str, Any]) -> dict[str, Any] | None:
    """The whole frame a message brings (``static/frames.js``' ``nextFrame``,
    written again from docs/WEB.md): a state frame is one; a change frame
    patches ``prev`` when ``prev`` is its base, else None."""
    if m["type"] == "state":
        return m
    if m["type"] != "change" or prev is None or prev.get("n") != m["base"]:
        return None
    f = {**prev, **{k: v for k, v in m.items() if k not in CHANGE_KEYS}}
    if "view" in m:
        f["view"] = None if m["view"] is None else {**(prev["view"] or {}), **m["view"]}
    for k in m.get("view_drop", []):
        f["view"] = {x: v for x, v in f["view"].items() if x != k}
    if "history_drop" in m or "history_add" in m:
        f["history"] = prev["history"][m.get("history_drop", 0) :] + m.get("history_add", [])
    return f


def whole_frames(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every whole frame a connection's messages (state and change frames,
    in order) bring; a change that does not build on the frame held fails."""
    frames: list[dict[str, Any]] = []
    for m in messages:
        if m["type"] in ("state", "change"):
            f = next_frame(frames[-1] if frames else None, m)
            assert f is not None, f"change {m.get('n')} on base {m.get('base')}: not the frame held"
            frames.append(f)
    return frames
