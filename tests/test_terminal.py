"""Playing at the terminal: start from a position, undo, hints, save and
resume, a step-by-step replay, forced moves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
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


def test_undo_deals_the_unseen_cards_again_and_the_save_resumes(tmp_path, monkeypatch):
    """Back at his previous decision the cards he cannot see are dealt again
    (``players.Undoable``); the save keeps the redeal's seed, so the game
    resumes in the deal he left and replays whole."""
    monkeypatch.chdir(tmp_path)
    code, out = run_cli("play", "carrousel", "--players", "2", "--seed", "4", input="2\nu\n1\n1\ns\nq\n")
    assert code == 0, out
    assert "— the cards you cannot see are dealt again —" in out
    saved = tmp_path / "carrousel-4.jsonl"
    assert '"event":"redeal"' in saved.read_text()
    # resumed, he takes back again: a new deal of the unseen cards (the count goes on from
    # the save's, never the seed of one he saw), logged where a replay deals it again
    code, out = run_cli("play", "--resume", str(saved), input="1\nu\n1\ns\nq\n")
    assert code == 0 and "— the cards you cannot see are dealt again —" in out, out[-400:]
    redeals = [line for line in saved.read_text().splitlines() if '"event":"redeal"' in line]
    assert len(redeals) == 2 and '"count":2' in redeals[1], redeals
    code, out = run_cli("replay", str(saved), "--check")
    assert code == 0, out
    assert "dealt again" not in out and "undone" not in out  # a replay undoes nothing
    code, out = run_cli("play", "--resume", str(saved), input="1\n" * 400)
    assert code == 0 and "Resuming" in out, out[-400:]
    code, out = run_cli("replay", str(saved), "--check")
    assert code == 0 and "log complete" in out, out


def test_a_hint_names_the_bots_move():
    code, out = run_cli("play", "carrousel", "--players", "2", "--seed", "4", input="h\nq\n")
    # in words, from what the search (Carrousel's hint level, expert at 1,000 iterations)
    # found: no bot names, no deal counts (issue 22)
    said = " ".join(out.split())  # (broken at words)
    assert code == 0 and "hint: I would play K♠ trails: 0.1 points more than 5♠ trails, in the deals" in said
    assert "ismcts" not in out.split("hint:")[1]


def test_a_hint_says_when_it_kept_greedys_move_on_too_few_deals():
    # Canasta at four players: hard leaves greedy's move only when sure (confidence=1); here
    # another move did better in its imagined deals, too few of them, and it keeps the meld
    code, out = run_cli("play", "canasta", "--players", "4", "--seed", "1", input="h\nq\n")
    hint = " ".join(out.split("hint:")[1].split("You, your move")[0].split())  # (broken at words)
    assert code == 0 and hint.startswith("I would play meld 8♦ 8♥ 8♠: ")
    assert hint.endswith("looked better, but in too few imagined deals to be sure")
    assert "points better" not in hint  # no figure that contradicts the advice (issue 48, item 7)


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


def test_long_move_lists_are_grouped(tmp_path):
    position = tmp_path / "many.yaml"
    position.write_text(
        "game: carrousel\nplayers: 2\ndealer: 1\nto_act: 0\n"
        "hands: {0: [6S, 6H, 7D, KC], 1: [9C, 9D, 9H, 9S]}\n"
        "table: [AC, AD, AH, AS, 2C, 2D, 2H, 3C, 3D, 4C, 5C]\n"
    )
    code, out = run_cli("play", "--from", str(position), "--seed", "1", input="4\n1\n1\nq\n")
    assert code == 0, out
    assert "capture 6♠ … (331 moves)" in out  # 962 moves, five entries
    assert "taking 10 cards … (4 moves)" in out  # then the largest captures first
    assert "You: 6♠ takes A♣ A♦ A♥ 2♣ 2♦ 2♥ 3♣ 3♦ 4♣ 5♣" in out
    numbers = [int(m.group(1)) for m in re.finditer(r"^\s+(\d+)\. ", out, re.MULTILINE)]
    assert numbers and max(numbers) <= 25


def test_status_line_and_the_deal_breakdown():
    code, out = run_cli("play", "carrousel", "--players", "2", "--seed", "4", input="1\n" * 200)
    assert code == 0
    assert "deal 1 · score You 0, Opponent 0 · first to 120 points\n" in out  # no ruling id in play text
    assert "You: jokers" in out and "most cards" in out  # each deal's breakdown


def test_canasta_hand_shown_by_rank():
    _, out = run_cli("play", "canasta", "--seed", "5", input="1\nq\n")
    line = next(line for line in out.splitlines() if "your hand (You)" in line)
    assert line.endswith("4♣ 4♦ 4♥ 4♠ 5♥ 8♥ 9♥ J♣ Q♦ K♥ A♠ 2♣")


def test_moves_typed_by_rank_in_any_order_and_case(registry):
    from cardcore.cards import card
    from cardcore.moves import Move
    from cardcore.table import Table
    from cardcore.terminal.human import HumanPlayer

    t = Table.from_names(registry, "canasta", 4)
    human = HumanPlayer(t, 0, None)  # type: ignore[arg-type]
    meld = Move("meld", None, (), (("cards", (card("9C"), card("9D"), card("2H"))), ("rank", "9")))
    other = Move("meld", None, (), (("cards", (card("KC"), card("KD"), card("KH"))), ("rank", "K")))
    moves = [other, meld, Move("discard", card("5S"))]
    for typed in ("meld 9s 9d 2", "meld 2 9 9", "MELD 9 2 9", "meld 9c 9d 2h"):
        assert human.parse(typed, moves) == meld, typed
    assert human.parse("meld 9 9 9", moves).startswith("no legal meld")  # type: ignore[union-attr]
    # cards beyond the meld are added at the next decisions
    assert human.parse("meld 9 9 2 9", moves) == meld and human.pending == ["9"]
    add = Move("add", card("9S"), (), (("rank", "9"),))
    after = [Move("discard", card("5S")), add]
    assert human.choose(None, after) == add and human.pending == []


def test_an_illegal_card_gets_the_rule(registry):
    from cardcore.cards import card
    from cardcore.moves import Move
    from cardcore.table import Table
    from cardcore.terminal.human import HumanPlayer

    t = Table.from_names(registry, "carrousel", 2)
    human = HumanPlayer(t, 0, None)  # type: ignore[arg-type]
    rule = "you may trail only when you can neither capture nor build (C10)"
    human.explain = lambda move: rule
    said = human.parse("KD", [Move("capture", card("5C"), (card("5D"),))])
    assert said == f"no legal move plays KD now: {rule}"


def test_events_the_move_texts_do_not_say():
    _, out = run_cli("play", "canasta", "--players", "3", "--seed", "2", input="1\n" * 300)
    assert "· Left lays the red three 3♦" in out and "(N7)" not in out  # plain words: no ruling ids
    assert "· the pile is taken: You/Right against Left from now on" in out
    assert "· Left went out" in out
    _, out = run_cli("play", "carrousel", "--players", "2", "--seed", "2", input="1\n" * 300)
    assert "· new hands dealt; 32 cards left in the stock" in out
    assert "· the cards left on the table go to " in out


def test_why_names_the_rule(registry):
    from cardcore.cards import card
    from cardcore.moves import Move
    from cardcore.table import Table
    from cardcore.terminal.human import HumanPlayer

    t = Table.from_names(registry, "carrousel", 2)
    human = HumanPlayer(t, 0, None)  # type: ignore[arg-type]
    rule = "you may trail only when you can neither capture nor build (C10)"
    human.explain = lambda move: rule
    moves = [Move("capture", card("5C"), (card("5D"),))]
    assert human.why("5C takes 5D", moves) == "5♣ takes 5♦ is legal now"
    assert human.why("trail KD", moves) == f"not legal: {rule}"


def test_the_numbers_offered_are_those_on_screen(registry):
    """Regression (issue 21): with fewer entries on screen than legal moves
    (grouped, past twelve), a text that is no move is told the numbers he can
    type, not the count of moves."""
    from cardcore.cards import card
    from cardcore.moves import Move
    from cardcore.table import Table
    from cardcore.terminal.human import HumanPlayer

    t = Table.from_names(registry, "canasta", 2)
    human = HumanPlayer(t, 0, None)  # type: ignore[arg-type]
    human.echo = lambda line: None
    ranks = ("A", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    moves = [Move("draw"), *(Move("discard", card(r + "S")) for r in ranks), Move("discard", card("QC"))]
    menu = human.menu(moves)
    human.show_menu(menu)
    assert len(menu) == 2
    assert human.parse("xyz", moves) == "'xyz' is not a move: type its number (1 to 2) or its text"


def test_a_named_card_is_laid_and_replays(tmp_path):
    # N8a: the list holds one discard per rank (`discard 6C`); typed, `discard 6s` lays 6S
    log = tmp_path / "named.jsonl"
    position = str(POSITIONS / "canasta" / "n8a_one_move_per_rank.yaml")
    code, out = run_cli("play", "--from", position, "--seed", "1", "--log", str(log), input="discard 6s\nq\n")
    assert code == 0, out
    assert "discard 6S" in log.read_text() and "discard 6C" not in log.read_text()
    code, out = run_cli("replay", str(log), "--check")
    assert code == 0 and "identical" in out, out
    # an added card: `add 2h` for the listed `add 2C`, then a bare `6s` for `discard 6C`
    log = tmp_path / "added.jsonl"
    code, out = run_cli("play", "--from", position, "--seed", "1", "--log", str(log), input="add 2h\n6s\nq\n")
    assert code == 0, out
    lines = log.read_text()
    assert '"text":"add 2H to the Q meld"' in lines and '"text":"discard 6S"' in lines
    assert run_cli("replay", str(log), "--check")[0] == 0


def test_plain_words_for_the_person():
    """Regression (issue 22): play text names no ruling, and speaks to him."""
    from cardcore.render import plain

    assert plain("first to 120 points (C3)") == "first to 120 points"
    assert plain("Right went out (no bonus after the last red three, N13a)").endswith("red three)")
    assert plain("the stock ended (N13a, N13c)") == "the stock ended"
    _, out = run_cli("play", "canasta", "--players", "2", "--seed", "3", input="1\n" * 300)
    assert "· You lay the red threes 3♦ 3♥" in out and "You lays" not in out
    assert not re.search(r"\((?:[CPNG]\d+[a-z]?)\)", out)  # no "(N7)" anywhere in the game


def test_the_deal_breakdown_names_what_scored():
    """Regression (issue 22): a breakdown shows cards as the terminal does and
    leaves out what scored nothing (it read ``10D 0, 2C 0``)."""
    _, out = run_cli("play", "carrousel", "--players", "2", "--seed", "3", "--ascii", input="1\n" * 300)
    assert "\n  You: jokers 5, aces 2\n" in out
    assert "Opponent: jokers 13, 10D 2, 2C 2, aces 2, most clubs 2, most cards 2" in out  # --ascii: 10D
    _, out = run_cli("play", "carrousel", "--players", "2", "--seed", "3", input="1\n" * 300)
    assert "10♦ 2, 2♣ 2" in out and "10D" not in out


def test_one_notation_for_the_special_cards_in_the_terminal_and_the_browser():
    """The jokers and the broom read the same at the terminal (with symbols)
    and in the browser; both the names and the symbols are read as input."""
    import json
    import re

    from cardcore.cards import SPECIAL_SYMBOLS, card, card_str, parse_card
    from cardcore.render import show_text

    js = (Path(__file__).parent.parent / "cardcore/web/static/cards.js").read_text(encoding="utf-8")
    found = re.search(r"const SPECIAL_LABELS = (\{.*?\});", js)
    assert found
    labels = json.loads(re.sub(r"(\w+):", r'"\1":', found.group(1)))
    assert labels == SPECIAL_SYMBOLS
    for name, shown in SPECIAL_SYMBOLS.items():
        assert card_str(card(name), symbols=True) == shown and card_str(card(name)) == name
        assert parse_card(shown).name == name and parse_card(name.lower()).name == name
    assert show_text("JOKER20 takes 5S 6D") == "★20 takes 5♠ 6♦"


def test_sides_are_named_by_their_players(registry):
    """Paquet voleur's "steals side 1's pile" reads "steals Bob's pile" in the menu."""
    from cardcore.cards import card
    from cardcore.moves import Move
    from cardcore.render import named_sides
    from cardcore.table import Table
    from cardcore.terminal.human import HumanPlayer

    t = Table.from_names(registry, "paquet_voleur", 2)
    t.names = ["Ana", "Bob"]
    steal = Move("steal", card("8C"), (card("8H"),), (("from", 1),))
    human = HumanPlayer(t, 0, None)  # type: ignore[arg-type]
    assert "side 1" in t.move_text(steal)
    assert human.said(steal).startswith("8♣ steals Bob's pile")
    assert human.parse("8♣ steals Bob's pile (1 card)", [steal]) == steal
    assert named_sides("side 0's pile and side 7's", ["A", "B", "C", "D"], [(0, 2), (1, 3)]) == (
        "A & C's pile and side 7's"
    )


