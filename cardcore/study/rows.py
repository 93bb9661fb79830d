"""A study's figures as rows a DataFrame takes: ``cardcore.study.rows(result)``
turns what ``cardcore.study.run`` returns (the JSON of ``cardcore study
--json``) into one flat row a figure: its variant, its metric, its item (a
seat, a kind of move; None for a single number), its value and its 95%
interval (``low``, ``high``; None where the metric has none)."""

from __future__ import annotations

from typing import Any


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    """One row a figure of every variant of ``result`` (``study.run``'s JSON):
    ``variant``, ``metric``, ``item``, ``value``, ``low``, ``high``."""
    out: list[dict[str, Any]] = []
    for variant in result.get("variants", []):
        name = variant["name"]
        for metric, figure in variant.get("metrics", {}).items():
            if not isinstance(figure, dict):
                continue
            value, ci = figure.get("value"), figure.get("ci95")
            if isinstance(value, list):
                cis = ci if isinstance(ci, list) else []
                items: list[tuple[Any, Any, Any]] = [
                    (i, v, cis[i] if i < len(cis) else None) for i, v in enumerate(value)
                ]
            elif isinstance(value, dict):
                items = [(k, v, ci.get(k) if isinstance(ci, dict) else None) for k, v in value.items()]
            else:
                items = [(None, value, ci)]
            for item, v, interval in items:
                pair = isinstance(interval, (list, tuple)) and len(interval) == 2
                low, high = interval if pair else (None, None)
                row = {"variant": name, "metric": metric, "item": item, "value": v}
                out.append({**row, "low": low, "high": high})
    return out
