"""The players' languages: gettext catalogs, the language in use, and texts
that travel as data.

Four languages: English (the source, the msgids), French, Polish and
Lithuanian (``LANGUAGES``). Every catalog is a gettext ``.po`` file, managed
with Babel (``python -m cardcore.i18n_tools extract|update|compile|check``),
compiled to ``.mo`` in the build; one *domain* per owner: ``cardcore`` (the
core, the CLI, the browser pages), ``click`` (click's own words: usage lines,
its errors) and one per game (``carrousel`` …, in the game's ``locale/``
folder, registered by the game: ``register_domain``) — a third-party game
ships its own.

Two ways of marking a text, by where it is read:

- ``_("…")`` (``ngettext``, ``pgettext``): the text in the language in use,
  now — the CLI's lines, the terminal's prompts. ``N_("…")`` only marks a
  text for extraction (translated later by ``_(text)``).
- ``T("… {card} …", card=c)`` / ``Tn(singular, plural, n, …)``: a ``Text``,
  for texts that go into data (a move's text, an event, a reason, a score's
  breakdown, a frame of the browser table). A ``Text`` *is* a ``str``, its
  English rendering with cards in canonical notation (what logs and JSON keep,
  language-neutral as before), and remembers its message and arguments:
  ``render(text, lang)`` says it in any language, ``to_data(text)`` sends it
  to a browser page, which says it in its own (``static/i18n.js``).

A game's module binds the functions to its domain: ``_, T, Tn = ...`` from
``words(domain)``. Placeholders are ``str.format`` names; a whole sentence
is one message (a language reorders its words: never glue fragments).
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from cardcore.cards import Card

LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "pl": "Polski", "lt": "Lietuvių"}
SOURCE = "en"
LOCALE_PATH_ENV = "CARDCORE_LOCALE_PATH"  # more catalog folders, searched first (the pseudo-locale's)
CORE_LOCALE = Path(__file__).parent / "locale"

_current: ContextVar[str] = ContextVar("cardcore_language", default=SOURCE)
_domains: dict[str, Path] = {"cardcore": CORE_LOCALE, "click": CORE_LOCALE}


# ---- the language in use ----------------------------------------------------
def language() -> str:
    """The language in use here (this thread, this task): a code of ``languages()``."""
    return _current.get()


def set_language(code: str) -> None:
    """Use ``code`` from now on (the CLI's ``--lang``, the environment)."""
    _current.set(code)


@contextlib.contextmanager
def using(code: str) -> Iterator[None]:
    """Use ``code`` within the block."""
    token = _current.set(code)
    try:
        yield
    finally:
        _current.reset(token)


def extra_paths() -> list[Path]:
    raw = os.environ.get(LOCALE_PATH_ENV, "")
    return [Path(p) for p in raw.split(os.pathsep) if p]


def languages() -> list[str]:
    """The codes a person may choose: the four, and any language whose
    catalogs a folder of ``CARDCORE_LOCALE_PATH`` holds (a pseudo-locale)."""
    codes = list(LANGUAGES)
    for folder in extra_paths():
        if folder.is_dir():
            codes += sorted(
                p.name for p in folder.iterdir() if (p / "LC_MESSAGES").is_dir() and p.name not in codes
            )
    return codes


def normalize(code: str | None) -> str | None:
    """``fr_FR.UTF-8`` → ``fr``; ``pl-PL`` → ``pl``; None when not a language of ours."""
    if not code:
        return None
    base = code.split(".")[0].split("@")[0].replace("-", "_")
    known = languages()
    if base in known:
        return base
    short = base.split("_")[0].lower()
    return short if short in known else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the usual variables ask for, in gettext's order:
    ``LANGUAGE`` (a list: ``lt:pl``), then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``;
    English when none names one of ours (``C``, ``POSIX``, unset)."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        if var == "LANGUAGE":
            for part in value.split(":"):
                found = normalize(part)
                if found:
                    return found
            continue
        if value in ("C", "POSIX") or value.startswith("C."):
            return SOURCE
        return normalize(value) or SOURCE
    return SOURCE


def from_accept_language(header: str | None) -> str:
    """The language an HTTP ``Accept-Language`` header prefers among ours."""
    best: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")):
        piece = part.strip()
        if not piece:
            continue
        code, _, q = piece.partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            continue
        found = normalize(code.strip())
        if found:
            best.append((-weight, i, found))
    return sorted(best)[0][2] if best else SOURCE


# ---- catalogs -----------------------------------------------------------------
def register_domain(domain: str, localedir: Path) -> None:
    """Where ``domain``'s catalogs are (``<localedir>/<lang>/LC_MESSAGES/<domain>.mo``).
    Called by a game when its module is imported (``words``)."""
    _domains[domain] = Path(localedir)


def domains() -> dict[str, Path]:
    return dict(_domains)


@lru_cache(maxsize=256)
def translations(domain: str, lang: str) -> _gettext.NullTranslations:
    """``domain``'s catalog in ``lang``: the compiled ``.mo`` (the wheel's), else
    the ``.po`` read with Babel (a checkout not compiled yet); English (the
    msgids themselves) when there is none."""
    if lang == SOURCE:
        return _gettext.NullTranslations()
    folders = [*extra_paths(), _domains.get(domain, CORE_LOCALE)]
    for folder in folders:
        mo = folder / lang / "LC_MESSAGES" / f"{domain}.mo"
        if mo.is_file():
            with mo.open("rb") as f:
                return _gettext.GNUTranslations(f)
        po = mo.with_suffix(".po")
        if po.is_file():
            return _from_po(po)
    return _gettext.NullTranslations()


def _from_po(po: Path) -> _gettext.NullTranslations:
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f)
    buf = io.BytesIO()
    write_mo(buf, catalog)  # fuzzy entries left out, as msgfmt does
    buf.seek(0)
    return _gettext.GNUTranslations(buf)


