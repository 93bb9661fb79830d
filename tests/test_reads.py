"""Reading the other seats' play (``ismcts:model=greedy``, cardcore/reads.py):
the imagined deals are weighed by how likely the others' moves were with the
cards each deal gives them. Against a real ``greedy`` the real deal gets the
weight of a seat that played the model's move every time, and a hand the rules would not have allowed
(Carrousel's trail while a capture was possible, C10) is ruled out."""

from __future__ import annotations

import random

import pytest
from conftest import cli_json, run_cli

from cardcore import reads
from cardcore.runner import make_player, play_match
from cardcore.table import Table

SPEC = "ismcts:iterations=20,prior=greedy,rollout=greedy,model=greedy,doubt=0.25,pool=30"


def _play_watching(registry, game, seed, check, players=2):
    """One deal of ``game``: the reading search at seat 0, greedy at the others;
    ``check(reader, true_state, pool)`` at each of the searcher's pools."""
    table = Table(registry.game(game), players)
    searcher = make_player(table, SPEC, 0, random.Random(seed))
    reader = searcher.reader
    made = reader.pool
    calls = []

    def pool(decision, size, rng, plain=False):
        got = made(decision, size, rng, plain)
        check(reader, decision._state, got)  # the true deal: the test may look, the bot never does
        calls.append({s.seat for s in reader.seen})
        return got

    reader.pool = pool
    others = [make_player(table, "greedy", s, random.Random(s)) for s in range(1, players)]
    play_match(table, [searcher, *others], seed, max_deals=1)
    return calls


@pytest.mark.parametrize(
    "game,players", [("carrousel", 2), ("paquet_voleur", 2), ("carrousel", 3), ("paquet_voleur", 4)]
)
def test_the_real_deal_gets_the_weight_of_greedy_s_moves_against_greedy(registry, game, players):
    def check(reader, true_state, pool):
        best = 1.0
        for s in reader.seen:
            before = s.before
            kept = before.hands[s.seat]
            before.hands[s.seat] = true_state.hands[s.seat] + s.played
            n = len(reader.table.fast_legal_moves(before))
            before.hands[s.seat] = kept
            if n > 1:
                best *= 1 - reader.doubt + reader.doubt / n
        # greedy played every move seen: the real hands explain every one of them
        assert reader.weight(true_state) == pytest.approx(best)
        # a likelihood: no deal in the pool ruled out, none above certainty
        assert pool is None or all(0 < reader.weight(st) <= 1 for st in pool.states)

    seen = []
    for seed in (1, 2, 3):
        seen += _play_watching(registry, game, seed, check, players)
    # the moves of every other seat were read (the deal kept after the bot's move carried on)
    assert set().union(*seen) == set(range(1, players))


def test_a_trail_rules_out_a_hand_that_could_capture(registry):
    """C10: seat 1 trailed, so it held no card that captured then: a deal
    giving it such a card back weighs nothing."""
    ruled_out = []

    def check(reader, true_state, pool):
        for s in reader.seen:
            if s.move.kind != "trail" or s.size < 2:
                continue
            before = s.before
            table = reader.table
            # a card of the stock or of seat 0's hidden cards that captures on that table
            kept = before.hands[s.seat]
            for card in true_state.stock:
                before.hands[s.seat] = [card, *s.played]
                captures = any(  # a broom on an empty table takes nothing and is no capture (C9)
                    m.kind in ("capture", "sweep") and m.card == card and m.takes
                    for m in table.fast_legal_moves(before)
                )
                before.hands[s.seat] = kept
                if captures and len(true_state.hands[s.seat]) >= 1:
                    state = true_state.clone()
                    hand = state.hands[s.seat]
                    # played since then: the other cards it holds now stand for the rest
                    hand[0] = card
                    assert reader.weight(state) == 0.0
                    ruled_out.append(card)
                    break

    for seed in range(1, 7):
        _play_watching(registry, "carrousel", seed, check)
    assert ruled_out


def test_model_is_deterministic_for_a_seed():
    base = (
        "simulate", "carrousel", "--players", "2", "--deals", "1", "--seed", "5", "--json",
        "--bot", "greedy",
    )  # fmt: skip
    with_model = cli_json(*base, "--seat", f"0={SPEC}")
    again = cli_json(*base, "--seat", f"0={SPEC}")
    for x in (with_model, again):
        x.pop("seconds"), x.pop("cpu_seconds")
    assert with_model == again


def test_model_options_and_their_errors():
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "ismcts:model=clever")
    assert code == 2 and "model='clever' is no player kind" in out
    code, out = run_cli("simulate", "carrousel", "--deals", "1", "--bot", "ismcts:model=greedy,doubt=0")
    assert code == 2 and "doubt=0 is a share" in out


