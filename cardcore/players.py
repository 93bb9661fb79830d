"""Players: anything that picks one of the legal moves from what its seat sees.

A player never gets the state: only the ``Observation`` of its seat (when it
asks for one with ``needs_observation``), the list of legal moves and the
``Decision`` (``cardcore.decision``): imagined deals, why a move is illegal,
the match's status, a way back.
"""

from __future__ import annotations

import inspect
import random
import secrets
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import click

from cardcore import i18n
from cardcore.cards import Card, CardError, parse_card
from cardcore.decision import Checkpoint, Decision, Rewind
from cardcore.game import Observation
from cardcore.i18n import NP_, T, _, _n, _p
from cardcore.moves import Move, laid_cards, names_by_rank
from cardcore.render import (
    card_text,
    label,
    named_sides,
    numbered,
    observation_parts,
    plain,
    show_text,
    use_color,
    wrapped,
)

if TYPE_CHECKING:
    from cardcore.table import Table


class Player(Protocol):
    """Anything that chooses a move from what its seat sees.

    ``choose(observation, moves, decision)`` gets the seat's ``Observation``
    (when ``needs_observation``, else None), a copy of the legal moves and the
    ``Decision``: everything else a player may ask of the deal
    (``decision.sample(rng)`` for a search, ``decision.explain(move)``,
    ``decision.status()``, ``decision.can_undo``), valid during the call. It
    returns one of the moves, or raises ``Rewind`` to go back (undo). A player
    that also defines ``witness(event)`` follows the game: the engine calls it
    with ``{"event": "deal_start", "dealer"}`` and, after every move of any
    seat, ``{"event": "move", "seat", "move"}`` (the move's public JSON: what
    every seat saw played; a drawn card is not in it), and ``{"event":
    "rewind", "moves"}`` when a person's undo takes the deal back to the point
    where ``moves`` moves had been made (the moves witnessed since are undone).

    A player is made by a factory ``(table, seat, rng, **options)``; one whose
    ``choose`` takes two arguments (the protocol before ``Decision``) still
    plays, with a deprecation warning (``legacy``)."""

    needs_observation: bool

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move: ...


PlayerFactory = Callable[["Table", int, random.Random], Player]


def pass_witness(wrapper: Any, inner: Any) -> None:
    """A player that wraps ``inner`` follows the game as ``inner`` does: its
    ``witness`` is passed on (the engine finds the players that follow the game
    by that attribute). Every wrapper of a player calls it."""
    if hasattr(inner, "witness"):
        wrapper.witness = inner.witness