def forget() -> None:
    """Drop the catalogs read (a test that writes new ones)."""
    translations.cache_clear()
    rank_letters.cache_clear()
    special_names.cache_clear()


def gettext(msgid: str, domain: str = "cardcore", lang: str | None = None) -> str:
    return translations(domain, lang or language()).gettext(msgid)


def ngettext(singular: str, plural: str, n: int, domain: str = "cardcore", lang: str | None = None) -> str:
    return translations(domain, lang or language()).ngettext(singular, plural, n)


def pgettext(context: str, msgid: str, domain: str = "cardcore", lang: str | None = None) -> str:
    return translations(domain, lang or language()).pgettext(context, msgid)


def help_msgid(text: str) -> str:
    """A CLI help text as its msgid: click's cleaned text, before any ``\\f``."""
    import inspect

    return inspect.cleandoc(text).partition("\f")[0].strip()


# ---- texts as data --------------------------------------------------------------
class Side(int):
    """A side named in a text (``steals {side}'s pile``): said as its players'
    names where the names are known (``render(..., names=, sides=)``, a page),
    else ``side 1``."""

    __slots__ = ()


class Decimal(float):
    """A number with ``digits`` decimals in a text (the hint's ``2.9`` points):
    said with the language's decimal sign (``2,9`` in French, Polish,
    Lithuanian: the catalog's ``pgettext("decimal sign", ".")``)."""

    __slots__ = ("digits",)
    digits: int

    def __new__(cls, value: float, digits: int = 1) -> Decimal:
        self = super().__new__(cls, value)
        self.digits = digits
        return self

    def __reduce__(self) -> Any:
        return (Decimal, (float(self), self.digits))

    def english(self) -> str:
        return f"{float(self):.{self.digits}f}"


class Text(str):
    """A message and its arguments; the ``str`` is its English rendering with
    cards in canonical notation (``KH takes 5D 8C``), as logs keep it."""

    __slots__ = ("args", "context", "domain", "msgid", "n", "plural", "yours")

    domain: str
    msgid: str
    plural: str | None
    n: int | None
    context: str | None
    yours: Text | None  # said instead where the side named is the reader called "You" (``addressed``)
    args: dict[str, Any]

    def __new__(
        cls,
        domain: str,
        msgid: str,
        args: dict[str, Any],
        plural: str | None = None,
        n: int | None = None,
        context: str | None = None,
    ) -> Text:
        pattern = msgid if plural is None or n == 1 else plural
        self = super().__new__(cls, _fill(pattern, args, None))
        self.domain = domain
        self.msgid = msgid
        self.plural = plural
        self.n = n
        self.context = context
        self.args = args
        self.yours = None
        return self

    def __reduce__(self) -> Any:  # pickled (Ray, processes) with its message
        return (
            Text,
            (self.domain, self.msgid, self.args, self.plural, self.n, self.context),
            (None, {"yours": self.yours}),
        )

    def addressed(self, yours: Text) -> Text:
        """This text, said as ``yours`` where the side it names is the reader
        called "You" (``steals You's pile`` → ``steals your pile``: the person
        form each language's catalog gives); returns itself."""
        self.yours = yours
        return self


