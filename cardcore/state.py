"""A game's state declared once: its fields, and what the core derives from them.

A state class lists its fields in ``FIELDS``, in the order of its JSON (the
position-file format, a public interface), the core's four among them::

    class PVState(DealState):
        FIELDS = (
            DEALER,
            TO_ACT,
            HANDS,
            cards("board", key="table"),
            STOCK,
            side_cards("piles"),
            value("last_taker", read=side_or_none),
        )
        __slots__ = slots(FIELDS)

        board: list[Card]
        piles: list[list[Card]]
        last_taker: int | None

A field says how it is copied (its ``shape``: an immutable value, a list of
immutable items, a list of lists, a dict of lists, a list of such dicts, a
set), whether it is one entry per seat or per side, where its cards are, its
JSON key (None: not in the JSON, derived from other fields), how its JSON is
written and read, its value in a new deal, and whether it is hidden from the
other seats (``redeal_unseen`` deals those cards anew).

From the declaration the class gets, once, when it is defined (the way
``dataclasses`` writes ``__init__``: straight-line source compiled with
``exec``, so that no call loops over the fields):

* ``clone()``: every container copied, the (immutable) cards, items and
  table shared;
* ``new(table, dealer)``: ``start_fields`` and each field's value in a new deal;
* ``to_json()`` and ``all_cards()``;

and ``from_json(table, data)``, which reads ``dealer`` and ``to_act``, then
every field in order (those marked ``first`` first) with one
``PositionReader``, then calls the class's ``check_position(r)`` for the
checks that span fields. A method the class (or a class between it and
``DealState``) writes itself is kept. The core's default hooks
(``cardcore.defaults``) answer ``cardcore_state_to_json``,
``cardcore_state_from_json`` (the class the game's plugin names as
``state_class``) and ``cardcore_state_cards`` with them.
"""

from __future__ import annotations

import builtins
import keyword
import linecache
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, get_args

from cardcore.cards import Card, names
from cardcore.errors import PluginError
from cardcore.game import DealState, PositionError

if TYPE_CHECKING:
    from cardcore.position import PositionReader
    from cardcore.table import Table

Shape = Literal["value", "list", "lists", "dict", "dicts", "set"]
#: (reader, JSON key, the state read so far) → the field's value
Reader = Callable[["PositionReader", str, Any], Any]

_SHAPES = get_args(Shape)
# how clone() copies each shape (``{x}`` is the field of the original)
_COPY: dict[str, str] = {
    "value": "{x}",  # immutable: shared
    "list": "[*{x}]",  # a list of immutable items (cards, builds, numbers)
    "lists": "[[*v] for v in {x}]",  # one list per seat or side
    "dict": "{{k: [*v] for k, v in {x}.items()}}",  # key → list
    "dicts": "[{{k: [*v] for k, v in d.items()}} for d in {x}]",  # per seat or side: key → list
    "set": "set({x})",
}
# where all_cards() finds the cards of each shape
_CARDS: dict[str, list[str]] = {
    "list": ["out += {x}"],
    "lists": ["for v in {x}:", "    out += v"],
    "dict": ["for v in {x}.values():", "    out += v"],
    "dicts": ["for d in {x}:", "    for v in d.values():", "        out += v"],
}
# a new deal's entries per seat or side: how many, and what to count over
_SIZE = {"seat": "table.players", "side": "len(table.sides)"}
_OVER = {"seat": "range(table.players)", "side": "table.sides"}


@dataclass(frozen=True)
class Field:
    """One field of a state (see the module's docstring).

    ``name`` is the attribute; ``key`` its JSON key ("": the name; None: not
    in the JSON); ``shape`` how ``clone`` copies it; ``per`` "seat" or "side"
    when it holds one entry per seat or side (its size in a new deal);
    ``cards`` True when its items are cards, or a function giving an item's
    cards; ``hidden`` when the other seats cannot see its cards (one entry
    per seat: each seat sees his own). ``default`` is its value in a new deal
    (for a list per seat or side: each entry's), unless ``new(table)`` makes
    it; ``dump(value)`` writes its JSON (None: the value as it is),
    ``read(reader, key, state)`` reads it, raising ``PositionError`` naming
    the key; ``first`` fields are read before the others (others depend on
    them).
    """

    name: str
    shape: Shape = "value"
    key: str | None = ""
    per: Literal["seat", "side"] | None = None
    cards: bool | Callable[[Any], Iterable[Card]] = False
    hidden: bool = False
    default: Any = None
    new: Callable[[Table], Any] | None = None
    dump: Callable[[Any], Any] | None = None
    read: Reader | None = None
    first: bool = False

    def __post_init__(self) -> None:
        if self.key == "":
            object.__setattr__(self, "key", self.name)


