"""`cardcore simulate` on several processes and backends gives the same results
as on one: every match derives its deck and its bots' RNGs from its own seed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import cli_json, run_cli

from cardcore.seeds import match_seed
from cardcore.simulate import Merger, SimSpec, play_chunk

CARDCORE = str(Path(sys.executable).parent / "cardcore")


def _strip(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("seconds", "cpu_seconds")}


@pytest.mark.parametrize(
    "args",
    [
        ("carrousel", "--players", "4", "--deals", "120"),
        ("canasta", "--players", "3", "--deals", "9"),
        ("paquet_voleur", "--matches", "30"),
        ("carrousel", "--players", "2", "--matches", "5", "--seat", "0=greedy"),
    ],
)
def test_jobs_give_the_same_json(args):
    one = cli_json("simulate", *args, "--seed", "7", "--json", "--jobs", "1")
    two = cli_json("simulate", *args, "--seed", "7", "--json", "--jobs", "2")
    assert _strip(one) == _strip(two)
    assert one["cpu_seconds"] > 0 and "seconds" in two


def test_jobs_give_the_same_log(tmp_path):
    logs = []
    for jobs in ("1", "2"):
        path = tmp_path / f"jobs{jobs}.jsonl"
        code, out = run_cli(
            "simulate", "canasta", "--players", "2", "--deals", "6", "--seed", "3", "--jobs", jobs,
            "--log", str(path), "--json",
        )  # fmt: skip
        assert code == 0, out
        logs.append(path.read_text())
        code, out = run_cli("replay", str(path), "--check")
        assert code == 0 and "identical" in out
    assert logs[0] == logs[1]


def test_matches_are_independent(registry):
    """Match k plays the same whatever was played before it, and wherever."""
    spec = SimSpec("carrousel", 2, (), (), ("greedy", "random"), seed=11)
    alone = play_chunk(spec, 3, 1).records[0]
    in_a_run = play_chunk(spec, 0, 5).records[3]
    assert alone.deals == in_a_run.deals and alone.winners == in_a_run.winners
    assert match_seed(11, 3) != match_seed(11, 4)


def test_the_nth_deal_cuts_its_match_as_one_process_would():
    spec = SimSpec("carrousel", 2, (), (), ("random", "random"), seed=5)
    full = play_chunk(spec, 0, 1).records[0]
    assert len(full.deals) > 2
    cut = play_chunk(spec, 0, 1, max_deals=2).records[0]
    assert cut.deals == full.deals[:2] and not cut.over
    merger = Merger(2, deals=2, matches=None)
    merger.add(cut)
    assert merger.done() and merger.matches == 0 and merger.deals == 2


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
def test_ctrl_c_reports_the_deals_finished_so_far():
    proc = subprocess.Popen(
        [CARDCORE, "simulate", "canasta", "--deals", "1000000", "--jobs", "2", "--seed", "1", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    summary = json.loads(out)
    assert summary["interrupted"] is True and 0 < summary["deals"] < 1000000


def test_ray_backend_gives_the_same_json():
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'cardcore[ray]')")
    args = ("simulate", "carrousel", "--players", "4", "--deals", "60", "--seed", "2", "--json")
    local = cli_json(*args, "--jobs", "1")
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        on_ray = cli_json(*args, "--backend", "ray")
    finally:
        ray.shutdown()
    assert _strip(local) == _strip(on_ray)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_workers_stop_when_the_run_is_killed_outright():
    proc = subprocess.Popen(
        [CARDCORE, "simulate", "carrousel", "--matches", "100000", "--seed", "4", "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(2.5)
    workers = [int(pid) for pid in os.listdir("/proc") if pid.isdigit() and _parent(int(pid)) == proc.pid]
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    time.sleep(3)
    assert workers and not [pid for pid in workers if _running(pid)]


def _parent(pid: int) -> int | None:
    try:
        return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _running(pid: int) -> bool:
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