class Say(NamedTuple):
    """How arguments are said in a language: cards (the terminal's notation or
    the canonical names) and sides (by names)."""

    lang: str
    card: Callable[[Any], str] | None = None
    names: Sequence[str] = ()
    sides: Sequence[Sequence[int]] = ()


def _fill(pattern: str, args: dict[str, Any], say: Say | None) -> str:
    if not args:
        return pattern
    values = {k: _arg(v, say) for k, v in args.items()}
    try:
        return pattern.format_map(values)
    except (KeyError, IndexError, ValueError):  # a broken translation: say the source's
        return pattern


def _arg(value: Any, say: Say | None) -> Any:
    from cardcore.cards import Card

    if isinstance(value, Text):
        return _say(value, say) if say is not None else str(value)
    if isinstance(value, Card):
        if say is None:
            return value.name
        return say.card(value) if say.card is not None else card_text(value, say.lang)
    if isinstance(value, Side):
        if say is None:
            return f"side {int(value)}"
        return side_name(int(value), say)
    if isinstance(value, Decimal):
        said = value.english()
        return said if say is None else said.replace(".", pgettext("decimal sign", ".", lang=say.lang))
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Card) for v in value):
        return " ".join(_arg(v, say) for v in value)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_arg(v, say)) for v in value)
    return value


def side_name(n: int, say: Say) -> str:
    if say.names and n < len(say.sides):
        return " & ".join(say.names[s] for s in say.sides[n])
    return gettext("side {n}", lang=say.lang).format(n=n)


def _say(text: Text, say: Say) -> str:
    if text.yours is not None and _to_you(text, say):
        return _say(text.yours, say)
    t = translations(text.domain, say.lang)
    if text.plural is not None:
        n = text.n or 0
        pattern = (
            t.npgettext(text.context, text.msgid, text.plural, n)
            if text.context
            else t.ngettext(text.msgid, text.plural, n)
        )
    else:
        pattern = t.pgettext(text.context, text.msgid) if text.context else t.gettext(text.msgid)
    return _fill(pattern, text.args, say)


def _to_you(text: Text, say: Say) -> bool:
    """Whether a side ``text`` names is the reader, named "You" (the terminal's person)."""
    you = gettext("You", lang=say.lang)
    return any(
        isinstance(v, Side) and say.names and side_name(int(v), say) == you for v in text.args.values()
    )


def render(
    value: Any,
    lang: str | None = None,
    card: Callable[[Any], str] | None = None,
    names: Sequence[str] = (),
    sides: Sequence[Sequence[int]] = (),
) -> str:
    """``value`` said in ``lang`` (default: the language in use): a ``Text``
    translated, its cards said by ``card`` (default: the language's notation
    with suit symbols), its sides by ``names``; any other value as ``str``."""
    say = Say(lang or language(), card, names, sides)
    if isinstance(value, Text):
        return _say(value, say)
    return str(_arg(value, say))


def to_data(value: Any) -> Any:
    """A text as a browser page receives it, language-neutral: a ``Text`` as
    ``{"t": msgid, "d": domain, "a": {…}}`` (``"p"``/``"n"`` plural, ``"c"``
    context), a card as ``{"card": "KH"}``, a side as ``{"side": 1}``, a
    ``Decimal`` as ``{"decimal": "2.9"}``; a plain string as it is."""
    from cardcore.cards import Card

    if isinstance(value, Text):
        out: dict[str, Any] = {"t": value.msgid, "d": value.domain}
        if value.args:
            out["a"] = {k: to_data(v) for k, v in value.args.items()}
        if value.plural is not None:
            out["p"] = value.plural
            out["n"] = value.n
        if value.context:
            out["c"] = value.context
        return out
    if isinstance(value, Card):
        return {"card": value.name}
    if isinstance(value, Side):
        return {"side": int(value)}
    if isinstance(value, Decimal):
        return {"decimal": value.english()}  # "2.9": the page says it with its language's sign
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)  # a path, an exception …: JSON has no such value


# ---- the functions a module marks its texts with ------------------------------------
def N_(msgid: str) -> str:
    """Marks ``msgid`` for extraction; translated where it is shown (``_(text)``)."""
    return msgid