# ---- the readers and writers fields share -------------------------------------


def flag(r: PositionReader, key: str, state: Any) -> bool:
    """A yes/no field, no by default."""
    return bool(r.get(key, False))


def seat_or_none(r: PositionReader, key: str, state: Any) -> int | None:
    """A seat number, or None."""
    return None if r.get(key) is None else r.seat(key)


def side_or_none(r: PositionReader, key: str, state: Any) -> int | None:
    """A side number, or None."""
    raw = r.get(key)
    return None if raw is None else r.index(key, raw, len(r.table.sides), "side")


def one_of(choices: Sequence[Any], default: Any, text: str) -> Reader:
    """A reader of one of ``choices`` (``default`` when missing); anything else
    is the error ``key: text``. It gives the member of ``choices`` (an enum's
    member for its text)."""

    def read(r: PositionReader, key: str, state: Any) -> Any:
        raw = r.get(key, default)
        if raw not in choices:
            raise PositionError(f"{key}: {text}")
        return choices[list(choices).index(raw)]

    return read


def read_cards(r: PositionReader, key: str, state: Any) -> list[Card]:
    return r.cards(key)


def read_seat_cards(r: PositionReader, key: str, state: Any) -> list[list[Card]]:
    return r.per_seat_cards(key)


def read_side_cards(r: PositionReader, key: str, state: Any) -> list[list[Card]]:
    return r.per_side_cards(key)


def dump_per(lists: Sequence[Iterable[Card]]) -> dict[str, list[str]]:
    """Cards per seat or side as JSON: ``{"0": [names…], …}``."""
    return {str(i): names(v) for i, v in enumerate(lists)}


# ---- the fields' kinds ----------------------------------------------------------


def value(
    name: str,
    default: Any = None,
    *,
    read: Reader | None = None,
    key: str | None = "",
    dump: Callable[[Any], Any] | None = None,
    new: Callable[[Table], Any] | None = None,
    first: bool = False,
) -> Field:
    """An immutable value (a number, a flag, a text, a tuple …), shared by clones."""
    return Field(name, "value", key, default=default, new=new, dump=dump, read=read, first=first)


def cards(name: str, *, key: str = "", hidden: bool = False) -> Field:
    """A list of cards: JSON a list of names."""
    return Field(name, "list", key, cards=True, hidden=hidden, dump=names, read=read_cards)


def seat_cards(name: str, *, key: str = "", hidden: bool = False) -> Field:
    """A list of cards per seat: JSON ``{"0": [names…], …}``."""
    return Field(name, "lists", key, "seat", True, hidden, dump=dump_per, read=read_seat_cards)


def side_cards(name: str, *, key: str = "") -> Field:
    """A list of cards per side (a capture pile …): JSON ``{"0": [names…], …}``."""
    return Field(name, "lists", key, "side", True, dump=dump_per, read=read_side_cards)


# the core's fields (``DealState``): dealer and to_act are read together
# (``PositionReader.dealer_and_to_act``), before any other
DEALER = Field("dealer")
TO_ACT = Field("to_act")
HANDS = seat_cards("hands", hidden=True)
STOCK = cards("stock", hidden=True)
CORE = ("dealer", "to_act", "hands", "stock")


def slots(fields: Sequence[Field], base: type = DealState) -> tuple[str, ...]:
    """The ``__slots__`` of a state class declaring ``fields``: the fields that
    ``base`` (``DealState``, or the state class it extends) does not hold."""
    held = {s for k in base.__mro__ for s in getattr(k, "__slots__", ())}
    return tuple(f.name for f in fields if f.name not in held)


def check_to_act_holds(state: DealState) -> None:
    """A position check: the seat to act holds cards, unless every hand is empty."""
    if not state.hands[state.to_act] and any(state.hands):
        raise PositionError(f"to_act: seat {state.to_act} has no cards but another seat has")


def state_class(table: Table) -> type[DealState]:
    """The state class a game's plugin names (``state_class``), declaring FIELDS:
    what the core's ``cardcore_state_from_json`` builds."""
    cls = declared_state(table.plugin)
    if cls is None:
        raise PluginError(
            f"{table.game.name}: the game implements no cardcore_state_from_json and its plugin names "
            "no state_class declaring FIELDS (docs/PLUGINS.md)"
        )
    return cls


