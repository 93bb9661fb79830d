"""Reading YAML and JSON files safely, with errors that name the file and line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from cardcore.errors import CardcoreError

_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when installed


class _Loader(_Base):  # type: ignore[misc]
    """The safe loader, refusing a key given twice in one mapping (a typo
    would otherwise silently drop a value)."""

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
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CardcoreError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise CardcoreError(f"{path}: cannot read ({err})") from None
    if path.suffix.lower() == ".json":
        try:
            return json.loads(text, object_pairs_hook=_no_duplicates)
        except json.JSONDecodeError as err:
            raise CardcoreError(f"{path}:{err.lineno}:{err.colno}: malformed JSON: {err.msg}") from None
        except ValueError as err:
            raise CardcoreError(f"{path}: {err}") from None
    try:
        return yaml.load(text, Loader=_Loader)  # _Loader is a safe loader
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise CardcoreError(f"{where}: malformed YAML: {err.problem}") from None
    except yaml.YAMLError as err:
        raise CardcoreError(f"{path}: malformed YAML: {err}") from None
