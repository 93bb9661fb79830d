"""Numbers as the reader writes them: every figure of the terminal table, the
report and the verdicts goes through Babel, in the language in use (a
language Babel does not know, such as the pseudo-locale, as English)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from cardcore.i18n import language


@lru_cache(maxsize=16)
def _locale(code: str) -> Any:
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(code.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return Locale.parse("en")


def locale() -> Any:
    """The Babel locale of the language in use."""
    return _locale(language())


def num(x: Any, digits: int | None = None) -> str:
    """A figure: ``digits`` decimals, else 3 below 10, 2 below 1,000, none
    beyond (grouped); a shift too small for three decimals in scientific
    notation; None as "—"."""
    from babel.numbers import format_decimal, format_scientific

    if x is None:
        return "—"
    if isinstance(x, bool):
        return str(x)
    loc = locale()
    if isinstance(x, int) and digits is None:
        return format_decimal(x, format="#,##0", locale=loc)
    ax = abs(x)
    if digits is None:
        if 0 < ax < 0.001:
            return format_scientific(x, format="0.0E0", locale=loc)
        digits = 3 if ax < 10 else 2 if ax < 1000 else 0
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(x, format=pattern, locale=loc)


def signed(x: Any, digits: int | None = None) -> str:
    """A difference: its sign always shown."""
    if x is None:
        return "—"
    s = num(x, digits)
    return s if s.startswith(("-", "−")) else "+" + s


def count(n: int) -> str:
    """A whole number, grouped (2,000; 2 000 in French)."""
    return num(int(n))


def percent(x: float, digits: int = 0) -> str:
    """A share as a percentage (0.5 → 50%; « 50 % » in French)."""
    from babel.numbers import format_percent

    if not digits:
        return format_percent(x, locale=locale())
    return format_percent(x, format="#,##0." + "0" * digits + "%", locale=locale())


def p_value(p: float | None) -> str:
    """A p-value as shown: "< 0.001" below a thousandth (the JSON keeps it
    unrounded), else three decimals; None as "—"."""
    if p is None:
        return "—"
    if p < 0.001:
        return "< " + num(0.001, 3)
    return num(p, 3)


def list_sep() -> str:
    """Between the two ends of an interval: ", ", or "; " where the comma is
    the decimal sign ([0,347; 0,564] in French)."""
    from babel.numbers import get_decimal_symbol

    return "; " if get_decimal_symbol(locale()) == "," else ", "
