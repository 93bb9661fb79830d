"""The decision context and the step record (cardcore/decision.py): what a
player gets at each decision and what every listener gets after each move."""

from __future__ import annotations

import random
import warnings

import pytest
from conftest import GAMES, REGISTRY, smallest_table

from cardcore.decision import Decision, Rewind
from cardcore.runner import Listener, make_player, play_deal
from cardcore.table import Table


@pytest.mark.parametrize("game", GAMES)
def test_every_kind_takes_the_decision(game):
    """No built-in player is of the deprecated two-argument protocol."""
    table = Table.from_names(REGISTRY, game, *smallest_table(game))
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for kind in table.player_kinds:
            make_player(table, kind, 0, random.Random(0))


def test_a_two_argument_player_still_plays_with_a_warning():
    table = Table.from_names(REGISTRY, "paquet_voleur", 2)

    class Old:
        needs_observation = False

        def __init__(self) -> None:
            self.rng = random.Random(1)

        def choose(self, observation, moves):
            return moves[self.rng.randrange(len(moves))]

    with pytest.warns(DeprecationWarning, match="third argument"):
        _, result, n = play_deal(table, table.new_match(3), [Old(), Old()])
    assert n > 0 and len(result.sides) == 2


def test_each_move_is_one_step_for_every_listener():
    """Every listener gets the same record; the witness's event is made from it."""
    table = Table.from_names(REGISTRY, "carrousel", 2)
    seen: list[list] = [[], []]

    class Keep(Listener):
        wants_views = True

        def __init__(self, i: int) -> None:
            self.i = i

        def move(self, match, state, step) -> None:
            seen[self.i].append(step)

    players = [make_player(table, "random", s, random.Random(s)) for s in range(2)]
    _, _, n = play_deal(table, table.new_match(5), players, [Keep(0), Keep(1)])
    assert len(seen[0]) == n and all(a is b for a, b in zip(*seen, strict=True))
    assert [s.index for s in seen[0]] == list(range(1, n + 1))
    for step in seen[0]:
        assert step.public == table.move_json(step.move) and step.text == step.public["text"]
        assert step.view is not None and step.view.hand == ()  # the spectators' view: no hand
    assert any(step.events for step in seen[0])  # new hands dealt


def test_without_move_listeners_no_step_is_made(monkeypatch):
    """Simulations pay nothing for steps: no move text is asked."""
    table = Table.from_names(REGISTRY, "carrousel", 2)
    calls = []
    monkeypatch.setattr(table, "move_text", lambda *a: calls.append(a) or "")
    players = [make_player(table, "random", s, random.Random(s)) for s in range(2)]
    play_deal(table, table.new_match(5), players, [Listener()])
    assert calls == []


def test_a_rewind_goes_back_to_the_checkpoint():
    """A player that asks to go back (a person's undo) replays from the
    checkpoint; the listeners are rewound; the deal ends as if nothing happened."""
    table = Table.from_names(REGISTRY, "paquet_voleur", 2)
    straight = [make_player(table, "random", s, random.Random(s)) for s in range(2)]
    plain, _, plain_n = play_deal(table, table.new_match(8), straight)

    class Regret:
        needs_observation = False

        def __init__(self, inner) -> None:
            self.inner, self.rng, self.point = inner, inner.rng, None
            self.regretted = False

        def choose(self, observation, moves, decision: Decision):
            if decision.index == 2:
                self.point = decision.checkpoint()
            if decision.index == 6 and not self.regretted:
                self.regretted = True
                raise Rewind(self.point)
            return self.inner.choose(observation, moves, decision)

    rewound: list[object] = []

    class Tokens(Listener):
        def checkpoint(self):
            return "here"

        def rewind(self, token) -> None:
            rewound.append(token)

    class Witnessing(Regret):
        def __init__(self, inner) -> None:
            super().__init__(inner)
            self.events: list[dict] = []

        def witness(self, event) -> None:
            self.events.append(event)

    again = [Witnessing(make_player(table, "random", s, random.Random(s))) for s in range(2)]
    state, _, n = play_deal(table, table.new_match(8), again, [Tokens()])
    assert any(p.regretted for p in again) and rewound == ["here"]
    # the players that follow the game are told: the moves they saw since the checkpoint are undone
    for p in again:
        assert p.events.count({"event": "rewind", "moves": 2}) == 1
        back = p.events.index({"event": "rewind", "moves": 2})
        assert [e["event"] for e in p.events[back + 1 :]].count("move") == n - 2
    assert n == plain_n and table.dump_state(state) == table.dump_state(plain)
