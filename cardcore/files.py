"""Reading YAML and JSON files safely, with errors that name the file and line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from cardcore.errors import CardcoreError


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
            return json.loads(text)
        except json.JSONDecodeError as err:
            raise CardcoreError(f"{path}:{err.lineno}:{err.colno}: malformed JSON: {err.msg}") from None
    try:
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise CardcoreError(f"{where}: malformed YAML: {err.problem}") from None
    except yaml.YAMLError as err:
        raise CardcoreError(f"{path}: malformed YAML: {err}") from None