class _TwoArguments:
    """A player of the protocol before ``Decision`` (``choose(observation, moves)``)."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.needs_observation = player.needs_observation
        if hasattr(player, "rng"):
            self.rng = player.rng
        pass_witness(self, player)

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        move: Move = self.player.choose(observation, moves)
        return move


_TAKES_DECISION: dict[type, bool] = {}  # per class: whether ``choose`` takes the decision


def legacy(player: Any) -> Any:
    """``player`` itself, or wrapped if its ``choose`` takes only
    ``(observation, moves)``: it keeps working, with a one-line deprecation.
    (Asked of each player at each deal: the answer is kept per class.)"""
    kind = type(player)
    takes = _TAKES_DECISION.get(kind)
    if takes is None:
        try:
            params = inspect.signature(player.choose).parameters.values()
            takes = any(p.kind is p.VAR_POSITIONAL for p in params) or len(params) >= 3
        except (AttributeError, TypeError, ValueError):  # no choose to inspect: the engine will say
            takes = True
        _TAKES_DECISION[kind] = takes
    if takes:
        return player
    warnings.warn(
        f"{type(player).__name__}.choose(observation, moves): take a third argument, the Decision "
        "(cardcore.decision); the two-argument form is deprecated",
        DeprecationWarning,
        stacklevel=3,
    )
    return _TwoArguments(player)


class RandomPlayer:
    """Picks uniformly among the legal moves with its own seeded RNG."""

    needs_observation = False

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        self.rng = rng

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        return moves[self.rng.randrange(len(moves))] if len(moves) > 1 else moves[0]


class QuitGame(Exception):
    """The human asked to stop."""


class UndoRequest(Exception):
    """The human asked to go back to his previous decision (against bots only)."""


class Undoable:
    """A person's seat against bots, with undo: keeps a way back to each of
    his decisions in the deal (``Decision.checkpoint``) and turns his
    ``UndoRequest`` into a ``Rewind`` to the one before. The engine's loop
    knows nothing of undo; ``cardcore play`` wraps the seat when one person
    plays."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.needs_observation = player.needs_observation
        self.points: list[Checkpoint] = []
        if hasattr(player, "rng"):
            self.rng = player.rng

    def __getattr__(self, name: str) -> Any:  # the person's own settings (confirm_forced …)
        return getattr(self.__dict__["player"], name)

    def choose(
        self, observation: Observation | None, moves: Sequence[Move], decision: Decision | None = None
    ) -> Move:
        assert decision is not None, "the engine hands every decision its context"
        if self.points and self.points[-1].deal != decision.deal:
            self.points = []  # a new deal: no way back into the last one
        self.points.append(decision.checkpoint())
        decision.can_undo = len(self.points) > 1
        try:
            move: Move = self.player.choose(observation, moves, decision)
        except UndoRequest:
            self.points.pop()  # this decision
            raise Rewind(self.points.pop()) from None  # back to his previous one
        return move


# the words typed at the prompt: English always, and the language's own
# (``_p("command", …)``): a command is known by any of its words
COMMANDS: dict[str, tuple[str, ...]] = {
    # i18n: a word typed at the prompt (q: quit); each command's words distinct from the others'
    "quit": (NP_("command", "q"), NP_("command", "quit"), NP_("command", "exit")),
    "save": (NP_("command", "s"), NP_("command", "save")),
    "hint": (NP_("command", "h"), NP_("command", "hint")),
    "undo": (NP_("command", "u"), NP_("command", "undo")),
    "why": (NP_("command", "why"),),
    "help": (NP_("command", "help"),),  # and "?", "" (Enter)
    "back": (NP_("command", "b"), NP_("command", "back")),  # and "0"
    # i18n: the answer typed to "Save the game …? (y/n)"
    "yes": (NP_("answer", "y"), NP_("answer", "yes")),
    "no": (NP_("answer", "n"), NP_("answer", "no")),
}


def command_words(command: str) -> set[str]:
    """The words (lower case) that type ``command``: English and the language in use's."""
    context = "answer" if command in ("yes", "no") else "command"
    english = COMMANDS[command]
    return {w.lower() for w in english} | {_p(context, w).lower() for w in english}


def command_word(command: str) -> str:
    """The shortest word of ``command`` in the language in use (the prompt's ``h``)."""
    context = "answer" if command in ("yes", "no") else "command"
    return _p(context, COMMANDS[command][0])