def test_cards_typed_beyond_a_meld_go_onto_that_meld():
    """Issue 48, item 2: ``meld 8 8 2 2`` melds 8♣ 8♠ 2♦ and adds 2♥ to the 8s
    just melded (N8), not to the side's aces, the first meld listed that takes it."""
    position = str(POSITIONS / "canasta" / "n8_meld_then_add_typed.yaml")
    code, out = run_cli("play", "--from", position, "--seed", "1", input="meld 8 8 2 2\nq\nn\n")
    assert code == 0 and "You: meld 8♣ 8♠ 2♦ · add 2♥ to the 8 meld" in out, out
    assert "add 2♥ to the A meld" not in out


def test_undo_goes_past_his_own_forced_moves():
    """Issue 48, item 4: after a decision followed by a move of his own that
    played itself (his only move), ``u`` goes back to that decision, and ``u``
    again to the one before it: it used to replay the forced move and bring him
    back to the same prompt, for ever."""
    code, out = run_cli("play", "carrousel", "--players", "2", "--seed", "11", input="1\n1\nu\nu\nq\nn\n")
    assert code == 0
    prompts = out.split("— undone: back to your previous decision —")
    assert len(prompts) == 3
    after_first, after_second = prompts[1], prompts[2]
    assert "your hand (You): K♥ 4♠" in after_first  # the decision before the forced 4♠
    assert "your hand (You): 4♣ K♥ 4♠" in after_second  # and the one before that


