"""Playing at the terminal: start from a position, undo, hints, save and
resume, a step-by-step replay, forced moves."""

from __future__ import annotations

from conftest import POSITIONS, run_cli


def test_play_from_a_position(tmp_path):
    log = tmp_path / "from.jsonl"
    position = str(POSITIONS / "canasta" / "n12_go_out.yaml")
    code, out = run_cli("play", "--from", position, "--seed", "1", "--log", str(log), input="1\n" * 3 + "q\n")
    assert code == 0, out
    assert "From " in out and "your hand (You): 5♥ 9♣" in out.replace("\x1b", "")
    code, out = run_cli("replay", str(log), "--check")
    assert code == 0 and "identical" in out  # the given deal is in the log, as given
    code, out = run_cli("play", "carrousel", "--from", position)
    assert code == 2 and "is a canasta position, not carrousel" in out


def test_undo_goes_back_to_the_previous_decision(tmp_path):
    log = tmp_path / "undo.jsonl"
    args = ("play", "carrousel", "--players", "2", "--seed", "4", "--log", str(log))
    code, out = run_cli(*args, input="u\n2\nu\n1\nq\n")
    assert code == 0, out
    assert "nothing to undo in this deal" in out
    assert "— undone: back to your previous decision —" in out
    code, out = run_cli("replay", str(log), "--check")
    assert code == 0  # the undone move never reached the log
    lines = log.read_text()
    assert '"text":"JOKER15 trails"' not in lines and '"text":"6H trails"' in lines


def test_a_hint_names_the_bots_move():
    code, out = run_cli("play", "carrousel", "--players", "2", "--seed", "4", input="h\nq\n")
    assert code == 0 and "hint: greedy would play " in out


def test_save_and_resume(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run_cli("play", "carrousel", "--players", "2", "--seed", "7", input="1\ns\nq\n")
    assert code == 0 and "saved to carrousel-7.jsonl" in out
    saved = tmp_path / "carrousel-7.jsonl"
    before = saved.read_text()
    code, out = run_cli("play", "--resume", str(saved), input="1\n" * 400)
    assert code == 0 and "Resuming" in out, out[-400:]
    assert saved.read_text().startswith(before)  # what was saved is never lost
    code, out = run_cli("replay", str(saved), "--check")
    assert code == 0 and "log complete" in out
    code, out = run_cli("play", "--resume", str(saved))
    assert code == 2 and "the match is over" in out
    # a second save of another game never overwrites the first
    code, out = run_cli("play", "carrousel", "--players", "2", "--seed", "7", input="s\nq\n")
    assert "saved to carrousel-7-2.jsonl" in out


def test_replay_step_by_step(tmp_path):
    log = tmp_path / "g.jsonl"
    run_cli("simulate", "paquet_voleur", "--deals", "1", "--seed", "2", "--log", str(log))
    code, out = run_cli("replay", str(log), "--step", input="\n\n\nq\n")
    assert code == 0 and "hand of Player 0:" in out and "Replay stopped." in out
    assert out.count("(Enter: next, q: stop)") == 4