def test_seat_bots_are_the_kind_at_every_seat(registry):
    table = Table(registry.game("paquet_voleur"), 3)
    bots = reads.seat_bots(table, "greedy", random.Random(1))
    assert len(bots) == 3 and all(callable(b) for b in bots)


@pytest.mark.parametrize("game", ["carrousel", "paquet_voleur"])
def test_every_move_of_the_other_seat_is_matched_trails_and_builds_too(registry, game):
    """A move legal only because of the rest of the seat's real hand (a trail,
    C10/P5c; a build, C8) is found all the same: the record is matched with the
    seat holding the card alone, or with one more card it may hold."""
    found: list[object] = []
    kinds: set[str] = set()
    real = reads.Reader._find

    def spy(self, before, seat, card, public):
        move = real(self, before, seat, card, public)
        found.append(move)
        kinds.add(public["kind"])
        return move

    reads.Reader._find = spy
    try:
        for seed in range(1, 5):
            _play_watching(registry, game, seed, lambda *a: None)
    finally:
        reads.Reader._find = real
    assert found and None not in found
    assert "trail" in kinds and (game != "carrousel" or "build" in kinds)


def test_the_wrappers_of_a_bot_pass_the_moves_on(registry):
    """The arena's timing, the easy level's mistakes and the browser's journal
    wrap a player: a bot that follows the game still gets every move."""
    from cardcore.arena import _Timed
    from cardcore.levels import Mistaken

    table = Table(registry.game("carrousel"), 2)
    bot = make_player(table, SPEC, 0, random.Random(1))
    assert _Timed(bot, {}, "x").witness == bot.witness
    assert Mistaken(bot, random.Random(1), 0.5).witness == bot.witness
    plain = make_player(table, "greedy", 0, random.Random(1))
    assert not hasattr(_Timed(plain, {}, "x"), "witness")


def test_the_agreement_benchmark_counts_the_model_s_best_moves():
    """benchmarks/agreement.py: greedy always plays one of its own best moves;
    random often does not."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from agreement import agreement

    itself = agreement("carrousel", "greedy", "greedy", 2, 1, 0)
    assert itself["decisions"] > 5 and itself["model_best_share"] == 1.0
    assert agreement("carrousel", "random", "greedy", 2, 1, 0)["model_best_share"] < 0.9


def _reader_and_deal(registry, game="carrousel", seed=3):
    table = Table(registry.game(game), 2)
    reader = reads.Reader(table, 0, "greedy", 0.25, random.Random(1))
    state = table.new_match(seed).start_deal()
    return table, reader, state


def test_a_cardless_move_or_an_undo_forgets_what_was_read(registry):
    table, reader, state = _reader_and_deal(registry)
    move = table.fast_legal_moves(state)[0]
    reader.seen = [reads._Seen(1, state, move, 4, []), reads._Seen(2, state, move, 4, [])]
    reader.witness({"event": "move", "seat": 1, "move": {"kind": "draw", "text": "draws"}})
    assert [s.seat for s in reader.seen] == [2]  # seat 1's hand changed unseen: not read any more
    reader.pending = state
    reader.witness({"event": "rewind", "moves": 3})
    assert reader.seen == [] and reader.pending is None


def test_the_kept_deal_stops_where_cards_come_from_the_stock(registry):
    """New hands (Carrousel C4) come from the imagined stock: the deal after them
    is not the real one, so nothing is read on it."""
    table, reader, state = _reader_and_deal(registry)
    carried = reader._carried(state.clone(), table.fast_legal_moves(state)[0])
    assert carried is not None  # a move that deals nothing: the deal goes on being read
    while sum(map(len, state.hands)) > 1:
        table.fast_apply_move(state, table.fast_legal_moves(state)[0])
    assert state.stock  # the last card of a round: new hands follow it
    assert reader._carried(state.clone(), table.fast_legal_moves(state)[0]) is None


def test_holding_swaps_the_played_card_in_and_keeps_every_card_once(registry):
    _, _, state = _reader_and_deal(registry)
    card = state.stock[5]
    before = sorted(c.name for h in state.hands for c in h) + sorted(c.name for c in state.stock)
    reads._holding(state, 1, card)
    after = sorted(c.name for h in state.hands for c in h) + sorted(c.name for c in state.stock)
    assert card in state.hands[1] and sorted(before) == sorted(after)


def test_the_browser_s_journal_passes_the_moves_on(registry):
    from cardcore.web.journal import Journaled

    table = Table(registry.game("carrousel"), 2)
    bot = make_player(table, SPEC, 0, random.Random(1))
    assert Journaled(None, 0, bot).witness == bot.witness