@pytest.mark.parametrize(
    "typed,again,answer",
    [("1\ny\n", True, True), ("1\nn\n", True, False), ("y\n", False, True), ("\n", False, False)],
)
def test_another_match_asks_again_when_the_answer_is_neither(typed, again, answer):
    """Issue 48, item 7: ``Another match? (y/n): 1`` stopped quietly; an answer
    that is neither yes nor no is asked again (Enter is no, the default)."""
    import click
    from click.testing import CliRunner

    from cardcore.commands.play import _another_match

    got: list[bool] = []

    @click.command()
    def ask() -> None:
        got.append(_another_match())

    result = CliRunner().invoke(ask, [], input=typed)
    assert result.exit_code == 0 and got == [answer]
    assert ("type y for another match, n to stop" in result.output) is again


def test_why_n_reads_the_menus_numbers():
    """Issue 48, item 7: ``why N`` means what the number typed alone means, the
    menu's entry N (here 4 is a group of melds and 5 the discard of 10♦); it
    used to read the N-th legal move of the whole list."""
    position = str(POSITIONS / "canasta" / "n13_exhausted.yaml")
    code, out = run_cli("play", "--from", position, "--seed", "1", input="why 4\nwhy 5\nwhy 11\nq\nn\n")
    assert code == 0
    assert "4. meld with … (5 moves)" in out and "5. discard 10♦" in out
    assert "4 stands for 5 legal moves: type one of them after why" in out  # its words at the prompt
    assert "discard 10♦ is legal now" in out and "there is no move 11: choose 1 to 10" in out


