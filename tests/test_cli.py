"""The CLI contract: commands, flags, JSON fields, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import POSITIONS, cli_json, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

PV = POSITIONS / "paquet_voleur"
ROOT = Path(__file__).parent.parent


def test_games_json_lists_paquet_voleur():
    games = {g["name"]: g for g in cli_json("games", "--json")["games"]}
    pv = games["paquet_voleur"]
    assert (pv["min_players"], pv["max_players"]) == (2, 4)
    assert "partnerships" in pv["options"]


def test_house_rules_json():
    rows = {h["name"]: h for h in cli_json("house-rules", "--json")["house_rules"]}
    assert rows["paquet_voleur.take_all_of_rank"]["game"] == "paquet_voleur"


def test_rules_page():
    code, out = run_cli("rules", "paquet_voleur")
    assert code == 0 and "P5" in out and "take_all_of_rank" in out


def test_simulate_is_deterministic():
    args = ("simulate", "paquet_voleur", "--players", "4", "--deals", "200", "--seed", "1", "--json")
    a, b = cli_json(*args), cli_json(*args)
    a.pop("seconds"), b.pop("seconds"), a.pop("cpu_seconds"), b.pop("cpu_seconds")
    assert a == b
    for key in ("game", "players", "deals", "matches", "moves", "wins", "deal_points"):
        assert key in a
    assert a["deals"] == 200 and len(a["deal_points"]) == 200
    assert all(len(p) == 4 for p in a["deal_points"])


def test_simulate_differs_with_seed():
    a = cli_json("simulate", "paquet_voleur", "--deals", "20", "--seed", "1", "--json")
    b = cli_json("simulate", "paquet_voleur", "--deals", "20", "--seed", "2", "--json")
    assert a["deal_points"] != b["deal_points"]


def test_moves_json_shape():
    data = cli_json("moves", str(PV / "p5_pair_steal.yaml"), "--json")
    assert data["game"] == "paquet_voleur" and data["to_act"] == 0
    steal = data["moves"][-1]
    assert steal == {
        "kind": "steal",
        "card": "5H",
        "text": "5H steals side 1's pile (2 cards)",
        "takes": ["3C", "5D"],
        "from": 1,
    }


def test_moves_accepts_json_positions(tmp_path):
    import yaml

    p = tmp_path / "pos.json"
    p.write_text(json.dumps(yaml.safe_load((PV / "p5_trail_only.yaml").read_text())))
    assert len(cli_json("moves", str(p), "--json")["moves"]) == 2


@pytest.mark.parametrize(
    "args,needle",
    [
        (("simulate", "nosuchgame", "--deals", "1"), "unknown game 'nosuchgame'"),
        (("simulate", "paquet_voleur", "--players", "7", "--deals", "1"), "2 to 4 players"),
        (("simulate", "paquet_voleur", "--house-rule", "nope", "--deals", "1"), "unknown house rule"),
        (("simulate", "paquet_voleur", "--option", "deals=zero", "--deals", "1"), "option.deals"),
        (("simulate", "paquet_voleur", "--option", "colour=red", "--deals", "1"), "option.colour"),
        (("simulate", "paquet_voleur", "--deals", "1", "--seat", "9=random"), "no seat 9"),
        (("simulate", "paquet_voleur", "--deals", "1", "--bot", "clever"), "unknown player kind"),
        (("play", "nosuchgame"), "unknown game"),
        (("rules", "carousel"), "did you mean 'carrousel'"),
        (("replay", "missing.jsonl"), "No such file"),
        # click's own usage errors are one line too, naming the flag
        (("play", "canasta", "--players", "x"), "Invalid value for '--players'"),
        (("simulate", "canasta", "--deals", "0"), "Invalid value for '--deals'"),
        (("simulate", "canasta", "--deals", "1", "--seat", "²=greedy"), "Invalid value for '--seat'"),
        (("simulate", "canasta", "--deals", "1", "--seat", "①=greedy"), "expected SEAT=KIND"),
        (("simulate", "canasta", "--deals", "1", "--option", "deck"), "expected KEY=VALUE"),
        (("simulate", "canasta", "--deals", "1", "--nope"), "No such option"),
        (("nosuchcommand",), "No such command"),
        (("moves",), "Missing argument"),
    ],
)
def test_bad_input_is_one_line_exit_2(args, needle):
    code, out = run_cli(*args)
    assert code == 2
    assert needle in out
    assert "Traceback" not in out
    assert len(out.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "body,needle",
    [
        ("game: paquet_voleur\nplayers: 3\nhands: {0: [5H, 5H]}\n", "5H appears more often"),
        ("game: paquet_voleur\nplayers: 3\nhands: {0: [ZZ]}\n", "hands.0[0]"),
        ("game: paquet_voleur\nplayers: 3\ntable: [JOKER20]\n", "not a card of this game"),
        ("game: paquet_voleur\nplayers: 3\nhands: {0: [5H\n", "malformed YAML"),
        ("game: paquet_voleur\nplayers: 3\nto_act: 5\n", "to_act"),
        ("game: nope\n", "unknown game"),
        ("- 1\n", "a position is a mapping"),
        ("game: canasta\nhas_melded: 3\n", "has_melded: expected a list"),
        ("game: canasta\nnew_ranks: [Z]\n", "new_ranks"),
        ("game: carrousel\ntable: [{build: [5H], owner: 0}]\n", "two or more cards"),
        # misspelled keys are errors naming the key (not silently ignored)
        ("game: canasta\nto-act: 1\n", "unknown key 'to-act' (did you mean 'to_act'?)"),
        ("game: canasta\npile: [5D]\n", "unknown key 'pile'"),
        ("game: canasta\ndiscards: [5D]\n", "unknown key 'discards' (did you mean 'discard'?)"),
        ("game: carrousel\nplayers: 2\nlast_captur: 0\n", "unknown key 'last_captur'"),
        ("game: carrousel\nplayers: 2\nplayers: 3\n", "key 'players' given twice"),
        # seats are whole numbers, each given once (issue 21)
        ("game: paquet_voleur\nplayers: 3\nto_act: 0.7\n", "to_act: '0.7' is not a seat number"),
        ("game: paquet_voleur\nplayers: 3\nto_act: ' 1 '\n", "to_act: ' 1 ' is not a seat number"),
        ("game: paquet_voleur\nplayers: 3\nto_act: true\n", "to_act: 'True' is not a seat number"),
        ("game: paquet_voleur\nplayers: 3\nhands: {0: [5H], '0': [6H]}\n", "hands: seat 0 is given twice"),
        ("game: paquet_voleur\nplayers: 3\nhands: {0.5: [5H]}\n", "hands: '0.5' is not a seat number"),
        (
            "game: carrousel\nplayers: 2\ntable: [5C, 3D, {build: [AH, 2C], owner: '1'}]\n",
            "owner: '1' is not a seat",
        ),
    ],
)
def test_bad_position_files(tmp_path, body, needle):
    p = tmp_path / "pos.yaml"
    p.write_text(body)
    code, out = run_cli("moves", str(p))
    assert code == 2, out
    assert needle in out and str(p) in out and "Traceback" not in out


def test_json_position_with_a_key_twice(tmp_path):
    p = tmp_path / "pos.json"
    p.write_text('{"game": "carrousel", "players": 2, "to_act": 0, "to_act": 1}')
    code, out = run_cli("moves", str(p))
    assert code == 2 and "key 'to_act' given twice" in out and str(p) in out


def test_validate_example_config():
    code, out = run_cli("validate", str(ROOT / "games.yaml"))
    assert code == 0, out


def test_validate_reports_every_problem(tmp_path):
    p = tmp_path / "games.yaml"
    p.write_text(
        "tables:\n"
        "  a: {game: paquet_voleur, players: 9}\n"
        "  b: {game: paquet_voleur, house_rules: [nope]}\n"
        "  c: {game: carousel}\n"
        "  d: {game: paquet_voleur, options: {deals: -1}}\n"
        "  e: {game: paquet_voleur, players: [{name: A, kind: robot}]}\n"
        "  f: {game: paquet_voleur, seeed: 3}\n"
    )
    code, out = run_cli("validate", str(p))
    lines = out.strip().splitlines()
    assert code == 2 and len(lines) == 6, out  # a table's shape error does not hide the others'
    assert f"{p}: tables.f.seeed: unknown field" in lines
    for name in "abcde":
        assert any(f"tables.{name}:" in line and str(p) in line for line in lines)


def test_validate_reports_every_problem_of_a_table(tmp_path):
    """Regression (issue 22): every problem of one table, not its first only."""
    p = tmp_path / "games.yaml"
    p.write_text(
        "tables:\n"
        "  one:\n"
        "    game: carrousel\n"
        "    players: [{kind: wizard}, {kind: greedy}, {kind: dragon}]\n"
        "    house_rules: [carrousel.nope, carrousel.free_trail, other.bad]\n"
        "    options: {deck: 53}\n"
        "  two: {game: canasta, players: 2, seed: true, colour: red}\n"
        "surplus: 1\n"
    )
    code, out = run_cli("validate", str(p))
    lines = out.strip().splitlines()
    assert code == 2, out
    for said in (
        "surplus: unknown field",
        "tables.one: house_rules.0: unknown house rule 'carrousel.nope'",
        "tables.one: house_rules.2: unknown house rule 'other.bad'",
        "tables.one: option.deck: Input should be 56, 55 or 54",
        "tables.one: players.0.kind: unknown player kind 'wizard'",
        "tables.one: players.2.kind: unknown player kind 'dragon'",
        "tables.two.seed: Input should be a valid integer",
        "tables.two.colour: unknown field",
    ):
        assert sum(said in line for line in lines) == 1, (said, out)
    assert len(lines) == 8


def test_schema_is_json_schema():
    schema = cli_json("schema")
    assert "tables" in schema["properties"]


def test_play_table_from_config_without_humans(tmp_path):
    code, out = run_cli("play", "--table", "bots", "--config", str(ROOT / "games.yaml"))
    assert code == 0 and "wins" in out


def test_play_human_to_the_end_and_replay(tmp_path):
    log = tmp_path / "game.jsonl"
    # answer every prompt with "1" (the first legal move); one bad answer first
    answers = "zz\n99\n" + "1\n" * 40
    code, out = run_cli(
        "play", "paquet_voleur", "--players", "2", "--seed", "5", "--log", str(log), input=answers
    )
    assert code == 0, out
    assert "is not a move" in out and "there is no move 99" in out
    assert "wins" in out or "share the win" in out
    code, out = run_cli("replay", str(log), "--check")
    assert code == 0 and "log complete" in out


def test_quit_keeps_the_log(tmp_path):
    log = tmp_path / "game.jsonl"
    code, out = run_cli("play", "paquet_voleur", "--seed", "5", "--log", str(log), input="1\nq\n")
    assert code == 0 and "stopped" in out
    code, out = run_cli("replay", str(log), "--check")
    assert code == 0 and "incomplete" in out


def test_replay_detects_tampering(tmp_path):
    log = tmp_path / "g.jsonl"
    code, _ = run_cli("play", "paquet_voleur", "--seat", "0=greedy", "--seed", "8", "--log", str(log))
    assert code == 0
    lines = log.read_text().splitlines()
    moves = [i for i, line in enumerate(lines) if '"event":"move"' in line]
    ev = json.loads(lines[moves[3]])
    other = json.loads(lines[moves[4]])
    ev["move"] = other["move"]  # a move of another hand
    lines[moves[3]] = json.dumps(ev)
    log.write_text("\n".join(lines) + "\n")
    code, out = run_cli("replay", str(log), "--check")
    assert code == 2 and "not legal in the replay" in out
    log.write_text("not json\n")
    code, out = run_cli("replay", str(log), "--check")
    assert code == 2 and "not valid JSON" in out
    first = json.dumps({"event": "table", "format": "cardcore-log/1", "game": "paquet_voleur"})
    log.write_text(first + "\n" + json.dumps({"event": "match_start", "seed": [1]}) + "\n")
    code, out = run_cli("replay", str(log), "--check")
    assert code == 2 and ":2: malformed log line" in out and "Traceback" not in out


def test_third_party_house_rule_package(tmp_path):
    """The example package, installed on its own, changes the game via an entry point."""
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(ROOT / "examples" / "cardcore-kings-double"),
        ],
        check=True,
    )
    env = {**os.environ, "PYTHONPATH": str(target)}

    def cardcore(*args: str) -> dict:
        out = subprocess.run(
            [sys.executable, "-m", "cardcore.cli", *args],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        return json.loads(out)

    names = [h["name"] for h in cardcore("house-rules", "--json")["house_rules"]]
    assert "kings_double.paquet_voleur" in names
    base = cardcore("simulate", "paquet_voleur", "--deals", "30", "--seed", "3", "--json")
    more = cardcore(
        "simulate",
        "paquet_voleur",
        "--deals",
        "30",
        "--seed",
        "3",
        "--json",
        "--house-rule",
        "kings_double.paquet_voleur",
    )
    assert sum(map(sum, more["deal_points"])) > sum(map(sum, base["deal_points"]))


def test_play_carrousel_partnership_match_to_the_end(tmp_path):
    log = tmp_path / "c.jsonl"
    code, out = run_cli("play", "carrousel", "--seed", "2", "--log", str(log), input="1\n" * 400)
    assert code == 0, out[-500:]
    assert "You (a person) & Partner (normal) against Left (normal) & Right (normal)" in out
    assert "wins (" in out or "win (" in out
    code, out = run_cli("replay", str(log), "--check")
    assert code == 0 and "log complete" in out


@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_play_canasta_match_to_the_end(tmp_path, players):
    log = tmp_path / "k.jsonl"
    code, out = run_cli(
        "play", "canasta", "--players", players, "--seed", "4", "--log", str(log), input="1\n" * 3000
    )
    assert code == 0, out[-800:]
    assert "wins (" in out or "win (" in out
    code, out = run_cli("replay", str(log), "--check")
    assert code == 0 and "log complete" in out


def test_an_existing_log_is_never_overwritten(tmp_path):
    log = tmp_path / "saved.jsonl"
    log.write_text("precious\n")
    code, out = run_cli("play", "paquet_voleur", "--seat", "0=random", "--log", str(log))
    assert code == 2 and "already exists" in out
    assert log.read_text() == "precious\n"


def test_play_table_with_overrides():
    code, out = run_cli(
        "play",
        "--table",
        "bots",
        "--config",
        str(ROOT / "games.yaml"),
        "--option",
        "deals=2",
        "--house-rule",
        "paquet_voleur.take_all_of_rank",
    )
    assert code == 0 and "Deal 2" in out
    code, out = run_cli("play", "--table", "bots", "--config", str(ROOT / "games.yaml"), "--players", "2")
    assert code == 2 and "--players" in out


_JUNK = st.sampled_from(
    [None, 5, -1, 99, "x", "5H", [], {}, [1, 2], {"a": 1}, ["5H", "5H"], [["5H"]], True, 3.5, "JOKER"]
)
_FIELDS = st.sampled_from(
    [
        "players",
        "options",
        "house_rules",
        "dealer",
        "to_act",
        "hands",
        "table",
        "stock",
        "piles",
        "discard",
        "melds",
        "red_threes",
        "scores",
        "phase",
        "staged",
        "asked",
        "pile_taker",
        "went_out",
        "last_capture",
        "last_taker",
        "has_melded",
        "withdrew",
    ]
)


@settings(max_examples=120, deadline=None)
@given(
    st.sampled_from(
        ["carrousel/c8_other_player.yaml", "canasta/n12_go_out.yaml", "paquet_voleur/p5_pair_steal.yaml"]
    ),
    st.lists(st.tuples(_FIELDS, _JUNK), min_size=1, max_size=3),
)
def test_fuzzed_positions_never_crash(tmp_path_factory, name, changes):
    """Whatever a position file holds, `moves` and `score` answer or fail in one line."""
    import yaml

    data = yaml.safe_load((POSITIONS / name).read_text())
    data.update(dict(changes))
    p = tmp_path_factory.mktemp("fz") / "pos.yaml"
    p.write_text(yaml.safe_dump(data))
    for cmd in ("moves", "score"):
        code, out = run_cli(cmd, str(p), "--json")
        assert code in (0, 2), out
        if code == 2:
            assert len(out.strip().splitlines()) == 1 and "Traceback" not in out


def test_help_does_not_import_the_engine():
    """`cardcore --help` imports click and the command module, not the engine."""
    import subprocess
    import sys

    engine = ("cardcore.table", "cardcore.game", "pydantic", "pluggy", "yaml")
    code = f"import sys, cardcore.cli; print([m for m in {engine!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(
    "field,value,said",
    [
        ("seed", "true", "tables.t.seed"),
        ("seed", "1.5", "tables.t.seed"),
        ("seed", "'7'", "tables.t.seed"),
        ("players", "true", "expected a list of seats or a whole number of players"),
        ("players", "2.0", "expected a list of seats or a whole number of players"),
    ],
)
def test_a_table_s_numbers_are_whole_numbers(tmp_path, field, value, said):
    """A table's seed and player count are integers, never a bool, a float or a string."""
    path = tmp_path / "games.yaml"
    path.write_text(f"tables:\n  t:\n    game: carrousel\n    {field}: {value}\n")
    code, out = run_cli("validate", str(path))
    assert code == 2 and said in out and "Traceback" not in out


