"""A person's screen: full matches of each game at a real 80×24 terminal
(pexpect): at every prompt the score, what wins and the hand are on the
screen, and no prompt lists more than 25 entries."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect", reason="pexpect is not installed")

CARDCORE = str(Path(sys.executable).parent / "cardcore")
PROMPT = r"your move \(number, \?, h, u, s, why … or q\) > "
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
ENTRY = re.compile(r"^\s+(\d+)\. ", re.MULTILINE)


def screen(text: str, rows: int = 24, cols: int = 80) -> list[str]:
    """The last ``rows`` lines an 80-column terminal shows of ``text``."""
    lines: list[str] = []
    for line in ANSI.sub("", text).replace("\r", "").split("\n"):
        while len(line) > cols:
            lines.append(line[:cols])
            line = line[cols:]
        lines.append(line)
    return lines[-rows:]


@pytest.mark.skipif(os.name != "posix", reason="a pseudo-terminal")
@pytest.mark.parametrize(
    "game,args,goal",
    [
        ("carrousel", ["--players", "4"], "first to 120 points"),
        ("canasta", ["--players", "2", "--option", "target=1500"], "first to 1500 points"),
        ("paquet_voleur", ["--players", "3", "--option", "deals=2"], "most cards over 2 deals"),
    ],
)
def test_a_full_match_at_an_80x24_terminal(game, args, goal):
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80", "LINES": "24"}
    command = ["play", game, "--seed", "3", *args]
    child = pexpect.spawn(CARDCORE, command, dimensions=(24, 80), encoding="utf-8", timeout=120, env=env)
    seen = ""
    prompts = longest = pauses = 0
    while True:
        found = child.expect([PROMPT, "Press any key for the next deal…", pexpect.EOF])
        seen += child.before + (child.after if found < 2 else "")
        if found == 2:
            break
        if found == 1:  # the deal's result stays until a key
            pauses += 1
            child.send(" ")
            continue
        prompts += 1
        shown = screen(seen)
        view = "\n".join(shown)
        assert "score " in view and goal in view, view
        assert "your hand (You):" in view, view
        block = child.before[child.before.rfind("your hand") - 2000 :]
        entries = [int(n) for n in ENTRY.findall(ANSI.sub("", block))]
        longest = max([longest, *entries])
        assert longest <= 25
        child.sendline("1")
    child.close()
    assert child.exitstatus == 0
    assert prompts > 10 and ("win" in seen or "share the win" in seen)
    print(f"{game}: {prompts} prompts, {pauses} pauses between deals, the longest lists {longest} entries")
