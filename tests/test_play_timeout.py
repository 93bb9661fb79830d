"""``cardcore play --move-timeout``: a bot or a hook overrunning stops the
game with one line naming the plugin, its package and the hook (exit code 1),
the autosave kept; a person taking his time is no overrun."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from test_web_trust import HANG_RULE, install

CLI = [sys.executable, "-m", "cardcore.cli", "play", "paquet_voleur", "--players", "2", "--seed", "1"]


def test_play_stops_a_hanging_rule_and_keeps_the_autosave(tmp_path):
    install(tmp_path, "hang_rule", HANG_RULE)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "CARDCORE_STATE_DIR": str(tmp_path / "state")}
    done = subprocess.run(
        [*CLI, "--house-rule", "hang_rule.pv", "--move-timeout", "1"],
        input="1\n" * 40, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    lines = [ln for ln in done.stderr.splitlines() if ln and not ln.startswith("warning: ")]
    assert done.returncode == 1 and len(lines) == 1, done.stderr
    assert lines[0] == (
        "error: cardcore play: plugin hang_rule.pv (module hang_rule, package hang-rule), "
        "hook cardcore_apply_move ran past the move timeout (1 s); the game is autosaved up to "
        "its last move (`cardcore play --last`)"
    )
    saved = [
        json.loads(ln) for ln in (tmp_path / "state" / "last-paquet_voleur.jsonl").read_text().splitlines()
    ]
    assert sum(line.get("event") == "move" for line in saved) == 4  # the four moves applied before it hung
    assert (tmp_path / "state" / "last-paquet_voleur.jsonl").stat().st_mode & 0o777 == 0o600


def test_a_person_slower_than_the_timeout_is_no_overrun(tmp_path):
    """Two answers each typed after twice the timeout: the game goes on."""
    env = {**os.environ, "CARDCORE_STATE_DIR": str(tmp_path / "state")}
    proc = subprocess.Popen(
        [*CLI, "--option", "deals=1", "--move-timeout", "0.5"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert proc.stdin is not None
    try:
        for _ in range(2):
            time.sleep(1.0)
            proc.stdin.write("1\n")
            proc.stdin.flush()
        _, err = proc.communicate("1\n" * 60 + "n\n", timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "move timeout" not in err, err
    assert proc.returncode in (0, 130), err
