"""The public JSON outputs stay as they are: `cardcore moves`, `cardcore score`
on every position file of the repository and `cardcore simulate --json` on a
few tables are compared with tests/golden/cli.json. After an intended change
of these outputs, regenerate with CARDCORE_REGEN_GOLDEN=1 and review the diff."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import POSITIONS, run_cli

GOLDEN = Path(__file__).parent / "golden" / "cli.json"
SIMULATIONS = [
    ("paquet_voleur", "3", "greedy"),
    ("carrousel", "4", "greedy"),
    ("carrousel", "2", "random"),
    ("canasta", "4", "greedy"),
    ("canasta", "3", "greedy"),
    ("canasta", "2", "random"),
]


def outputs() -> dict[str, object]:
    out: dict[str, object] = {}
    for path in sorted(POSITIONS.rglob("*.yaml")):
        name = str(path.relative_to(POSITIONS))
        for command in ("moves", "score"):
            code, text = run_cli(command, str(path), "--json")
            failed = {"exit": code, "error": text.strip()}
            out[f"{command} {name}"] = json.loads(text) if code == 0 else failed
    for game, players, bot in SIMULATIONS:
        args = ["simulate", game, "--players", players, "--deals", "12", "--seed", "5", "--json"]
        args += ["--seat", f"0={bot}"]
        code, text = run_cli(*args)
        assert code == 0, text
        data = json.loads(text)
        data.pop("seconds", None)
        data.pop("cpu_seconds", None)
        out[" ".join(args)] = data
    return out


def test_cli_outputs_unchanged():
    got = outputs()
    if os.environ.get("CARDCORE_REGEN_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    expected = json.loads(GOLDEN.read_text())
    changed = [k for k in expected if got.get(k) != expected[k]] + [k for k in got if k not in expected]
    assert not changed, f"outputs changed: {changed[:10]}"