def _prompt(prompt: str) -> str:
    """A person's answer at the terminal (waiting for him is no overrun: ``watchdog.person_waits``)."""
    from cardcore.watchdog import person_waits

    with person_waits():
        answer: str = click.prompt(prompt, prompt_suffix=" > ", default="", show_default=False)
    return answer


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
        self.last_hand: list[str] = []
        self.last_deal: int | None = None
        self.before_view: Callable[[], None] | None = None  # `cardcore play`: the printer's flush
        self.hand_line = ""
        self.pending: list[str] = []  # cards typed beyond a meld, to add next
        self.by_rank = not getattr(table.plugin, "suits_matter", True)  # Canasta: 9S names any 9
        self.input: Callable[[str], str] = _prompt
        self.echo: Callable[[str], None] = click.echo

    MAX_ENTRIES = 12  # a menu longer than this is grouped (the view fits 80×24)

    def said(self, m: Move) -> str:
        """A move as the menu shows it, in the language in use: cards with
        symbols, sides by their players' names."""
        names, sides = self.table.names, self.table.sides
        return named_sides(show_text(self.table.move_text(m), names, sides), names, sides)

    def kind_word(self, kind: str) -> str:
        """A kind of move as a person reads it (the game's ``NP_("move kind", …)``)."""
        return label(kind, getattr(self.table.plugin, "domain", "cardcore"), "move kind")

    def menu(self, moves: Sequence[Move]) -> list[tuple[str, list[Move]]]:
        """The entries to show: each move, or, when there are more than
        ``MAX_ENTRIES``, groups of moves: by the card played, else by kind of
        move and rank (suits apart), else by kind; a group is opened by its
        number (``0`` goes back)."""
        if len(moves) <= self.MAX_ENTRIES:
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
            if 1 < len(grouped) <= self.MAX_ENTRIES:
                return [(_group(text, len(ms)) if len(ms) > 1 else text, ms) for text, ms in grouped]
        # still too many alike: pages
        pages = [list(moves[i : i + self.MAX_ENTRIES]) for i in range(0, len(moves), self.MAX_ENTRIES)]
        first = [i * self.MAX_ENTRIES + 1 for i in range(len(pages))]
        # i18n: a page of the menu: the moves numbered from {a} to {b}
        page = _("moves {a}–{b} …")
        return [(page.format(a=a, b=a + len(p) - 1), p) for a, p in zip(first, pages, strict=True)]

    def show_menu(self, menu: list[tuple[str, list[Move]]], back: bool = False) -> None:
        """The entries, then the score and the hand: the last lines before the
        prompt, so that they stay on an 80×24 screen however long the view."""
        self.shown = len(menu)  # the numbers he can type now
        for line in numbered(text for text, _group_moves in menu):
            self.echo(line)
        if back:
            self.echo("    0. " + _("back to every move"))
        status = plain(show_text(self.decision.status())) if self.decision is not None else ""
        for line in wrapped(status) if status else []:
            self.echo(click.style(line, bold=True) if use_color() else line)
        self.echo(self.hand_line)

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
        rank (``9``, ``k``, ``joker``) each. More tokens than a meld takes are
        added to it, one by one, at the next decisions (``meld 9 9 9 2``)."""
        if not any(m.kind == kind for m in moves):
            return None
        for m in moves:
            if m.kind != kind:
                continue
            cards = list(m.get("cards") or ()) or ([m.card] if m.card is not None else [])
            if cards and len(cards) <= len(tokens) and _covers(tokens[: len(cards)], cards, self.by_rank):
                self.pending = tokens[len(cards) :]
                return m
        return _("no legal {kind} with {cards}: choose one of the numbered moves").format(
            kind=self.kind_word(kind), cards=" ".join(tokens)
        )

    def in_hand_order(self, moves: Sequence[Move], observation: Observation) -> list[Move]:
        """The moves as his hand is shown: first those that lay no card of it
        (draw, take the pile …), then by the place of the first card they lay
        (the game's order kept among the moves of one card)."""
        order = getattr(self.table.plugin, "hand_order", None)
        hand = sorted(observation.hand, key=order) if order is not None else list(observation.hand)
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
        """``why MOVE``: whether the move typed is legal, else the rule against it."""
        pending = self.pending
        got = self.parse(text, moves)
        self.pending = pending  # asking is not playing
        if not isinstance(got, str):
            return _("{move} is legal now").format(move=show_text(self.table.move_text(got)))
        words = text.split()
        cards = [c for c in map(self._card_or_none, words) if c is not None]
        # i18n: the answer to "why MOVE" when the move is not legal: the reason
        not_legal = _("not legal: {reason}")
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
        first = getattr(self.table.plugin, "card_kind", None)
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
        self._show_view(observation)
        moves = self.in_hand_order(moves, observation)
        menu = self.menu(moves)
        self.show_menu(menu)
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
            for m in moves:
                if m.kind == "add" and m.card is not None and _covers([token], [m.card], self.by_rank):
                    return self.as_named(m, [token], moves)
            self.echo("  ! " + _("{card} cannot be added now").format(card=token))
            self.pending = []
        return None

    def _show_view(self, observation: Observation) -> None:
        """What is new in his hand, then his view (the hand's line kept for last)."""
        if self.before_view is not None:
            self.before_view()  # the others' moves since his last decision, on screen first
        new = list(observation.hand)
        for c in self.last_hand:
            for i, card in enumerate(new):
                if card.name == c:
                    del new[i]
                    break
        deal = self.decision.deal if self.decision is not None else None
        if new and self.last_hand and deal == self.last_deal:  # (a new deal's hand is all new)
            self.echo("  " + _("new in your hand: {cards}").format(cards=" ".join(card_text(c) for c in new)))
        self.last_hand = [c.name for c in observation.hand]
        self.last_deal = deal
        order = getattr(self.table.plugin, "hand_order", None)
        item = getattr(self.table.plugin, "show_item", None)
        domain = getattr(self.table.plugin, "domain", "cardcore")
        view, hand = observation_parts(
            observation, self.table.names, hand_order=order, item=item, domain=domain
        )
        self.hand_line = "\n".join(hand)  # shown last, with the score: always on screen
        for line in view:
            self.echo(line)

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


def typed_card(token: str) -> str:
    """A card or a rank a person typed, in canonical notation: the language's
    letters and names (``RH`` → ``KH``, ``D`` → ``Q`` in Polish, ``T`` → ``A``
    in Lithuanian) or English, as typed."""
    if i18n.language() == i18n.SOURCE:
        return token
    letters = {v.upper(): k for k, v in i18n.rank_letters(i18n.language()).items()}
    if token.upper() in letters:  # a rank alone (``meld D D D``)
        return letters[token.upper()]
    return i18n.card_input(token) if token.strip() else token


def _covers(tokens: list[str], cards: list[Any], by_rank: bool = False) -> bool:
    """Whether each token names a different one of ``cards`` (all of them):
    a full card (``9s``, ``9♠``) names that card (any card of its rank where
    suits do not matter, ``by_rank``), a rank (``9``, ``K``, ``joker``) any
    card of that rank."""
    if len(tokens) != len(cards):
        return False
    left = list(cards)
    for token in sorted(tokens, key=lambda t: -len(t)):  # full cards before bare ranks
        for i, c in enumerate(left):
            if _names(token, c, by_rank):
                del left[i]
                break
        else:
            return False
    return True


def _names(token: str, c: Any, by_rank: bool = False) -> bool:
    try:
        named = parse_card(token, ())  # () : no new name is interned
        if by_rank and not named.special and not c.special:
            return bool(named.rank == c.rank)
        return bool(named.name == c.name)
    except CardError:
        pass
    t = token.upper()
    if t == "T":
        t = "10"
    rank = str(c.name if c.special else c.name[:-1])
    return t == rank.upper()


def reason_not(
    table: Table, explain: Callable[[Move], str | None], c: Card, moves: Sequence[Move]
) -> str | None:
    """The rule that keeps card ``c`` from being played now, as the game
    explains it (``explain``: ``Decision.explain``, the hook
    ``cardcore_explain_illegal``): first for the move a card alone
    means (``GamePlugin.card_kind``: a trail, a discard), then for each kind of
    the legal moves that lay a card. None: the game gives no reason. Called by
    the terminal (``why``, a card typed that plays no move) and the browser's
    *why not?*."""
    first = getattr(table.plugin, "card_kind", None)
    kinds = dict.fromkeys([*([first] if first else []), *(m.kind for m in moves if m.card is not None)])
    for kind in kinds:
        reason = explain(Move(kind, c))
        if reason:
            return reason if isinstance(reason, str) else str(reason)  # a Text stays one
    return None


def advise(
    table: Table,
    seat: int,
    observation: Observation,
    moves: Sequence[Move],
    decision: Decision | None,
    fallback: Player | None = None,
    rng: random.Random | None = None,
) -> tuple[Move | None, str, list[tuple[Move, int, float]]]:
    """A hint: the move the game's hint level (``GamePlugin.hint_level``:
    ``hard``, the search within about 300 ms of CPU, unless the game names
    another within 500 ms) would play seeing only what ``seat`` sees, and
    why in a line. The search (``ismcts``, over deals imagined by
    ``decision.sample``) gives the points it expects for the moves it tried most;
    without it, ``fallback`` (the game's greedy bot) names its move. Also the
    search's estimates: (move, deals tried, mean points) of its three moves tried
    most, and of the move it plays when that is not one of them.

    The search imagines deals from what ``seat`` may know only (the samplers'
    canonical order), with ``rng``, by default ``hint_rng``: a secret of the
    match, never a fixed number, so that nobody can replay the hint offline
    against the arrangements he cannot tell apart."""
    level = getattr(table.plugin, "hint_level", "hard")
    if level in table.player_kinds and decision is not None:
        if rng is None:
            rng = hint_rng(decision)
        search: Any = table.player_kinds[level](table, seat, rng)
        move = search.choose(observation if search.needs_observation else None, moves, decision)
        every = search.estimates() if hasattr(search, "estimates") else []
        rows = every[:3]
        if all(m != move for m, _n, _p in rows):
            rows += [r for r in every if r[0] == move]  # a kept move tried less (``confidence``)
        return move, _why_this(table, move, rows), rows
    if fallback is None:
        return None, T("this game has no bot to ask"), []
    move = fallback.choose(observation if fallback.needs_observation else None, moves)
    return move, T("I would play {move}", move=table.move_text(move)), []


def hint_rng(decision: Decision) -> random.Random:
    """The RNG of the hint at ``decision``: derived from the match's seed (drawn
    from ``secrets`` unless the user gave one: ``cardcore.seeds``) and the
    decision, so that the same decision gets the same hint; from ``secrets``
    when the match has no seed."""
    seed = decision.match.seed
    if seed is None:
        return random.Random(secrets.randbits(64))
    return random.Random(f"{seed}/hint/{decision.deal}/{decision.index}/{decision.seat}")


def _why_this(table: Table, move: Move, rows: list[tuple[Move, int, float]]) -> str:
    """The hint in words, from what the search found: its move, and how it did
    against the next best over the deals it imagined from what you see (a
    ``Text``: said in each person's language)."""
    mine_text = table.move_text(move)
    others = [(m, p) for m, _tries, p in rows if m != move]
    mine = next((p for m, _tries, p in rows if m == move), None)
    if mine is None or not others:
        return T("I would play {move}", move=mine_text)
    other, points = others[0]
    gap = mine - points
    said = i18n.Decimal(abs(gap), 1)  # points, one decimal, said with the language's sign
    if abs(gap) < 0.05:
        return T(
            "I would play {move}: about as good as {other} in the deals I imagined",
            move=mine_text,
            other=table.move_text(other),
        )
    if gap > 0:
        # i18n: {gap}: points, one decimal (2.9)
        return T(
            "I would play {move}: {gap} points more than {other}, in the deals I imagined",
            move=mine_text,
            gap=said,
            other=table.move_text(other),
        )
    if rows[0][0] != move:
        # the search kept its prior's move (``ismcts:confidence``): the other's lead was
        # within the noise of the deals imagined
        # i18n: {gap}: points, one decimal (2.9)
        return T(
            "I would play {move}: {other} did {gap} points better in too few imagined deals to be sure",
            move=mine_text,
            gap=said,
            other=table.move_text(other),
        )
    # i18n: {gap}: points, one decimal (2.9)
    return T(
        "I would play {move}: the move I tried most; {other} did {gap} points better in fewer tries",
        move=mine_text,
        gap=said,
        other=table.move_text(other),
    )
