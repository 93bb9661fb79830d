"""Errors a user can cause, each reported as one line with exit code 2."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from cardcore.i18n import N_, T, Text, Tn


class CardcoreError(Exception):
    """Base of the errors the CLI reports as one clear line (exit code 2)."""


class TableError(CardcoreError):
    """A table cannot be set up: wrong player count, bad option, unknown house rule."""


class IllegalMoveError(CardcoreError):
    """A move that the rules do not allow; the message names the rule broken."""


class PluginError(Exception):
    """A game or house rule broke the engine's contract (no legal move list,
    a deal that never ends, scores missing, a card lost): a bug to report to
    the plugin's authors, not the user's mistake (exit code 1)."""


class ReplayMismatch(CardcoreError):
    """A replayed game differs from its log."""


def message(err: BaseException) -> Any:
    """What ``err`` says, as the ``Text`` it was raised with where it is one
    (``i18n.render`` says it in the reader's language), else its ``str``."""
    if len(err.args) == 1 and isinstance(err.args[0], str) and type(err).__str__ is BaseException.__str__:
        return err.args[0]
    if len(err.args) == 1 and isinstance(err.args[0], Text):
        return err.args[0]
    return str(err)


def at(where: object, problem: object) -> Text:
    """``where: problem`` (a file, a field, a table and what is wrong there)."""
    # i18n: a place (a file name, a field such as tables.evening.game) and what is wrong there
    return T("{where}: {problem}", where=where, problem=problem)


def joined(parts: Sequence[object], sep: str) -> Text:
    """``parts`` one after the other with ``sep`` between (``"; "``, a new
    line): each part said in the reader's language, the separator as it is."""
    keys = [f"p{i}" for i in range(len(parts))]
    pattern = sep.replace("{", "{{").replace("}", "}}").join("{" + k + "}" for k in keys)
    return Text("cardcore", pattern, dict(zip(keys, parts, strict=True)))


def lines_of(value: Any) -> list[Any]:
    """The lines of a message: the parts of a ``joined(…, "\\n")``, else its lines."""
    if isinstance(value, Text) and value.args:
        keys = [f"p{i}" for i in range(len(value.args))]
        if value.msgid == "\n".join("{" + k + "}" for k in keys):
            return [value.args[k] for k in keys]
    return str(value).splitlines()


# pydantic's messages by error type, in the same English (a language says them
# in its own words); a type not listed here is said in pydantic's English
PYDANTIC: dict[str, str] = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("unknown field"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "int_parsing_size": N_("Unable to parse input string as an integer, exceeded maximum size"),
    "float_type": N_("Input should be a valid number"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "finite_number": N_("Input should be a finite number"),
    "string_type": N_("Input should be a valid string"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "list_type": N_("Input should be a valid list"),
    "tuple_type": N_("Input should be a valid tuple"),
    "set_type": N_("Input should be a valid set"),
    "dict_type": N_("Input should be a valid dictionary"),
    "model_type": N_("Input should be a valid dictionary or instance of {class_name}"),
    "model_attributes_type": N_("Input should be a valid dictionary or object to extract fields from"),
    "none_required": N_("Input should be None"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "multiple_of": N_("Input should be a multiple of {multiple_of}"),
    "string_pattern_mismatch": N_("String should match pattern {pattern!r}"),
}


def _choices(expected: str) -> Text:
    """``Input should be 'a', 'b' or 'c'`` (literal_error, enum), its ``or`` said."""
    head, sep, last = expected.rpartition(" or ")
    if not sep:
        return T("Input should be {choice}", choice=expected)
    # i18n: choices: a list of values separated by ", " ('a', 'b'); last: the last value
    return T("Input should be {choices} or {last}", choices=head, last=last)


def _problem(e: Any) -> Any:
    """One pydantic error said as a ``Text`` whose English is the message as
    today (pydantic's own, ``unknown field``, a validator's words)."""
    kind, ctx, msg = e["type"], e.get("ctx") or {}, e["msg"]
    expected = msg
    text: Any = None
    if kind == "extra_forbidden":
        expected = PYDANTIC[kind]
        text = T(expected)
    elif kind == "value_error":  # a validator's own words, without pydantic's prefix
        expected = msg.removeprefix("Value error, ")
        error = ctx.get("error")
        said: tuple[Any, ...] = getattr(error, "args", ())
        text = said[0] if len(said) == 1 and isinstance(said[0], Text) else expected
    elif kind in ("literal_error", "enum") and isinstance(ctx.get("expected"), str):
        text = _choices(ctx["expected"])
    elif kind in ("too_short", "too_long") and ctx.get("field_type") == "List":
        if kind == "too_short":
            n = ctx.get("min_length", 0)
            text = Tn_list_short(n, ctx.get("actual_length"))
        else:
            text = Tn_list_long(ctx.get("max_length", 0), ctx.get("actual_length"))
    elif kind == "string_too_short":
        n = ctx.get("min_length", 0)
        text = Tn(
            "String should have at least {n} character", "String should have at least {n} characters", n
        )
    elif kind == "string_too_long":
        n = ctx.get("max_length", 0)
        text = Tn("String should have at most {n} character", "String should have at most {n} characters", n)
    elif kind in PYDANTIC:
        text = T(PYDANTIC[kind], **{k: v for k, v in ctx.items() if isinstance(v, (str, int, float))})
    if text is None or str(text) != expected:
        return expected  # a type not covered (or worded otherwise by this pydantic): its English
    return text


def Tn_list_short(n: int, actual: Any) -> Text:
    return Tn(
        "List should have at least {n} item after validation, not {actual}",
        "List should have at least {n} items after validation, not {actual}",
        n,
        actual=actual,
    )


def Tn_list_long(n: int, actual: Any) -> Text:
    return Tn(
        "List should have at most {n} item after validation, not {actual}",
        "List should have at most {n} items after validation, not {actual}",
        n,
        actual=actual,
    )


def pydantic_problems(err: ValidationError, prefix: str = "") -> list[str]:
    """One ``field: message`` line per problem of a pydantic error (each a
    ``Text``: said in the reader's language by ``i18n.render``)."""
    lines: list[str] = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"])
        where = ".".join(p for p in (prefix, loc) if p)
        problem = _problem(e)
        lines.append(at(where, problem) if where else problem)
    return lines
