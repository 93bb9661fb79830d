"""What a game plugin gives the core: its spec, its state's base class, and the
small value types its hooks return."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, cast

from pydantic import BaseModel, ConfigDict
from typing_extensions import TypeVar

from cardcore.cards import Card
from cardcore.hookspecs import hookimpl
from cardcore.i18n import Tn

if TYPE_CHECKING:
    from cardcore.players import PlayerFactory
    from cardcore.position import PositionReader
    from cardcore.state import Field
    from cardcore.table import Table

OptionsT = TypeVar("OptionsT", bound=BaseModel)
StateT = TypeVar("StateT", bound="DealState", default="DealState")


class PositionError(ValueError):
    """A position (scenario) file or a state's JSON is invalid; the text names the field."""


class NoOptions(BaseModel):
    """Options of a game that has none."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class GameSpec:
    """A game, as registered by ``cardcore_register_games``.

    ``plugin(table)`` returns the object registered on the table's plugin
    manager: it implements the table hooks for this game.  ``sides(players,
    options)`` gives the seats of each side.  ``check_table(players, options)``
    returns an error text when the table cannot be played, else None.

    What the engine-wide tests and tools read (a new game is covered by them
    without being named anywhere else): ``example_tables`` (see ``tables()``),
    ``test_configs`` (see ``configurations()``), ``features(table, state,
    moves)`` (what a position exercises: the rulings and features the
    legal-move corpus covers, ``tools/perft.py``) and ``checks()`` (an object
    with ``on_move(state, move)`` / ``on_deal(state, result)`` that raise
    ``AssertionError`` on the game's own broken invariants, for conformance
    runs).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    options_model: type[BaseModel]
    plugin: Callable[[Table], GamePlugin[Any, Any]]  # a GamePlugin subclass (checked by Table)
    sides: Callable[[int, Any], tuple[tuple[int, ...], ...]]
    summary: str = ""
    rules_page: Callable[..., str] = lambda lang=None: ""
    check_table: Callable[[int, Any], str | None] = lambda players, options: None
    hookspecs: tuple[type, ...] = ()
    # move kinds that take back the player's own decisions within his turn:
    # conveniences that no legal path may need (G1; the conformance suite
    # searches for a way to end each turn without them)
    take_backs: tuple[str, ...] = ()
    example_tables: tuple[tuple[int, Mapping[str, Any]], ...] = ()
    test_configs: tuple[tuple[int, Mapping[str, Any], tuple[str, ...]], ...] = ()
    features: Callable[[Any, Any, Sequence[Any]], set[str]] = lambda table, state, moves: set()
    checks: Callable[[], Any] | None = None
    # other names players call the game by (``karuzele``), accepted wherever a game is named
    aliases: tuple[str, ...] = ()

    def tables(self) -> list[tuple[int, dict[str, Any]]]:
        """(players, options) of the tables every engine-wide test plays
        (hidden information, determinism, sampling, the web table, the search
        bot): ``example_tables``, else each player count with the default
        options."""
        if self.example_tables:
            return [(p, dict(o)) for p, o in self.example_tables]
        return [(p, {}) for p in range(self.min_players, self.max_players + 1)]

    def configurations(
        self, house_rules: Sequence[HouseRuleSpec]
    ) -> list[tuple[int, dict[str, Any], tuple[str, ...]]]:
        """(players, options, house rules) of every table worth a soak run or a
        sample of the legal-move corpus: ``test_configs``, else each of
        ``tables()`` with no house rule, each of the game's house rules alone
        and all of them together (those that fit the player count)."""
        if self.test_configs:
            return [(p, dict(o), tuple(h)) for p, o, h in self.test_configs]
        out: list[tuple[int, dict[str, Any], tuple[str, ...]]] = []
        for players, options in self.tables():
            fit = [
                h.name for h in house_rules if h.game == self.name and (not h.players or players in h.players)
            ]
            combos = [(), *((n,) for n in fit), *([tuple(fit)] if len(fit) > 1 else [])]
            out += [(players, options, combo) for combo in combos]
        return out


@dataclass(frozen=True)
class HouseRuleSpec:
    """A house rule, as registered by ``cardcore_register_house_rules``.

    ``plugin`` is registered on the table's manager after the game (and after
    the house rules listed before it), so its hooks wrap or replace the game's.
    """

    name: str
    game: str
    summary: str
    plugin: object
    ruling: str = ""
    players: tuple[int, ...] = ()  # the player counts it is for (empty: any)