def NP_(context: str, msgid: str) -> str:
    """Marks ``msgid`` in ``context`` for extraction (``pgettext`` later)."""
    return msgid


class Words(NamedTuple):
    """A domain's marking functions (``_, _n, _p, T, Tn = words("carrousel")``)."""

    now: Callable[[str], str]
    now_n: Callable[[str, str, int], str]
    now_p: Callable[[str, str], str]
    T: Callable[..., Text]
    Tn: Callable[..., Text]


def words(domain: str, localedir: Path | None = None) -> Words:
    """The marking functions of ``domain`` (registered at ``localedir``)."""
    if localedir is not None:
        register_domain(domain, localedir)

    def _(msgid: str) -> str:
        return translations(domain, _current.get()).gettext(msgid)

    def _n(singular: str, plural: str, n: int) -> str:
        return translations(domain, _current.get()).ngettext(singular, plural, n)

    def _p(context: str, msgid: str) -> str:
        return translations(domain, _current.get()).pgettext(context, msgid)

    def T(msgid: str, **args: Any) -> Text:
        return Text(domain, msgid, args)

    def Tn(singular: str, plural: str, n: int, **args: Any) -> Text:
        return Text(domain, singular, {"n": n, **args}, plural, n)

    return Words(_, _n, _p, T, Tn)


_, _n, _p, T, Tn = words("cardcore")


# ---- cards in a language --------------------------------------------------------------
RANK_CONTEXT = "rank letter"
SPECIAL_CONTEXT = "special card"


@lru_cache(maxsize=64)
def rank_letters(lang: str) -> dict[str, str]:
    """The language's letters for the ranks written with one (``Q`` → ``D`` in French)."""
    return {r: pgettext(RANK_CONTEXT, r, lang=lang) for r in ("A", "J", "Q", "K")}


# the letters, for extraction (the translators give theirs)
RANK_WORDS = (
    NP_("rank letter", "A"),
    NP_("rank letter", "J"),
    NP_("rank letter", "Q"),
    NP_("rank letter", "K"),
)


@lru_cache(maxsize=64)
def special_names(lang: str) -> dict[str, str]:
    """The specials as a language writes them (``⌇Broom`` → ``⌇Balai``)."""
    from cardcore.cards import SPECIAL_SYMBOLS

    return {name: pgettext(SPECIAL_CONTEXT, sym, lang=lang) for name, sym in SPECIAL_SYMBOLS.items()}


SPECIAL_WORDS = (
    NP_("special card", "★20"),
    NP_("special card", "★15"),
    NP_("special card", "★11"),
    NP_("special card", "★Joker"),
    NP_("special card", "⌇Broom"),
)


def card_text(c: Card, lang: str | None = None, symbols: bool = True) -> str:
    """A card as a person of ``lang`` reads it: ``R♥`` (French), ``W♠``
    (Polish), ``⌇Miotła``; with ``symbols`` False the suit letters and the
    specials' names stay (``RH``, ``BROOM``: terminals without symbols)."""
    from cardcore.cards import SYMBOL_OF_SUIT

    code = lang or language()
    if not c.suit:
        return special_names(code).get(c.name, c.name) if symbols else c.name
    rank = c.name[:-1]
    rank = rank_letters(code).get(rank, rank)
    return rank + (SYMBOL_OF_SUIT[c.suit] if symbols else c.suit)


def card_input(text: str, lang: str | None = None) -> str:
    """A person's typed cards in canonical notation: the language's letters
    and names read first (``RH`` → ``KH`` in French, ``⌇Miotła`` → ``BROOM``),
    then English (unchanged): the card parser reads the result."""
    code = lang or language()
    if code == SOURCE:
        return text
    letters = {v.upper(): k for k, v in rank_letters(code).items()}
    specials = {v.upper(): k for k, v in special_names(code).items()}
    specials |= {v.upper().lstrip("★⌇"): k for k, v in special_names(code).items() if len(v) > 3}
    out = []
    for token in text.replace(",", " ").split():
        up = token.upper()
        if up in specials:
            out.append(specials[up])
        elif len(up) >= 2 and up[:-1] in letters:
            out.append(letters[up[:-1]] + token[-1])
        else:
            out.append(token)
    return " ".join(out)


# i18n: the decimal sign of numbers such as the hint's "2.9 points" ("," in French, Polish, Lithuanian)
DECIMAL_WORDS = (NP_("decimal sign", "."),)
