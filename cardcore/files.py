"""Reading YAML and JSON files safely, with errors that name the file and line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from cardcore.errors import CardcoreError

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
                    None, None, f"key {key!r} given twice", key_node.start_mark
                )
        return super().construct_mapping(node, deep=deep)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"key {k!r} given twice")
        out[k] = v
    return out


def read_data(path: Path) -> Any:
    """Parse a YAML (safe loader only) or JSON file; raise CardcoreError naming the place."""
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            limit = MAX_BYTES // 1_000_000
            raise CardcoreError(f"{path}: larger than {limit} MB: not a position or tables file")
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise CardcoreError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CardcoreError(f"{path}: a directory, not a file") from None
    except UnicodeDecodeError:
        raise CardcoreError(f"{path}: not UTF-8 text") from None
    except OSError as err:
        raise CardcoreError(f"{path}: cannot read ({err.strerror or err})") from None
    if path.suffix.lower() == ".json":
        try:
            return _check_shape(json.loads(text, object_pairs_hook=_no_duplicates), path)
        except json.JSONDecodeError as err:
            raise CardcoreError(f"{path}:{err.lineno}:{err.colno}: malformed JSON: {err.msg}") from None
        except RecursionError:
            raise CardcoreError(f"{path}: nested too deeply") from None
        except ValueError as err:
            raise CardcoreError(f"{path}: {str(err)[:100]}") from None
    try:
        return _check_shape(yaml.load(text, Loader=_Loader), path)  # _Loader is a safe loader
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise CardcoreError(f"{where}: malformed YAML: {err.problem}") from None
    except yaml.YAMLError as err:
        raise CardcoreError(f"{path}: malformed YAML: {str(err)[:100]}") from None
    except RecursionError:
        raise CardcoreError(f"{path}: nested too deeply") from None
    except ValueError as err:  # e.g. an integer of more than 4300 digits
        raise CardcoreError(f"{path}: malformed YAML: {str(err)[:100]}") from None


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
            raise CardcoreError(f"{path}: more than {MAX_VALUES:,} values (nested YAML aliases?)")
        if depth > MAX_DEPTH:
            raise CardcoreError(f"{path}: nested more than {MAX_DEPTH} levels deep")
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
