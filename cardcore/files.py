"""Reading YAML and JSON files safely, with errors that name the file and line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from cardcore.errors import CardcoreError, at, message
from cardcore.i18n import N_, T, Text

_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when installed


MAX_BYTES = 20_000_000  # a position or a tables file is a few kilobytes
MAX_DEPTH = 64  # nesting levels: a position needs five


MAX_VALUES = 1_000_000  # values in a file, aliases expanded: an alias "bomb" stops here


class _Loader(_Base):  # type: ignore[misc]
    """The safe loader, refusing a key given twice in one mapping (a typo
    would otherwise silently drop a value). Aliases and depth are checked on
    the loaded data (``_check_shape``): libyaml's parser does the parsing."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            try:
                duplicate = key in seen
                seen.add(key)
            except TypeError:  # an unhashable key: the base class reports it
                break
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None, None, T("key {key!r} given twice", key=key), key_node.start_mark
                )
        return super().construct_mapping(node, deep=deep)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(T("key {key!r} given twice", key=k))
        out[k] = v
    return out


# the YAML parser's words (libyaml's, PyYAML's), said in the reader's language;
# any other is said as the parser says it
YAML_PROBLEMS = {
    p: p
    for p in (
        N_("mapping values are not allowed in this context"),
        N_("mapping values are not allowed here"),
        N_("did not find expected ',' or ']'"),
        N_("did not find expected ',' or '}'"),
        N_("did not find expected '-' indicator"),
        N_("did not find expected key"),
        N_("did not find expected node content"),
        N_("could not find expected ':'"),
        N_("found character that cannot start any token"),
        N_("found undefined alias"),
        N_("found unexpected end of stream"),
        N_("found unknown escape character"),
    )
}


def yaml_problem(problem: Any) -> Any:
    """What the YAML parser says is wrong, as a ``Text`` where we know its words."""
    if isinstance(problem, Text):
        return problem
    if isinstance(problem, str) and problem in YAML_PROBLEMS:
        return T(YAML_PROBLEMS[problem])
    return problem


def read_data(path: Path) -> Any:
    """Parse a YAML (safe loader only) or JSON file; raise CardcoreError naming the place."""
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            limit = MAX_BYTES // 1_000_000
            raise CardcoreError(
                T("{path}: larger than {limit} MB: not a position or tables file", path=path, limit=limit)
            )
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise CardcoreError(T("{path}: no such file", path=path)) from None
    except IsADirectoryError:
        raise CardcoreError(T("{path}: a directory, not a file", path=path)) from None
    except UnicodeDecodeError:
        raise CardcoreError(T("{path}: not UTF-8 text", path=path)) from None
    except OSError as err:
        raise CardcoreError(
            T("{path}: cannot read ({error})", path=path, error=err.strerror or err)
        ) from None
    if path.suffix.lower() == ".json":
        try:
            return _check_shape(json.loads(text, object_pairs_hook=_no_duplicates), path)
        except json.JSONDecodeError as err:
            line = f"{path}:{err.lineno}:{err.colno}"
            raise CardcoreError(
                T(
                    "{where}: malformed JSON: {problem}",
                    where=line,
                    problem=err.msg,
                )
            ) from None
        except RecursionError:
            raise CardcoreError(T("{path}: nested too deeply", path=path)) from None
        except ValueError as err:
            raise CardcoreError(
                at(path, message(err) if isinstance(message(err), Text) else str(err)[:100])
            ) from None
    try:
        return _check_shape(yaml.load(text, Loader=_Loader), path)  # _Loader is a safe loader
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise CardcoreError(
            T("{where}: malformed YAML: {problem}", where=where, problem=yaml_problem(err.problem))
        ) from None
    except yaml.YAMLError as err:
        raise CardcoreError(
            T("{where}: malformed YAML: {problem}", where=path, problem=str(err)[:100])
        ) from None
    except RecursionError:
        raise CardcoreError(T("{path}: nested too deeply", path=path)) from None
    except ValueError as err:  # e.g. an integer of more than 4300 digits
        raise CardcoreError(
            T("{where}: malformed YAML: {problem}", where=path, problem=str(err)[:100])
        ) from None


def _check_shape(data: Any, path: Path) -> Any:
    """Refuse data nested deeper than ``MAX_DEPTH`` or holding more than
    ``MAX_VALUES`` values once YAML aliases are expanded (a kilobyte of nested
    aliases stands for billions of values that any reader would walk)."""
    budget = MAX_VALUES
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        budget -= 1
        if budget < 0:
            raise CardcoreError(
                T(
                    "{path}: more than {limit} values (nested YAML aliases?)",
                    path=path,
                    limit=format(MAX_VALUES, ","),
                )
            )
        if depth > MAX_DEPTH:
            raise CardcoreError(T("{path}: nested more than {n} levels deep", path=path, n=MAX_DEPTH))
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return data


def free_name(path: Path) -> Path:
    """``path``, or ``name-2.ext``, ``name-3.ext`` … the first that does not exist."""
    k = 1
    candidate = path
    while candidate.exists():
        k += 1
        candidate = path.with_name(f"{path.stem}-{k}{path.suffix}")
    return candidate