class GamePlugin(Generic[OptionsT, StateT]):
    """Base of a game's table plugin (``GameSpec.plugin``): what every game
    repeats, so that a game's class holds its rules only.

    ``self.table`` is the table, ``self.options`` its validated options (the
    game's pydantic model, ``OptionsT``); ``StateT`` is the game's state class
    (``GamePlugin[Options, MyState]``; ``DealState`` when left out), which the
    presentation methods below receive. ``bots`` maps each player kind the
    game adds to ``"module:Class"``, imported only when a table registers its
    players. Subclasses implement the rules hooks (``REQUIRED_HOOKS`` at
    least; ``Table`` checks them) with plain ``@hookimpl``.
    """

    bots: ClassVar[Mapping[str, str]] = {}
    # the game's catalog domain (``cardcore.i18n.words``): where the core looks up
    # the words it shows for the game's data, e.g. the labels of its view's
    # items (``pgettext("view item", label)`` in this domain)
    domain: ClassVar[str] = "cardcore"
    # the levels a person picks (``cardcore.levels``): level → kind spec, or
    # level → {players: kind spec}; a level left out gets the core's default
    levels: ClassVar[Mapping[str, str | Mapping[int, str]]] = {}
    # the level whose search gives the hint (``players.advise``), within about 500 ms of
    # CPU a decision: ``hard``, unless the game's ``hard`` is kept weak for the ladder; a
    # level with options (``expert:iterations=1000``) where the level itself takes longer
    hint_level: ClassVar[str] = "hard"
    # the kinds of move a search with ``macro`` leaves to its prior (the game's
    # bot) instead of branching on them: Canasta's melds (``cardcore.ismcts``)
    search_follows: ClassVar[frozenset[str]] = frozenset()
    suits_matter: ClassVar[bool] = True  # False: a card typed names any card of its rank
    # the move a card typed alone means, when no move plays it: asked first why not
    # (``cardcore_explain_illegal``): Carrousel's and Paquet voleur's trail
    card_kind: ClassVar[str | None] = None
    # every kind of move of the game (``take_pile``), listed or not now: a person
    # may ask ``why`` of any (``why take the pile`` after drawing)
    move_kinds: ClassVar[tuple[str, ...]] = ()
    # the game's state class, declaring its FIELDS: the state hooks are derived from it
    state_class: ClassVar[type[DealState] | None] = None

    def __init__(self, table: Table) -> None:
        self.table = table
        self.options = cast(OptionsT, table.options)

    def goal(self) -> str:
        """What wins the match, in words (``first to 120``), for the players' view."""
        return ""

    def events(self, before: Observation, after: Observation, names: list[str]) -> list[str]:
        """What a move did that its text does not say, in words, from two
        spectator views (the printer shows them): by default new hands dealt."""
        grew = [a > b for a, b in zip(after.hand_sizes, before.hand_sizes, strict=True)]
        if len(grew) > 1 and all(grew) and after.stock < before.stock:
            n = after.stock
            return [
                Tn(
                    "new hands dealt; {n} card left in the stock",
                    "new hands dealt; {n} cards left in the stock",
                    n,
                )
            ]
        return []

    def deal_events(self, state: StateT, names: list[str]) -> list[str]:
        """How the deal ended, in words (the printer shows them before the scores)."""
        return []

    def show_item(
        self, item: dict[str, Any], show: Callable[[Any], str], name: Callable[[int], str]
    ) -> str | None:
        """How the terminal shows one structured item of this game's public view
        (a build, a meld …): ``show(value)`` renders any value (cards …),
        ``name(seat)`` a seat's player. None: the core's rendering (a pile
        ``{"top", "size"}``, a per-side ``{"seats", …}``, keys and values)."""
        return None

    def hand_order(self, card: Card) -> Any:
        """How a hand is shown to a person (a sort key): by suit, then rank."""
        return card.sort_key

    @hookimpl
    def cardcore_register_players(self, register: Callable[[str, PlayerFactory], None]) -> None:
        for kind, where in self.bots.items():
            module, _, name = where.partition(":")
            register(kind, getattr(importlib.import_module(module), name))


def rules_page(package: str | None) -> Callable[..., str]:
    """A ``GameSpec.rules_page`` that reads ``rules.md`` beside the game's code
    (``rules_page(__package__)``; the file may link to the page in ``docs/``);
    ``read(lang)`` reads ``rules.<lang>.md`` where the game ships one (a
    translation), else ``rules.md``."""
    assert package, "rules_page(__package__) from a game's package"

    def read(lang: str | None = None) -> str:
        folder = resources.files(package)
        if lang:
            page = folder.joinpath(f"rules.{lang}.md")
            if page.is_file():
                return page.read_text(encoding="utf-8")
        return folder.joinpath("rules.md").read_text(encoding="utf-8")

    return read


