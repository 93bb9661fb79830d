"""A take back against bots deals the cards the person cannot see again
(``players.Undoable``, ``Rewind.redeal``): back at his previous decision he
sees what he saw there, and nothing of what he learnt since (the stock's next
card, an opponent's card) holds in the deal he goes back to. The redeal's seed
is logged: the log replays, and a game resumed from it is the same deal."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from cardcore.log import GameLog, replay, resume_point
from cardcore.players import QuitGame, Undoable, UndoRequest
from cardcore.runner import make_players, play_match
from cardcore.table import Table


class Script:
    """A person who plays each decision's first move, asks to take back once
    at his ``at``-th decision (when he may), and stops at his ``stop``-th; the
    deal as it was at each of his decisions (``seen``: index → states)."""

    needs_observation = False

    def __init__(self, at: int, stop: int, redeal: bool = True) -> None:
        self.at, self.stop, self.redeal = at, stop, redeal
        self.n = 0
        self.undone_to: int | None = None
        self.seen: dict[int, list[Any]] = {}

    def choose(self, observation: Any, moves: Any, decision: Any) -> Any:
        self.n += 1
        self.seen.setdefault(decision.index, []).append(decision._state.clone())
        if self.n >= self.stop:
            raise QuitGame
        if self.n >= self.at and self.undone_to is None and decision.can_undo:
            self.undone_to = -1  # asked: the decision he comes back to is the next one asked
            raise UndoRequest(redeal=self.redeal)
        if self.undone_to == -1:
            self.undone_to = decision.index
        return moves[0]


def play(registry: Any, game: str, seed: int, script: Script, log: Any = None) -> tuple[Table, Any]:
    table = Table(registry.game(game), 2)
    bots = make_players(table, ["human", "greedy"], seed)
    players = [Undoable(script), bots[1]]
    # a game with a person logs privately (as ``cardcore play --log``): undone moves never reach the file
    listeners = [GameLog(log, table, ["human", "greedy"], seed, private=True)] if log is not None else []
    with pytest.raises(QuitGame):
        play_match(table, players, seed, listeners)
    for lst in listeners:
        lst.close()  # the game stopped: what the log holds is written
    return table, listeners


@pytest.mark.parametrize("game", ["canasta", "carrousel", "paquet_voleur"])
def test_a_take_back_deals_the_unseen_cards_again(registry, game):
    script = Script(at=4, stop=9)
    table, _ = play(registry, game, 7, script)
    assert script.undone_to is not None and script.undone_to >= 0, "no take back was made"
    before, after = script.seen[script.undone_to][0], script.seen[script.undone_to][-1]
    # the person's own view there is the same, the spectators' too ...
    assert table.observe(after, 0) == table.observe(before, 0)
    assert table.spectate(after) == table.spectate(before)
    # ... the same cards are in play, but what he could not see lies elsewhere
    cards = [Counter(c.name for c in table.state_cards(s)) for s in (after, before)]
    assert cards[0] == cards[1]
    assert table.dump_state(after) != table.dump_state(before)
    if game == "paquet_voleur":  # what a search's imagined deal leaves out is the real deal's
        assert after.reading is True  # the ranks each hand lacks are still read from the trails (P5c)


def test_a_take_back_journaled_before_redeals_goes_back_to_the_same_cards(registry):
    """``UndoRequest(redeal=False)``: a web journal's take back written before
    take backs dealt again is played again as it was."""
    script = Script(at=4, stop=9, redeal=False)
    table, _ = play(registry, "canasta", 7, script)
    assert script.undone_to is not None and script.undone_to >= 0
    before, after = script.seen[script.undone_to][0], script.seen[script.undone_to][-1]
    assert table.dump_state(after) == table.dump_state(before)


def test_the_same_game_takes_back_to_the_same_deal(registry):
    """The redeal's seed is the match's, the decision's and the take back's
    count: the same game, the same cards dealt again (a resumed web table)."""
    deals = []
    for _ in range(2):
        script = Script(at=4, stop=9)
        table, _ = play(registry, "canasta", 11, script)
        deals.append(table.dump_state(script.seen[script.undone_to][-1]))
    assert deals[0] == deals[1]


def test_the_log_keeps_the_redeal_and_replays(registry, tmp_path):
    path = tmp_path / "taken.jsonl"
    script = Script(at=4, stop=12)
    with open(path, "w", encoding="utf-8") as stream:
        table, _ = play(registry, "canasta", 5, script, stream)
    lines = path.read_text().splitlines()
    assert sum('"event":"redeal"' in line for line in lines) == 1
    summary = replay(path, registry)
    assert summary.moves > 0
    # resumed from the log: the deal as the person left it, hidden cards included
    resumed = resume_point(path, registry)
    last = script.seen[max(script.seen)][-1]
    assert resumed.state is not None and table.dump_state(resumed.state) == table.dump_state(last)
    assert resumed.moves == max(script.seen) and resumed.redeals == 1


def test_a_forged_redeal_line_is_refused(registry, tmp_path):
    """A log whose redeal line was moved is a mismatch, not another game."""
    from cardcore.errors import ReplayMismatch

    path = tmp_path / "taken.jsonl"
    script = Script(at=4, stop=12)
    with open(path, "w", encoding="utf-8") as stream:
        play(registry, "canasta", 5, script, stream)
    lines = path.read_text().splitlines()
    i = next(k for k, line in enumerate(lines) if '"event":"redeal"' in line)
    lines[i] = lines[i].replace('"moves":', '"moves":1')
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayMismatch):
        replay(path, registry)


class Twice(Script):
    """Takes back at his ``at``-th decision, plays the first move there again,
    and takes back once more from the decision after: back twice to one decision."""

    def __init__(self, at: int, stop: int) -> None:
        super().__init__(at, stop)
        self.left = 2

    def choose(self, observation: Any, moves: Any, decision: Any) -> Any:
        self.n += 1
        self.seen.setdefault(decision.index, []).append(decision._state.clone())
        if self.n >= self.stop:
            raise QuitGame
        if self.undone_to == -1:
            self.undone_to = decision.index  # back here
        elif self.n >= self.at and self.left and decision.can_undo:
            self.left -= 1
            self.undone_to = -1
            raise UndoRequest
        return moves[0]


def test_each_take_back_deals_anew(registry):
    """Back twice to one decision: two deals of what he cannot see, so what
    the first showed him holds nothing of the second (the count of the deal's
    take backs is in the seed, and in the log line)."""
    script = Twice(at=4, stop=14)
    table, _ = play(registry, "canasta", 7, script)
    assert script.left == 0
    first, *again = script.seen[script.undone_to]
    assert len(again) == 2, "not back twice to the same decision"
    assert table.observe(again[0], 0) == table.observe(again[1], 0) == table.observe(first, 0)
    assert len({str(table.dump_state(s)) for s in (first, *again)}) == 3
