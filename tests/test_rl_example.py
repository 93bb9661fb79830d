"""The example learning agent (examples/rl/pv_agent.py), smoke-sized: a few
hundred deals of Paquet voleur against ``random`` teach it something
measurable. Seeded throughout, so its figures are the same every run."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="cardcore[rl] is not installed (pip install -e '.[rl]')")
pytest.importorskip("gymnasium", reason="cardcore[rl] is not installed")

EXAMPLE = Path(__file__).parent.parent / "examples" / "rl" / "pv_agent.py"


def _agent():
    spec = importlib.util.spec_from_file_location("pv_agent", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_agent_learns_to_beat_random():
    agent = _agent()
    before = np.mean(agent.evaluate(None, 160, seed=99))
    policy, curve = agent.train(400, seed=0, lr=0.2)
    after = np.mean(agent.evaluate(policy, 160, seed=99))
    # what it learnt: a steal (a whole pile) is worth more than a pair (one card)
    assert policy.c[2] > policy.c[1] + 1.0
    # and it shows on 160 fresh deals against random, at the same seeds as the random policy's
    assert after > before + 3.0, (before, after)
    assert len(curve) == 400


def test_the_agent_is_a_player_for_the_arena():
    agent = _agent()
    policy, _ = agent.train(40, seed=1, lr=0.2)
    summary = agent.arena(policy, 4, bots=("learned", "random"))
    assert sorted(b["bot"] for b in summary["bots"]) == ["learned", "random"]
    assert sum(b["ms_per_decision"]["decisions"] for b in summary["bots"]) > 0