def test_why_names_the_rule_for_the_common_refusals():
    """Issue 48, item 7: ``why`` names the game's rule for a meld of too few
    cards (N8), a draw or take after drawing (N5), a frozen pile (N9), a card
    not held; and says when the move typed is one listed."""
    position = str(POSITIONS / "canasta" / "n8_meld_then_add_typed.yaml")  # drawn: phase play
    asked = ["meld 8 8", "take the pile", "draw", "discard QH", "meld 5 5 5", "meld 8 8 8"]
    typed = "".join(f"why {a}\n" for a in asked) + "q\nn\n"
    code, out = run_cli("play", "--from", position, "--seed", "1", input=typed)
    said = re.findall(r"^  (not legal: .*|.* is legal now)$", out, re.MULTILINE)
    assert code == 0 and said == [
        "not legal: a new meld is three cards; add more one at a time (N8)",
        "not legal: you have drawn or taken the pile already this turn (N5)",
        "not legal: you have drawn or taken the pile already this turn (N5)",
        "not legal: Q♥ is not in your hand",
        "not legal: you hold no 5",
        "not legal: you hold no other 8",
    ], out
    frozen = str(POSITIONS / "canasta" / "n9_frozen.yaml")  # to draw; a two in the pile
    typed = "why take the pile\nwhy take the pile with 5 5\nq\nn\n"
    code, out = run_cli("play", "--from", frozen, "--seed", "1", input=typed)
    said = re.findall(r"^  (not legal: .*|.* is legal now)$", out, re.MULTILINE)
    assert said[0].startswith("not legal: the pile is frozen for your side"), out
    assert said[1] == "take the pile (4 cards) with 5♥ 5♠ is legal now", out