def house_rules_hook(specs: list[HouseRuleSpec]) -> Callable[..., None]:
    """A ``cardcore_register_house_rules`` implementation registering ``specs``.

    A house-rule module says ``cardcore_register_house_rules = house_rules_hook(HOUSE_RULES)``.
    """
    from cardcore.hookspecs import hookimpl

    @hookimpl
    def cardcore_register_house_rules(register: Callable[[HouseRuleSpec], None]) -> None:
        for spec in specs:
            register(spec)

    return cardcore_register_house_rules


class DealState:
    """Base of every game's deal state: the fields the engine reads.

    ``hands[seat]`` are lists of cards; ``stock`` is the undealt pack, the
    next card to come first.  Games subclass it with their own slots and
    declare every field once in ``FIELDS`` (``cardcore.state``): ``clone``
    (which copies every mutable container and shares the cards, which are
    immutable), ``new``, the JSON and ``all_cards`` are derived from it when
    the class is defined. A game may still write any of them itself.
    """

    __slots__ = ("dealer", "hands", "stock", "table", "to_act")

    #: the fields, in JSON order (``cardcore.state.Field``); empty: the game
    #: writes ``clone`` and its state hooks itself
    FIELDS: ClassVar[tuple[Field, ...]] = ()
    #: the fields whose cards the other seats cannot see, (name, one list per
    #: seat): what ``redeal_unseen`` deals anew (derived from FIELDS' ``hidden``)
    HIDDEN: ClassVar[tuple[tuple[str, bool], ...]] = (("hands", True), ("stock", False))

    table: Table
    dealer: int
    to_act: int
    hands: list[list[Card]]
    stock: list[Card]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.FIELDS:
            from cardcore.state import derive

            derive(cls)

    def clone(self) -> Self:  # pragma: no cover - derived from FIELDS, or the game's own
        """A copy sharing nothing mutable with this state (the cards are shared)."""
        raise NotImplementedError(f"{type(self).__qualname__} declares no FIELDS and writes no clone()")

    @classmethod
    def new(cls, table: Table, dealer: int) -> Self:  # pragma: no cover - derived from FIELDS
        """A new deal's state: ``start_fields``, then each field's default."""
        raise NotImplementedError(f"{cls.__qualname__} declares no FIELDS and writes no new()")

    def to_json(self) -> dict[str, Any]:  # pragma: no cover - derived from FIELDS
        """The state's fields as JSON data (the position-file format)."""
        raise NotImplementedError(f"{type(self).__qualname__} declares no FIELDS and writes no to_json()")

    @classmethod
    def from_json(cls, table: Table, data: dict[str, Any]) -> Self:  # pragma: no cover - derived
        """The state a position holds; ``PositionError`` names the field of a problem."""
        raise NotImplementedError(f"{cls.__qualname__} declares no FIELDS and writes no from_json()")

    def all_cards(self) -> list[Card]:  # pragma: no cover - derived from FIELDS
        """Every card of the state, each physical card once."""
        raise NotImplementedError(f"{type(self).__qualname__} declares no FIELDS and writes no all_cards()")

    def check_position(self, r: PositionReader) -> None:
        """The checks of a position read by ``from_json`` that span fields
        (raise ``PositionError`` naming the field); called last. None here."""

    def start_fields(self, table: Table, dealer: int) -> None:
        """Set the core fields of a new deal: empty hands and stock, the player
        to the dealer's left to act."""
        self.table = table
        self.dealer = dealer
        self.to_act = (dealer + 1) % table.players
        self.hands = [[] for _ in range(table.players)]
        self.stock = []

    def copy_fields_to(self, other: DealState) -> None:
        """Copy the core fields into ``other`` (for a ``clone`` written by
        hand): new lists, shared (immutable) cards and table."""
        other.table = self.table
        other.dealer = self.dealer
        other.to_act = self.to_act
        other.hands = [list(h) for h in self.hands]
        other.stock = list(self.stock)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def turn(self) -> int:
        """The seat whose turn it is: ``to_act``, unless the game lets another
        seat decide within a turn (Canasta's partner answering "May I go
        out?"), in which case the game overrides this."""
        return self.to_act


