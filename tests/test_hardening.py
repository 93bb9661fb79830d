"""No traceback for any input: hostile and careless inputs get one line and
exit code 2; an unexpected error gets one line naming the command and exit 1."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import POSITIONS, run_cli

from cardcore.cards import card
from cardcore.moves import Move
from cardcore.table import Table
from cardcore.terminal.human import HumanPlayer


def _alias_bomb(levels: int = 9) -> str:
    lines = ['a0: &a0 ["AH", "AH", "AH", "AH", "AH", "AH", "AH", "AH", "AH"]']
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "game: carrousel\nhands:\n" + "\n".join("  " + line for line in lines) + "\n"


@pytest.mark.parametrize(
    "name,body,needle",
    [
        ("bomb.yaml", _alias_bomb(), "more than 1,000,000 values"),
        ("deep.yaml", "game: carrousel\nhands: " + "[" * 3000 + "]" * 3000 + "\n", "nesting depth"),
        ("deep.json", '{"game": "carrousel", "hands": ' + "[" * 50000 + "]" * 50000 + "}", "nested"),
        ("bigint.yaml", "game: carrousel\nto_act: " + "9" * 5000 + "\n", "4300 digits"),
        ("inf.yaml", "game: carrousel\nto_act: .inf\n", "is not a seat number"),
        ("binary.yaml", "\x00\x01\x02\xff", "not UTF-8"),
        ("seat.yaml", "game: carrousel\nto_act: ²\n", "to_act"),
    ],
)
def test_hostile_position_files(tmp_path, name, body, needle):
    path = tmp_path / name
    if name == "binary.yaml":
        path.write_bytes(b"\x00\x01\x02\xff\xfe")
    else:
        path.write_text(body, encoding="utf-8")
    code, out = run_cli("moves", str(path))
    assert code == 2, out
    assert needle in out and "Traceback" not in out
    assert len(out.strip().splitlines()) == 1 and len(out) < 400


def test_a_device_or_a_directory_is_no_position(tmp_path):
    if os.path.exists("/dev/zero"):
        code, out = run_cli("moves", "/dev/zero")
        assert code == 2 and "larger than" in out
    code, out = run_cli("score", str(tmp_path))
    assert code == 2 and "directory" in out


def test_a_house_rule_named_twice():
    code, out = run_cli(
        "simulate", "paquet_voleur", "--deals", "1",
        "--house-rule", "paquet_voleur.take_all_of_rank", "--house-rule", "paquet_voleur.take_all_of_rank",
    )  # fmt: skip
    assert code == 2 and "named twice" in out


def test_an_unknown_bot_makes_no_log(tmp_path):
    log = tmp_path / "game.jsonl"
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "clever", "--log", str(log))
    assert code == 2 and "unknown player kind" in out
    assert not log.exists()  # the corrected rerun may use the same path
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "random", "--log", str(log))
    assert code == 0 and log.exists()


def test_an_unexpected_error_is_one_line_naming_the_command(monkeypatch):
    import cardcore.plugins

    def broken() -> None:
        raise RuntimeError("something went wrong " + "x" * 500)

    monkeypatch.setattr(cardcore.plugins, "discover", broken)
    code, out = run_cli("games")
    assert code == 1
    assert out.startswith("error: internal error in `cardcore games`")
    assert "RuntimeError: something went wrong" in out
    assert "in plugin code (test_hardening" in out  # the innermost frame outside the core
    assert "CARDCORE_DEBUG=1" in out and len(out.strip().splitlines()) == 1 and len(out) < 400
    monkeypatch.setenv("CARDCORE_DEBUG", "1")
    with pytest.raises(RuntimeError):
        run_cli("games")


def test_prompt_numbers_and_words(registry):
    t = Table.from_names(registry, "canasta", 4)
    human = HumanPlayer(t, 0, None)  # type: ignore[arg-type]
    moves = [Move("discard", card("9D", 1)), Move("discard", card("5C"))]
    # a card typed names either copy: the move plays the second deck's 9D
    assert human.parse("9d", moves) is moves[0]
    assert human.parse("1", moves) is moves[0]
    for text in ("²", "①", "99999999999999", "HELLOTHERE"):
        assert isinstance(human.parse(text, moves), str)
    from cardcore import cards

    before = len(cards._INTERNED)
    for i in range(50):
        human.parse(f"WORD{i}X", moves)
    assert len(cards._INTERNED) == before  # words typed are not kept as cards


def test_typed_superscript_at_the_prompt_does_not_end_the_game():
    code, out = run_cli("play", "paquet_voleur", "--seed", "1", input="²\n①\nq\n")
    assert code == 0 and "Traceback" not in out and "is not a move" in out


def test_positions_still_read(registry):
    code, _ = run_cli("moves", str(Path(POSITIONS) / "carrousel" / "c6_groups.yaml"))
    assert code == 0


def test_a_tables_file_with_a_name_twice(tmp_path):
    path = tmp_path / "games.yaml"
    path.write_text("tables:\n  evening: {game: carrousel}\n  evening: {game: canasta}\n")
    code, out = run_cli("validate", str(path))
    assert code == 2 and "key 'evening' given twice" in out


def test_names_cannot_drive_the_terminal(registry):
    t = Table.from_names(registry, "carrousel", 2, names=["\x1b[31mRed\x1b[0m", "x" * 100])
    assert t.names == ["[31mRed[0m", "x" * 40]


def test_house_rules_for_other_player_counts_and_options_that_do_not_apply():
    def simulate(*args: str) -> tuple[int, str]:
        return run_cli("simulate", *args, "--deals", "1")

    code, out = simulate("canasta", "--players", "2", "--house-rule", "canasta.permission_required")
    assert code == 2 and "is for 4 players, not 2" in out
    code, out = simulate("canasta", "--players", "4", "--house-rule", "canasta.every_man_for_himself")
    assert code == 2 and "is for 3 players, not 4" in out
    code, out = simulate("carrousel", "--option", "deck=54", "--option", "without=broom")
    assert code == 2 and "without= is for the 55-card deck" in out


def test_a_single_legal_move_plays_itself_unless_asked():
    _, out = run_cli("play", "paquet_voleur", "--seed", "3", "--players", "2", input="1\n" * 60)
    assert "(only move)" in out and "Traceback" not in out
    _, out = run_cli(
        "play", "paquet_voleur", "--seed", "3", "--players", "2", "--confirm-forced", input="1\n" * 60
    )
    assert "(only move)" not in out


def test_the_header_names_options_and_house_rules():
    args = ("play", "carrousel", "--seed", "1", "--option", "deck=54", "--house-rule", "carrousel.free_trail")
    _, out = run_cli(*args, input="q\n")
    assert "options: deck=54" in out and "house rule: Trail a card even when a capture or build" in out
    assert "(carrousel.free_trail)" in out and "(C10)" not in out  # its summary in plain words
