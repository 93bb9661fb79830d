"""The person at the terminal: his seat's view, a numbered menu of the legal
moves, and what he types (a number, a move, a card, a command) read back."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from cardcore import i18n
from cardcore.cards import CardError, parse_card
from cardcore.decision import Decision
from cardcore.game import Observation
from cardcore.i18n import _, _n
from cardcore.moves import Move, laid_cards, names_by_rank
from cardcore.players import Player, QuitGame, UndoRequest, advise, reason_not
from cardcore.render import (
    card_text,
    label,
    named_sides,
    numbered,
    observation_parts,
    plain,
    show_text,
    use_color,
)
from cardcore.terminal.line import LineReader
from cardcore.terminal.words import command_word, command_words, covers, names_card, typed_card
from cardcore.text import cut, echo, wrapped

if TYPE_CHECKING:
    from cardcore.table import Table


class HumanPlayer:
    """A person at the terminal: shows the seat's view and a numbered list of moves.

    Accepts a move's number, its text, or the card to play when only one move
    plays it.  Bad input gets a one-line message and the prompt again.
    """

    needs_observation = True

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        self.table = table
        self.seat = seat
        self.specials = {c.name for c in table.deck if c.special}
        self.adviser: Player | None = None
        self.on_save: Callable[[], str] | None = None  # `s`: set by `cardcore play`
        # a forced move is said here, unless the printer says it (`cardcore play`)
        self.announce_forced = True
        self.decision: Decision | None = None  # the decision being made (during ``choose``)
        self.shown = 0  # entries of the menu on screen
        self.listed: list[tuple[str, list[Move]]] = []  # the menu on screen: its entries' moves
        self.last_hand: list[str] = []
        self.last_deal: int | None = None
        self.before_view: Callable[[], None] | None = None  # `cardcore play`: the printer's flush
        # `cardcore play`: the lines the printer said since his previous answer (kept on screen)
        self.said_since: Callable[[], int] | None = None
        self.view_lines: list[str] = []  # his whole view, as an empty answer shows it again
        self.hand_line = ""
        self.pending: list[str] = []  # cards typed beyond a meld, to add next
        self.pending_onto: Any = None  # the rank of the meld they were typed with
        self.by_rank = not table.plugin.suits_matter  # Canasta: 9S names any 9
        self.reader = LineReader()  # line editing, his answers' history, the moves' texts on Tab
        self.input: Callable[[str], str] = self.reader
        self.echo: Callable[[str], None] = echo  # broken at words

    MAX_ENTRIES = 12  # a menu longer than this is grouped (the view fits 80×24)
    # when the others' moves, the view and the menu would not fit the screen: the
    # menu grouped shorter, then the view's items cut to a line each (`fit`)
    SHORTER = ((MAX_ENTRIES, False), (8, False), (8, True), (5, True))

    def said(self, m: Move) -> str:
        """A move as the menu shows it, in the language in use: cards with
        symbols, sides by their players' names."""
        names, sides = self.table.names, self.table.sides
        return named_sides(show_text(self.table.move_text(m), names, sides), names, sides)

    def kind_word(self, kind: str) -> str:
        """A kind of move as a person reads it (the game's ``NP_("move kind", …)``)."""
        return label(kind, self.table.plugin.domain, "move kind")

    def menu(self, moves: Sequence[Move], most: int | None = None) -> list[tuple[str, list[Move]]]:
        """The entries to show: each move, or, when there are more than
        ``most``, groups of moves: by the card played, else by kind of
        move and rank (suits apart), else by kind; a group is opened by its
        number (``0`` goes back)."""
        most = most or self.MAX_ENTRIES
        if len(moves) <= most:
            return [(self.said(m), [m]) for m in moves]

        def by(key: Callable[[Move], Any], label: Callable[[Move], str]) -> list[tuple[str, list[Move]]]:
            groups: dict[Any, tuple[str, list[Move]]] = {}
            for m in moves:
                groups.setdefault(key(m), (label(m), []))[1].append(m)
            return [(text if len(ms) > 1 else self.said(ms[0]), ms) for text, ms in groups.values()]

        def with_card(m: Move) -> str:
            kind = self.kind_word(m.kind)
            if m.card is None:
                # i18n: a group of the menu: the moves of a kind that lay no card
                return _("{kind} with …").format(kind=kind)
            # i18n: a group of the menu: the moves of a kind with that card ("capture 6♠ …")
            return _("{kind} {card} …").format(kind=kind, card=card_text(m.card))

        def with_rank(m: Move) -> str:
            kind = self.kind_word(m.kind)
            if m.card is None:
                # i18n: a group of the menu: the moves of a kind with some card
                return _("{kind} a card …").format(kind=kind)
            # i18n: a group of the menu: the moves of a kind with a card of a rank ("discard a 9 …")
            return _("{kind} a {rank} …").format(kind=kind, rank=_rank(m))

        def taking(m: Move) -> str:
            n = len(m.takes)
            return _n("taking {n} card …", "taking {n} cards …", n).format(n=n)

        for grouped in (
            by(lambda m: (m.kind, m.card.name if m.card else None), with_card),
            by(lambda m: (m.kind, m.card.rank if m.card else None), with_rank),
            # i18n: a group of the menu: the moves of a kind ("meld …")
            by(lambda m: m.kind, lambda m: _("{kind} …").format(kind=self.kind_word(m.kind))),
            # one card's many captures: the largest first
            sorted(by(lambda m: len(m.takes), taking), key=lambda entry: -len(entry[1][0].takes)),
        ):
            if 1 < len(grouped) <= most:
                return [(_group(text, len(ms)) if len(ms) > 1 else text, ms) for text, ms in grouped]
        # still too many alike: pages
        pages = [list(moves[i : i + most]) for i in range(0, len(moves), most)]
        first = [i * most + 1 for i in range(len(pages))]
        # i18n: a page of the menu: the moves numbered from {a} to {b}
        page = _("moves {a}–{b} …")
        return [(page.format(a=a, b=a + len(p) - 1), p) for a, p in zip(first, pages, strict=True)]

    def show_menu(self, menu: list[tuple[str, list[Move]]], back: bool = False) -> None:
        """The entries, then the score and the hand: the last lines before the
        prompt, so that they stay on an 80×24 screen however long the view."""
        self.shown = len(menu)  # the numbers he can type now
        self.listed = menu  # what each number means (``why N`` reads them too)
        for line in self.menu_lines(menu, back):
            self.echo(line)

    def menu_lines(self, menu: list[tuple[str, list[Move]]], back: bool = False) -> list[str]:
        """What ``show_menu`` prints: the entries, the status, the hand."""
        lines = numbered(text for text, _group_moves in menu)
        if back:
            lines.append("    0. " + _("back to every move"))
        status = plain(show_text(self.decision.status())) if self.decision is not None else ""
        for line in wrapped(status) if status else []:
            lines.append(click.style(line, bold=True) if use_color() else line)
        return [*lines, *self.hand_line.split("\n")]

    def fit(
        self, view: list[str], moves: Sequence[Move], room: int
    ) -> tuple[list[str], list[tuple[str, list[Move]]]]:
        """The view and the menu in ``room`` lines, so that the others' moves
        said above them stay on screen: the menu grouped shorter first, then
        each of the view's items cut to its first line (an empty answer shows
        the whole view again); past that, the narration scrolls."""
        shown, menu = view, self.menu(moves)
        for most, short in self.SHORTER:
            shown = _first_lines(view) if short else view
            menu = self.menu(moves, min(most, self.MAX_ENTRIES))
            if len(shown) + len(self.menu_lines(menu)) <= room:
                break
        return shown, menu

    def explain(self, move: Move) -> str | None:
        """The game's reason why ``move`` is not legal now (None: no reason given)."""
        return self.decision.explain(move) if self.decision is not None else None

    def hint(self, observation: Observation, moves: Sequence[Move]) -> str:
        """What the strongest bot would play here, seeing what he sees (``advise``)."""
        if self.adviser is None and "greedy" in self.table.player_kinds:
            self.adviser = self.table.player_kinds["greedy"](self.table, self.seat, random.Random(0))
        said = advise(self.table, self.seat, observation, moves, self.decision, self.adviser)[1]
        return show_text(said, self.table.names, self.table.sides)

    def parse(self, text: str, moves: Sequence[Move]) -> Move | str:
        """The move ``text`` names, or an error text."""
        text = text.strip()
        texts = [self.table.move_text(m) for m in moves]
        if text.isascii() and text.isdigit():  # not "²" or "①", which int() refuses
            n = int(text) if len(text) < 6 else 0
            if 1 <= n <= len(moves):
                return moves[n - 1]
            return _("there is no move {n}: choose 1 to {last}").format(n=n, last=len(moves))
        canonical_text = i18n.card_input(text).lower()  # RH trails → KH trails (French)
        for m, t in zip(moves, texts, strict=True):
            if (
                text.lower() in (t.lower(), show_text(t).lower(), self.said(m).lower())
                or canonical_text == t.lower()
            ):
                return m
        words = text.split()
        if len(words) > 1:  # a kind of move and its cards, by rank, in any order and case
            tokens = [typed_card(w) for w in words[1:]]
            typed = self.by_cards(self.typed_kind(words[0], moves), tokens, moves)
            if typed is not None:
                return typed if isinstance(typed, str) else self.as_named(typed, tokens, moves)
        canonical = typed_card(text)
        try:
            c = parse_card(canonical, self.specials)
        except CardError:
            entries = self.shown or len(moves)
            return _("{text} is not a move: type its number (1 to {n}) or its text").format(
                text=repr(text[:40]), n=entries
            )
        # by name: with two decks, the move may play the other copy of the card
        with_card = [m for m in moves if m.card is not None and m.card.name == c.name]
        if not with_card and self.by_rank and not c.special:  # the move listed for its rank (N8a)
            with_card = [m for m in moves if m.card is not None and m.card.rank == c.rank]
        if len(with_card) == 1:
            return self.as_named(with_card[0], [canonical], moves)
        named = i18n.card_text(c, symbols=False)  # KH, RH in French
        if with_card:
            ways = len(with_card)
            return _n(
                "{card} can be played {n} way: type the move's number",
                "{card} can be played {n} ways: type the move's number",
                ways,
            ).format(card=named, n=ways)
        return _("no legal move plays {card} now: {reason}").format(card=named, reason=self.why_not(c, moves))

    def typed_kind(self, word: str, moves: Sequence[Move]) -> str:
        """A kind of move typed (``meld``), in English or the language in use."""
        said = word.lower()
        for kind in self._kinds(moves):
            if said == self.kind_word(kind).lower():
                return kind
        return said

    def by_cards(self, kind: str, tokens: list[str], moves: Sequence[Move]) -> Move | str | None:
        """The move of ``kind`` whose cards the tokens name: a card (``9s``) or a
        rank (``9``, ``k``, ``joker``) each: the cards it lays, or the card it
        plays (and those it takes, all of them: ``build 4c 3d 8h``). More
        tokens than a meld takes are added to it, one by one, at the next
        decisions (``meld 9 9 9 2``), in a game with adds only."""
        if not any(m.kind == kind for m in moves):
            return None
        adds = "add" in self.table.plugin.move_kinds
        for m in moves:
            if m.kind != kind:
                continue
            laid = list(m.get("cards") or ()) or ([m.card] if m.card is not None else [])
            ways = [laid, [*laid, *m.takes]] if m.takes and m.card is not None else [laid]
            for cards in ways:
                if not cards or len(cards) > len(tokens) or (len(tokens) > len(cards) and not adds):
                    continue
                if covers(tokens[: len(cards)], cards, self.by_rank):
                    self.pending = tokens[len(cards) :]
                    self.pending_onto = m.get("rank")  # the cards beyond go onto this meld first
                    return m
        return _("no legal {kind} with {cards}: choose one of the numbered moves").format(
            kind=self.kind_word(kind), cards=" ".join(tokens)
        )

    def in_hand_order(self, moves: Sequence[Move], observation: Observation) -> list[Move]:
        """The moves as his hand is shown: first those that lay no card of it
        (draw, take the pile …), then by the place of the first card they lay
        (the game's order kept among the moves of one card)."""
        hand = sorted(observation.hand, key=self.table.plugin.hand_order)
        place: dict[str, int] = {}
        for i, c in enumerate(hand):
            place.setdefault(c.name, i)

        def key(m: Move) -> int:
            laid = [place[c.name] for c in laid_cards(m) if c.name in place]
            return min(laid) + 1 if laid else 0

        return sorted(moves, key=key)

    def as_named(self, move: Move, tokens: list[str], moves: Sequence[Move]) -> Move:
        """``move`` laid with the cards the tokens name where suits do not
        matter (``discard 6S`` for the listed ``discard 6C``: N8a), when he
        holds them; else ``move`` as listed (the engine's choice)."""
        if not self.by_rank or self.decision is None:
            return move
        named = [c for c in map(self._card_or_none, tokens) if c is not None and not c.special]
        if not named:
            return move
        laid = self.decision.laid_with(move, names_by_rank(move, named), moves)
        return laid if laid is not None else move

    def why(self, text: str, moves: Sequence[Move]) -> str:
        """``why MOVE``: whether the move typed is legal, else the rule against it;
        ``why N``: entry N of the menu on screen, as the number typed alone means."""
        number = text.strip()
        if number.isascii() and number.isdigit() and len(number) < 6 and self.listed:
            n = int(number)
            if not 1 <= n <= len(self.listed):
                return _("there is no move {n}: choose 1 to {last}").format(n=n, last=len(self.listed))
            group = self.listed[n - 1][1]
            if len(group) > 1:
                # i18n: "why N" for an entry of the menu that groups several moves (a card's, a kind's)
                # {why}: the command's word (why)
                return _n(
                    "{n} stands for {count} legal move: type it after {why}",
                    "{n} stands for {count} legal moves: type one of them after {why}",
                    len(group),
                ).format(n=n, count=len(group), why=command_word("why"))
            return _("{move} is legal now").format(move=show_text(self.table.move_text(group[0])))
        pending = self.pending
        got = self.parse(text, moves)
        self.pending = pending  # asking is not playing
        if not isinstance(got, str):
            return _("{move} is legal now").format(move=show_text(self.table.move_text(got)))
        words = text.split()
        cards = [c for c in map(self._card_or_none, words) if c is not None]
        # i18n: the answer to "why MOVE" when the move is not legal: the reason
        not_legal = _("not legal: {reason}")
        kind, rest = self._named_kind(words, moves)
        if kind is not None:  # ``meld 8 8``, ``take the pile``, ``discard QH``: the game's rule
            tokens = [
                typed_card(w)
                for w in rest
                if any(names_card(typed_card(w), d, True) for d in self.table.deck)
            ]
            listed = self.by_cards(kind, tokens, moves) if tokens else None
            self.pending = pending  # asking is not playing
            if isinstance(listed, Move):  # the move listed for those cards (``take the pile with 5 5``)
                return _("{move} is legal now").format(move=show_text(self.table.move_text(listed)))
            named = self._cards_named(rest)
            if isinstance(named, str):
                return not_legal.format(reason=named)
            reason = self.explain(self._typed_move(kind, named, moves))
            if reason:
                return not_legal.format(reason=self.say(reason))
        if cards:
            # the kind the words name (``3h trails``, ``trail 3h``, ``meld 8c 8d joker``), else the card's
            named = [
                k
                for w in words
                for k in self._kinds(moves)
                if w.lower() in (k, k + "s", k + "es", self.kind_word(k).lower())
            ]
            kinds = named or ([self.typed_kind(words[0], moves)] if len(words) > 1 else [])
            if not kinds:
                return not_legal.format(reason=self.why_not(cards[0], moves))
            for kind in dict.fromkeys(kinds):
                reason = self.explain(Move(kind, cards[0]))
                if reason:
                    return not_legal.format(reason=self.say(reason))
        return not_legal.format(reason=got)

    def _named_kind(self, words: list[str], moves: Sequence[Move]) -> tuple[str | None, list[str]]:
        """The kind of move the first words name (``take the pile``, ``meld``,
        in English or the language in use; any of the game's kinds, legal now
        or not), and the words after it; (None, words) when they name none."""
        kinds = [*self._kinds(moves), *self.table.plugin.move_kinds]
        for n in (3, 2, 1):
            if len(words) < n:
                continue
            said = " ".join(words[:n]).lower()
            for kind in dict.fromkeys(kinds):
                forms = {kind, kind.replace("_", " "), self.kind_word(kind).lower()}
                if said in forms or said.replace(" the ", " ") in forms:
                    return kind, words[n:]
        return None, words

    def _cards_named(self, tokens: list[str]) -> list[Any] | str:
        """The cards typed: a card by its name; a rank (``8``, where suits do
        not matter) a card of that rank in his hand not named before; or why
        not (he holds no more of that rank). Other words are passed over."""
        held = [c for c in map(self._card_or_none, self.last_hand) if c is not None]
        cards: list[Any] = []
        for token in tokens:
            c = self._card_or_none(token)
            if c is not None:
                cards.append(c)
                continue
            if not self.by_rank or not any(names_card(typed_card(token), d, True) for d in self.table.deck):
                continue  # a word between the cards ("take the pile with 9 9"), a sum ("build 9")
            found = next((h for h in held if names_card(typed_card(token), h, True)), None)
            if found is None:
                if any(names_card(typed_card(token), c, True) for c in cards):
                    # i18n: "why meld 8 8" with one 8 in the hand; {card}: what he typed (8, K, joker)
                    return _("you hold no other {card}").format(card=token)
                # i18n: "why meld 5 5 5" with no 5 in the hand; {card}: what he typed (5, K, joker)
                return _("you hold no {card}").format(card=token)
            held.remove(found)
            cards.append(found)
        return cards

    def _typed_move(self, kind: str, cards: list[Any], moves: Sequence[Move]) -> Move:
        """A move of ``kind`` with the cards typed, as the game's moves carry
        them: laid together (a meld's ``cards``, where the moves carry such
        lists or suits do not matter), else the card played and those it takes."""
        if not cards:
            return Move(kind)
        if len(cards) == 1:
            return Move(kind, cards[0])
        if self.by_rank or any(m.get("cards") is not None for m in moves):
            return Move(kind, None, (), (("cards", tuple(cards)),))
        return Move(kind, cards[0], tuple(cards[1:]))

    def say(self, text: str) -> str:
        """A game's text (a reason, a move) in the language in use, for this
        table: a ``Text`` translated, its cards in the terminal's notation; a
        plain string as the game wrote it (in English, as before), its cards
        in the language's letters elsewhere (``RH``)."""
        if isinstance(text, i18n.Text):
            return show_text(text, self.table.names, self.table.sides)
        return text if i18n.language() == i18n.SOURCE else show_text(text)

    def _card_or_none(self, word: str) -> Any:
        try:
            return parse_card(typed_card(word), self.specials)
        except CardError:
            return None

    def _kinds(self, moves: Sequence[Move]) -> list[str]:
        """The move kinds a person may name: the game's (``GamePlugin.card_kind``
        first) and those of the legal moves."""
        first = self.table.plugin.card_kind
        return list(dict.fromkeys([*([first] if first else []), *(m.kind for m in moves)]))

    def why_not(self, c: Any, moves: Sequence[Move]) -> str:
        """The rule that keeps ``c`` from being played (``reason_not``)."""
        reason = reason_not(self.table, self.explain, c, moves)
        return self.say(reason) if reason else _("choose one of the numbered moves")

    confirm_forced = False  # True: a single legal move waits for a keystroke too

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        self.decision = decision
        try:
            return self._choose(observation, moves)
        finally:
            self.decision = None  # valid during the call only

    def _choose(self, observation: Observation | None, moves: Sequence[Move]) -> Move:
        added = self._pending_add(moves)
        if added is not None:
            return added
        assert observation is not None
        if len(moves) == 1 and not self.confirm_forced:
            if self.announce_forced:
                only = self.say(self.table.move_text(moves[0]))
                said = _("{name}: {move} (the only legal move)").format(
                    name=self.table.names[self.seat], move=only
                )
                self.echo("  " + said)
            return moves[0]
        above = self._show_view(observation)
        moves = self.in_hand_order(moves, observation)
        # the screen's rows less the prompt, his previous answer and what was said since
        view, menu = self.fit(self.view_lines, moves, _rows() - 2 - above)
        for line in view:
            self.echo(line)
        self.show_menu(menu)
        self.reader.words = self.typable(moves)
        while True:
            answer = self.input(self.prompt_text())
            text = answer.strip()
            if self._command(text, observation, moves):
                continue
            back = {"0"} | command_words("back")
            if text.lower() in {"?", ""} | command_words("help") | back:
                if text.lower() in back:
                    menu = self.menu(moves)
                if text.lower() in {"?"} | command_words("help"):
                    for line in wrapped(self.legend()):
                        self.echo(line)
                if not text:  # the whole view again, and the menu
                    for line in self.view_lines:
                        self.echo(line)
                self.show_menu(menu)
                continue
            if text.isascii() and text.isdigit() and len(text) < 6:
                chosen = self._numbered(int(text), menu)
                if isinstance(chosen, list):
                    menu = chosen
                    continue
                return chosen
            got = self.parse(answer, moves)
            if isinstance(got, str):
                self.echo(f"  ! {got}")
                continue
            return got

    def typable(self, moves: Sequence[Move]) -> list[str]:
        """What Tab completes at the prompt: each legal move's text (as the
        menu says it, and in letters: ``5C takes 5D``), the commands."""
        texts = [self.said(m) for m in moves] + [plain(self.table.move_text(m)) for m in moves]
        commands = [command_word(c) for c in ("hint", "undo", "save")]
        return [*texts, *commands, command_word("why") + " "]

    def legend(self) -> str:
        """The prompt's commands and what each does, in the language in use (``?``)."""
        said = [
            # i18n: the commands shown by "?"; {word}: the word (h); a hint: what a bot would play
            _("{word}: hint").format(word=command_word("hint")),
            # i18n: {word}: the command's word (why); MOVE: a move or a card, typed after it
            _("{word} MOVE: why it is not legal").format(word=command_word("why")),
            # i18n: {word}: the command's word (u): back to your previous decision
            _("{word}: undo").format(word=command_word("undo")),
            _("{word}: save").format(word=command_word("save")),
            _("{word}: quit").format(word=command_word("quit")),
        ]
        return " · ".join(said)

    def prompt_text(self) -> str:
        """``You, your move (number, ?, h, u, s, why … or q)``, in the language in use."""
        # i18n: the prompt; {hint} {undo} {save} {why} {quit}: the commands' words ("h", "why", "q")
        return _("{name}, your move (number, ?, {hint}, {undo}, {save}, {why} … or {quit})").format(
            name=self.table.names[self.seat],
            hint=command_word("hint"),
            undo=command_word("undo"),
            save=command_word("save"),
            why=command_word("why"),
            quit=command_word("quit"),
        )

    def _pending_add(self, moves: Sequence[Move]) -> Move | None:
        """The next card of a typed "meld 9 9 9 2" beyond the meld: added one by one."""
        while self.pending:
            token = self.pending.pop(0)
            adds = [
                m
                for m in moves
                if m.kind == "add" and m.card is not None and covers([token], [m.card], self.by_rank)
            ]
            # onto the meld he typed ("meld 8 8 2 2": the 2s go on the 8s), else the first that takes it
            adds.sort(key=lambda m: m.get("rank") != self.pending_onto)
            if adds:
                return self.as_named(adds[0], [token], moves)
            self.echo("  ! " + _("{card} cannot be added now").format(card=token))
            self.pending = []
        return None

    def _show_view(self, observation: Observation) -> int:
        """The others' moves since his last decision and what is new in his
        hand, printed; his view kept in ``view_lines`` (printed by ``fit``'s
        measure), the hand's line kept for last. The lines printed since his
        previous answer are returned."""
        if self.before_view is not None:
            self.before_view()  # the others' moves since his last decision, on screen first
        said = self.said_since() if self.said_since is not None else 0
        new = list(observation.hand)
        for c in self.last_hand:
            for i, card in enumerate(new):
                if card.name == c:
                    del new[i]
                    break
        deal = self.decision.deal if self.decision is not None else None
        if new and self.last_hand and deal == self.last_deal:  # (a new deal's hand is all new)
            news = wrapped(_("new in your hand: {cards}").format(cards=" ".join(card_text(c) for c in new)))
            for line in news:
                self.echo(line)
            said += len(news)
        self.last_hand = [c.name for c in observation.hand]
        self.last_deal = deal
        order = self.table.plugin.hand_order
        item = self.table.plugin.show_item
        domain = self.table.plugin.domain
        view, hand = observation_parts(
            observation, self.table.names, hand_order=order, item=item, domain=domain
        )
        self.hand_line = "\n".join(hand)  # shown last, with the score: always on screen
        self.view_lines = view
        return said

    def _command(self, text: str, observation: Observation, moves: Sequence[Move]) -> bool:
        """``q``, ``s``, ``why MOVE``, ``h``, ``u``: answered (True), or not a command."""
        said = text.lower()
        first, _space, rest = text.partition(" ")
        if said in command_words("quit"):
            if self.on_save is not None:  # `cardcore play`: the game can be kept
                yes, no = command_word("yes"), command_word("no")
                try:
                    # i18n: {yes}/{no}: the answers' letters (y, n)
                    ask = _("Save the game, to go on with it later? ({yes}/{no})").format(yes=yes, no=no)
                    answer = self.input("  " + ask).strip().lower()
                except (click.Abort, EOFError):  # no more input: he stops, as with `n`
                    raise QuitGame from None
                if answer in command_words("yes"):
                    self.echo(f"  {self.on_save()}")
                elif answer not in command_words("no"):
                    # i18n: {yes}/{no}: the answers' letters (y, n)
                    again = _("type {yes} to save and stop, {no} to stop without saving; the game goes on")
                    self.echo("  ! " + again.format(yes=yes, no=no))
                    return True
            raise QuitGame
        if said in command_words("save"):
            self.echo(f"  {self.on_save()}" if self.on_save else "  ! " + _("nothing to save to here"))
        elif rest.strip() and first.lower() in command_words("why"):
            self.echo(f"  {self.why(rest, moves)}")
        elif said in command_words("hint"):
            self.echo("  " + _("hint: {hint}").format(hint=self.hint(observation, moves)))
        elif said in command_words("undo"):
            if self.decision is not None and self.decision.can_undo:
                raise UndoRequest
            self.echo("  ! " + _("nothing to undo in this deal (undo plays against bots only)"))
        else:
            return False
        return True

    def _numbered(self, n: int, menu: list[tuple[str, list[Move]]]) -> Move | list[tuple[str, list[Move]]]:
        """Entry ``n`` of the menu: its move, or the menu of its group (shown)."""
        if not 1 <= n <= len(menu):
            self.echo("  ! " + _("there is no move {n}: choose 1 to {last}").format(n=n, last=len(menu)))
            return menu
        group = menu[n - 1][1]
        if len(group) == 1:
            return group[0]
        inner = self.menu(group)  # the moves of that card or kind
        self.show_menu(inner, back=True)
        return inner


def _rows() -> int:
    """The terminal's height (24 when it cannot be told)."""
    import shutil

    return max(10, shutil.get_terminal_size((80, 24)).lines)


def _first_lines(view: list[str]) -> list[str]:
    """The view's items cut to their first line (``cut``: ending in `` …``);
    an item's next lines are those indented deeper (``wrapped``'s hang)."""
    out: list[str] = []
    for line in view:
        if line.startswith("    ") and out:
            if not out[-1].endswith(" …"):
                out[-1] = cut(out[-1])
            continue
        out.append(line)
    return out


def _group(text: str, n: int) -> str:
    """A group of the menu and its number of moves (``capture 6♠ … (331 moves)``)."""
    return _n("{group} ({n} move)", "{group} ({n} moves)", n).format(group=text, n=n)


def _rank(m: Move) -> str:
    c = m.card
    if c is None:
        return _("card")
    if c.special:
        return i18n.card_text(c, symbols=False)  # JOKER: as it is typed
    return i18n.rank_letters(i18n.language()).get(c.name[:-1], c.name[:-1])