#: The canonical order of the cards a seat cannot see, in which every sampler
#: lays them out before it shuffles (``redeal_unseen``; a game's own
#: ``cardcore_sample_state`` sorts its pool with it too, ``pool.sort(key=unseen_order)``):
#: each physical card has its own place in it (``Card.sort_key``), whatever place
#: it really holds. (An ``attrgetter``: a sort key read in C, 25% cheaper than a function.)
unseen_order: Callable[[Card], tuple[int, int, str, int]] = attrgetter("sort_key")


def redeal_unseen(
    state: StateT, seat: int, rng: random.Random, known: Sequence[Sequence[Card]] = ()
) -> StateT:
    """A copy of ``state`` with what ``seat`` cannot see (its class's ``HIDDEN``
    fields: the other hands and the stock, unless a game declares more) shuffled
    together and dealt back in their sizes: imagined anew (the core's
    ``cardcore_sample_state``; a game whose seats know more calls it and keeps
    only the deals that agree with what they know). ``known[i]``: cards every
    seat saw go to hand i (a pile taken, say); they stay there, first in the
    hand.

    The unseen cards are put in their canonical order (``unseen_order``)
    before the shuffle: the sample is a function of ``rng`` and of what the
    seat may know, never of where the unseen cards really lie (collected in
    their true order, a shuffle with a known RNG is a fixed permutation of
    the truth, and a hint computed from it names the hidden hands)."""
    sample = state.clone()
    places: list[tuple[list[Card], list[Card]]] = []  # each list seat cannot see, the cards kept in it
    unseen: list[Card] = []
    for name, per_seat in type(sample).HIDDEN:
        held = getattr(sample, name)
        for i, cards in enumerate(held) if per_seat else ((-1, held),):
            if i == seat:
                continue
            ids = {id(c) for c in known[i]} if name == "hands" and 0 <= i < len(known) else None
            if ids:
                places.append((cards, [c for c in cards if id(c) in ids]))
                unseen += [c for c in cards if id(c) not in ids]
            else:
                places.append((cards, []))
                unseen += cards
    unseen.sort(key=unseen_order)
    rng.shuffle(unseen)
    at = 0
    for cards, kept in places:
        take = len(cards) - len(kept)
        cards[:] = kept + unseen[at : at + take]
        at += take
    return sample


@dataclass(frozen=True)
class Observation:
    """What one seat may see of a deal, as data: the engine contract that bots,
    the terminal and any other interface read (never the state itself).

    ``seat`` is None for a spectator, who sees no hand. ``to_act`` decides
    now; ``turn`` is the seat whose turn it is (they differ while a partner
    answers within another's turn). ``hand_sizes`` per seat, ``stock`` the
    number of undealt cards. ``public`` is the game's own view, in display
    order: JSON-ready data with cards as ``Card`` and structured items (a
    build is ``{"build": [cards], "value", "owner"}``, a meld ``{"rank",
    "cards", "canasta"}``, a pile ``{"top", "size", …}``), documented on each
    game's rules page. ``to_json()`` gives the same with cards as names.
    """

    seat: int | None
    to_act: int
    hand: tuple[Card, ...]
    public: dict[str, Any] = field(default_factory=dict)
    turn: int = 0
    dealer: int = 0
    hand_sizes: tuple[int, ...] = ()
    stock: int = 0

    @classmethod
    def of(cls, state: DealState, seat: int | None, public: dict[str, Any]) -> Observation:
        """The view of ``seat`` (None: a spectator): the core's fields from
        ``state``, the game's own in ``public``."""
        return cls(
            seat=seat,
            to_act=state.to_act,
            hand=tuple(state.hands[seat]) if seat is not None else (),
            public=public,
            turn=state.turn,
            dealer=state.dealer,
            hand_sizes=tuple(map(len, state.hands)),
            stock=len(state.stock),
        )

    def to_json(self) -> dict[str, Any]:
        """The view as JSON data, cards by name (a public interface)."""
        return {
            "seat": self.seat,
            "to_act": self.to_act,
            "turn": self.turn,
            "dealer": self.dealer,
            "hand": [c.name for c in self.hand] if self.seat is not None else None,
            "hand_sizes": list(self.hand_sizes),
            "stock": self.stock,
            **{k: json_data(v) for k, v in self.public.items()},
        }


def json_data(value: Any) -> Any:
    """``value`` with every card by name, tuples and sets as lists."""
    if isinstance(value, Card):
        return value.name
    if isinstance(value, dict):
        return {str(k): json_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [json_data(v) for v in value]
    return value


@dataclass(frozen=True)
class SideScore:
    """One side's result of a deal."""

    seats: tuple[int, ...]
    points: int
    breakdown: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "points": self.points, "breakdown": dict(self.breakdown)}