def test_games_answer_to_the_names_players_use():
    """The games' own names as aliases (issue 22): karuzele, karuzelė, paquet-voleur …"""
    for name in ("karuzele", "Karuzelė", "karuzela"):
        assert cli_json("simulate", name, "--deals", "1", "--seed", "1", "--json")["game"] == "carrousel"
    assert (
        cli_json("simulate", "paquet-voleur", "--deals", "1", "--seed", "1", "--json")["game"]
        == "paquet_voleur"
    )
    code, out = run_cli("rules", "stealing-bundles")
    assert code == 0 and out.startswith("# Paquet voleur")


def test_a_mistyped_option_is_told_the_close_name():
    code, out = run_cli("simulate", "carrousel", "--option", "dek=54", "--deals", "1")
    assert code == 2 and "option.dek: unknown field (did you mean 'deck'?)" in out
    code, out = run_cli("simulate", "carrousel", "--option", "zzz=1", "--deals", "1")
    assert code == 2 and "its options: deck, without, target, partnerships, suit" in out


def test_the_player_count_is_the_game_s_own_range():
    """No made-up range in the help (it said 1<=x<=99); the game says its own."""
    code, out = run_cli("simulate", "--help")
    assert code == 0 and "1<=x<=99" not in out and "--players N" in out
    code, out = run_cli("simulate", "carrousel", "--players", "0", "--deals", "1")
    assert code == 2 and "carrousel is played by 2 to 4 players, not 0" in out


def test_score_says_the_breakdown_in_words():
    """Issue 48, item 7: the score calculator's breakdown in words
    (``red threes``, ``going out``), not the keys of the data (``red_threes``)."""
    code, out = run_cli("score", str(POSITIONS / "canasta" / "n14_score.yaml"))
    assert code == 0 and "red threes 200, going out 100" in out and "red_threes" not in out, out
    code, out = run_cli("--lang", "fr", "score", str(POSITIONS / "canasta" / "n14_score.yaml"))
    assert code == 0 and "trois rouges 200" in out, out