def declared_state(plugin: object) -> type[DealState] | None:
    """The ``state_class`` of a game's plugin, if it declares its FIELDS."""
    cls = getattr(plugin, "state_class", None)
    if isinstance(cls, type) and issubclass(cls, DealState) and cls.FIELDS:
        return cls
    return None


# ---- deriving the methods ---------------------------------------------------------

DERIVED = ("clone", "new", "to_json", "from_json", "all_cards")
_MARK = "__cardcore_derived__"


def derive(cls: type[DealState]) -> None:
    """Check ``cls.FIELDS`` and give ``cls`` the methods derived from them
    (called by ``DealState.__init_subclass__``); raise TypeError naming the
    class and the field when the declaration is wrong."""
    fields = cls.FIELDS
    _check(cls, fields)
    made = _compile(cls, [_clone(cls, fields), _new(fields), _to_json(fields), _all_cards(fields)])
    made["from_json"] = _from_json
    for name in DERIVED:
        if not _written(cls, name):
            fn = made[name]
            setattr(fn, _MARK, True)
            setattr(cls, name, classmethod(fn) if name in ("new", "from_json") else fn)
    cls.HIDDEN = tuple((f.name, f.per == "seat") for f in fields if f.hidden)


def _written(cls: type, name: str) -> bool:
    """Whether a class between ``cls`` and ``DealState`` wrote ``name`` itself."""
    for k in cls.__mro__:
        if name in k.__dict__:
            if k is DealState:
                return False
            fn = getattr(k.__dict__[name], "__func__", k.__dict__[name])
            return not getattr(fn, _MARK, False)
    return False


def _check(cls: type, fields: Sequence[Field]) -> None:
    where = f"{cls.__qualname__}.FIELDS"
    if not isinstance(fields, tuple) or not all(isinstance(f, Field) for f in fields):
        raise TypeError(f"{where}: a tuple of cardcore.state.Field")
    seen: set[str] = set()
    keys: set[str] = set()
    for f in fields:
        if not f.name.isidentifier() or keyword.iskeyword(f.name) or f.name == "table":
            raise TypeError(f"{where}: {f.name!r} cannot be a field's name")
        if f.name in seen:
            raise TypeError(f"{where}: {f.name} is declared twice")
        seen.add(f.name)
        if f.key is not None:
            if f.key in keys:
                raise TypeError(f"{where}: two fields write the JSON key {f.key!r}")
            keys.add(f.key)
            if f.read is None and f.name not in ("dealer", "to_act"):
                raise TypeError(f"{where}: {f.name} is in the JSON but has no read=")
        _check_shape(where, f)
    for name in CORE:
        if name not in seen:
            raise TypeError(f"{where}: the core's field {name} is missing (cardcore.state.{name.upper()})")
    for f in (DEALER, TO_ACT):
        if f not in fields:
            raise TypeError(f"{where}: {f.name} is the core's (cardcore.state.{f.name.upper()})")
    slotted = {s for k in cls.__mro__ for s in k.__dict__.get("__slots__", ())} - {"table"}
    if slotted - seen:
        raise TypeError(f"{where}: the slot(s) {', '.join(sorted(slotted - seen))} have no field")
    if not any("__dict__" in k.__dict__ for k in cls.__mro__) and seen - slotted:
        raise TypeError(f"{where}: {', '.join(sorted(seen - slotted))} not in __slots__ (use slots(FIELDS))")


def _check_shape(where: str, f: Field) -> None:
    """One field's shape agrees with what it holds (cards, per seat or side, hidden, default)."""
    if f.shape not in _SHAPES:
        raise TypeError(f"{where}: {f.name} has no shape {f.shape!r} (one of {', '.join(_COPY)})")
    if callable(f.cards) and f.shape != "list":
        raise TypeError(f"{where}: {f.name}: an item's cards (cards=function) need the shape 'list'")
    if f.cards is True and f.shape not in _CARDS:
        raise TypeError(f"{where}: {f.name}: cards are held in a shape {', '.join(_CARDS)}")
    if f.per is not None and f.shape not in ("list", "lists", "dicts"):
        raise TypeError(f"{where}: {f.name}: per seat or side needs the shape 'list', 'lists' or 'dicts'")
    if f.hidden and not (f.cards is True and (f.shape, f.per) in (("list", None), ("lists", "seat"))):
        raise TypeError(f"{where}: {f.name}: hidden cards are a list of cards, or one per seat")
    if f.shape == "value" and f.new is None and isinstance(f.default, (list, dict, set)):
        raise TypeError(f"{where}: {f.name}: a mutable default would be shared; use new=")


