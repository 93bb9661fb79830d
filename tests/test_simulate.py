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


@pytest.mark.parametrize("deals,matches", [(1, None), (5, None), (None, 2)])
def test_one_process_plays_only_the_deals_asked(registry, monkeypatch, deals, matches):
    """Issue 49: on one process no match is played ahead of need (three whole
    matches were queued before a match's length was known: ``--deals 1``
    played 11 deals); the deals played are counted at ``play_deal``."""
    from cardcore import runner
    from cardcore.simulate import simulate
    from cardcore.table import Table

    played = []
    real = runner.play_deal

    def counted(*args, **kwargs):
        played.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "play_deal", counted)
    table = Table.from_names(registry, "canasta", 2)
    summary = simulate(table, ["random", "random"], 3, deals=deals, matches=matches)
    assert len(played) == summary["deals"]
    if deals is not None:
        assert summary["deals"] == deals


def test_two_processes_play_a_match_a_worker_beyond_the_deals_asked(registry, monkeypatch):
    """Issue 49: on several processes at most one match a worker is played
    beyond those the deals asked for (counted where the matches are sent)."""
    from cardcore import simulate as sim
    from cardcore.table import Table

    sent = []
    real = sim.ProcessPool.submit

    def counted(self, spec, first, count, play=sim.play_chunk):
        sent.append(count)
        return real(self, spec, first, count, play)

    monkeypatch.setattr(sim.ProcessPool, "submit", counted)
    table = Table.from_names(registry, "canasta", 2)
    summary = sim.simulate(table, ["random", "random"], 3, deals=1, jobs=2)
    assert summary["deals"] == 1 and sum(sent) <= 1 + 1, sent


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
        on_ray = cli_json(*args, "--backend", "ray", "--jobs", "2")  # a local Ray of two CPUs
    finally:
        ray.shutdown()
    assert _strip(local) == _strip(on_ray)


def _listening(psutil) -> list[tuple[str, str, str]]:
    """(process, its command line, ip:port) for every TCP socket this process
    and those it started (a local Ray's) listen on."""
    me = psutil.Process()
    out = []
    for proc in [me, *me.children(recursive=True)]:
        try:
            name, cmd = proc.name(), " ".join(proc.cmdline())
            conns = proc.net_connections(kind="inet")
        except psutil.NoSuchProcess:
            continue
        out += [(name, cmd, f"{c.laddr.ip}:{c.laddr.port}") for c in conns if c.status == psutil.CONN_LISTEN]
    return out


def _loopback(address: str) -> bool:
    import ipaddress

    ip = ipaddress.ip_address(address.rsplit(":", 1)[0])
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


def test_a_local_ray_listens_on_loopback_only():
    """Issue #46, item 8: the Ray that ``--backend ray`` starts (no --address)
    listens on 127.0.0.1 alone — its GCS, raylet (node and object manager),
    agents, the workers and this driver — and runs no dashboard (no job
    submission API). Before, they listened on every interface (``:::PORT``)
    and the runtime-env agent on the machine's address."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'cardcore[ray]')")
    psutil = pytest.importorskip("psutil", reason="psutil is not installed (pip install 'cardcore[ray]')")
    assert not ray.is_initialized()
    try:
        cli_json("simulate", "carrousel", "--players", "4", "--deals", "40", "--seed", "3", "--json",
                 "--backend", "ray", "--jobs", "2")  # fmt: skip
        assert ray.is_initialized()  # still up: its processes are looked at as they ran the deals
        found = _listening(psutil)
    finally:
        ray.shutdown()
    names = {name for name, _, _ in found}
    # what is looked at is Ray's own: its GCS, its raylet, workers
    assert {"gcs_server", "raylet"} <= names and any(n.startswith("ray::") for n in names), found
    assert len(found) >= 5, found
    opened = [(name, address) for name, _, address in found if not _loopback(address)]
    assert opened == [], opened
    # the dashboard's head (dashboard/dashboard.py) and its agent (ray::DashboardAgent)
    dashboard = [(name, a) for name, cmd, a in found if "Dashboard" in name or "dashboard.py" in cmd]
    assert dashboard == [], dashboard  # no dashboard, so no job submission API
    ports = {int(a.rsplit(":", 1)[1]) for _, _, a in found}
    assert not ports & {8265, 10001, 52365}, ports  # dashboard, Ray client, dashboard agent


def test_a_ray_that_cannot_be_held_to_loopback_is_refused(monkeypatch):
    """Where Ray listens anywhere but on loopback (as the check of its sockets
    reports), the run is refused in one line naming --jobs, and Ray is stopped."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'cardcore[ray]')")
    import cardcore.simulate

    real = cardcore.simulate.ray_listening
    monkeypatch.setattr(cardcore.simulate, "ray_listening", lambda: [*real(), "0.0.0.0:6379"])
    try:
        code, out = run_cli("simulate", "carrousel", "--deals", "5", "--backend", "ray", "--jobs", "1")
        assert not ray.is_initialized()  # shut down before saying so
    finally:
        ray.shutdown()
    assert code == 2 and "Traceback" not in out and len(out.strip().splitlines()) == 1, out
    assert "0.0.0.0:6379" in out and "--jobs N" in out and "--address" in out, out
    assert "127.0.0.1" not in out.split("listen on", 1)[1].split(",", 1)[0]  # loopback ones not named


@pytest.mark.parametrize(
    "address,loopback",
    [
        ("127.0.0.1:6379", True),
        ("127.3.2.1:1", True),
        ("::1:8", True),
        ("::ffff:127.0.0.1:40637", True),
        ("[::1]:8", True),
        ("0.0.0.0:6379", False),
        (":::46379", False),
        ("192.0.2.2:45481", False),
        ("::ffff:192.0.2.2:1", False),
        ("? (AccessDenied: …)", False),
    ],
)
def test_what_counts_as_loopback(address, loopback):
    from cardcore.simulate import is_loopback

    assert is_loopback(address) is loopback


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
