"""Fuzzing every command: random arguments and random files (alias bombs,
deep nesting, binary, huge numbers) never give a traceback nor run past
their limits: the answer is a result (exit 0) or one line (exit 2)."""

from __future__ import annotations

import time

from conftest import POSITIONS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardcore.cli import main

COMMANDS = [
    "games",
    "house-rules",
    "rules",
    "play",
    "simulate",
    "moves",
    "score",
    "replay",
    "validate",
    "schema",
]
WORDS = [
    "carrousel", "canasta", "paquet_voleur", "nope", "", "-", "²", "①", "9" * 5000, ".inf", "-1", "0", "2",
    "--json", "--players", "--seat", "0=greedy", "1=random", "9=x", "²=greedy", "--option", "deck=54",
    "deck=[1]", "target=-5", "deals=1", "--house-rule", "carrousel.free_trail", "paquet_voleur.take_all_of_rank",
    "--deals", "--matches", "--seed", "--jobs", "--bot", "greedy", "--table", "evening", "--config",
    "--log", "--check", "--backend", "--address", "\x1b[31m", "\x00",
    "--from", "--resume", "--ascii", "--confirm-forced", "--step", "--trace-reveals-hands", "--debug",
]  # fmt: skip
FILES = {
    "bomb.yaml": "game: carrousel\na: &a [1,1,1,1,1,1,1,1,1]\n"
    + "".join(f"b{i}: &b{i} [" + ", ".join([f"*{'a' if i == 0 else f'b{i - 1}'}"] * 9) + "]\n" for i in range(8)),
    "deep.yaml": "game: canasta\nmelds: " + "[" * 2000 + "]" * 2000 + "\n",
    "deep.json": '{"game": "canasta", "x": ' + "[" * 20000 + "]" * 20000 + "}",
    "huge.yaml": "game: canasta\nscores: {0: " + "7" * 6000 + "}\n",
    "binary.yaml": "\x00\x01\ufffe\x7f garbage",
    "log.jsonl": '{"event": "table", "format": "cardcore-log/1", "game": "canasta"}\n{"event": "match_start", "seed": 1e999}\n',
    "tables.yaml": "tables:\n  evening: {game: canasta, players: 9}\n",
    "position.yaml": (POSITIONS / "canasta" / "n12_go_out.yaml").read_text(),
}  # fmt: skip
LIMIT_SECONDS = 20


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    command=st.sampled_from(COMMANDS),
    words=st.lists(st.sampled_from(WORDS + [f"@{name}" for name in FILES]), max_size=6),
    text=st.text(max_size=12),
)
def test_every_command_answers_in_one_line(tmp_path_factory, command, words, text):
    from click.testing import CliRunner

    folder = tmp_path_factory.mktemp("fuzz")
    for name, body in FILES.items():
        (folder / name).write_text(body, encoding="utf-8", errors="surrogatepass")
    args = [command]
    for w in words:
        args.append(str(folder / w[1:]) if w.startswith("@") else w)
    if command == "simulate" and "--deals" not in args and "--matches" not in args:
        args += ["--deals", "2"]
    for i, a in enumerate(args):  # keep runs short: no huge counts of deals
        if (
            a in ("--deals", "--matches")
            and i + 1 < len(args)
            and args[i + 1].isascii()
            and args[i + 1].isdigit()
        ):
            args[i + 1] = str(min(int(args[i + 1]) if len(args[i + 1]) < 5 else 3, 3))
    if "--log" in args:  # a log goes to a fresh file
        args[args.index("--log") + 1 : args.index("--log") + 2] = [str(folder / "new.jsonl")]
    start = time.monotonic()
    result = CliRunner().invoke(main, args, input="q\n" + text + "\nq\n", catch_exceptions=True)
    took = time.monotonic() - start
    out = result.output
    assert result.exit_code in (0, 2, 130), (args, result.exit_code, out[-500:], result.exception)
    assert "Traceback" not in out, (args, out[-500:])
    if result.exit_code == 2 and command != "validate":  # validate lists every problem, a line each
        lines = [line for line in out.strip().splitlines() if line.startswith("error")]
        assert len(lines) == 1 and len(lines[0]) < 700, (args, out[-600:])
    assert all(len(line) < 2000 for line in out.splitlines()), (
        args,
        "a line of",
        max(map(len, out.splitlines())),
    )
    assert took < LIMIT_SECONDS, (args, took)