#: a method's source: its name, its arguments, its body, and the values its body names
Source = tuple[str, str, list[str], dict[str, Any]]


def _compile(cls: type, methods: list[Source]) -> dict[str, Callable[..., Any]]:
    """The ``methods`` of ``cls``, compiled together once, each reading the
    values it names from its closure (fast to read)."""
    env: dict[str, Any] = {}
    src = ""
    for name, args, body, values in methods:
        env.update(values)
        src += f"    def {name}({args}):\n" + "".join(f"        {line}\n" for line in body)
    made = ", ".join(m[0] for m in methods)
    src = f"def __create__({', '.join(env)}):\n{src}    return {made}\n"
    filename = f"<cardcore.state: {cls.__module__}.{cls.__qualname__}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)  # for tracebacks
    scope: dict[str, Any] = {}
    exec(compile(src, filename, "exec"), {"__builtins__": builtins}, scope)
    out: dict[str, Callable[..., Any]] = {}
    for (name, *_), fn in zip(methods, scope["__create__"](**env), strict=True):
        fn.__qualname__ = f"{cls.__qualname__}.{name}"
        fn.__module__ = cls.__module__
        fn.__doc__ = f"Derived from {cls.__qualname__}.FIELDS (cardcore.state)."
        out[name] = fn
    return out


def _clone(cls: type, fields: Sequence[Field]) -> Source:
    body = ["s = _new(_cls)", "s.table = self.table"]
    body += [f"s.{f.name} = {_COPY[f.shape].format(x=f'self.{f.name}')}" for f in fields]
    return "clone", "self", [*body, "return s"], {"_new": object.__new__, "_cls": cls}


def _new(fields: Sequence[Field]) -> Source:
    env: dict[str, Any] = {"_new": object.__new__}
    body = ["s = _new(cls)", "s.start_fields(table, dealer)"]
    for i, f in enumerate(fields):
        if f.name in CORE:
            continue  # start_fields
        if f.new is not None:
            env[f"_f{i}"] = f.new
            expr = f"_f{i}(table)"
        elif f.shape == "value":
            env[f"_v{i}"] = f.default
            expr = f"_v{i}"
        elif f.shape == "list" and f.per:
            env[f"_v{i}"] = f.default
            expr = f"[_v{i}] * {_SIZE[f.per]}"
        elif f.shape in ("lists", "dicts") and f.per:
            expr = f"[{'[]' if f.shape == 'lists' else '{}'} for _ in {_OVER[f.per]}]"
        else:
            expr = {"list": "[]", "lists": "[]", "dict": "{}", "dicts": "[]", "set": "set()"}[f.shape]
        body.append(f"s.{f.name} = {expr}")
    return "new", "cls, table, dealer", [*body, "return s"], env


def _to_json(fields: Sequence[Field]) -> Source:
    env: dict[str, Any] = {}
    items = []
    for i, f in enumerate(fields):
        if f.key is None:
            continue
        expr = f"self.{f.name}"
        if f.dump is not None:
            env[f"_d{i}"] = f.dump
            expr = f"_d{i}({expr})"
        items.append(f"    {f.key!r}: {expr},")
    return "to_json", "self", ["return {", *items, "}"], env


def _all_cards(fields: Sequence[Field]) -> Source:
    env: dict[str, Any] = {}
    body = ["out = []"]
    for i, f in enumerate(fields):
        x = f"self.{f.name}"
        if callable(f.cards):
            env[f"_c{i}"] = f.cards
            body += [f"for item in {x}:", f"    out += _c{i}(item)"]
        elif f.cards:
            body += [line.format(x=x) for line in _CARDS[f.shape]]
    return "all_cards", "self", [*body, "return out"], env


def _from_json(cls: type[DealState], table: Table, data: dict[str, Any]) -> DealState:
    from cardcore.position import PositionReader

    r = PositionReader(table, data)
    dealer, to_act = r.dealer_and_to_act()
    s = cls.new(table, dealer)
    s.to_act = to_act
    fields = [f for f in cls.FIELDS if f.first] + [f for f in cls.FIELDS if not f.first]
    for f in fields:
        if f.read is not None and f.key is not None:
            setattr(s, f.name, f.read(r, f.key, s))
    s.check_position(r)
    return s