def test_cards_typed_beyond_a_fishing_move_play_nothing():
    """A card typed after a move's own (``build 4C 5S``) names no move where
    nothing is added to melds: refused, not played as ``4C builds …``."""
    code, out = run_cli("play", "carrousel", "--seed", "1", input="build 4C 5S\nq\nn\n")
    assert code == 0 and "! no legal build with 4C 5S" in out and "You: 4♣ builds" not in out, out


@pytest.mark.parametrize(
    "lang,yours,named",
    [
        ("en", "5♦ steals your pile (2 cards)", "5♦ steals Ana's pile (2 cards)"),
        ("fr", "5♦ vole votre paquet (2 cartes)", "5♦ vole le paquet de Ana (2 cartes)"),
    ],
)
def test_a_steal_from_the_person_called_you_says_your_pile(registry, lang, yours, named):
    """Issue 48, item 7: not "steals You's pile": the text names the person's
    side in the person form his language's catalog gives (P5b)."""
    from cardcore import i18n
    from cardcore.cards import card
    from cardcore.moves import Move
    from cardcore.render import show_text
    from cardcore.table import Table

    t = Table.from_names(registry, "paquet_voleur", 2)
    text = t.move_text(Move("steal", card("5D"), (card("5C"), card("7H")), (("from", 0),)))
    with i18n.using(lang):
        assert show_text(text, [i18n.gettext("You"), "Opponent"], t.sides).replace("\u2009", " ") == yours
        assert show_text(text, ["Ana", "Opponent"], t.sides) == named
