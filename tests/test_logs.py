"""Logs that cannot lie: killed runs, full disks and cut files replay up to
their last complete line and say exactly where and how they stop."""

from __future__ import annotations

import io
import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli

from cardcore.log import GameLog
from cardcore.runner import Listener, make_players, play_match
from cardcore.table import Table

CARDCORE = str(Path(sys.executable).parent / "cardcore")
posix = pytest.mark.skipif(os.name != "posix", reason="signals and resource limits")


def replay_check(path: Path) -> str:
    code, out = run_cli("replay", str(path), "--check")
    assert code == 0, out
    assert "OK" in out and "Traceback" not in out
    return out


@posix
@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "canasta", "--players", "2", "--deals", "400", "--seed", "3"),
        ("simulate", "carrousel", "--matches", "400", "--seed", "4", "--jobs", "2"),
        ("play", "paquet_voleur", "--seat", "0=greedy", "--seed", "5", "--option", "deals=400"),
    ],
)
def test_killed_runs_replay_up_to_their_last_line(tmp_path, args):
    rng = random.Random(args[1])
    for attempt in range(3):
        log = tmp_path / f"killed{attempt}.jsonl"
        proc = subprocess.Popen(
            [CARDCORE, *args, "--log", str(log)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(0.8 + rng.random())
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if not log.exists() or not log.read_text():
            continue
        out = replay_check(log)
        assert "log complete" in out or "log incomplete: stops" in out
        if "incomplete" in out:
            assert "(line " in out


def test_a_cut_line_is_reported_and_every_line_before_checked(tmp_path):
    log = tmp_path / "g.jsonl"
    code, _ = run_cli("simulate", "carrousel", "--deals", "5", "--seed", "2", "--log", str(log))
    assert code == 0
    text = log.read_text()
    assert "log complete" in replay_check(log)
    lines = text.splitlines(keepends=True)
    log.write_text("".join(lines[:40]) + lines[40][:25])  # a crash in the middle of line 41
    out = replay_check(log)
    assert "incomplete: stops in the middle of line 41 (cut while written)" in out


def test_a_cut_multi_match_log_is_not_complete(tmp_path):
    log = tmp_path / "m.jsonl"
    code, _ = run_cli("simulate", "paquet_voleur", "--matches", "4", "--seed", "6", "--log", str(log))
    assert code == 0
    assert "log complete" in replay_check(log)
    lines = log.read_text().splitlines(keepends=True)
    # drop the last match's last deal and its match_end: the log still parses
    last_deal = max(i for i, line in enumerate(lines) if '"event":"deal_start"' in line)
    log.write_text("".join(lines[:last_deal]))
    out = replay_check(log)
    assert "incomplete" in out and "match 4" in out
    # and a whole last match removed: the header's plan (4 matches) says so
    starts = [i for i, line in enumerate(lines) if '"event":"match_start"' in line]
    log.write_text("".join(lines[: starts[-1]]))
    out = replay_check(log)
    assert "incomplete: stops after match 3 (3 finished)" in out


@posix
def test_a_full_disk_is_one_line_and_the_log_stays_readable(tmp_path):
    log = tmp_path / "full.jsonl"

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (30_000, 30_000))

    done = subprocess.run(
        [CARDCORE, "simulate", "canasta", "--deals", "50", "--seed", "1", "--log", str(log)],
        preexec_fn=limit,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"error: {log}: cannot write the log (File too large); every complete line before is kept"
    ]
    out = replay_check(log)
    assert "incomplete" in out


def test_the_header_names_seeding_plan_and_versions(tmp_path):
    log = tmp_path / "h.jsonl"
    run_cli("simulate", "carrousel", "--matches", "2", "--seed", "9", "--log", str(log))
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    assert head["seeding"] == "simulate" and head["plan"] == {"matches": 2}
    assert "cardcore" in head["versions"]
    # a match seed that the header's seed does not give is caught
    start = next(i for i, line in enumerate(lines) if '"event":"match_start"' in line)
    ev = json.loads(lines[start])
    ev["seed"] += 1
    lines[start] = json.dumps(ev)
    log.write_text("\n".join(lines) + "\n")
    code, out = run_cli("replay", str(log), "--check")
    assert code == 2 and "seed is not the one the header's seed gives" in out


def test_a_replay_mismatch_names_the_versions_that_differ(tmp_path):
    log = tmp_path / "v.jsonl"
    run_cli("simulate", "carrousel", "--deals", "2", "--seed", "9", "--log", str(log))
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    head["versions"]["cardcore"] = "0.0.1"
    lines[0] = json.dumps(head)
    move = next(i for i, line in enumerate(lines) if '"event":"move"' in line)
    ev = json.loads(lines[move])
    ev["seat"] = (ev["seat"] + 1) % 4
    lines[move] = json.dumps(ev)
    log.write_text("\n".join(lines) + "\n")
    code, out = run_cli("replay", str(log), "--check")
    assert code == 2 and "made with cardcore 0.0.1 (here " in out


def test_a_private_log_shows_nothing_of_the_match_while_it_is_played(registry):
    """With a person at the table, the file holds the header only until the match ends."""
    t = Table.from_names(registry, "paquet_voleur", 2)
    buffer = io.StringIO()
    log = GameLog(buffer, t, ["human", "random"], 7, private=True)
    seen_during: list[str] = []

    class Peek(Listener):
        def move(self, match, state, step) -> None:
            seen_during.append(buffer.getvalue())

    players = make_players(t, ["random", "random"], 7)
    play_match(t, players, 7, [log, Peek()])
    assert all(text.count("\n") == 1 for text in seen_during)  # the header line only
    assert '"event":"match_end"' in buffer.getvalue()


def test_an_edited_move_text_is_caught(tmp_path):
    """``replay --check`` compares every field of a move line, its text included,
    and names the field that differs."""
    log = tmp_path / "g.jsonl"
    code, _ = run_cli(
        "simulate", "carrousel", "--players", "2", "--deals", "1", "--seed", "3", "--log", str(log)
    )
    assert code == 0
    lines = log.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if '"event":"move"' in line)
    data = json.loads(lines[at])
    data["move"]["text"] = data["move"]["text"] + " !"
    lines[at] = json.dumps(data, separators=(",", ":")) + "\n"
    log.write_text("".join(lines))
    code, out = run_cli("replay", str(log), "--check")
    assert code == 2 and f":{at + 1}: the move's 'text' differs" in out


def test_a_byte_that_is_not_utf8_is_named(tmp_path):
    """A log is UTF-8 text: a stray byte (in the players' names, say) is an
    error naming the line, never read as a replacement character."""
    log = tmp_path / "g.jsonl"
    code, _ = run_cli(
        "simulate", "carrousel", "--players", "2", "--deals", "1", "--seed", "3", "--log", str(log)
    )
    assert code == 0
    data = log.read_bytes()
    at = data.index(b'"names":["') + len(b'"names":["')
    log.write_bytes(data[:at] + b"\xff" + data[at:])
    code, out = run_cli("replay", str(log), "--check")
    assert code == 2 and ":1: not UTF-8 text" in out
