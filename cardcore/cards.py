"""Cards and their notation.

A card is an interned, immutable value: ``card("10D")`` always returns the same
object, so identity, equality and hashing are cheap in the engine's inner loop.

Notation: ranks ``A 2 3 4 5 6 7 8 9 10 J Q K``, suits ``C D H S``.  Parsing also
accepts ``T`` for 10, lower case and the symbols ♣ ♦ ♥ ♠; output is canonical::

    >>> parse_card("t♦")
    Card('10D')
    >>> str(parse_card("as"))
    'AS'

Games add special cards by name (``JOKER20``, ``BROOM``, ``JOKER`` …); a special
has rank 0 and no suit.  With several decks the copies of a card are distinct
objects that print the same (``KH``) and differ by ``copy``::

    >>> card("KH", 1) is card("KH", 0)
    False
"""

from __future__ import annotations

from collections.abc import Iterable

from cardcore.i18n import T

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
SYMBOL_OF_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
_RANK_INDEX = {r: i + 1 for i, r in enumerate(RANKS)}
_RANK_INDEX["T"] = 10
_RANK_INDEX["1"] = 1


class CardError(ValueError):
    """A card's text does not name a card."""


class Card:
    """One physical card.  Never build one directly: use :func:`card`."""

    __slots__ = ("copy", "name", "rank", "sort_key", "suit")

    name: str
    rank: int  # 1 (ace) .. 13 (king); 0 for a special card
    suit: str  # "C" "D" "H" "S"; "" for a special card
    copy: int  # which copy, when several decks are used
    sort_key: tuple[int, int, str, int]

    def __init__(self, name: str, rank: int, suit: str, copy: int) -> None:
        self.name = name
        self.rank = rank
        self.suit = suit
        self.copy = copy
        if rank:
            self.sort_key = (0, SUITS.index(suit) * 16 + rank, "", copy)
        else:
            self.sort_key = (1, 0, name, copy)

    @property
    def special(self) -> bool:
        return self.rank == 0

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        if self.copy:
            return f"Card({self.name!r}, copy={self.copy})"
        return f"Card({self.name!r})"

    def __lt__(self, other: Card) -> bool:
        return self.sort_key < other.sort_key

    def __reduce__(self) -> tuple[object, tuple[str, int]]:
        return (card, (self.name, self.copy))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


_INTERNED: dict[tuple[str, int], Card] = {}


# The special cards as people see them (the terminal with symbols, the
# browser): one notation for both; the names (JOKER20 …) stay the canonical
# text of logs, JSON and position files, and both are read as input.
SPECIAL_SYMBOLS = {"JOKER20": "★20", "JOKER15": "★15", "JOKER11": "★11", "JOKER": "★Joker", "BROOM": "⌇Broom"}
_SPECIAL_OF_SYMBOL = {v.upper(): k for k, v in SPECIAL_SYMBOLS.items()} | {"★": "JOKER", "⌇": "BROOM"}


def _canonical(text: str) -> tuple[str, int, str]:
    """Return (canonical name, rank, suit) for a card's text, or raise CardError."""
    raw = text.strip()
    if not raw:
        raise CardError(T("empty card"))
    special = _SPECIAL_OF_SYMBOL.get(raw.upper())
    if special is not None:
        return special, 0, ""
    upper = raw.upper()
    last = raw[-1]
    suit = SUIT_SYMBOLS.get(last, last.upper())
    rank_text = upper[:-1]
    if suit in SUITS and rank_text in _RANK_INDEX:
        rank = _RANK_INDEX[rank_text]
        return RANKS[rank - 1] + suit, rank, suit
    if upper.isalnum() and upper[0].isalpha() and len(upper) > 2:
        return upper, 0, ""
    raise CardError(T("not a card: {text!r}", text=text[:40]))


def card(text: str, copy: int = 0) -> Card:
    """The card named ``text`` (any accepted notation), copy number ``copy``."""
    found = _INTERNED.get((text, copy))
    if found is not None:
        return found
    name, rank, suit = _canonical(text)
    found = _INTERNED.get((name, copy))
    if found is None:
        found = Card(name, rank, suit, copy)
        _INTERNED[(name, copy)] = found
    _INTERNED[(text, copy)] = found
    return found


def parse_card(text: str, specials: Iterable[str] | None = None) -> Card:
    """Parse one card; a special name is accepted only if listed in ``specials``.

    With ``specials=None`` any special-looking name is accepted.
    """
    if not isinstance(text, str):
        raise CardError(T("not a card: {text!r}", text=str(text)[:40]))
    name, rank, _ = _canonical(text)
    if not rank and specials is not None and name not in set(specials):
        raise CardError(T("not a card: {text!r}", text=text[:40]))  # checked before a new name is interned
    return card(name)


def parse_cards(text: str | Iterable[str], specials: Iterable[str] | None = None) -> list[Card]:
    """Parse cards separated by spaces or commas, or a list of card texts."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t, specials) for t in items]


def card_str(c: Card, symbols: bool = False) -> str:
    """Text of a card; with ``symbols`` the suit is shown as ♣ ♦ ♥ ♠ and the
    specials as ★20, ★Joker, ⌇Broom (``SPECIAL_SYMBOLS``)."""
    if symbols:
        if c.suit:
            return c.name[:-1] + SYMBOL_OF_SUIT[c.suit]
        return SPECIAL_SYMBOLS.get(c.name, c.name)
    return c.name


def names(cards: Iterable[Card]) -> list[str]:
    """The canonical texts of cards, as JSON and position files hold them."""
    return [c.name for c in cards]
